"""The state hash's text, put together from cached pieces, is the definition's byte for byte.

The definition is ``json.dumps(game.state_data(), sort_keys=True, separators=(",", ":"))``: the text every game
record's hashes are made from.  The fast text keeps pieces (a unit's entry, a variable's value, a frame) and
must never serve one that no longer holds, so these tests compare the two at every position of whole random
games of both systems (undo included, where the old pieces come back) and after changes made by hand past
the engine, as rules and tests make them.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import DeclaredAttack
from tobruk.mechanics.counters import family_unit

H = Hex.parse


def definition(game: Game) -> str:
    return json.dumps(game.state_data(), sort_keys=True, separators=(",", ":"))


def same(game: Game) -> None:
    text = definition(game)
    assert game.state_text() == text
    assert game.state_hash() == hashlib.sha256(text.encode()).hexdigest()[:32]


@pytest.mark.whole_game
@pytest.mark.parametrize(
    ("scenario", "options"),
    [("gazala-gallop", ()), ("gazala-gallop", ("nonhistorical",)), ("first-alamein", ())],  # face-down counters in the second
)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_text_is_the_definitions_through_a_random_game_with_undo(scenario: str, options: tuple[str, ...], seed: int) -> None:
    game = Game(load_scenario(scenario), seed=seed, options=options)
    rng = random.Random(seed)
    same(game)
    while game.decision is not None:
        game.play(rng.choice(game.legal_orders()))
        same(game)
        if game.can_undo() and rng.random() < 0.2:
            action = game.history[-1]
            game.pop()
            same(game)  # the position before: its pieces were made before and must still hold
            game.play(action)
            same(game)
    assert game.is_over


def test_a_copy_shares_the_pieces_but_has_its_own_text() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=3)
    same(game)
    other = game.copy()
    rng = random.Random(3)
    for _ in range(30):
        other.play(rng.choice(other.legal_orders()))
    same(other)
    same(game)
    assert game.state_text() != other.state_text()


def test_units_changed_by_hand_show_in_the_text() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "C12"))
    same(game)
    u = family_unit(game, "Pz")
    u.hex = H("B2")
    same(game)
    u.disrupted = True
    u.out_of_supply = True
    same(game)
    u.steps = u.steps + 1
    same(game)
    u.hex = None  # off the map: the hex is null
    same(game)
    assert '"Pz":{"activated":false,"attacked":false,"disrupted":true,"eliminated":false,"hex":null' in game.state_text()
    u.hex, u.disrupted, u.out_of_supply, u.steps = H("A1"), False, False, u.steps - 1
    same(game)


def test_variables_assigned_by_hand_show_in_the_text() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=1)
    same(game)
    v: Any = game.vars
    v.air = v.air | {"DAF": (1, 2)}
    same(game)
    v.air = {k: x for k, x in v.air.items() if k != "DAF"}  # an equal value again, as a new object
    same(game)
    v.weather = "sandstorm"
    same(game)
    v.result = {"winner": "axis", "lines": ["a", "b"]}  # a field left out of the key is in the text all the same
    same(game)
    v.supply = {"axis": {"15Pz": {"supplied": True, "how": "road", "route": [H("A1"), H("A2")], "hex": "A2"}}}
    same(game)
    v.boxes_eliminated = (*v.boxes_eliminated, "G8")
    same(game)
    v.attacks = (*v.attacks, DeclaredAttack(1, Attack((H("G8"),), ("15Pz",))))
    same(game)


def test_a_vars_object_replaced_by_a_copy_and_changed_shows_in_the_text() -> None:
    game = Game(load_scenario("first-alamein"), seed=2)
    same(game)
    before = game.state_text()
    game.state.vars = game.state.vars.copy()
    assert game.state_text() == before
    game.state.vars.boxes_eliminated = ("X1",)
    same(game)
    assert game.state_text() != before


def test_changing_the_plain_data_handed_out_changes_nothing_kept() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=4)
    text = game.state_text()
    data = game.state_data()
    data["units"][game.unit_ids[0]]["hex"] = "Z99"
    data["vars"]["weather"] = "snow"
    data["turn"] = 99
    assert game.state_text() == text == definition(game)
