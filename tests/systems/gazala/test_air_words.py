"""The air decisions in words (GG-X.B.1, X.B.3, X.C): the buttons name the air unit that acts, the one it meets and
what it risks, with the chances read from the air table; and they say nothing the side may not know.

The expected chances are counted here from the air table as typed in from the 2016 charts (``AIR`` of
:mod:`tests.systems.gazala.test_air`, checked there against the charts file): the interceptor rolls on the column of
the air unit it meets (GG-X.B.3); a knocked-out air unit misses the rest of this game-turn and the next (GG-X.C).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.conftest import unit_toml
from tests.systems.gazala.test_air import AIR, H, game_at
from tests.systems.gazala.test_fog import DUMMY_IN_E6, advance_both, play_both, twins
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Airstrike, EndPhase, NoIntercept
from tobruk.systems.gazala import air

AXIS, ALLIED = Side.AXIS, Side.ALLIED


def said(game: Game, verb: str) -> list[str]:
    """The words of the offered actions of ``verb``, as the page is sent them."""
    return [e["says"] for e in offers(game)["actions"] if e["verb"] == verb]


def chance(column: str, code: str) -> str:
    """The chance of ``code`` on ``column`` of the typed-in air table, as a player says it ("1 in 3")."""
    p = Fraction(AIR[column].count(code), len(AIR[column]))
    return f"{p.numerator} in {p.denominator}"


@pytest.mark.rule("GG-X.B.3")
def test_the_interception_names_both_air_units_and_the_chances_on_the_german_column() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [])
    game.play(Airstrike(H("B4")))
    assert game.decision is not None and game.decision.side is ALLIED
    col = "german-air"  # the DAF goes up against the Luftwaffe: the German air unit's column
    assert chance(col, "EAX") == "1 in 6" and chance(col, "Int") == "1 in 3" and chance(col, "AA") == "1 in 3"  # (2016 charts)
    assert said(game, "intercept") == [
        f"Intercept with DAF against LW over B4: {chance(col, 'EAX')} LW knocked out (EAX), {chance(col, 'Int')} LW turned back "
        f"(Int), {chance(col, 'AA')} DAF knocked out (AA) and the mission goes on, {chance(col, '-')} no effect, the mission "
        "goes on; a knocked-out air unit is out for the rest of this game-turn and the next (GG-X.C); DAF is then used for "
        "this game-turn (GG-X.A)"
    ]
    assert said(game, "no-intercept") == ["Do not intercept: LW attacks your units in B4 one by one (GG-X.B.1)"]


@pytest.mark.rule("GG-X.B.3")
def test_the_interception_of_the_desert_air_force_reads_the_british_column() -> None:
    game = game_at(unit_toml("Ital", "axis", "B4", type_="infantry"), "allied-airstrike", [])
    game.play(Airstrike(H("B4")))
    col = "british-air"
    assert chance(col, "EAX") == "1 in 3" and chance(col, "AA") == "1 in 6"  # (2016 charts)
    (words,) = said(game, "intercept")
    assert words.startswith(
        f"Intercept with LW against DAF over B4: {chance(col, 'EAX')} DAF knocked out (EAX), {chance(col, 'Int')} DAF turned "
        f"back (Int), {chance(col, 'AA')} LW knocked out (AA) and the mission goes on, {chance(col, '-')} no effect"
    )
    # the words and the die agree: each face's result as the interception roll labels it is the table's
    mission = game.node
    assert isinstance(mission, air.AirMission)
    assert [o.label for o in mission.interception(game, "LW").outcomes(game)] == AIR[col]


@pytest.mark.rule("GG-X.B.1b")
def test_the_air_strike_names_the_air_unit_and_the_units_that_fire_back() -> None:
    flak = unit_toml("Flak", "axis", "B4", echelon="subdivisional", type_="aa", factors="3-3-3", extra='aa = "anywhere"')
    panzer = (
        '[[unit]]\nid = "15Pz"\nname = "15Pz"\nside = "axis"\nnationality = "german"\nechelon = "division"\n'
        'type = "armour"\nfactors = "7-6-4"\nhex = "B4"\naa = "anywhere"\n'
    )
    italians = unit_toml("Ital", "axis", "B4", type_="infantry")  # GG-X.B.1b: Italian units never fire back
    game = game_at(italians + panzer + flak, "allied-airstrike", [])
    assert said(game, "airstrike") == [
        "Air strike with DAF on B4: it attacks the undisrupted enemy units there one by one (GG-X.B.1); Flak, 15Pz fire back "
        "first (GG-X.B.1b); an AA result knocks DAF out for the rest of this game-turn and the next (GG-X.C); LW may "
        "intercept it first (GG-X.B.3)"
    ]


@pytest.mark.rule("GG-X.C")
def test_an_air_strike_on_units_that_cannot_fire_back_says_so_and_no_interception_when_the_enemy_cannot_fly() -> None:
    game = game_at(unit_toml("Ital", "axis", "B4", type_="infantry"), "allied-airstrike", [])
    air.flown(game, "LW")  # the Luftwaffe has flown this game-turn (GG-X.A): it cannot intercept
    assert said(game, "airstrike") == [
        "Air strike with DAF on B4: it attacks the undisrupted enemy units there one by one (GG-X.B.1); none there can fire "
        "back; an AA result knocks DAF out for the rest of this game-turn and the next (GG-X.C)"
    ]


@pytest.mark.rule("GG-V.B.1")
def test_the_air_strike_words_are_the_same_whether_a_dummy_or_an_aa_capable_division_is_face_down(gazala: Scenario) -> None:
    # the same counters per hex: a dummy in the box E6, or the 1st South African Division (AA-capable in a box)
    games = twins(gazala, DUMMY_IN_E6, ["place 1SA E6", "place Dummy1 C5", "place Dummy2 B5"])
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-airstrike")
    a, b = games
    assert air.aa_capable(b, "1SA") and b.unit("1SA").hex == H("E6")  # (the hidden fact would matter if it were read)
    assert json.dumps(offers(a)) == json.dumps(offers(b))
    (words,) = [w for w in said(a, "airstrike") if " on E6:" in w]
    assert words == (
        "Air strike with Luftwaffe on E6: it attacks the undisrupted enemy units there one by one (GG-X.B.1); 1 face-down "
        "counter there is turned up first; any AA-capable unit there fires back; an AA result knocks Luftwaffe out for the "
        "rest of this game-turn and the next (GG-X.C); DAF may intercept it first (GG-X.B.3)"
    )
    # the Allied answer names the mission and the air units, nothing of what is in E6
    play_both(games, Airstrike(H("E6")))
    assert json.dumps(offers(a)) == json.dumps(offers(b))
    assert said(a, "intercept")[0].startswith("Intercept with DAF against Luftwaffe over E6: ")


@pytest.mark.rule("GG-X.B.3")
def test_the_interception_of_an_interdiction_names_both_air_units_and_the_chances() -> None:
    # the Luftwaffe stays over C4 after its strike (die 2 on the Allied column: "-"); in the Allied interception
    # phase the DAF may go up against it, rolling on the German air unit's column
    game = game_at(unit_toml("Tommy", "allied", "C4", type_="infantry"), "axis-airstrike", [2])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    while game.phase.key != "allied-interception":
        game.play(EndPhase())
    col = "german-air"
    assert said(game, "intercept") == [
        f"Intercept with DAF against LW interdicting over C4: {chance(col, 'EAX')} LW knocked out (EAX), {chance(col, 'Int')} "
        f"the interdiction ends (Int), {chance(col, 'AA')} DAF knocked out (AA) and the interdiction goes on, {chance(col, '-')} "
        "no effect, the interdiction goes on; a knocked-out air unit is out for the rest of this game-turn and the next "
        "(GG-X.C); DAF is then used for this game-turn (GG-X.A)"
    ]
