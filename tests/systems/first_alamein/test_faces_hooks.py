"""1st Alamein's hooks for the faces, field by field: the game log form's facts (FA-LOG.1), the computer
players' features and choices, the score shown during play, the summary of a finished game, and the fuzzer's
invariants (FA-STK.1, CA-SC.7, the supply markers)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.first_alamein.kit import H, advance_to, game_at, scenario, unit
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Place
from tobruk.mechanics.advisor import sight_of
from tobruk.mechanics.counters import family_unit
from tobruk.mechanics.family import family_system
from tobruk.view import view

BOXES = """
[map.fortifications]
allied = ["A2", "A4", "A6"]
[[map.place]]
name = "El Alamein box"
hex = "A2"
[[map.place]]
name = "Deir el Abyad"
hex = "A4"
[[map.place]]
name = "Qaret el Abd box"
hex = "A6"
[[map.place]]
name = "Bab el Qattara box"
hex = "A6"
"""


def boxes_game() -> Game:
    return Game(scenario(unit("X", "axis", "A8"), rows=1, columns=8, map_extra=BOXES), seed=1)


@pytest.mark.rule("FA-LOG.1")
def test_the_form_names_the_boxes_standing_and_eliminated() -> None:
    game = boxes_game()
    game.vars.boxes_eliminated = ("A2", "A6")
    boxes, _ = game.system.form_facts(game)
    # a box is named by its places with "box" in the name, else by its hex; the hex follows in brackets
    assert boxes == (
        "Boxes",
        [
            ("Standing at the end", "A4 (A4)"),
            ("Eliminated", "El Alamein box (A2), Qaret el Abd box, Bab el Qattara box (A6)"),
        ],
    )


@pytest.mark.rule("FA-LOG.1")
def test_the_form_says_none_where_no_box_stands_or_none_fell() -> None:
    game = boxes_game()
    assert game.system.form_facts(game)[0][1] == [
        ("Standing at the end", "El Alamein box (A2), A4 (A4), Qaret el Abd box, Bab el Qattara box (A6)"),
        ("Eliminated", "none"),
    ]
    game.vars.boxes_eliminated = ("A2", "A4", "A6")
    assert game.system.form_facts(game)[0][1][0] == ("Standing at the end", "none")


@pytest.mark.rule("FA-LOG.1")
def test_the_form_lists_what_the_axis_held_turn_by_turn_in_the_turns_order() -> None:
    game = boxes_game()
    game.vars.holding = {
        "10": ("El Alamein occupied in supply (X)", "the north-east coastal road hex occupied (X)"),
        "2": (),
        "9": ("the north-east coastal road hex occupied (X)",),
    }
    assert game.system.form_facts(game)[1] == (
        "The Axis at each Axis victory determination",
        [
            ("Turn 2", "nothing"),
            ("Turn 9", "the north-east coastal road hex occupied (X)"),
            ("Turn 10", "El Alamein occupied in supply (X); the north-east coastal road hex occupied (X)"),
        ],
    )


# --- the score during play and the summary at the end (CA-SC.7's victory condition) ---------------------------
# A8 is both El Alamein and the north-east coastal road hex, and an Axis supply source: a unit there meets both
# conditions; A1 meets neither
VICTORY_MAP = '[map.supply]\naxis = ["A8"]\n[map.zones]\nalamein = ["A8"]\nroad-end = ["A8"]\n'
VICTORY_RULES = 'victory_el_alamein = "alamein"\nvictory_road_hex = "road-end"\n'


def victory_game(where: str) -> Game:
    s = scenario(unit("X", "axis", where) + unit("Y", "allied", "A4"), rows=1, columns=8, map_extra=VICTORY_MAP, rules=VICTORY_RULES)
    return Game(s, seed=1)


@pytest.mark.rule("CA-SC.7")
def test_the_score_counts_the_axis_victory_conditions_met_else_the_allies_one() -> None:
    game = victory_game("A8")
    assert game.system.score_now(game) == {"axis": 2.0, "allied": 0.0}
    game = victory_game("A1")
    assert game.system.score_now(game) == {"axis": 0.0, "allied": 1.0}


@pytest.mark.rule("CA-SC.7")
def test_the_summary_of_an_axis_win_counts_against_the_allies() -> None:
    game = victory_game("A8")
    assert game.system.summary(game) is None  # not over yet
    game.system.end_game(game)
    summary = game.system.summary(game)
    assert summary is not None and summary.winner == "axis" and summary.level == "Axis victory"
    assert summary.margin == Fraction(-1)  # the Allied points minus the Axis points: one win, the Axis's
    assert summary.fields == {
        "winner": "axis",
        "level": "Axis victory",
        "reasons": ["El Alamein occupied in supply (X)", "the north-east coastal road hex occupied (X)"],
        "axis_losses": [],
        "allied_losses": [],
    }


@pytest.mark.rule("CA-SC.7")
def test_the_summary_of_an_allied_win_counts_for_the_allies() -> None:
    game = victory_game("A1")
    game.system.end_game(game)
    summary = game.system.summary(game)
    assert summary is not None and summary.winner == "allied" and summary.margin == Fraction(1)


# --- what the computer players read --------------------------------------------------------------------
def test_the_features_give_each_side_its_own_aims() -> None:
    game = victory_game("A1")
    values = {
        "DE": (1.0, 0.0),
        "R2": (0.55, 0.0),
        "R1": (0.4, 0.0),
        "S": (0.3, 0.0),
        "-": (0.0, 0.0),
        "SAR": (0.3, 0.25),
        "SAE": (0.3, 1.0),
        "AR": (0.0, 0.25),
        "AE": (0.0, 1.0),
    }
    # the Axis goes for the victory hexes; the Allies guard them and hold their boxes with infantry (FA-TER.2)
    assert family_system(game).features(game, Side.AXIS) == {
        "objectives": [H("A8")],
        "guards": [],
        "result_values": values,
        "stacking": (3, 2),  # FA-STK.1
        "holding_types": [],
        "setup_steps": ["allied-setup"],  # CA-SC.7: the historical set-up is kept
    }
    assert family_system(game).features(game, Side.ALLIED) == {
        "objectives": [],
        "guards": [H("A8")],
        "result_values": values,
        "stacking": (3, 2),
        "holding_types": ["infantry"],
        "setup_steps": ["allied-setup"],
    }


def test_the_advice_brings_a_reinforcement_in_nearest_the_victory_hexes() -> None:
    places = [Place("X", H("A1")), Place("X", H("A3"))]
    game = victory_game("A1")
    assert chosen(game, places) == Place("X", H("A3"))  # the nearer A8
    assert chosen(game, places, stage="before-moves") is None
    aimless = Game(scenario(unit("X", "axis", "A1") + unit("Y", "allied", "A4"), rows=1, columns=8), seed=1)
    assert chosen(aimless, places) is None  # no victory hex named: nothing to prefer


def chosen(game: Game, places: list[Place], stage: str = "first") -> object:
    return family_system(game).prefer(game, sight_of(game, Side.AXIS), [*places, EndPhase()], stage)


# --- the fuzzer's invariants ---------------------------------------------------------------------------
@pytest.mark.rule("FA-STK.1")
def test_the_invariants_catch_a_stack_over_the_limit_after_the_attacks() -> None:
    units = unit("D1", "axis", "A1") + unit("D2", "axis", "A1") + unit("D3", "axis", "A2") + unit("E", "allied", "A6")
    game = game_at(units, "axis-attacks", rows=1, columns=6)
    before = game.step
    family_unit(game, "D3").hex = H("A1")  # as if a retreat had let it in unchecked
    assert game.system.invariants(game, before) == []  # the step has not ended: it may still be put right
    game.state.step += 1
    assert game.system.invariants(game, before) == ["Axis over the stacking limit in A1 after axis-attacks"]


@pytest.mark.rule("CA-SC.7")
def test_the_invariants_catch_two_allied_units_set_up_in_one_hex() -> None:
    setup = 'setup_zone = "setup"'
    units = unit("SA", "allied", "A4", extra=setup) + unit("NZ", "allied", "A6", extra=setup) + unit("Pz", "axis", "A1")
    game = Game(scenario(units, rows=1, columns=8, tail='[zones.setup]\ncolumns = "3-8"\n'))
    before = game.step
    assert before.key == "allied-setup"
    family_unit(game, "NZ").hex = H("A4")
    game.state.step += 1
    assert game.system.invariants(game, before) == ["two Allied units set up in A4"]


def test_the_invariants_catch_a_supply_marker_the_determination_did_not_set() -> None:
    source = '[map.supply]\naxis = ["A1"]\n'
    game = game_at(unit("Near", "axis", "A3") + unit("E", "allied", "A8"), "axis-movement", rows=1, columns=8, map_extra=source)
    game = advance_to(game, "allied-movement")  # the Axis determination found Near in supply
    assert game.system.invariants(game, game.step) == []
    family_unit(game, "Near").out_of_supply = True
    assert game.system.invariants(game, game.step) == ["Near's supply marker disagrees with its last determination"]


# --- a side's view and the turn notes ----------------------------------------------------------------------
def test_the_view_lists_the_declared_attacks_the_boxes_eliminated_and_the_result() -> None:
    units = unit("A", "axis", "B3", factors="4-4-4") + unit("D1", "allied", "A4") + unit("D2", "allied", "B4")
    game = game_at(units, "axis-attacks", rows=2, columns=8, map_extra='[map.fortifications]\nallied = ["B8"]\n')
    game.play("attack A4,B4 with A")
    game.vars.boxes_eliminated = ("B8",)
    seen = view(game, Side.ALLIED)
    assert seen["attacks"] == [{"id": 1, "order": "attack A4,B4 with A", "defenders": ["A4", "B4"], "attackers": ["A"], "resolved": False}]
    assert seen["boxes_eliminated"] == ["B8"] and seen["result"] is None
    game.system.end_game(game)
    assert view(game, Side.AXIS)["result"]["winner"] == "allied"


@pytest.mark.rule("FA-LOG.1")
def test_the_turn_notes_give_the_date_only_where_the_scenario_has_a_first_day() -> None:
    game = victory_game("A1")
    assert game.system.turn_notes(game) == {} and view(game, Side.AXIS)["date"] == ""
    game = Game(scenario(unit("X", "axis", "A1"), rows=1, columns=8, rules='first_day = "1942-07-01"'), seed=1)
    assert game.system.turn_notes(game) == {"date": "1 July 1942"}
