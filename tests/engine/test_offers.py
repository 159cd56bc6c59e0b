"""The legal actions as a face that knows no game offers them (tobruk.engine.offers), on the toy system: one entry per
legal id with its gesture, heading, label, fields and the unit and hex it picks; nothing once the game is over.  (A composite
gathered from the units the rules let join each target is tested with the system that has one.)"""

from __future__ import annotations

from tests.toy_system import toy_scenario
from tobruk.engine.game import Game
from tobruk.engine.offers import offers


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


def test_nothing_is_offered_once_the_game_is_over() -> None:
    game = Game(toy_scenario())
    game.state.over = True
    assert offers(game) == {"actions": [], "composites": []}
