"""The legal actions as a face that knows no game offers them (tobruk.engine.offers): one entry per legal id with its
gesture, heading, label, fields and the unit and hex it picks; the attack gathered from the units the rules let join
each target; the parts one by one while a declaration is under way."""

from __future__ import annotations

from tests.conftest import attack_game, unit_toml
from tests.toy_system import toy_scenario
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.mechanics.actions import Target


def test_every_legal_id_is_offered_once_with_how_it_is_made() -> None:
    game = Game(toy_scenario())
    offered = offers(game)
    ids = [e["id"] for e in offered["actions"]]
    assert sorted(ids) == game.legal_id_list() and offered["composites"] == []
    by_id = game.legal_ids()
    for e in offered["actions"]:
        action = by_id[e["id"]]
        assert (e["verb"], e["gesture"], e["label"], e["group"]) == (action.verb, action.gesture, action.notation(), action.group())
        assert game.system.vocabulary.from_fields(e["fields"]) == action
    end = next(e for e in offered["actions"] if e["verb"] == "end-phase")
    assert end["gesture"] == "press" and "unit" not in end and "hex" not in end
    trucks = [e for e in offered["actions"] if e["group"] == "move by-trucks"]
    # TOY-1: the infantry Scout in B3 may march two hexes by trucks to land no enemy holds: D3 is one of them
    assert trucks and all(e["unit"] == "Scout" and e["gesture"] == "unit-hex" for e in trucks)
    assert "D3" in {e["hex"] for e in trucks} and all(e["hex"] == e["fields"]["path"][-1] for e in trucks)


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


def test_nothing_is_offered_once_the_game_is_over() -> None:
    game = Game(toy_scenario())
    game.state.over = True
    assert offers(game) == {"actions": [], "composites": []}
