"""Random games of the family's systems reach combat and roll its dice through chance nodes, each checked as the
engine checks every roll (tests/engine/test_chance.py: outcomes distinct, positive and summing to 1, the chosen one
recorded as the roll, no die rolled outside a chance node)."""

from __future__ import annotations

import pytest

from tests.engine.cases import Case
from tests.engine.test_chance import rolls_of_a_random_game

GAMES = [("gazala-gallop", [], 1), ("gazala-gallop", ["nonhistorical"], 2), ("gazala-gallop", [], 3), ("first-alamein", [], 4)]


@pytest.mark.whole_game
@pytest.mark.parametrize(("scenario", "options", "seed"), GAMES)
def test_every_roll_of_random_games_is_a_chance_node_combat_included(scenario: str, options: list[str], seed: int) -> None:
    purposes = rolls_of_a_random_game(Case(scenario, scenario, tuple(options)), seed)  # (each system named as its scenario)
    assert purposes["combat,"] > 0
