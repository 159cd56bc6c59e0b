"""The Gazala part of a side's view (tobruk/systems/gazala/faces.py): the weather, the declared attacks not yet
resolved, each with its number, notation, defending hexes and attackers, the same for both sides (a declaration is
made in the open, GG-XIV.A.4), and the result, none until the game ends."""

from __future__ import annotations

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.systems.gazala.faces import view

H = Hex.parse


def test_the_view_lists_the_declared_attacks_until_they_are_resolved() -> None:
    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4")
        + unit_toml("Att2", "axis", "A4", factors="2-1-4")
        + unit_toml("Def", "allied", "B4", factors="1-2-2")
    )
    assert view(game, Side.AXIS) == {"weather": "clear", "supply": {}, "attacks": [], "result": None}
    game.play(Attack((H("B4"),), ("Att", "Att2")))
    declared = {"id": 1, "order": "attack B4 with Att,Att2", "defenders": ["B4"], "attackers": ["Att", "Att2"], "resolved": False}
    for side in Side:
        assert view(game, side) == {"weather": "clear", "supply": {}, "attacks": [declared], "result": None}
    game.play("resolve 1")
    while game.decision is not None and game.decision.phase == "axis-attacks" and game.state.stack:
        game.play(game.legal_orders()[0])  # (the battle's own questions: retreats, No Retreat! orders)
    assert view(game, Side.AXIS)["attacks"] == []
