"""The engine's remembered answers (legal listings, their ids, placed units, dice fingerprints) never go stale, for
every system.

Each cache is keyed on what its answer depends on; these tests change the position by orders, by undo and by hand
(as rules and tests arrange it, past the engine), and check every answer against one worked out afresh.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields

import pytest

from tests.engine.cases import CASES, IDS, Case, walk
from tobruk.board.hexes import Hex
from tobruk.engine.dice import Dice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState

H = Hex.parse


def fresh(game: Game) -> Game:
    """The same position with nothing remembered: every answer worked out afresh."""
    other = game.copy()
    other.forget_caches()
    return other


def same_listing(game: Game) -> None:
    again = fresh(game)
    assert game.legal_orders() == again.legal_orders()
    assert game.legal_notation() == again.legal_notation() == [o.notation() for o in again.legal_orders()]
    assert game.legal_id_list() == again.legal_id_list()


def by_hand(game: Game, rng: random.Random) -> Callable[[], None]:
    """Change one unit by hand, past the engine (to an empty land hex, or one of its statuses the other way); returns
    how to put it back."""
    uid = rng.choice(game.unit_ids)
    u = game.unit(uid)
    m = game.scenario.map
    if rng.random() < 0.5:
        old = u.hex
        u.hex = rng.choice([h for h in m.hexes if m.is_land(h) and not game.units_at(h)])
        return lambda: setattr(game.unit(uid), "hex", old)
    name = rng.choice(u.statuses)
    was = u.flag(name)
    u.set_flag(name, not was)
    return lambda: game.unit(uid).set_flag(name, was)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_listing_follows_a_position_arranged_by_hand(case: Case) -> None:
    rng = random.Random(4)
    for game in walk(case.game(4), 4, 60):
        before = game.legal_orders()  # asked first: the answers are remembered
        put_back = by_hand(game, rng)
        same_listing(game)
        put_back()
        assert game.legal_orders() == before  # the position as it was: the listing as it was
        same_listing(game)


@pytest.mark.whole_game
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cached_listings_equal_fresh_ones_through_a_random_game(case: Case) -> None:
    game = case.game(21)
    pick = random.Random(21)
    for _ in range(250):
        if game.decision is None:
            break
        legal = game.legal_orders()
        assert legal == fresh(game).legal_orders()
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


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_live_units_data_holds_every_status_and_number_its_system_declares(case: Case) -> None:
    game = case.game()
    for uid in game.unit_ids:
        u = game.unit(uid)
        assert set(u.to_data()) == {*type(u).statuses, "hex", "steps", *type(u).numbers}


@pytest.mark.whole_game
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_ids_kept_with_listing_blocks_are_the_ids_of_the_listed_actions(case: Case) -> None:
    game = case.game(11)
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


def placed_afresh(game: Game, side: Side) -> tuple[tuple[str, Hex], ...]:
    """The side's units on the map and not eliminated, with their hexes, in order of battle, read unit by unit."""
    return tuple((uid, h) for uid in game.units_of(side) if (h := game.unit(uid).hex) is not None and not game.unit(uid).eliminated)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_placed_units_follow_moves_eliminations_and_positions_arranged_by_hand(case: Case) -> None:
    rng = random.Random(6)
    for game in walk(case.game(6), 6, 40):
        for side in Side:
            assert game.placed(side) == placed_afresh(game, side)
            assert game.occupants(side) == fresh(game).occupants(side)
        side = rng.choice(list(Side))
        on_map = [uid for uid, _ in game.placed(side)]
        if not on_map:
            continue
        uid = rng.choice(on_map)
        u, m = game.unit(uid), game.scenario.map
        was = u.hex
        u.hex = rng.choice([h for h in m.hexes if m.is_land(h) and not game.units_at(h)])  # moved by hand
        assert game.placed(side) == placed_afresh(game, side) and (uid, u.hex) in game.placed(side)
        u.eliminated = True
        assert game.placed(side) == placed_afresh(game, side) and uid not in dict(game.placed(side))
        u.eliminated = False
        u.hex = None  # off the map
        assert game.placed(side) == placed_afresh(game, side) and uid not in dict(game.placed(side))
        assert uid not in [x for ids in game.occupants(side).values() for x in ids]
        u.hex = was
        assert game.placed(side) == placed_afresh(game, side) and (uid, was) in game.placed(side)
