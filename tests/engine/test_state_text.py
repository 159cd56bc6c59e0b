"""The state hash's text, put together from cached pieces, is the definition's byte for byte, for every system.

The definition is ``json.dumps(game.state_data(), sort_keys=True, separators=(",", ":"))``: the text every game
record's hashes are made from.  The fast text keeps pieces (a unit's entry, a variable's value, a frame) and
must never serve one that no longer holds, so these tests compare the two at every position of whole random
games of every case (undo included, where the old pieces come back) and after changes made by hand past
the engine, as rules and tests make them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random

import pytest

from tests.engine.cases import CASES, IDS, Case
from tests.engine.test_position_hash import change_every_field, changed, put_back
from tests.toy_system import toy_scenario
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side


def definition(game: Game) -> str:
    return json.dumps(game.state_data(), sort_keys=True, separators=(",", ":"))


def same(game: Game) -> None:
    text = definition(game)
    assert game.state_text() == text
    assert game.state_hash() == hashlib.sha256(text.encode()).hexdigest()[:32]


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_text_is_the_definitions_through_a_random_game_with_undo(case: Case, seed: int) -> None:
    game = case.game(seed)
    rng = random.Random(seed)
    same(game)
    while game.decision is not None:
        game.play(rng.choice(game.legal_orders()))
        same(game)
        if game.can_undo() and rng.random() < 0.2:
            action = game.pop()
            same(game)  # the position before: its pieces were made before and must still hold
            game.play(action)
            same(game)
    assert game.is_over


def test_a_frame_on_the_decision_stack_shows_in_the_text() -> None:
    game = Game(toy_scenario(full=True), dice=ForcedDice([6]))
    game.play("fire Scout A4")  # TOY-5: a 6 hits the Lancers, whose owner must answer: a frame on the stack
    same(game)
    assert json.loads(game.state_text())["stack"] == [{"frame": "Hit", "unit": "Lancer"}]
    game.play("stand Lancer")
    same(game)
    assert json.loads(game.state_text())["stack"] == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_copy_shares_the_pieces_but_has_its_own_text(case: Case) -> None:
    game = case.game(3)
    same(game)
    other = game.copy()
    rng = random.Random(3)
    for _ in range(30):
        if other.decision is None:
            break
        other.play(rng.choice(other.legal_orders()))
    same(other)
    same(game)
    assert game.state_text() != other.state_text()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_units_changed_by_hand_show_in_the_text(case: Case) -> None:
    game = case.game(1)
    same(game)
    for side in Side:
        uid = game.units_of(side)[0]
        restore = put_back(game, uid)
        for write in change_every_field(game, uid):
            write()
            same(game)
        game.unit(uid).hex = None  # off the map: the hex is null
        same(game)
        entry = json.loads(game.state_text())["units"][uid]
        assert entry["hex"] is None and entry == {**game.unit(uid).to_data(), "hex": None}
        restore()
        same(game)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_variables_assigned_by_hand_show_in_the_text(case: Case) -> None:
    game = case.game(1)
    same(game)
    v = game.vars
    for f in dataclasses.fields(v):  # each, in the key or left out of it (a record for people is in the text all the same)
        old = getattr(v, f.name)
        new = changed(old)
        if new is NotImplemented:
            continue
        setattr(v, f.name, new)
        same(game)
        setattr(v, f.name, dict(old) if isinstance(old, dict) else old)  # an equal value again, as a new object
        same(game)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_vars_object_replaced_by_a_copy_and_changed_shows_in_the_text(case: Case) -> None:
    game = case.game(2)
    same(game)
    before = game.state_text()
    game.state.vars = game.state.vars.copy()
    assert game.state_text() == before
    for f in dataclasses.fields(game.state.vars):
        new = changed(getattr(game.state.vars, f.name))
        if new is not NotImplemented:
            setattr(game.state.vars, f.name, new)
            break
    same(game)
    assert game.state_text() != before or not dataclasses.fields(game.state.vars)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_changing_the_plain_data_handed_out_changes_nothing_kept(case: Case) -> None:
    game = case.game(4)
    text = game.state_text()
    data = game.state_data()
    data["units"][game.unit_ids[0]]["hex"] = "Z99"
    for name in data["vars"]:
        data["vars"][name] = "snow"
    data["turn"] = 99
    assert game.state_text() == text == definition(game)
