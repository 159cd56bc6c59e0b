"""The Gazala Gallop's attack as the faces are offered it (tobruk.engine.offers): gathered from the units the rules let
join each target; a declaration under way (begun by typing its parts) is not offered part by part, where no odds are
shown: the face offers only to drop it, and the attack is gathered again on the map."""

from __future__ import annotations

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.offers import offers
from tobruk.mechanics.actions import Target


def test_an_attack_is_offered_with_the_units_that_may_join_each_target() -> None:
    # GG-XIV.A: an attacker must be next to the hex it attacks: Near (B3) may attack B4, Far (A1) may not
    units = unit_toml("Near", "axis", "B3") + unit_toml("Far", "axis", "A1") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game = attack_game(units)
    offered = offers(game)
    (attack,) = offered["composites"]
    target_id = next(e["id"] for e in offered["actions"] if e["label"] == "target B4")
    assert attack == {
        "verb": "attack",
        "gesture": "group-target",
        "group": "attack",
        "label": "attack",
        "says": "Attack: gather the units on the map, then click the target",
        "fields": {"verb": "attack"},
        "gather": "attackers",
        "target": "defenders",
        "targets": [{"hex": "B4", "id": target_id, "units": ["Near"]}],
    }
    assert next(e for e in offered["actions"] if e["id"] == target_id)["part_of"] == "attack"
    assert game.notation() == attack_game(units).notation()  # trying the target changed nothing


def test_a_declaration_under_way_is_offered_only_to_be_dropped() -> None:
    units = unit_toml("Near", "axis", "B3") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game = attack_game(units)
    game.play(Target(Hex.parse("B4")))
    offered = offers(game)
    assert offered["composites"] == []
    by_verb = {e["verb"]: e for e in offered["actions"]}
    assert by_verb["add"]["unit"] == "Near" and by_verb["add"]["part_of"] == "attack"  # (listed, never offered alone)
    assert "part_of" not in by_verb["abandon"] and by_verb["abandon"]["gesture"] == "press"
