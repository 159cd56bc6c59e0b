"""A view's unit entries are made once per unit, hex and status bits and copied into each view: a caller that
changes the entries it was handed (a face adding a field, a list sorted again) changes no later view."""

from __future__ import annotations

import copy
import random

import pytest

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.view import view


def test_changing_a_views_unit_entries_changes_no_later_view() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=6, options=("nonhistorical",))
    rng = random.Random(6)
    for _ in range(60):
        game.play(rng.choice(game.legal_orders()))
    for side in Side:
        seen = view(game, side)
        kept = copy.deepcopy(seen)
        for entry in seen["units"]:
            entry["hex"] = "Z99"
            entry["hidden"] = not entry["hidden"]
            entry["extra"] = 1
            if "flags" in entry:
                entry["flags"].append("changed")
        assert view(game, side) == kept
        game.forget_caches()
        assert view(game, side) == kept  # and the same as made afresh


@pytest.mark.parametrize(("scenario", "options"), [("gazala-gallop", ("nonhistorical",)), ("first-alamein", ())])
def test_every_view_of_random_games_equals_one_made_by_a_game_with_nothing_kept(scenario: str, options: tuple[str, ...]) -> None:
    """The parts of a view kept across positions (a side's own entries, the enemy's look) never go stale: at every
    position of random games, undos included, each side's view equals the view of a copy, which keeps nothing."""
    game = Game(load_scenario(scenario), seed=11, options=options)
    rng = random.Random(11)
    looked = 0
    while game.decision is not None and looked < 400:
        for side in Side:
            assert view(game, side) == view(game.copy(), side)
        looked += 1
        game.play_id(rng.choice(game.legal_id_list()))
        if rng.random() < 0.2 and game.can_undo():
            game.pop()
    assert looked == 400
