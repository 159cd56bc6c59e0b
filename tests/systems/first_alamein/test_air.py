"""1st Alamein's air table (FA-AIR.1-2): each unspent unit in the target hex attacked separately, top to bottom,
on the column of a British unit inside a box or any unit outside one; interception on the column of the air
unit met; EAX, Int, AA and AAg.

The charts' air table, die 1 to 6 (FA-AIR.1):
    British inside box:  AA  -  -  -  S  S
    any unit outside:    AAg -  -  S  S  S
    British air unit:    AA  -  Int Int EAX EAX
    German air unit:     AA  AA -  Int Int EAX
"""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, advance_to, air, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Airstrike, EndPhase, Intercept, NoIntercept
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein.state import alamein_vars

AIR = air("LW", "axis", "german") + air("DAF", "allied", "british")
BOX = '[map.fortifications]\nallied = ["C6"]\n'


def axis_strike(defenders: str, dice: list[int], *, air_units: str = AIR, map_extra: str = "", rules: str = "") -> Game:
    """At the Axis airstrike step: an Axis unit far in the west, the given Allied units."""
    units = unit("Pz", "axis", "A1", type_="armour", factors="3-3-4") + defenders + air_units
    return game_at(units, "axis-airstrike", rows=5, columns=8, dice=ForcedDice(dice), map_extra=map_extra, rules=rules)


@pytest.mark.rule("FA-AIR.1")
def test_each_unspent_unit_is_attacked_separately_top_to_bottom() -> None:
    game = axis_strike(unit("X", "allied", "C6") + unit("Y", "allied", "C6"), [4, 3])  # outside a box: S, then -
    assert game.decision is not None and game.decision.clause == "FA-AIR.1"
    game.play(Airstrike(H("C6")))
    assert game.decision is not None and game.decision.side is Side.ALLIED  # the Allies may intercept
    assert set(game.legal_orders()) == {Intercept(), NoIntercept()}
    game.play(NoIntercept())
    assert family_unit(game, "X").disrupted and not family_unit(game, "Y").disrupted
    assert [r.purpose for r in game.dice.log] == ["LW attacks X", "LW attacks Y"]


@pytest.mark.rule("FA-AIR.1")
def test_spent_units_are_not_attacked() -> None:
    game = axis_strike(unit("X", "allied", "C6") + unit("Y", "allied", "C6"), [6], rules='spent_at_start = ["X"]')
    game.play(Airstrike(H("C6")))
    game.play(NoIntercept())
    assert [r.purpose for r in game.dice.log] == ["LW attacks Y"] and family_unit(game, "Y").disrupted


@pytest.mark.rule("FA-AIR.1")
def test_a_hex_of_spent_units_is_no_target() -> None:
    game = axis_strike(unit("X", "allied", "C6") + unit("Z", "allied", "E8"), [], rules='spent_at_start = ["X"]')
    assert Airstrike(H("C6")) not in game.legal_orders() and Airstrike(H("E8")) in game.legal_orders()
    with pytest.raises(IllegalOrderError) as exc:
        game.play(Airstrike(H("C6")))
    assert exc.value.clause == "FA-AIR.1"


@pytest.mark.rule("FA-AIR.1")
def test_british_units_inside_a_box_read_their_own_column() -> None:
    inside = axis_strike(unit("X", "allied", "C6"), [4], map_extra=BOX)
    inside.play(Airstrike(H("C6")))
    inside.play(NoIntercept())
    assert not family_unit(inside, "X").disrupted  # inside a box a 4 does nothing
    outside = axis_strike(unit("X", "allied", "C6"), [4])
    outside.play(Airstrike(H("C6")))
    outside.play(NoIntercept())
    assert family_unit(outside, "X").disrupted  # outside, S


@pytest.mark.rule("FA-AIR.1")
def test_no_interception_question_when_the_enemy_has_no_air_unit_ready() -> None:
    game = axis_strike(unit("X", "allied", "C6"), [5], air_units=air("LW", "axis", "german"))
    game.play(Airstrike(H("C6")))
    assert family_unit(game, "X").disrupted and game.decision is not None and game.decision.side is Side.AXIS


