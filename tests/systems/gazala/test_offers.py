"""The Gazala Gallop's attack as the faces are offered it (tobruk.engine.offers): gathered from the units the rules let
join each target, then its parts one by one while the declaration is under way."""

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
        "fields": {"verb": "attack"},
        "gather": "attackers",
        "target": "defenders",
        "targets": [{"hex": "B4", "id": target_id, "units": ["Near"]}],
    }
    assert next(e for e in offered["actions"] if e["id"] == target_id)["part_of"] == "attack"
    assert game.notation() == attack_game(units).notation()  # trying the target changed nothing


def test_a_declaration_under_way_offers_its_parts_one_by_one() -> None:
    units = unit_toml("Near", "axis", "B3") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game = attack_game(units)
    game.play(Target(Hex.parse("B4")))
    offered = offers(game)
    assert offered["composites"] == []
    kinds = {(e["verb"], e["gesture"]) for e in offered["actions"]}
    assert ("add", "unit") in kinds and ("abandon", "press") in kinds
    assert next(e for e in offered["actions"] if e["verb"] == "add")["unit"] == "Near"
