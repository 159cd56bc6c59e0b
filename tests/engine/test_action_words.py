"""What each action does, in words (:meth:`Action.says`), as a face offers it on a button instead of its notation: every
action type of every system has words of its own, every action offered in a game's walk says in words what it does
(naming the unit and the hex it picks; its own words, unless the node deciding gives them in context), and an
action whose route is chosen hex by hex (a retreat) is offered with it."""

from __future__ import annotations

import pytest

from tests.engine.cases import CASES, IDS, Case, walk
from tobruk.engine.flow import Node
from tobruk.engine.offers import offers
from tobruk.engine.system import registered_systems


def test_every_action_type_of_every_system_has_words_of_its_own() -> None:
    for kind in registered_systems():
        for action_type in kind.vocabulary:
            if action_type.composite:
                continue  # (made by gathering on the map, never offered as a button)
            has_words = bool(action_type.says_text) or any("says" in c.__dict__ for c in action_type.__mro__[:-2])
            assert has_words, f"{kind.__name__}: {action_type.__name__} says nothing in words"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_offered_action_says_what_it_does_in_words(case: Case) -> None:
    seen: set[str] = set()
    for game in walk(case.game(5), 5, 150):
        by_id = game.legal_ids()
        for e in offers(game)["actions"]:
            action = by_id[e["id"]]
            assert e["says"] and e["says"] != e["label"], e
            if type(game.node).says is Node.says:  # (a node may give the words in context: who acts, what he risks)
                assert e["says"] == action.says(), e
            for name in ("unit", "hex"):
                if name in e:
                    assert e[name] in e["says"], e  # (the words name what the click picks)
            if action.stepwise:
                assert e["route"] == [h.label for h in action.route()] and e["route"][-1] == e["hex"]
            else:
                assert "route" not in e
            seen.add(e["verb"])
    assert "end-phase" in seen or len(seen) >= 2