@pytest.mark.rule("FA-AIR.1")
def test_an_air_unit_flies_once_a_game_turn() -> None:
    game = axis_strike(unit("X", "allied", "C6"), [3, 3])
    game.play(Airstrike(H("C6")))
    game.play(NoIntercept())
    assert game.step.key != "axis-airstrike"  # the step asks no more: LW has flown
    advance_to(game, "allied-airstrike")
    game.play(Airstrike(H("A1")))  # LW flew this game-turn: it cannot intercept, the die is rolled at once
    assert [r.purpose for r in game.dice.log] == ["LW attacks X", "DAF attacks Pz"]


def intercepted(die: int, then: list[int]) -> Game:
    game = axis_strike(unit("X", "allied", "C6") + unit("Y", "allied", "C6"), [die, *then])
    game.play(Airstrike(H("C6")))
    game.play(Intercept())
    return game


def airstrike_steps(game: Game, turn: int) -> list[str]:
    """Play end-phase through game-turn ``turn``; the steps that asked the Axis for an airstrike."""
    asked = []
    while game.turn <= turn and game.decision is not None:
        if game.decision.phase == "axis-airstrike":
            asked.append(f"turn {game.turn}")
        game.play(EndPhase())
    return asked


@pytest.mark.rule("FA-AIR.2")
def test_eax_stops_the_mission_and_knocks_the_air_unit_out_for_the_next_game_turn() -> None:
    game = intercepted(6, [])  # the German air unit's column: 6 EAX
    assert [r.purpose for r in game.dice.log] == ["DAF intercepts LW"] and not family_unit(game, "X").disrupted
    assert alamein_vars(game).air["LW"] == (1, 2)
    assert airstrike_steps(game, 3) == ["turn 3"]  # out in game-turn 2, back in 3


@pytest.mark.rule("FA-AIR.2")
def test_int_stops_the_mission_only() -> None:
    game = intercepted(5, [])  # German air unit's column: 5 Int
    assert not family_unit(game, "X").disrupted and alamein_vars(game).air["LW"] == (1, 0)


@pytest.mark.rule("FA-AIR.2")
def test_aa_against_the_interceptor_knocks_it_out_and_the_mission_goes_on() -> None:
    game = intercepted(1, [5, 5])  # German air unit's column: 1 AA (the interceptor's failure)
    assert alamein_vars(game).air["DAF"] == (1, 2) and family_unit(game, "X").disrupted and family_unit(game, "Y").disrupted


@pytest.mark.rule("FA-AIR.2")
def test_aa_from_a_box_ends_the_mission() -> None:
    game = axis_strike(unit("X", "allied", "C6") + unit("Y", "allied", "C6"), [1], map_extra=BOX)
    game.play(Airstrike(H("C6")))
    game.play(NoIntercept())
    assert alamein_vars(game).air["LW"] == (1, 2)  # knocked out for game-turn 2
    assert [r.purpose for r in game.dice.log] == ["LW attacks X"]  # Y is not attacked (ruling)


def allied_strike(defender: str, dice: list[int]) -> Game:
    units = defender + unit("Tommy", "allied", "E8", factors="1-1-2") + air("DAF", "allied", "british")
    return game_at(units, "allied-airstrike", rows=5, columns=8, dice=ForcedDice(dice))


@pytest.mark.rule("FA-AIR.2")
def test_aag_is_aa_against_a_german_ground_unit() -> None:
    game = allied_strike(unit("Pz", "axis", "A1", type_="armour", nationality="german"), [1])
    game.play(Airstrike(H("A1")))
    assert alamein_vars(game).air["DAF"] == (1, 2)


@pytest.mark.rule("FA-AIR.2")
def test_aag_is_nothing_against_an_italian_unit() -> None:
    game = allied_strike(unit("Ariete", "axis", "A1", type_="armour", nationality="italian"), [1])
    game.play(Airstrike(H("A1")))
    assert alamein_vars(game).air.get("DAF", (0, 0))[1] == 0 and not family_unit(game, "Ariete").disrupted


