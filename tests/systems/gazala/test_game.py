"""The Gazala Gallop's game: its sequence of play (GG-VI, VII), the Axis set-up and stacking (GG-V.A.1, XII.A), the
weather (GG-VIII), its refusals of orders out of place, and what a side's view hides.  (The engine's part, for every
system: undo, records, seeds, copies and options in tests/engine/test_game.py.)"""

from __future__ import annotations

import json

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import EndPhase, Move, Place
from tobruk.systems.gazala.actions import Weather
from tobruk.systems.gazala.state import gazala_vars
from tobruk.view import view

H = Hex.parse
AXIS_TURN = ["axis-victory", "axis-airstrike", "axis-movement", "axis-attacks", "axis-recovery"]

ALLIED_TURN = ["allied-victory", "allied-interception", "allied-movement", "allied-airstrike", "allied-attacks", "allied-recovery"]


def decided_phases(game: Game) -> list[str]:
    out = []
    while game.decision is not None and game.turn == 1:
        out.append(game.decision.phase)
        game.play(EndPhase())
    return out


@pytest.mark.rule("GG-VI.A")
def test_turn_one_sequence(gazala: Scenario) -> None:
    game = Game(gazala)
    assert [p.key for p in game.phases] == ["axis-setup", "allied-siege", *AXIS_TURN, *ALLIED_TURN]
    assert decided_phases(game) == [
        "axis-setup",
        "axis-airstrike",
        "axis-movement",
        "axis-attacks",
        "allied-movement",
        "allied-airstrike",
        "allied-attacks",
    ]
    assert game.turn == 2 and game.decision is not None and game.decision.phase == "weather"


@pytest.mark.rule("GG-VI.B")
def test_axis_player_turn_order(gazala: Scenario) -> None:
    keys = [p.key for p in Game(gazala).phases]
    assert keys[2:7] == AXIS_TURN  # victory, airstrike, movement, attacks, recovery


@pytest.mark.rule("GG-VI.C")
def test_allied_player_turn_moves_before_its_airstrike(gazala: Scenario) -> None:
    keys = [p.key for p in Game(gazala).phases]
    assert keys[7:] == ALLIED_TURN
    assert keys.index("allied-movement") < keys.index("allied-airstrike") < keys.index("allied-attacks")


@pytest.mark.rule("GG-VII.A")
def test_game_ends_after_fourteen_turns(gazala: Scenario) -> None:
    game = Game(gazala, seed=3)
    turns_seen = set()
    while game.decision is not None:
        turns_seen.add(game.turn)
        game.play(Weather(1, 2) if game.decision.phase == "weather" else EndPhase())
    assert turns_seen == set(range(1, 15)) and game.is_over
    assert game.legal_orders() == []
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-VII.A"


@pytest.mark.rule("GG-V.A.1")
def test_axis_free_set_up_within_the_zone(gazala: Scenario) -> None:
    game = Game(gazala)
    game.play(Place("15Pz", H("K3")))  # south of the line, column 3
    assert game.unit("15Pz").hex == H("K3")
    for bad in (Place("15Pz", H("K7")), Place("15Pz", H("F9")), Place("Brescia", H("F3"))):
        before = game.state_hash()
        with pytest.raises(IllegalOrderError) as err:
            game.play(bad)
        assert err.value.clause == "GG-V.A.1"
        assert game.state_hash() == before
    legal = game.legal_orders()
    assert Place("21Pz", H("N1")) in legal and Place("Brescia", H("F3")) not in legal and EndPhase() in legal


@pytest.mark.rule("GG-XII.A.2")
def test_set_up_respects_the_stacking_limit(gazala: Scenario) -> None:
    game = Game(gazala)
    # G3 already holds 15Pz, 21Pz (divisions) and Flak Gppe: a fourth unit, or a third division, is refused
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("90Lt", H("G3")))
    assert err.value.clause == "GG-XII.A.2"
    with pytest.raises(IllegalOrderError, match="at most 3 units") as err:
        game.play(Place("Ariete", H("H4")))  # H4 holds 90Lt, Recce Gppe and KG Hecker already
    assert err.value.clause == "GG-XII.A.2"
    game.play(Place("15Pz", H("K2")))
    game.play(Place("21Pz", H("K2")))
    with pytest.raises(IllegalOrderError, match="division-level") as err:
        game.play(Place("Ariete", H("K2")))  # a third division, though only the third unit
    assert err.value.clause == "GG-XII.A.2"
    game.play(Place("Ariete", H("G3")))  # Flak Gppe + Ariete: fine
    assert set(game.units_at(H("G3"))) == {"FlakGp", "Ariete"}


