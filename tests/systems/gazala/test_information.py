"""What a side may know of a game of The Gazala Gallop: a drawn position moves the unseen Allied counters among the
face-down places only as the rules of their placing allow (GG-V.B.1: a dummy never alone outside a box; the set-up
zones and stacking).  (That the known and drawn positions show a side what the real one shows, for every system, is
the engine's part: tests/engine/test_information.py.)"""

from __future__ import annotations

import random

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.information import knowledge, observed, resample
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario

H = Hex.parse


def test_a_drawn_position_moves_the_unseen_counters_among_the_face_down_places() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=5, options=["nonhistorical"])
    for text in ["place Dummy1 E6", "place Dummy2 B5", "end-phase"]:
        game.play(text)
    known = knowledge(game, Side.AXIS)
    assert len(known.places) == len(known.unseen) and known.unseen  # every Allied ground counter is face down
    truth = {uid: game.unit(uid).hex for uid in known.unseen}
    drawn = [resample(game, Side.AXIS, random.Random(k)) for k in range(6)]
    placements = [{uid: g.unit(uid).hex for uid in known.unseen} for g in drawn]
    assert any(p != truth for p in placements)  # other identities behind the same counters
    for p in placements:
        assert sorted(map(str, p.values())) == sorted(map(str, truth.values()))  # the same places, filled
        # GG-V.B.1: a dummy never alone outside a box; the stacking limits hold
        assert game.system.placement_allowed(game, Side.ALLIED, p)
    # the real game is untouched, and the drawn ones cannot undo into it
    assert {uid: game.unit(uid).hex for uid in known.unseen} == truth
    assert all(not g.can_undo() and g.history == [] for g in drawn)


@pytest.mark.rule("GG-V.B.1")
@pytest.mark.rule("GG-XII.A.2")
def test_a_placement_against_the_rules_is_not_allowed() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=5, options=["nonhistorical"])
    allowed = game.system.placement_allowed
    assert not allowed(game, Side.ALLIED, {"Dummy1": H("N9")})  # alone, and N9 holds no box (GG-V.B.1)
    assert not allowed(game, Side.ALLIED, {"1SA": H("A1")})  # outside the Allied set-up zone
    assert allowed(game, Side.ALLIED, {"1SA": H("C5"), "Dummy1": H("C5")})
    # the stacking limit (GG-XII.A.2): two divisions in a hex, not three
    assert allowed(game, Side.ALLIED, {"1SA": H("C5"), "2SA": H("C5")})
    assert not allowed(game, Side.ALLIED, {"1SA": H("C5"), "2SA": H("C5"), "50Div": H("C5")})
    # a unit taken off the map says nothing of the others: the next is still checked
    assert not allowed(game, Side.ALLIED, {"2SA": None, "1SA": H("A1")})


def test_a_side_knows_the_ids_the_enemy_knows_its_own_face_down_counters_by() -> None:
    """The position as the Allied player may know it keeps what the Axis player was shown of the Allied counters: each
    face-down counter's place and the anonymous id the enemy knows it by (hidden.py), so a search for the Allies reads
    the enemy's knowledge of them as the real game gives it."""
    game = Game(load_scenario("gazala-gallop"), seed=5, options=["nonhistorical"])
    for text in ["place Dummy1 E6", "place Dummy2 B5", "end-phase"]:
        game.play(text)
    shown = game.system.seen_units(game, Side.ALLIED)  # what the Axis player sees of the Allied counters
    assert any(hidden and anon for _, hidden, _, anon in shown.values())  # face-down counters, each with its id
    for seat in (Side.ALLIED, Side.AXIS):
        copy = observed(game, seat)
        if seat is Side.ALLIED:  # its own counters: every one where it is, under the id the enemy knows
            assert copy.system.seen_units(copy, Side.ALLIED) == shown
        else:  # the enemy's: the same face-down places under the same ids, whichever counter is behind each
            assert sorted(map(repr, copy.system.seen_units(copy, Side.ALLIED).values())) == sorted(map(repr, shown.values()))
