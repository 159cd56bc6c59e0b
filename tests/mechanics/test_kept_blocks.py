"""The movement listing kept from one position to the next (mechanics/kept_blocks.py) is never stale.

Two kinds of proof: which units the kept listing asks again after a change (exactly the changed ones, and the
units whose moves read their neighbours next to where a changed unit was or is), on a small map arranged by hand;
and whole random games of both systems, where at every movement decision, after undos too, the listing equals
one worked out afresh by a copy of the game (a copy starts with no kept listing and no searches).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.kept_blocks import Made, Maker, kept
from tobruk.systems.gazala import moves as mv

H = Hex.parse
ENEMY_B5 = unit_toml("Tommy", "allied", "B5", type_="infantry", factors="1-1-2")


def recording_maker(asked: list[str], near: set[str]) -> Maker:
    def make(uids: Sequence[str]) -> list[Made]:
        asked.extend(uids)
        return [((), uid in near) for uid in uids]

    return make


def small_game() -> Game:
    # Pz in A5 is in Tommy's ZOC (B5 is next to it); Far and Other stand well away from it
    units = (
        unit_toml("Pz", "axis", "A5")
        + unit_toml("Near", "axis", "A3", type_="infantry", factors="1-1-2")
        + unit_toml("Far", "axis", "C12", type_="infantry", factors="1-1-2")
        + unit_toml("Other", "axis", "A10", type_="infantry", factors="1-1-2")
        + ENEMY_B5
    )
    return movement_game(units, rows=3, columns=12)


def test_the_first_listing_asks_every_unit_and_an_unchanged_position_none() -> None:
    game = small_game()
    asked: list[str] = []
    make = recording_maker(asked, near={"Pz"})
    kept(game, Side.AXIS, "test", "ctx", make)
    assert asked == game.units_of(Side.AXIS)
    asked.clear()
    kept(game, Side.AXIS, "test", "ctx", make)
    assert asked == []


def test_a_change_asks_the_changed_unit_and_the_neighbour_readers_next_to_its_old_or_new_hex() -> None:
    game = small_game()
    asked: list[str] = []
    make = recording_maker(asked, near={"Pz", "Other"})  # Pz and Other read their neighbours; Near does not
    kept(game, Side.AXIS, "test", "ctx", make)
    asked.clear()
    family_unit(game, "Far").hex = H("A6")  # next to Pz (A5) now: Pz is asked again, Near (A3) and Other (A10) are not
    kept(game, Side.AXIS, "test", "ctx", make)
    assert sorted(asked) == ["Far", "Pz"]
    asked.clear()
    family_unit(game, "Far").hex = H("C12")  # gone from next to Pz: asked again as its old neighbour
    kept(game, Side.AXIS, "test", "ctx", make)
    assert sorted(asked) == ["Far", "Pz"]
    asked.clear()
    family_unit(game, "Near").hex = H("A4")  # next to Pz too, but Near's own move reads no neighbours: only Near and Pz
    kept(game, Side.AXIS, "test", "ctx", make)
    assert sorted(asked) == ["Near", "Pz"]


def test_a_status_change_alone_asks_the_unit_again() -> None:
    game = small_game()
    asked: list[str] = []
    make = recording_maker(asked, near=set())
    kept(game, Side.AXIS, "test", "ctx", make)
    asked.clear()
    family_unit(game, "Other").disrupted = True
    kept(game, Side.AXIS, "test", "ctx", make)
    assert asked == ["Other"]


def test_a_new_context_asks_every_unit_again() -> None:
    game = small_game()
    asked: list[str] = []
    make = recording_maker(asked, near=set())
    kept(game, Side.AXIS, "test", "ctx", make)
    asked.clear()
    kept(game, Side.AXIS, "test", "another ctx", make)
    assert asked == game.units_of(Side.AXIS)


@pytest.mark.rule("GG-XIII.B.3")
def test_a_friend_stepping_next_to_a_unit_in_a_zoc_changes_its_kept_moves() -> None:
    # Pz in A5 (in B5's ZOC) cannot step to A6 (also in B5's ZOC) until a friend stands there (GG-XIII.B.3)
    units = unit_toml("Pz", "axis", "A5") + unit_toml("Friend", "axis", "A8", type_="infantry", factors="1-1-2") + ENEMY_B5
    game = movement_game(units, rows=3, columns=12)
    listed = {o.path[-1] for o in game.legal_orders() if isinstance(o, Move) and o.unit == "Pz"}
    assert H("A6") not in listed
    game.play(Move("Friend", (H("A8"), H("A7"), H("A6"))))
    listed = {o.path[-1] for o in game.legal_orders() if isinstance(o, Move) and o.unit == "Pz"}
    assert H("A6") in listed
    game.pop()
    listed = {o.path[-1] for o in game.legal_orders() if isinstance(o, Move) and o.unit == "Pz"}
    assert H("A6") not in listed


def unit_by_unit(game: Game, side: Side) -> list[Move]:
    """Every unit's moves by :func:`mv.move_orders` (its own checks: moved, active, convoys left; its search)."""
    out: list[Move] = []
    for uid in game.units_of(side):
        for trucks in (False, True) if mv.truck_borne(family_defs(game)[uid]) else (False,):
            out.extend(mv.move_orders(game, uid, trucks))
    return out


