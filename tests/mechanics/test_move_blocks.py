"""A unit's moves as a block made on demand (mechanics/move_blocks.py, on The Gazala Gallop's movement): their ids come
from the moves' keys without making the moves, and the moves they make are the same objects on every read, with the
ids those keys gave, one per destination along the route the search found.  (The engine's side of it, for every
system: tests/engine/test_action_blocks.py.)"""

from __future__ import annotations

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.mechanics.actions import Move
from tobruk.mechanics.move_blocks import MoveBlock
from tobruk.systems.gazala import moves as mv

H = Hex.parse


def test_a_move_block_gives_the_ids_of_the_moves_it_makes_and_makes_each_once() -> None:
    pz = unit_toml("Pz", "axis", "B5", type_="armour", factors="4-3-4")
    game = movement_game(pz, rows=5, columns=12)
    block = mv.move_orders(game, "Pz")
    assert isinstance(block, MoveBlock) and len(block) > 6
    space = game.action_space
    ids = block.ids(space)
    moves = list(block)
    assert ids == tuple(space.id_of(m) for m in moves)  # keys alone give the moves' own ids
    assert block.keys() == [(m.unit, m.path[-1], m.trucks) for m in moves]  # (the engine's plain way to the ids)
    assert ids == tuple(space.id_of_key(block.kind, key) for key in block.keys())
    assert all(isinstance(m, Move) and m.unit == "Pz" and m.path[0] == H("B5") for m in moves)
    assert [block[i] is moves[i] for i in range(len(block))] == [True] * len(block)  # made once, kept
    assert list(block[1:3]) == moves[1:3] and block[-1] is moves[-1]
    destinations = mv.destinations(game, "Pz")
    assert {m.path[-1] for m in moves} == set(destinations)  # one move per destination ...
    assert all(m.path == destinations[m.path[-1]].path for m in moves)  # ... along the route the search found
    assert [m.path[-1] for m in moves] == sorted(m.path[-1] for m in moves)  # in reading order


def test_a_game_plays_a_move_of_a_block_by_id_without_the_other_moves_being_made() -> None:
    pz = unit_toml("Pz", "axis", "B5", type_="armour", factors="4-3-4")
    game = movement_game(pz, rows=5, columns=12)
    block = mv.move_orders(game, "Pz")
    assert isinstance(block, MoveBlock)  # a unit that may move lists its moves as a block
    target = block.ids(game.action_space)[3]
    assert target in game.legal_id_list()
    assert sum(made is not None for made in block.made) == 0  # listing the ids made no move
    played = game.play_id(target)
    assert played is block[3] and game.unit("Pz").hex == played.path[-1]


def test_a_move_block_writes_its_moves_notation_without_making_them() -> None:
    units = unit_toml("Pz", "axis", "B5", type_="armour", factors="4-3-4") + unit_toml(
        "Inf", "axis", "C8", type_="infantry", factors="2-2-2"
    )
    game = movement_game(units, rows=5, columns=12)
    for uid, trucks in (("Pz", False), ("Inf", True)):
        block = mv.move_orders(game, uid, trucks)
        assert isinstance(block, MoveBlock) and len(block) > 3
        texts = block.texts()
        assert sum(made is not None for made in block.made) == 0  # none made for the text
        assert texts == tuple(m.notation() for m in block)  # Move.notation's words: "move Inf C8-C7 by-trucks"
        assert all(t.startswith(f"move {uid} ") and t.endswith(" by-trucks") == trucks for t in texts)


def test_the_legal_sequence_is_the_legal_orders_each_made_only_when_read() -> None:
    import pytest

    units = unit_toml("Pz", "axis", "B5", type_="armour", factors="4-3-4") + unit_toml("Ariete", "axis", "D9")
    game = movement_game(units, rows=5, columns=12)
    seq = game.legal_sequence()
    blocks = [b for b in game._listed().blocks if isinstance(b, MoveBlock)]
    k = len(blocks[0]) + 2  # the third move of the second unit's block
    picked = seq[k]
    assert [sum(m is not None for m in b.made) for b in blocks] == [0, 1]  # only the move read was made
    orders = game.legal_orders()
    assert len(seq) == len(orders) and picked == orders[k]
    assert list(seq) == orders and seq[-1] == orders[-1] and list(seq[1:4]) == orders[1:4]
    with pytest.raises(IndexError):
        seq[len(orders)]
