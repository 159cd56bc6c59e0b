"""Listings given in blocks (``Node.action_blocks``, engine/listing.py): a block made on demand gives its actions' ids
from their keys and its notation without making them, makes each action once, the same object on every read, and a
listing reads from its blocks only the actions asked for."""

from __future__ import annotations

import pytest

from tests.engine.cases import CASES, IDS, Case, walk
from tests.toy_system import Marches, toy_scenario
from tobruk.engine.actions import ActionBlock
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_blocks_give_the_ids_and_notation_of_the_actions_they_make_and_the_lazy_listing_is_the_listing(case: Case) -> None:
    game = case.game(seed=3)
    for g in walk(game, 3, 150):
        d = g.decision
        assert d is not None
        space = g.action_space
        for block in g.node.action_blocks(g, d):
            if not isinstance(block, ActionBlock):
                continue
            ids, texts = block.ids(space), block.texts()  # (asked before any action is made)
            actions = [block[i] for i in range(len(block))]
            assert ids == tuple(space.id_of(a) for a in actions)  # keys alone give the actions' own ids
            assert texts == tuple(a.notation() for a in actions)
            assert [block[i] is actions[i] for i in range(len(block))] == [True] * len(block)  # made once, kept
            assert list(block) == actions and list(block[1:3]) == actions[1:3] and block[-1] is actions[-1]
        seq, orders = g.legal_sequence(), g.legal_orders()
        assert len(seq) == len(orders) and list(seq) == orders and seq[-1] == orders[-1] and list(seq[1:4]) == orders[1:4]
        with pytest.raises(IndexError):
            seq[len(orders)]


def allied_march() -> Game:
    """The toy's full skirmish at the Allied march of turn 1, both Allied units free to march: the Scouts fired (and
    missed) and marched away by trucks to D3, out of reach of the Lancers (A4) and the Guards (B6)."""
    game = Game(toy_scenario(full=True), dice=ForcedDice([1]))
    for order in ("fire Scout A4", "move Scout B3-D3 by-trucks", "end-phase"):
        game.play(order)
    return game


def marches(game: Game) -> list[Marches]:
    blocks = [b for b in game._listed().blocks if isinstance(b, Marches)]
    assert [b.unit for b in blocks] == ["Guard", "Lancer"] and all(len(b) > 2 for b in blocks)
    return blocks


def made(blocks: list[Marches]) -> list[int]:
    return [sum(m is not None for m in b.made) for b in blocks]


def test_a_game_plays_an_action_of_a_block_by_id_without_the_others_being_made() -> None:
    game = allied_march()
    blocks = marches(game)
    target = blocks[1].ids(game.action_space)[2]
    assert target in game.legal_id_list() and made(blocks) == [0, 0]  # listing the ids made no action
    played = game.play_id(target)
    assert made(blocks) == [0, 1] and played is blocks[1][2] and game.unit("Lancer").hex == blocks[1].ends[2][0]


def test_the_legal_sequence_is_the_legal_orders_each_made_only_when_read() -> None:
    game = allied_march()
    seq = game.legal_sequence()
    blocks = marches(game)
    assert game.legal_notation() and made(blocks) == [0, 0]  # the notation made no action either
    k = len(blocks[0]) + 2  # the third march of the second unit's block
    picked = seq[k]
    assert made(blocks) == [0, 1]  # only the march read was made
    orders = game.legal_orders()
    assert len(seq) == len(orders) and picked == orders[k] and picked is blocks[1][2]
    assert list(seq) == orders and seq[-1] == orders[-1] and list(seq[1:4]) == orders[1:4]
    with pytest.raises(IndexError):
        seq[len(orders)]
