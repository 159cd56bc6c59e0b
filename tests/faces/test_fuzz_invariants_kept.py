"""The systems' fuzzer invariants keep what they read once per determination or per order (the supply marks, the
truck convoys counted from the orders) in the game's search cache: through random games with undo, and with
positions broken by hand, they find exactly what the same hooks find on a copy of the game with nothing kept."""

from __future__ import annotations

import random

import pytest

from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala.actions import Convoy


@pytest.mark.parametrize(
    ("scenario", "options", "seed"), [("gazala-gallop", (), 4), ("gazala-gallop", ("nonhistorical",), 5), ("first-alamein", (), 6)]
)
def test_invariants_with_kept_answers_find_what_fresh_ones_find(scenario: str, options: tuple[str, ...], seed: int) -> None:
    game = Game(load_scenario(scenario), seed=seed, options=options)
    rng = random.Random(seed)
    caught = 0
    for _ in range(400):
        if game.decision is None:
            break
        step = game.step
        game.play(rng.choice(game.legal_orders()))
        if game.can_undo() and rng.random() < 0.2:  # undo (the kept counts are cut back) and play on
            game.pop()
            step = game.step
            game.play(rng.choice(game.legal_orders()))
        problems = game.system.invariants(game, step)
        assert problems == game.copy().system.invariants(game.copy(), step) == []  # a copy keeps nothing
        if rng.random() < 0.2:  # the game as a bug would leave it, its answers kept: found as afresh, then put right
            uid = rng.choice(game.unit_ids)
            unit = family_unit(game, uid)
            unit.out_of_supply, unit.hidden = not unit.out_of_supply, not unit.hidden
            if scenario == "gazala-gallop":
                game.history.extend([Convoy(uid)] * 7)  # over either side's limit
            problems = game.system.invariants(game, step)
            fresh = game.copy()
            assert problems == fresh.system.invariants(fresh, step)
            caught += bool(problems)
            unit.out_of_supply, unit.hidden = not unit.out_of_supply, not unit.hidden
            if scenario == "gazala-gallop":
                del game.history[-7:]
            assert game.system.invariants(game, step) == []
    assert caught > 10