@pytest.mark.rule("GG-XII.A.1")
def test_one_side_per_hex_at_set_up(gazala: Scenario) -> None:
    from tobruk.systems.gazala.setup import stacking_problem

    game = Game(gazala)
    assert stacking_problem(game, ["15Pz", "1SA"]) is not None and "GG-XII.A.1" in str(stacking_problem(game, ["15Pz", "1SA"]))


@pytest.mark.rule("GG-XII.A.3")
def test_dummies_do_not_count_for_stacking(gazala: Scenario) -> None:
    from tobruk.systems.gazala.setup import stacking_problem

    game = Game(gazala)
    assert stacking_problem(game, ["1SA", "50Div", "7MotBde", "Dummy1", "Dummy2"]) is None


def to_weather(game: Game) -> None:
    while game.decision is not None and game.decision.phase != "weather":
        game.play(EndPhase())


@pytest.mark.rule("GG-VIII.0")
def test_weather_from_turn_two_british_numbers_then_axis_roll(gazala: Scenario) -> None:
    game = Game(gazala, dice=ForcedDice([4]))
    to_weather(game)
    assert game.turn == 2 and game.decision is not None and game.decision.side is Side.ALLIED
    assert len(game.legal_orders()) == 30  # ordered pairs of different numbers
    with pytest.raises(IllegalOrderError) as err:
        game.play(Weather(3, 3))
    assert err.value.clause == "GG-VIII.0"
    game.play(Weather(2, 5))
    assert gazala_vars(game).weather == "clear"
    assert [(r.purpose, r.value) for r in game.dice.log] == [("weather", 4)]


@pytest.mark.rule("GG-VIII.A")
@pytest.mark.parametrize(("rolls", "weather"), [([2, 4], "sandstorm"), ([2, 6], "sandstorm"), ([2, 3], "clear"), ([2, 1], "clear")])
def test_sandstorm_needs_its_number_then_4_to_6(gazala: Scenario, rolls: list[int], weather: str) -> None:
    game = Game(gazala, dice=ForcedDice(rolls))
    to_weather(game)
    game.play(Weather(2, 5))
    assert gazala_vars(game).weather == weather


@pytest.mark.rule("GG-VIII.B")
@pytest.mark.parametrize(("rolls", "weather"), [([5, 5, 1, 1], "rainstorm"), ([5, 4], "clear"), ([5, 6], "clear")])
def test_rainstorm_needs_its_number_twice(gazala: Scenario, rolls: list[int], weather: str) -> None:
    game = Game(gazala, dice=ForcedDice(rolls))  # in rain both players then roll for their airfields
    to_weather(game)
    game.play(Weather(2, 5))
    assert gazala_vars(game).weather == weather


def test_illegal_orders_name_the_rule_and_change_nothing(gazala: Scenario) -> None:
    game = Game(gazala)
    before = json.dumps(game.state_data(), sort_keys=True)
    # a move in the set-up is no order of that phase (each unit moves in its movement phase, GG-XIII.A.1); the
    # weather is named in the weather phase, and only the set-up's own units are placed (GG-V.A.1)
    for order, clause in (
        (Move("15Pz", (H("G3"), H("G4"))), "GG-XIII.A.1"),
        (Weather(1, 2), "GG-V.A.1"),
        (Place("Nobody", H("G3")), "GG-V.A.1"),
    ):
        with pytest.raises(IllegalOrderError) as err:
            game.play(order)
        assert err.value.clause == clause
        assert json.dumps(game.state_data(), sort_keys=True) == before
    assert len(game.history) == 0


def test_view_is_everything_a_side_may_see_and_hides_face_down_units(gazala: Scenario) -> None:
    game = Game(gazala)
    before = game.state_hash()
    game.unit("1SA").hidden = True
    axis = view(game, Side.AXIS)
    assert game.state_hash() != before  # (we changed it on purpose above)
    text = json.dumps(axis)
    assert "1st South African" not in text and '"1SA"' not in text
    hidden = [u for u in axis["units"] if u.get("hidden")]
    assert [{k: v for k, v in u.items() if k != "anon"} for u in hidden] == [{"side": "allied", "hex": "C5", "hidden": True}]
    assert len(hidden[0]["anon"]) == 12 and "1SA" not in hidden[0]["anon"]
    assert "Dummy1" not in text
    allied = view(game, Side.ALLIED)
    assert any(u.get("id") == "1SA" for u in allied["units"])
    assert axis["legal_orders"] and not allied["legal_orders"]  # only the decider sees its orders
    snapshot = game.state_hash()
    view(game, Side.AXIS)
    assert game.state_hash() == snapshot
