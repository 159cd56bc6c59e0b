"""The state hash's text keeps up with The Gazala Gallop's variables assigned by hand (the air units, the weather, the
final result, the supply lines, the boxes eliminated, a declared attack): the text is its definition's, byte for
byte.  (The same for every system's variables, units and games: tests/engine/test_state_text.py.)"""

from __future__ import annotations

from typing import Any

from tests.engine.test_state_text import same
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import DeclaredAttack

H = Hex.parse


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
