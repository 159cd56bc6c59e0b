"""The position's incremental hashes (the key of every position cache) agree with the position, for every system.

The unit arrays carry a Zobrist hash updated by every write and the system's variables a hash updated by every
assignment; these tests check, through whole random games and by hand, that each equals the same hash worked
out afresh, that equal positions give equal keys and different ones different keys, that the variables cannot be
changed behind the hash's back, and that copies and undo keep games apart.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.engine.cases import CASES, IDS, Case, undoable, walk
from tobruk.engine.actions import Action
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import ZobristKeys
from tobruk.engine.vars import FrozenDict, Vars, freeze


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


@dataclass
class Probe(Vars):
    """Variables made up here: a number, a dict, and a record for people the key leaves out."""

    count: int = 0
    air: dict[str, tuple[int, int]] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict, metadata={"key": False})


def test_assigning_a_variable_updates_its_key_and_in_place_changes_are_refused() -> None:
    v = Probe()
    before = v.key()
    with pytest.raises(TypeError, match="immutable"):
        v.air["DAF"] = (1, 2)
    assert v.key() == before == v.key_afresh()
    v.air = v.air | {"DAF": (1, 2)}
    assert v.key() != before and v.key() == v.key_afresh()
    v.air = {k: val for k, val in v.air.items() if k != "DAF"}
    assert v.key() == before  # back to the same value, back to the same key
    v.result = {"winner": "axis"}  # a record for people (metadata key False)
    assert v.key() == before


def changed(value: Any) -> Any:
    """Another value of the same kind as ``value`` (``NotImplemented`` for a kind this does not know)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "'"
    if value is None:
        return "changed"
    if isinstance(value, dict):
        return value | {"changed": 1}
    if isinstance(value, tuple):
        return (*value, "changed")
    if isinstance(value, frozenset):
        return value | {"changed"}
    return NotImplemented


def key_fields(v: Vars, *, key: bool = True) -> list[str]:
    return [
        f.name for f in dataclasses.fields(v) if f.metadata.get("key", True) is key and changed(getattr(v, f.name)) is not NotImplemented
    ]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_assigning_each_of_a_systems_variables_updates_its_key(case: Case) -> None:
    v = case.game(1).vars
    before = v.key()
    names = key_fields(v)
    assert names or not dataclasses.fields(v), "teach changed() the kinds of this system's variables"
    for name in names:
        old = getattr(v, name)
        setattr(v, name, changed(old))
        assert v.key() != before and v.key() == v.key_afresh(), name
        setattr(v, name, dict(old) if isinstance(old, dict) else old)  # (a dict: an equal one, a new object)
        assert v.key() == before == v.key_afresh(), name  # back to the same value, back to the same key
    for name in (f.name for f in dataclasses.fields(v) if isinstance(getattr(v, f.name), FrozenDict)):
        with pytest.raises(TypeError, match="immutable"):
            getattr(v, name)["changed"] = 1  # changed in place: refused


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fields_left_out_of_the_key_do_not_change_it(case: Case) -> None:
    v = case.game(1).vars
    before = v.key()
    for name in key_fields(v, key=False):  # records for people (metadata key False)
        setattr(v, name, changed(getattr(v, name)))
        assert v.key() == before, name


def change_every_field(game: Game, uid: str) -> list[Callable[[], object]]:
    """Writes to every field of one unit's row, each making a row unlike any before it: two other hexes (and off the
    map, for a unit on it), each status the other way, another step count, each number changed."""
    u = game.unit(uid)
    one, two = [h for h in game.scenario.map.hexes if h != u.hex][:2]
    writes: list[Callable[[], object]] = [lambda: setattr(u, "hex", one), lambda: setattr(u, "hex", two)]
    if u.hex is not None:
        writes.append(lambda: setattr(u, "hex", None))

    def flip(name: str) -> Callable[[], object]:
        return lambda: u.set_flag(name, not u.flag(name))

    def count(name: str) -> Callable[[], object]:
        return lambda: u.set_number(name, u.number(name) + 1)

    writes += [flip(name) for name in u.statuses]
    writes.append(lambda: setattr(u, "steps", u.steps + 1))
    writes += [count(name) for name in u.numbers]
    return writes


def put_back(game: Game, uid: str) -> Callable[[], None]:
    """How to write one unit's row back as it is now, field by field."""
    u = game.unit(uid)
    at, flags, steps, numbers = u.hex, {name: u.flag(name) for name in u.statuses}, u.steps, {n: u.number(n) for n in u.numbers}

    def write() -> None:
        u.hex, u.steps = at, steps
        for name, flag in flags.items():
            u.set_flag(name, flag)
        for name, number in numbers.items():
            u.set_number(name, number)

    return write


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_unit_writes_keep_the_zobrist_hash(case: Case) -> None:
    game = case.game(1)
    units = game.state.units
    for uid in game.unit_ids:
        u = game.unit(uid)
        start, restore = units.z, put_back(game, uid)
        seen = {start}
        for write in change_every_field(game, uid):
            write()
            assert units.z == units.key_afresh() and units.group_z == units.group_key_afresh()
            assert units.z not in seen  # a new value: a new hash
            seen.add(units.z)
        z = units.z
        for name in u.statuses:
            u.set_flag(name, u.flag(name))  # setting a bit to what it is changes nothing
        assert units.z == z == units.key_afresh()
        restore()
        assert units.z == start and units.group_z == units.group_key_afresh()  # the same arrays, the same hash


def test_step_counts_beyond_the_table_have_keys_too() -> None:
    keys = ZobristKeys(2, 5)
    assert keys.of_steps(0, ZobristKeys.STEPS) != keys.of_steps(0, ZobristKeys.STEPS + 1)
    assert keys.of_steps(0, 3) != keys.of_steps(1, 3)
    assert keys.of_hex(0, -1) != keys.of_hex(0, 0)  # off the map is a value of its own


