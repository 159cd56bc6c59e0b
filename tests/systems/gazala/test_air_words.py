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
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import air

AXIS, ALLIED = Side.AXIS, Side.ALLIED


def said(game: Game, verb: str) -> list[str]:
    """The words of the offered actions of ``verb``, as the page is sent them."""
    return [e["says"] for e in offers(game)["actions"] if e["verb"] == verb]


def chance(column: str, code: str) -> str:
    """The chance of ``code`` on ``column`` of the typed-in air table, as a player says it ("1 in 3")."""
    p = Fraction(AIR[column].count(code), len(AIR[column]))
    return f"{p.numerator} in {p.denominator}"


def on_unit(column: str, *, german_division: bool, aa_unit_here: bool | None) -> list[str]:
    """The air table's column read for one unit (GG-X.C): AAg is AA against a German division, the 4th AA and Flak
    codes against a hex holding an AA unit ("AA?" where the side cannot know whether it does), else no effect."""
    aa = "AA?" if aa_unit_here is None else "AA" if aa_unit_here else "-"
    read = {"AAg": "AA" if german_division else "-", "Flak": aa, "4thAA": aa, "4thAA/Flak": aa}
    return [read.get(code, code) for code in AIR[column]]


def told(faces: list[str], air_unit: str) -> str:
    """A unit's chances as the strike's words give them, counted from its faces."""
    means = {
        "AA": f"{air_unit} knocked out (AA, the strike ends)",
        "AA?": f"{air_unit} knocked out if a face-down counter there is an AA unit (AA)",
        "D": "disrupted (D)",
        "-": "no effect",
    }
    parts = []
    for code, what in means.items():
        if code in faces:
            p = Fraction(faces.count(code), len(faces))
            parts.append(f"{p.numerator} in {p.denominator} {what}")
    return ", ".join(parts)


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
    # the Axis units read the axis column; Flak stands in the hex, so its Flak code is AA on every unit there
    flak_faces = on_unit("axis", german_division=False, aa_unit_here=True)
    panzer_faces = on_unit("axis", german_division=True, aa_unit_here=True)
    assert told(panzer_faces, "DAF").startswith("1 in 3 DAF knocked out")  # AAg and Flak: 2 faces of 6
    assert said(game, "airstrike") == [
        "Air strike with DAF on B4: it attacks the undisrupted enemy units there one by one (GG-X.B.1); Flak, 15Pz fire back "
        "first (GG-X.B.1b); an AA result knocks DAF out for the rest of this game-turn and the next (GG-X.C); "
        f"on Flak: {told(flak_faces, 'DAF')}; on 15Pz: {told(panzer_faces, 'DAF')}; on Ital: {told(flak_faces, 'DAF')}; "
        "LW may intercept it first (GG-X.B.3)"
    ]


@pytest.mark.rule("GG-X.C")
def test_an_air_strike_on_units_that_cannot_fire_back_says_so_and_no_interception_when_the_enemy_cannot_fly() -> None:
    game = game_at(unit_toml("Ital", "axis", "B4", type_="infantry"), "allied-airstrike", [])
    air.flown(game, "LW")  # the Luftwaffe has flown this game-turn (GG-X.A): it cannot intercept
    italian = on_unit("axis", german_division=False, aa_unit_here=False)
    assert "AA" not in italian
    assert said(game, "airstrike") == [
        "Air strike with DAF on B4: it attacks the undisrupted enemy units there one by one (GG-X.B.1); none there can fire "
        f"back; an AA result knocks DAF out for the rest of this game-turn and the next (GG-X.C); on Ital: {told(italian, 'DAF')}"
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


@pytest.mark.rule("GG-X.C")
@pytest.mark.rule("GG-V.B.1")
def test_the_strike_chances_on_a_unit_seen_beside_a_face_down_counter_say_the_aa_reading_is_not_known() -> None:
    """Tommy is seen in B4 beside a face-down counter: the 4th AA code is AA only if the hex holds an AA unit, which
    the Axis cannot know.  Two games, the AA brigade face down in B4 and an infantry brigade in C8, or the other way
    round: the Axis is offered the same, and the strike's words give that face as unknown, never as the truth."""

    def game_with(in_b4: str, in_c8: str) -> Game:
        units = (
            unit_toml("Tommy", "allied", "B4", type_="infantry")
            + unit_toml("AABde", "allied", "B4" if in_b4 == "AABde" else "C8", type_="aa", factors="1-2-2")
            + unit_toml("InfBde", "allied", "B4" if in_b4 == "InfBde" else "C8", type_="infantry", factors="1-2-2")
        )
        game = game_at(units, "axis-airstrike", [])
        for uid in (in_b4, in_c8):
            family_unit(game, uid).hidden = True
        return game

    a, b = game_with("AABde", "InfBde"), game_with("InfBde", "AABde")
    assert json.dumps(offers(a)) == json.dumps(offers(b))
    (words,) = [w for w in said(a, "airstrike") if " on B4:" in w]
    tommy = on_unit("allied", german_division=False, aa_unit_here=None)
    assert tommy.count("AA?") == 1  # (the 4th AA code on a 1)
    assert f"on Tommy: {told(tommy, 'LW')}" in words and "1 face-down counter there is turned up first" in words
    # the AA brigade face up in C8: the face-down counter in B4 cannot be an AA unit, and the 4th AA code is no effect
    known = game_with("InfBde", "AABde")
    family_unit(known, "AABde").hidden = False
    (words,) = [w for w in said(known, "airstrike") if " on B4:" in w]
    assert f"on Tommy: {told(on_unit('allied', german_division=False, aa_unit_here=False), 'LW')}" in words and "AA?" not in words


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


@pytest.mark.rule("GG-X.B.2")
@pytest.mark.rule("GG-X.B.3")
def test_the_airlift_names_the_units_it_supplies_and_the_chance_an_interception_stops_it() -> None:
    """Cut and Mate stand out of supply in B11: the Luftwaffe's aerial resupply names them and the interception the
    DAF may make first, on the German air unit's column: EAX and Int stop the airlift, AA knocks the DAF out."""
    units = (
        unit_toml("Cut", "axis", "B11", type_="armour")
        + unit_toml("Mate", "axis", "B11", type_="infantry")
        + unit_toml("Tommy", "allied", "A1", type_="infantry")
    )
    game = game_at(units, "axis-attacks", [], '[map.supply]\naxis = ["C1"]\n', columns=12)
    game.play(EndPhase())  # on to the Axis supply determination
    col = "german-air"
    assert said(game, "airlift") == [
        "Airlift supplies to B11 with LW: Cut, Mate in supply this turn if it gets through (GG-X.B.2); DAF may intercept it "
        f"first (GG-X.B.3): if it does, {chance(col, 'EAX')} LW knocked out (EAX), {chance(col, 'Int')} LW turned back (Int), "
        f"{chance(col, 'AA')} DAF knocked out (AA) and the airlift gets through, {chance(col, '-')} the airlift gets through"
    ]
    air.flown(game, "DAF")  # the DAF has flown this game-turn (GG-X.A): no interception to fear
    assert said(game, "airlift") == ["Airlift supplies to B11 with LW: Cut, Mate in supply this turn if it gets through (GG-X.B.2)"]
