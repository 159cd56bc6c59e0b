"""The family's kept movement answers (the reach search kept under MoveContext.reach_key, the enemy's ZOC, the side
tables) never go stale, on small maps of The Gazala Gallop arranged by hand: each test changes exactly one input, by
an order or by hand, and checks the answer against one worked out afresh.  (That every system's listing never goes
stale is the engine's part: tests/engine/test_caches.py.)"""

from __future__ import annotations

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import moves as mv

H = Hex.parse
ENEMY_B5 = unit_toml("Tommy", "allied", "B5", type_="infantry", factors="1-1-2")


@pytest.mark.rule("GG-XIII.B.3")
def test_a_friend_arriving_next_to_the_start_opens_the_zoc_to_zoc_step() -> None:
    # Pz in A5 (ZOC of B5): A6 is in B5's ZOC too, so the step is refused ... until a friend stands in A6
    pz = unit_toml("Pz", "axis", "A5", type_="armour", factors="4-3-4")
    friend = unit_toml("Friend", "axis", "C12", type_="infantry", factors="1-1-2")
    game = movement_game(pz + friend + ENEMY_B5, rows=3, columns=12)
    assert H("A6") not in mv.destinations(game, "Pz")
    family_unit(game, "Friend").hex = H("A6")  # arranged by hand: no order, so only the cache keys can notice
    assert H("A6") in mv.destinations(game, "Pz")
    family_unit(game, "Friend").hex = H("C12")
    assert H("A6") not in mv.destinations(game, "Pz")


def test_a_friend_moving_far_away_keeps_the_reach_key() -> None:
    pz = unit_toml("Pz", "axis", "A5", type_="armour", factors="4-3-4")
    friend = unit_toml("Friend", "axis", "C12", type_="infantry", factors="1-1-2")
    game = movement_game(pz + friend + ENEMY_B5, rows=3, columns=12)
    key = mv.move_context(game, "Pz").reach_key()
    game.play(Move("Friend", (H("C12"), H("C11"))))
    assert mv.move_context(game, "Pz").reach_key() == key  # the search is reused ...
    family_unit(game, "Tommy").hex = H("B6")
    assert mv.move_context(game, "Pz").reach_key() != key  # ... but not once an enemy has moved


def test_listing_follows_a_position_arranged_by_hand() -> None:
    pz = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")
    game = movement_game(pz, rows=3, columns=12)
    before = {o.path[-1] for o in game.legal_orders() if isinstance(o, Move)}
    family_unit(game, "Pz").hex = H("C12")
    after = [o for o in game.legal_orders() if isinstance(o, Move)]
    assert after and all(o.path[0] == H("C12") for o in after)
    assert {o.path[-1] for o in after} != before
    family_unit(game, "Pz").moved = True
    assert not [o for o in game.legal_orders() if isinstance(o, Move)]


def test_the_enemy_zoc_is_kept_while_the_enemy_stands_still_and_follows_it_when_it_moves() -> None:
    from tobruk.engine.sides import Side
    from tobruk.mechanics.zoc import zoc_map

    pz = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")
    game = movement_game(pz + ENEMY_B5, rows=3, columns=12)
    m = game.scenario.map
    first = mv.enemy_zoc(game, Side.AXIS)
    assert first == zoc_map(m, [("Tommy", H("B5"))]) and H("A5") in first
    family_unit(game, "Pz").hex = H("A2")  # the moving side's own move: the enemy's ZOC is the same object
    assert mv.enemy_zoc(game, Side.AXIS) is first
    family_unit(game, "Tommy").hex = H("B8")  # the enemy moved: worked out again
    moved = mv.enemy_zoc(game, Side.AXIS)
    assert moved == zoc_map(m, [("Tommy", H("B8"))]) and H("A5") not in moved


def test_side_tables_lay_each_positions_friends_over_the_kept_enemy_tables() -> None:
    from tobruk.engine.sides import Side
    from tobruk.mechanics.reach import HEX_FRIEND, side_tables
    from tobruk.mechanics.zoc import zoc_map

    game = movement_game(ENEMY_B5, rows=3, columns=12)
    m = game.scenario.map
    zoc = zoc_map(m, [("Tommy", H("B5"))])
    enemies, forts = frozenset({H("B5")}), frozenset[Hex]()
    first = side_tables(m, Side.AXIS, zoc, enemies, frozenset({H("A1")}), forts)
    second = side_tables(m, Side.AXIS, zoc, enemies, frozenset({H("C9")}), forts)
    i, j = m.index[H("A1")], m.index[H("C9")]
    assert first.friend[i] and not first.friend[j] and second.friend[j] and not second.friend[i]
    assert first.kernel.hflags[i] & HEX_FRIEND and not first.kernel.hflags[j] & HEX_FRIEND
    assert second.kernel.hflags[j] & HEX_FRIEND and not second.kernel.hflags[i] & HEX_FRIEND
    assert first.shared == second.shared  # the enemy's part, kept and shared
    moved = side_tables(m, Side.AXIS, zoc_map(m, [("Tommy", H("B8"))]), frozenset({H("B8")}), frozenset({H("A1")}), forts)
    assert moved.shared != first.shared and moved.enemy[m.index[H("B8")]] and not moved.enemy[m.index[H("B5")]]


@pytest.mark.rule("GG-XIII.B.3")
def test_friends_next_to_a_start_outside_enemy_zoc_leave_the_reach_key_alone() -> None:
    # the ZOC-to-ZOC exemption is the one rule that reads friends, and only for a step out of an enemy ZOC
    pz = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")
    friend = unit_toml("Friend", "axis", "C12", type_="infantry", factors="1-1-2")
    game = movement_game(pz + friend + ENEMY_B5, rows=3, columns=12)
    key = mv.move_context(game, "Pz").reach_key()
    reach_before = set(mv.destinations(game, "Pz"))
    family_unit(game, "Friend").hex = H("A2")  # next to the start, which no enemy ZOC covers
    assert mv.move_context(game, "Pz").reach_key() == key
    game.forget_caches()
    assert set(mv.destinations(game, "Pz")) == reach_before  # worked out afresh: the same hexes