def fresh_listing(game: Game) -> list[str]:
    return game.copy().legal_notation()  # a copy starts with no kept listing, no searches, no memos


@pytest.mark.parametrize(("scenario", "seed"), [("gazala-gallop", 1), ("gazala-gallop", 5), ("first-alamein", 2)])
def test_every_movement_listing_of_random_games_equals_a_fresh_one(scenario: str, seed: int) -> None:
    game = Game(load_scenario(scenario), seed=seed)
    rng = random.Random(seed)
    checked = undone = 0
    while game.decision is not None and game.turn <= 3:
        in_movement = type(game.node).__name__ == "MovementStep"
        if in_movement:
            assert game.legal_notation() == fresh_listing(game)
            space = game.action_space  # the blocks' ids, worked out per block, are the moves' own
            assert game.legal_notation() == [a.notation() for a in game.legal_orders()]  # and their notation too
            if scenario == "gazala-gallop":  # and unit by unit, what each unit's own check and search allow
                side = game.decision.side if game.decision else Side.AXIS
                assert [o for o in game.legal_orders() if isinstance(o, Move)] == unit_by_unit(game, side)
            assert game.legal_id_list() == sorted({space.id_of(a) for a in game.legal_orders()})
            checked += 1
        game.play_id(rng.choice(game.legal_id_list()))
        if in_movement and rng.random() < 0.2 and game.can_undo():
            game.pop()  # back to a position listed before: the kept listing was made after it
            assert game.legal_notation() == fresh_listing(game)
            undone += 1
            game.play_id(rng.choice(game.legal_id_list()))
    assert checked > 50 and undone > 5


def test_a_listed_move_is_carried_out_as_a_fresh_game_carries_it_out() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=3)
    rng = random.Random(3)
    moves = 0
    while game.decision is not None and moves < 60:
        order = game.play_id(rng.choice(game.legal_id_list())) if type(game.node).__name__ != "MovementStep" else None
        if order is not None:
            continue
        fresh = game.copy()
        i = rng.choice(game.legal_id_list())
        played = game.play_id(i)
        fresh.play(played.notation())  # parsed anew: resolved without the kept listing's route
        assert fresh.state_hash() == game.state_hash()
        moves += isinstance(played, Move)
    assert moves == 60


def test_the_units_listing_matches_move_orders_unit_by_unit() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=0)
    while type(game.node).__name__ != "MovementStep":
        game.play_id(game.legal_id_list()[-1])
    side = game.decision.side if game.decision else Side.AXIS
    blocks = mv.move_blocks(game, side)
    assert [m for b in blocks for m in b] == unit_by_unit(game, side)