@pytest.mark.whole_game
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_incremental_hashes_agree_with_fresh_ones_through_a_random_game(case: Case) -> None:
    game = case.game(5)
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
            action = game.pop()  # the player's action, and the rules' replies to it if any
            game.play(action)
            assert game.position_key() == after


def distinct_undoables(game: Game, rng: random.Random, count: int) -> list[tuple[Action, str]]:
    """Up to ``count`` legal actions undo may take back, each with the text of the position it makes, all different."""
    found: dict[str, Action] = {}
    legal = game.legal_orders()
    for action in rng.sample(legal, min(24, len(legal))):
        trial = game.copy()
        trial.play(action)
        if trial.can_undo() and trial.decision is not None:
            found.setdefault(trial.state_text(), action)
        if len(found) == count:
            break
    return [(a, text) for text, a in found.items()]


def fork(case: Case, seed: int) -> tuple[Game, list[tuple[Action, str]], Action]:
    """A position of a random game with three actions undo may take back, making three different positions, after
    the first of which a fourth may be played and taken back (searched through random games of successive seeds)."""
    rng = random.Random(seed)
    for k in range(20):
        for game in walk(case.game(seed + k), seed + k, 200):
            choices = distinct_undoables(game, rng, 3)
            if len(choices) < 3:
                continue
            after = game.copy()
            after.play(choices[0][0])
            then = undoable(after, rng)
            if then is not None:
                return game.copy(), choices, then
    raise AssertionError("no such position found")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_copy_and_its_original_undo_into_positions_of_their_own(case: Case) -> None:
    game, ((a, text_a), (b, text_b), _), _ = fork(case, 2)
    start, log = game.state_text(), list(game.state.log)
    game.play(a)
    other = game.copy()
    game.pop()
    other.pop()
    assert game.state_text() == other.state_text() == start
    game.play(b)  # only the original changes ...
    assert game.state_text() == text_b and other.state_text() == start and other.state.units is not game.state.units
    assert other.state.log == log and (other.state.log != game.state.log or other.state.entries is not game.state.entries)
    other.play(a)  # ... and the copy goes its own way
    assert game.state_text() == text_b and other.state_text() == text_a


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_cuts_the_log_back(case: Case) -> None:
    rng = random.Random(2)
    grew = 0
    for game in walk(case.game(2), 2, 60):
        action = undoable(game, rng, tries=4)
        if action is None:
            continue
        before, seen = list(game.state.log), {side: game.log_for(side) for side in Side}
        game.play(action)
        grew += len(game.state.log) > len(before)
        assert game.pop() == action
        assert game.state.log == before and {side: game.log_for(side) for side in Side} == seen
    assert grew > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_sides_key_changes_with_its_own_units_only(case: Case) -> None:
    game = case.game(1)
    for side in Side:
        mine, theirs = game.side_key(side), game.side_key(side.enemy)
        for uid in game.units_of(side):
            restore = put_back(game, uid)
            for write in change_every_field(game, uid):
                write()
                assert game.side_key(side) != mine and game.side_key(side.enemy) == theirs
            restore()
            assert (game.side_key(side), game.side_key(side.enemy)) == (mine, theirs)  # the rows back, the keys back


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_after_a_copy_keeps_both_games_apart_on_both_sides_of_the_copy_point(case: Case) -> None:
    game, ((p2, text2), (q, text_q), (r, text_r)), p3 = fork(case, 3)
    text1 = game.state_text()
    game.play(p2)
    other = game.copy()
    game.play(p3)  # after the copy: the original's own snapshot
    game.pop()
    game.pop()  # before the copy: shared with the copy
    assert game.state_text() == text1 and other.state_text() == text2
    game.play(q)
    other.pop()  # the copy undoes the same shared snapshot into a position of its own
    assert other.state_text() == text1 and game.state_text() == text_q
    other.play(r)
    assert game.state_text() == text_q and other.state_text() == text_r


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_sides_reading_of_the_log_and_dice_follows_undo_and_refusals(case: Case) -> None:
    game = case.game(3)
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
    v = Probe()
    v.air = {"DAF": (1, 2)}
    again = pickle.loads(pickle.dumps(v))
    assert again == v and again.key() == again.key_afresh() == v.key()
    with pytest.raises(TypeError, match="immutable"):
        again.air["LW"] = (1, 1)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_systems_variables_survive_pickling_with_their_hash_worked_out_again(case: Case) -> None:
    for game in walk(case.game(1), 1, 40):
        again = pickle.loads(pickle.dumps(game.vars))
        assert again == game.vars and again.key() == again.key_afresh() == game.vars.key()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_writes_the_units_back_into_the_same_arrays_so_unit_views_stay_live(case: Case) -> None:
    """Undo puts the unit rows back in place (a search's play and take-back would otherwise make every unit view it
    reads again): a view taken before an action reads the position after the undo, not the one before it."""
    rng = random.Random(5)
    checked = 0
    for game in walk(case.game(2), 5, 60):
        action = undoable(game, rng, tries=4)
        if action is None:
            continue
        views = {uid: game.unit(uid) for side in Side for uid in game.units_of(side)}
        before = {uid: view.value() for uid, view in views.items()}
        arrays, key = game.state.units, game.position_key()
        game.play(action)
        changed = {uid for uid, view in views.items() if view.value() != before[uid]}
        game.pop()
        assert game.state.units is arrays and game.position_key() == key
        assert {uid: view.value() for uid, view in views.items()} == before
        assert all(game.unit(uid) is view for uid, view in views.items())
        checked += bool(changed)
    assert checked > 0  # some of the actions taken back had changed a unit
