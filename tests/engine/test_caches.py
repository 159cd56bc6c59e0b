"""The engine's remembered answers (legal listings, reach searches, notation, dice fingerprints) never go stale.

Each cache is keyed on what its answer depends on; these tests change exactly one input at a time, by an
order or by arranging the position by hand, and check the answer against one worked out afresh.
"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import Dice
from tobruk.engine.game import Game
from tobruk.engine.state import UnitState
from tobruk.loading.scenario import Scenario
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


@pytest.mark.whole_game
@pytest.mark.parametrize(("seed", "options"), [(21, ()), (22, ("nonhistorical",))])
def test_cached_listings_equal_fresh_ones_through_a_random_game(gazala: Scenario, seed: int, options: tuple[str, ...]) -> None:
    game = Game(gazala, seed=seed, options=options)
    pick = random.Random(seed)
    for _ in range(250):
        if game.decision is None:
            break
        legal = game.legal_orders()
        fresh = game.copy()
        fresh.forget_caches()
        assert legal == fresh.legal_orders()
        assert game.legal_notation() == [o.notation() for o in legal]
        game.play(pick.choice(legal))


def test_the_dice_fingerprint_moves_with_the_generator_only() -> None:
    dice = Dice(7)
    start = dice.fingerprint()
    snap = dice.snapshot()
    assert dice.fingerprint() == start
    dice.roll("test")
    rolled = dice.fingerprint()
    assert rolled != start
    dice.restore(snap)
    assert dice.fingerprint() == start
    assert Dice(7).fingerprint() == start
    dice.roll("test")
    assert dice.fingerprint() == rolled


def test_a_units_data_holds_every_field() -> None:
    # the state hash is built from to_data(): a field left out would let two positions share a hash
    state = UnitState(hex=H("B2"), status={"eliminated": False, "hidden": True, "moved": False}, steps=2, numbers={"support": 1})
    assert {f.name for f in fields(UnitState)} == {"hex", "status", "steps", "numbers"}
    assert state.to_data() == {"hex": "B2", "eliminated": False, "hidden": True, "moved": False, "steps": 2, "support": 1}
    # a live unit's: every status its view class names, its steps and the system's numbers
    game = movement_game(ENEMY_B5)
    u = family_unit(game, "Tommy")
    assert set(u.to_data()) == {*type(u).statuses, "hex", "steps", *type(u).numbers}


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


@pytest.mark.whole_game
@pytest.mark.parametrize("scenario", ["gazala-gallop", "first-alamein"])
def test_ids_kept_with_listing_blocks_are_the_ids_of_the_listed_actions(scenario: str) -> None:
    from tobruk.loading.scenario import load_scenario

    game = Game(load_scenario(scenario), seed=11)
    rng = random.Random(11)
    space = game.action_space
    for _ in range(600):
        decision = game.decision
        if decision is None:
            break
        blocks = [a for block in game.node.action_blocks(game, decision) for a in block]
        assert blocks == list(game.node.actions(game, decision)) == game.legal_orders()
        expected: dict[int, object] = {}
        for a in game.legal_orders():
            expected.setdefault(space.id_of(a), a)
        assert game.legal_ids() == expected
        assert game.legal_id_list() == sorted(expected)
        game.play_id(rng.choice(game.legal_id_list()))


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


def test_placed_units_follow_moves_eliminations_and_positions_arranged_by_hand() -> None:
    from tobruk.engine.sides import Side

    pz = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")
    game = movement_game(pz + ENEMY_B5, rows=3, columns=12)
    assert game.placed(Side.AXIS) == (("Pz", H("A1")),) and game.placed(Side.ALLIED) == (("Tommy", H("B5")),)
    family_unit(game, "Pz").hex = H("A3")
    assert game.placed(Side.AXIS) == (("Pz", H("A3")),)
    family_unit(game, "Tommy").eliminated = True
    assert game.placed(Side.ALLIED) == ()
    family_unit(game, "Pz").hex = None
    assert game.placed(Side.AXIS) == ()
