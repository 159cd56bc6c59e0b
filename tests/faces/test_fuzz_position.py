"""The fuzzer's loop compares whole positions (:func:`tobruk.tools.fuzz.position_of`) instead of state hashes: each way
a broken game could leave a position changed (a unit, a variable, the decision stack, the dice, the log, the
step, a write past the incremental hash) is caught by the undo, replay and view checks, and positions equal by
the state hash are equal by the comparison through whole random games with undo.  And the fog check's text of
a view catches a face-down counter's id or name wherever the view shows it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import DieRoll
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import FAMILY_BITS
from tobruk.tools.fuzz import ArraysKey, FogWatch, InvariantError, check_hashes, check_undo, check_views, position_of
from tobruk.view import view

H = Hex.parse

# ways to change a position behind the engine's back, each named as the failure names the part it changed
BREAKS: dict[str, Callable[[Game], None]] = {
    "unit status": lambda g: setattr(g.unit("Tommy"), "disrupted", True),
    "unit hexes": lambda g: setattr(g.unit("Tommy"), "hex", H("C11")),
    "variables": lambda g: setattr(g.vars, "weather", "rain"),
    "turn": lambda g: setattr(g.state, "turn", g.state.turn + 1),
    "step": lambda g: setattr(g.state, "step", g.state.step + 1),
    "over": lambda g: setattr(g.state, "over", True),
    "stack": lambda g: setattr(g.state, "stack", (*g.state.stack, object())),
    "dice": lambda g: g.dice.log.append(g.dice.log[-1] if g.dice.log else DieRoll("a roll nobody asked for", 1, 6)),
    "log length": lambda g: g.log("a line nobody wrote"),
    "reveals": lambda g: setattr(g.state, "reveals", g.state.reveals + 1),
    "private rolls": lambda g: g.state.private_rolls.__setitem__(99, "axis"),
}


def moved_once() -> tuple[Game, Move, Any]:
    """A game just after one move, with the whole position from before it."""
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "C12"))
    before = position_of(game)
    move = Move("Pz", (H("A1"), H("A2")))
    game.play(move)
    return game, move, before


@pytest.mark.parametrize("part", sorted(BREAKS))
def test_an_undo_that_leaves_any_part_of_the_position_changed_is_caught(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    game, move, before = moved_once()
    after = position_of(game)
    assert check_undo(game, move, before, position_of) == after == position_of(game)  # a sound undo passes
    pop = game.pop

    def leaky_pop() -> Any:
        undone = pop()
        BREAKS[part](game)
        return undone

    monkeypatch.setattr(game, "pop", leaky_pop)
    with pytest.raises(InvariantError, match=rf"undo of .*Pz.* did not restore the position \({part}[,)]"):
        check_undo(game, move, before, position_of)


@pytest.mark.parametrize("part", sorted(BREAKS))
def test_a_replay_after_undo_that_gives_another_position_is_caught(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    game, move, before = moved_once()
    play = game.play

    def other_play(action: Any) -> None:
        play(action)
        BREAKS[part](game)

    monkeypatch.setattr(game, "play", other_play)
    with pytest.raises(InvariantError, match=rf"after undo gave another position \({part}[,)]"):
        check_undo(game, move, before, position_of)


def test_a_replay_that_writes_other_log_lines_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game, move, before = moved_once()
    game.log("the move's line")  # as if the move had written it (the undo cuts the log back)
    play = game.play

    def other_play(action: Any) -> None:
        play(action)
        game.log("another line")  # as many lines as the first time, but not the same

    monkeypatch.setattr(game, "play", other_play)
    with pytest.raises(InvariantError, match="after undo wrote other log lines"):
        check_undo(game, move, before, position_of)


def test_an_order_that_cannot_be_undone_is_not_looked_at() -> None:
    game, move, before = moved_once()
    game.dice.roll("a roll the other side has seen")  # undo stops at a die roll
    assert check_undo(game, move, before, position_of) is None


@pytest.mark.parametrize("part", sorted(BREAKS))
def test_a_view_that_changes_any_part_of_the_position_is_caught(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    game, _, _ = moved_once()
    known = position_of(game)
    assert check_views(game, None, None, position_of)[0] == known
    assert check_views(game, None, known, position_of)[0] == known

    def meddling_view(g: Game, side: Side) -> Any:
        seen = view(g, side)
        if side is Side.ALLIED:
            BREAKS[part](g)
        return seen

    monkeypatch.setattr("tobruk.tools.fuzz.view", meddling_view)
    with pytest.raises(InvariantError, match=rf"looking at a view changed the game \({part}[,)]"):
        check_views(game, None, None, position_of)


def test_a_write_to_the_unit_arrays_past_their_hash_is_caught() -> None:
    # the position key would not see it (the incremental hash is not told); the comparison reads the arrays
    game, _, _ = moved_once()
    known = position_of(game)
    key = game.position_key()
    game.state.units.flags[game.unit_ids.index("Tommy")] |= FAMILY_BITS["moved"]
    assert game.position_key() == key
    changed = r"looking at the position \(the listing, the checks or a view\) changed the game \(unit status\)"
    with pytest.raises(InvariantError, match=changed):
        check_views(game, None, known, position_of)


@pytest.fixture(scope="module")
def gazala() -> Scenario:
    return load_scenario("gazala-gallop")


@pytest.mark.parametrize(("seed", "options"), [(2, ()), (8, ("nonhistorical",))])
def test_positions_equal_by_the_state_hash_are_equal_by_the_comparison(gazala: Scenario, seed: int, options: tuple[str, ...]) -> None:
    # through a random game: undo and replay give equal positions, and a position differs from the one before it
    # by the comparison whenever it does by the state hash
    game = Game(gazala, seed=seed, options=options)
    rng = random.Random(seed)
    last = (game.state_hash(), position_of(game))
    for _ in range(300):
        if game.decision is None:
            break
        game.play(rng.choice(game.legal_orders()))
        now = (game.state_hash(), position_of(game))
        assert now[0] == last[0] or now[1] != last[1]
        if game.can_undo():
            undone = game.pop()
            assert (game.state_hash(), position_of(game)) == last
            game.play(undone)
            assert (game.state_hash(), position_of(game)) == now
        last = now


# --- the fog check's text of a view --------------------------------------------------------------------------
DUMMY_IN_E6 = ["place Dummy1 E6", "place Dummy2 B5"]  # 1ATB stays in its printed box, G8, face down


def face_down_game(gazala: Scenario) -> Game:
    """A nonhistorical game with the Allied counters set up face down, at the Axis's next decision."""
    game = Game(gazala, seed=5, options=("nonhistorical",))
    for text in DUMMY_IN_E6:
        game.play(text)
    game.play("end-phase")
    assert game.unit("1ATB").hidden
    return game


