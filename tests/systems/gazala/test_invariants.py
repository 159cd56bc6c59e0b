"""The Gazala Gallop's fuzzer invariants (the system's ``invariants`` hook) find each position a bug would leave:
a side over the stacking limit once its set-up, movement or attack phase has ended (GG-XII.B; a retreat may crowd a
hex until then), a supply marker the last determination did not set (outside the recovery phases, which set them),
a face-down counter without the anonymous id the other side knows it by (GG-XIV.B.6, GG-V.B.1).  Each is found on
the side of its threshold where it is a bug, and not on the other."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala.faces import supply_marks
from tobruk.systems.gazala.state import gazala_vars


def walk(until: Callable[[Game], bool], seed: int = 1, limit: int = 600) -> Game:
    """A random game of the Gazala Gallop played on until ``until`` holds."""
    game = Game(load_scenario("gazala-gallop"), seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if until(game):
            return game
        game.play(rng.choice(game.legal_orders()))
    raise AssertionError("no such position in the game")


def at_step(game: Game, key: str) -> None:
    """Put the game at the step ``key`` of its sequence (as the fuzzer's check sees a step that has just ended)."""
    game.state.step = [s.key for s in game.system.sequence(game)].index(key)


def crowd(game: Game, side: Side, n: int) -> Hex:
    """``n`` of the side's combat units on the map moved into the hex of the first."""
    movers = [u for u in game.units_of(side) if family_unit(game, u).hex is not None and not family_defs(game)[u].is_dummy]
    target = family_unit(game, movers[0]).hex
    assert target is not None
    for uid in movers[1:n]:
        family_unit(game, uid).hex = target
    return target


@pytest.mark.rule("GG-XII.B")
@pytest.mark.parametrize("phase", ["axis-setup", "axis-movement", "axis-attacks"])
def test_a_hex_over_the_limit_is_found_once_the_phase_that_could_put_it_right_has_ended(phase: str) -> None:
    game = walk(lambda g: g.step.key == "axis-movement" and g.decision is not None)
    at_step(game, phase)
    before = game.step
    hex_ = crowd(game, Side.AXIS, 4)  # four combat units: one over the three a hex may hold
    assert game.system.invariants(game, before) == []  # the phase has not ended: its side may still put it right
    at_step(game, "axis-recovery")
    assert game.system.invariants(game, before) == [f"Axis over the stacking limit in {hex_} after {phase}"]


@pytest.mark.rule("GG-XII.B")
def test_after_a_phase_that_does_not_end_the_sides_stacking_a_crowded_hex_is_no_bug_yet() -> None:
    game = walk(lambda g: g.step.key == "axis-movement" and g.decision is not None)
    at_step(game, "axis-airstrike")
    before = game.step
    crowd(game, Side.AXIS, 4)
    at_step(game, "axis-movement")
    assert game.system.invariants(game, before) == []


def test_a_supply_marker_the_determination_did_not_set_is_found_outside_the_recovery_phases() -> None:
    game = walk(lambda g: g.step.key == "allied-movement" and g.decision is not None and bool(supply_marks(g)))
    assert game.system.invariants(game, game.step) == []
    _, uid, _, _, supplied = supply_marks(game)[0]
    family_unit(game, uid).out_of_supply = supplied  # the marker saying the opposite of the determination
    side = family_defs(game)[uid].side.value  # (the fuzzer's message names the side as the determination records it)
    assert game.system.invariants(game, game.step) == [f"{uid}'s supply marker disagrees with the {side} determination"]
    at_step(game, "allied-recovery")  # the recovery phase is where the markers are set: not checked there
    assert game.system.invariants(game, game.step) == []


def face_down_with_id(game: Game) -> list[str]:
    anon = gazala_vars(game).anon
    return [u for u in game.unit_ids if family_unit(game, u).hidden and family_unit(game, u).hex is not None and u in anon]


@pytest.mark.rule("GG-XIV.B.6")
def test_a_face_down_counter_without_its_anonymous_id_is_found_wherever_it_stands() -> None:
    game = walk(lambda g: bool(face_down_with_id(g)) and g.decision is not None)
    assert game.system.invariants(game, game.step) == []
    uid = face_down_with_id(game)[0]
    v = gazala_vars(game)
    v.anon = {k: a for k, a in v.anon.items() if k != uid}
    v.unseen = {k: s for k, s in v.unseen.items() if k != uid}
    assert f"{uid} is face down without an anonymous id" in game.system.invariants(game, game.step)
    family_unit(game, uid).hex = game.scenario.map.hexes[0]  # the map's first hex (index 0) is a hex like any other
    assert f"{uid} is face down without an anonymous id" in game.system.invariants(game, game.step)
    family_unit(game, uid).eliminated = True  # an eliminated counter has no hex to be known by
    assert not [p for p in game.system.invariants(game, game.step) if p.startswith(f"{uid} is face down")]