@pytest.mark.rule("FA-AIR.2")
def test_british_interceptors_roll_on_the_british_column() -> None:
    units = (
        unit("Pz", "axis", "A1", type_="armour", nationality="german")
        + unit("Tommy", "allied", "E8")
        + air("LW", "axis", "german")
        + air("DAF", "allied", "british")
    )
    game = game_at(units, "allied-airstrike", rows=5, columns=8, dice=ForcedDice([5]))
    game.play(Airstrike(H("A1")))
    game.play(Intercept())  # the Luftwaffe goes up against the DAF: the British column, 5 EAX
    assert alamein_vars(game).air["DAF"] == (1, 2) and not family_unit(game, "Pz").disrupted


@pytest.mark.rule("FA-AIR.1")
def test_units_able_to_shoot_back_are_attacked_first() -> None:
    # GG-X.B.1 (the charts are silent): the Italian unit is on top, but the German one (AAg) is attacked first
    defenders = unit("It", "axis", "A1", type_="infantry", nationality="italian") + unit(
        "Ge", "axis", "A1", type_="armour", nationality="german"
    )
    game = allied_strike(defenders, [3, 3])
    game.play(Airstrike(H("A1")))
    assert [r.purpose for r in game.dice.log] == ["DAF attacks Ge", "DAF attacks It"]


@pytest.mark.rule("FA-AIR.1")
def test_each_air_unit_of_a_side_flies_once() -> None:
    units = (
        unit("Pz", "axis", "A1", type_="armour")
        + unit("Ge", "axis", "C1", type_="armour")
        + unit("Tommy", "allied", "E8")
        + air("DAF", "allied", "british")
        + air("DAF2", "allied", "british")
    )
    game = game_at(units, "allied-airstrike", rows=5, columns=8, dice=ForcedDice([3, 3]))
    game.play(Airstrike(H("A1")))
    assert game.step.key == "allied-airstrike" and Airstrike(H("C1")) in game.legal_orders()  # DAF2 is still ready
    game.play(Airstrike(H("C1")))
    assert [r.purpose for r in game.dice.log] == ["DAF attacks Pz", "DAF2 attacks Ge"]
    assert game.step.key != "allied-airstrike"


def air_log(game: Game) -> list[tuple[str, str]]:
    return [(e.text, e.kind) for e in game.state.entries if e.text.startswith("DAF")]


@pytest.mark.rule("FA-AIR.1")
def test_units_that_cannot_shoot_back_keep_their_order_top_to_bottom() -> None:
    # Zara on top, then Ariete (both Italian: no AA on their column), then the German Pz, which shoots back (AAg)
    defenders = (
        unit("Zara", "axis", "A1", echelon="subdivisional", nationality="italian")
        + unit("Ariete", "axis", "A1", echelon="subdivisional", nationality="italian")
        + unit("Pz", "axis", "A1", echelon="subdivisional", type_="armour", nationality="german")
    )
    game = allied_strike(defenders, [3, 3, 3])
    game.play(Airstrike(H("A1")))
    assert [r.purpose for r in game.dice.log] == ["DAF attacks Pz", "DAF attacks Zara", "DAF attacks Ariete"]


@pytest.mark.rule("FA-AIR.2")
def test_aa_knocks_the_air_unit_out_for_the_next_game_turn_and_the_log_says_so() -> None:
    game = allied_strike(unit("Pz", "axis", "A1", type_="armour", nationality="german"), [1])  # AAg: AA on a German
    game.play(Airstrike(H("A1")))
    assert air_log(game) == [
        ("DAF on Pz: die 1: AA.", "note"),
        ("DAF is knocked out for game-turn 2.", "event"),
    ]
    assert alamein_vars(game).air["DAF"] == (1, 2)


@pytest.mark.rule("FA-AIR.2")
def test_aag_against_an_italian_unit_reads_no_effect() -> None:
    game = allied_strike(unit("It", "axis", "A1", nationality="italian"), [1])
    game.play(Airstrike(H("A1")))
    assert air_log(game) == [("DAF on It: die 1: -.", "note")]
    assert alamein_vars(game).air["DAF"] == (1, 0)  # flown this game-turn, never knocked out
