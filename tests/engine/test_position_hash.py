"""The position's incremental hashes (the key of every position cache) agree with the position.

The unit arrays carry a Zobrist hash updated by every write and the system's variables a hash updated by every
assignment; these tests check, through whole random games and by hand, that each equals the same hash worked
out afresh, that equal positions give equal keys and different ones different keys, and that the variables
cannot be changed behind the hash's back.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.state import ZobristKeys
from tobruk.engine.vars import FrozenDict, freeze
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse


def test_a_frozen_dict_refuses_every_change_and_hashes_by_content() -> None:
    d: FrozenDict[str, int] = FrozenDict({"a": 1, "b": 2})
    changes: tuple[Callable[[], object], ...] = (
        lambda: d.__setitem__("a", 3),
        lambda: d.__delitem__("a"),
        lambda: d.update({"c": 3}),
        lambda: d.pop("a"),
        lambda: d.popitem(),
        lambda: d.setdefault("c", 3),
        lambda: d.clear(),
    )
    for change in changes:
        with pytest.raises(TypeError, match="immutable"):
            change()
    assert d == {"a": 1, "b": 2}
    assert hash(d) == hash(FrozenDict({"b": 2, "a": 1}))  # the order of insertion does not matter
    assert d | {"a": 3} == {"a": 3, "b": 2} and d == {"a": 1, "b": 2}  # a changed copy leaves it as it was


def test_freeze_makes_nested_containers_immutable_and_keeps_equal_values_equal() -> None:
    value = freeze({"x": {"y": [1, 2], "z": {3}}})
    assert isinstance(value, FrozenDict) and isinstance(value["x"], FrozenDict)
    assert value["x"]["y"] == (1, 2) and value["x"]["z"] == frozenset({3})
    assert hash(value) == hash(freeze({"x": {"z": {3}, "y": [1, 2]}}))
    same = (1, "a")
    assert freeze(same) is same  # an immutable value is kept as it is


def test_assigning_a_variable_updates_its_key_and_in_place_changes_are_refused() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=1)
    v = gazala_vars(game)
    before = v.key()
    with pytest.raises(TypeError, match="immutable"):
        v.air["DAF"] = (1, 2)
    assert v.key() == before == v.key_afresh()
    v.air = v.air | {"DAF": (1, 2)}
    assert v.key() != before and v.key() == v.key_afresh()
    v.air = {k: val for k, val in v.air.items() if k != "DAF"}
    assert v.key() == before  # back to the same value, back to the same key


def test_fields_left_out_of_the_key_do_not_change_it() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=1)
    before = game.vars.key()
    game.vars.result = {"winner": "axis"}  # a record for people (metadata key False)
    game.vars.supply = {"axis": {}}
    assert game.vars.key() == before


def test_unit_writes_keep_the_zobrist_hash() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4"), rows=3, columns=12)
    units = game.state.units
    start = units.z
    u = family_unit(game, "Pz")
    u.hex = H("B2")
    moved = units.z
    assert moved != start and moved == units.key_afresh()
    u.disrupted = True
    u.disrupted = True  # setting a bit already set changes nothing
    assert units.z == units.key_afresh() != moved
    u.steps = u.steps + 1
    assert units.z == units.key_afresh()
    u.steps = u.steps - 1
    u.disrupted = False
    u.hex = H("A1")
    assert units.z == start  # the same arrays, the same hash
    assert units.group_z == units.group_key_afresh()


def test_step_counts_beyond_the_table_have_keys_too() -> None:
    keys = ZobristKeys(2, 5)
    assert keys.of_steps(0, ZobristKeys.STEPS) != keys.of_steps(0, ZobristKeys.STEPS + 1)
    assert keys.of_steps(0, 3) != keys.of_steps(1, 3)
    assert keys.of_hex(0, -1) != keys.of_hex(0, 0)  # off the map is a value of its own


@pytest.mark.whole_game
@pytest.mark.parametrize("scenario", ["gazala-gallop", "first-alamein"])
def test_incremental_hashes_agree_with_fresh_ones_through_a_random_game(scenario: str) -> None:
    game = Game(load_scenario(scenario), seed=5)
    rng = random.Random(5)
    seen: dict[int, str] = {}  # position key's hash -> the position it stood for (the dice are no part of it)
    for _ in range(400):
        if game.decision is None:
            break
        game.play(rng.choice(game.legal_orders()))
        s = game.state
        assert s.units.z == s.units.key_afresh()
        assert s.units.group_z == s.units.group_key_afresh()
        assert s.vars.key() == s.vars.key_afresh()
        key = hash(game.position_key())
        full = json.dumps({k: v for k, v in game.state_data().items() if k != "dice"}, sort_keys=True)
        assert seen.setdefault(key, full) == full  # one key, one position
        if game.can_undo():
            after = game.position_key()
            action = game.history[-1]
            game.pop()
            game.play(action)
            assert game.position_key() == after


def test_a_copy_and_its_original_undo_into_positions_of_their_own() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=2)
    game.play("place 15Pz K2")
    other = game.copy()
    game.pop()
    other.pop()
    game.play("place 15Pz K3")  # only the original changes ...
    assert family_unit(game, "15Pz").hex == H("K3")
    assert family_unit(other, "15Pz").hex != H("K3") and other.state.units is not game.state.units
    assert other.state.log != game.state.log or other.state.entries is not game.state.entries
    other.play("place 15Pz K2")  # ... and the copy goes its own way
    assert family_unit(game, "15Pz").hex == H("K3") and family_unit(other, "15Pz").hex == H("K2")


def test_undo_cuts_the_log_back() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=2)
    before = list(game.state.log)
    game.play("place 15Pz K2")
    assert len(game.state.log) > len(before)
    game.pop()
    assert game.state.log == before


def test_a_sides_key_changes_with_its_own_units_only() -> None:
    from tobruk.engine.sides import Side

    pz = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")
    tommy = unit_toml("Tommy", "allied", "C9", type_="infantry", factors="1-1-2")
    game = movement_game(pz + tommy, rows=3, columns=12)
    axis, allied = game.side_key(Side.AXIS), game.side_key(Side.ALLIED)
    family_unit(game, "Pz").hex = H("B2")
    assert game.side_key(Side.AXIS) != axis and game.side_key(Side.ALLIED) == allied
    family_unit(game, "Tommy").disrupted = True
    assert game.side_key(Side.ALLIED) != allied
    family_unit(game, "Pz").hex = H("A1")
    family_unit(game, "Tommy").disrupted = False
    assert (game.side_key(Side.AXIS), game.side_key(Side.ALLIED)) == (axis, allied)


def test_undo_after_a_copy_keeps_both_games_apart_on_both_sides_of_the_copy_point() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=2)
    game.play("place 15Pz K2")
    game.play("place 21Pz K3")
    other = game.copy()
    game.play("place 90Lt K4")  # after the copy: the original's own snapshot
    game.pop()
    game.pop()  # before the copy: shared with the copy
    assert family_unit(game, "21Pz").hex != H("K3") and family_unit(other, "21Pz").hex == H("K3")
    game.play("place 21Pz K5")
    other.pop()  # the copy undoes the same shared snapshot into a position of its own
    assert family_unit(other, "21Pz").hex != H("K3") and family_unit(game, "21Pz").hex == H("K5")
    other.play("place 21Pz K6")
    assert family_unit(game, "21Pz").hex == H("K5") and family_unit(other, "21Pz").hex == H("K6")
    assert family_unit(game, "15Pz").hex == family_unit(other, "15Pz").hex == H("K2")


def test_a_sides_reading_of_the_log_and_dice_follows_undo_and_refusals() -> None:
    from tobruk.engine.sides import Side

    game = Game(load_scenario("gazala-gallop"), seed=3)
    rng = random.Random(3)
    for _ in range(300):
        if game.decision is None:
            break
        game.play(rng.choice(game.legal_orders()))
        if rng.random() < 0.3 and game.can_undo():
            game.pop()
        for side in Side:
            expected = [t for e in game.state.entries if (t := e.seen_by(side)) is not None]
            assert game.log_for(side) == expected
            private = game.state.private_rolls
            assert game.rolls_for(side) == [r for i, r in enumerate(game.dice.log) if private.get(i, side.value) == side.value]
    copy = game.copy()
    assert copy.log_for(Side.AXIS) == game.log_for(Side.AXIS)


def test_variables_survive_pickling_with_their_hash_worked_out_again() -> None:
    import pickle

    game = Game(load_scenario("gazala-gallop"), seed=1)
    game.vars.air = {"DAF": (1, 2)}
    again = pickle.loads(pickle.dumps(game.vars))
    assert again == game.vars and again.key() == again.key_afresh() == game.vars.key()
    with pytest.raises(TypeError, match="immutable"):
        again.air["LW"] = (1, 1)