# where a view could show the face-down 1ATB: (the view, the counter's id and name)
LEAKS: dict[str, Callable[[dict[str, Any], str, str], None]] = {
    "an enemy unit's entry": lambda seen, uid, name: seen["units"].insert(0, {**seen["units"][0], "id": uid}),
    "the system's part": lambda seen, uid, name: seen.__setitem__("attacks", [{"attackers": [uid]}]),
    "a die roll's purpose": lambda seen, uid, name: seen["dice"].append({"purpose": uid, "value": 3}),
    "the counter's name": lambda seen, uid, name: seen.__setitem__("notes", {"weather": name}),
    "the legal orders": lambda seen, uid, name: seen.__setitem__("legal_orders", [*seen["legal_orders"], f"hold {uid}"]),
    "a new log line": lambda seen, uid, name: seen["log"].append(f"{uid} (E6) holds."),
}


@pytest.mark.parametrize("scan_at_most", [0, 1000])  # the texts cut into words, or each counter looked for
@pytest.mark.parametrize("where", sorted(LEAKS))
def test_a_view_that_shows_a_face_down_counter_is_caught(
    gazala: Scenario, monkeypatch: pytest.MonkeyPatch, where: str, scan_at_most: int
) -> None:
    monkeypatch.setattr("tobruk.tools.fuzz.SCAN_AT_MOST", scan_at_most)
    game = face_down_game(gazala)
    check_views(game, FogWatch.new(), None, position_of)  # the real views pass
    name = game.defs["1ATB"].name
    assert name != "1ATB"

    def leaking_view(g: Game, side: Side) -> Any:
        seen = view(g, side)
        if side is Side.AXIS:
            LEAKS[where](seen, "1ATB", name)
        return seen

    monkeypatch.setattr("tobruk.tools.fuzz.view", leaking_view)
    with pytest.raises(InvariantError, match="the Axis view shows the face-down 1ATB"):
        check_views(game, FogWatch.new(), None, position_of)


