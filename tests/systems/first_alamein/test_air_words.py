"""1st Alamein's air decisions in words (FA-AIR.1-2): the buttons name the air unit that acts, the one it meets and
what it risks, with the chances of the air table.

The air table as the beginners' charts print it (FA-AIR.1), die 1 to 6, typed in here to count the expected chances:
the interceptor rolls on the column of the air unit it meets; EAX and AA keep the unit out for the next game-turn.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.first_alamein.kit import H, air, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Airstrike

INTERCEPTION = {"british-air": ["AA", "-", "Int", "Int", "EAX", "EAX"], "german-air": ["AA", "AA", "-", "Int", "Int", "EAX"]}
OUTSIDE_BOX = ["AAg", "-", "-", "S", "S", "S"]  # any unit outside a box (FA-AIR.1); AAg is AA on a German ground unit (FA-AIR.2)
AIR = air("LW", "axis", "german") + air("DAF", "allied", "british")


def said(game: Game, verb: str) -> list[str]:
    return [e["says"] for e in offers(game)["actions"] if e["verb"] == verb]


def chance(column: str, code: str) -> str:
    p = Fraction(INTERCEPTION[column].count(code), 6)
    return f"{p.numerator} in {p.denominator}"


@pytest.mark.rule("FA-AIR.1")
def test_the_allied_interception_names_both_air_units_and_reads_the_german_column() -> None:
    units = unit("Pz", "axis", "A1", type_="armour", factors="3-3-4") + unit("Tommy", "allied", "C6") + AIR
    game = game_at(units, "axis-airstrike", rows=5, columns=8, dice=ForcedDice([]))
    game.play(Airstrike(H("C6")))
    assert game.decision is not None and game.decision.side is Side.ALLIED
    col = "german-air"
    assert said(game, "intercept") == [
        f"Intercept with DAF against LW over C6: {chance(col, 'EAX')} LW knocked out (EAX), {chance(col, 'Int')} LW turned back "
        f"(Int), {chance(col, 'AA')} DAF knocked out (AA) and the mission goes on, {chance(col, '-')} no effect, the mission "
        "goes on; a knocked-out air unit is out for the next game-turn (FA-AIR.2); DAF is then used for this game-turn (GG-X.A)"
    ]
    assert chance(col, "AA") == "1 in 3" and chance(col, "EAX") == "1 in 6"  # (the charts: AA on 1-2, EAX on 6)
    assert said(game, "no-intercept") == ["Do not intercept: LW attacks your unspent units in C6 one by one (FA-AIR.1)"]


@pytest.mark.rule("FA-AIR.2")
def test_the_axis_interception_reads_the_british_column() -> None:
    units = unit("Pz", "axis", "A1", type_="armour", nationality="german") + unit("Tommy", "allied", "E8") + AIR
    game = game_at(units, "allied-airstrike", rows=5, columns=8, dice=ForcedDice([]))
    game.play(Airstrike(H("A1")))
    col = "british-air"
    (words,) = said(game, "intercept")
    assert words.startswith(
        f"Intercept with LW against DAF over A1: {chance(col, 'EAX')} DAF knocked out (EAX), {chance(col, 'Int')} DAF turned "
        f"back (Int), {chance(col, 'AA')} LW knocked out (AA) and the mission goes on, {chance(col, '-')} no effect"
    )
    assert chance(col, "EAX") == "1 in 3"  # (the charts: EAX on 5-6)


@pytest.mark.rule("FA-AIR.2")
def test_the_air_strike_names_the_air_unit_and_the_german_unit_that_fires_back() -> None:
    # AAg: a German ground unit outside a box fires back; an Italian one does not (the charts' AAg)
    defenders = unit("It", "axis", "A1", nationality="italian") + unit("Ge", "axis", "A1", type_="armour", nationality="german")
    units = defenders + unit("Tommy", "allied", "E8", factors="1-1-2") + AIR
    game = game_at(units, "allied-airstrike", rows=5, columns=8, dice=ForcedDice([]))
    german = ["AA" if code == "AAg" else code for code in OUTSIDE_BOX]
    italian = ["-" if code == "AAg" else code for code in OUTSIDE_BOX]

    def of(faces: list[str], code: str) -> str:
        p = Fraction(faces.count(code), 6)
        return f"{p.numerator} in {p.denominator}"

    assert (of(german, "AA"), of(german, "S"), of(german, "-")) == ("1 in 6", "1 in 2", "1 in 3")
    assert said(game, "airstrike") == [
        "Air strike with DAF on A1: it attacks the unspent enemy units there one by one (FA-AIR.1); Ge fires back first "
        "(GG-X.B.1); an AA result knocks DAF out for the next game-turn (FA-AIR.2); "
        f"on Ge: {of(german, 'AA')} DAF knocked out (AA, the strike ends), {of(german, 'S')} spent (S), {of(german, '-')} no effect; "
        f"on It: {of(italian, 'S')} spent (S), {of(italian, '-')} no effect; LW may intercept it first (FA-AIR.1)"
    ]
