"""The campaign's game through the engine's contracts: the same seed and orders give the same positions, every
order can be undone to the position before it and played again to the same one, the incremental hashes agree
with hashes worked out afresh, a copy plays on by itself, every listed order is made again from its notation and
its fields; and the faces still refuse the system until combat is played."""

from __future__ import annotations

import random

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.system import RulesNotPlayed
from tobruk.mechanics.actions import Move
from tobruk.tools.fuzz import check_hashes, check_undo

from .kit import new_game, scenario


def walk(game: Game, seed: int, orders: int) -> list[str]:
    """Random legal moves and ends of steps (allocations have tests of their own: resolving one is refused until
    combat is played); the state hash after each."""
    rng = random.Random(seed)
    hashes = []
    for _ in range(orders):
        if game.is_over:
            break
        legal = game.legal_orders()
        moves = [a for a in legal if isinstance(a, Move)]
        order = rng.choice(moves) if moves and rng.random() < 0.8 else legal[-1]
        before = game.state_hash()
        try:
            game.play(order)
        except IllegalOrderError as e:  # over-stacked at the end of a movement step (CA-K.1): move on
            assert e.clause == "CA-K.1" and game.state_hash() == before
            continue
        check_hashes(game)
        check_undo(game, order, before)
        assert game.system.vocabulary.parse(order.notation()) == order
        assert game.system.vocabulary.from_fields(order.fields()) == order
        hashes.append(game.state_hash())
    return hashes


@pytest.mark.rule("CA-Q.1")
def test_same_seed_same_orders_same_positions_and_undo_restores_each() -> None:
    a = walk(new_game("na-gazala", seed=3), 7, 60)
    b = walk(new_game("na-gazala", seed=3), 7, 60)
    assert a == b and len(a) > 40


@pytest.mark.rule("CA-Q.2")
def test_a_copy_plays_on_by_itself() -> None:
    game = new_game("na-crusader", seed=1)
    walk(game, 2, 8)
    copy = game.copy()
    before = game.state_hash()
    walk(copy, 5, 8)
    assert game.state_hash() == before
    assert walk(game.copy(), 5, 8) == walk(game.copy(), 5, 8)


def test_the_faces_refuse_the_campaign_until_combat_is_played() -> None:
    with pytest.raises(RulesNotPlayed):
        Game(scenario("na-gazala"))