# --- the arrays' hash worked out from the rows changed since the last check ----------------------------------
@pytest.mark.parametrize(("scenario", "seed"), [("gazala-gallop", 3), ("first-alamein", 4)])
def test_the_arrays_hash_from_the_rows_changed_is_the_hash_from_every_row(scenario: str, seed: int) -> None:
    game = Game(load_scenario(scenario), seed=seed)
    rng = random.Random(seed)
    arrays_key = ArraysKey()
    for _ in range(300):
        if game.decision is None:
            break
        game.play(rng.choice(game.legal_orders()))
        if game.can_undo() and rng.random() < 0.2:
            game.pop()
        units = game.state.units
        if rng.random() < 0.1:  # rows changed past the incremental hash: the fresh one still follows the arrays
            i = rng.randrange(len(units.hex))
            units.flags[i] ^= 1 << rng.randrange(7)
            units.steps[i] += 1
            units.hex[i] = rng.randrange(-1, len(game.scenario.map.hexes))
        assert arrays_key.of(units) == units.key_afresh()
        units.z = units.key_afresh()  # (the game's own hash made right again, so that play goes on)


def test_a_write_past_the_arrays_hash_is_caught_by_the_check_from_the_rows_changed() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Pz2", "axis", "B1") + unit_toml("Tommy", "allied", "C12"))
    arrays_key = ArraysKey()
    check_hashes(game, arrays_key)
    for order in (Move("Pz", (H("A1"), H("A2"))), Move("Pz2", (H("B1"), H("B2")))):
        game.play(order)
        check_hashes(game, arrays_key)
    game.state.units.flags[game.unit_ids.index("Tommy")] |= FAMILY_BITS["moved"]  # a write to the arrays past the hash
    with pytest.raises(InvariantError, match="unit arrays' incremental hash"):
        check_hashes(game, arrays_key)
    game.state.units.flags[game.unit_ids.index("Tommy")] &= ~FAMILY_BITS["moved"]
    check_hashes(game, arrays_key)
    game.state.units.z ^= 1  # a hash that went wrong while the arrays did not change
    with pytest.raises(InvariantError, match="unit arrays' incremental hash"):
        check_hashes(game, arrays_key)


@pytest.mark.parametrize("where", ["legal_orders", "log"])
def test_a_face_down_counters_id_inside_a_longer_word_is_no_leak(gazala: Scenario, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    # the orders and the new log lines are read word by word: "11ATB" or "1ATB-2" names another counter
    game = face_down_game(gazala)

    def wordy_view(g: Game, side: Side) -> Any:
        seen = view(g, side)
        if side is Side.AXIS:
            seen[where] = [*seen[where], "move 11ATB E5-E6", "1ATB-2 holds"]
        return seen

    monkeypatch.setattr("tobruk.tools.fuzz.view", wordy_view)
    check_views(game, FogWatch.new(), None, position_of)
