"""What a side may know, as a game (tobruk.engine.information): the position as the side knows it, and positions
drawn that it cannot tell from the real one, each show the side exactly what the real game shows it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.information import knowledge, observed, resample
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.players.base import outcomes_for
from tobruk.players.simple import RandomPlayer
from tobruk.view import view

H = Hex.parse


def seen(game: Game, side: Side) -> str:
    return json.dumps(view(game, side), separators=(",", ":"))


def random_positions(scenario: str, options: list[str], seed: int, orders: int) -> Iterator[Game]:
    """The positions of a random game, one after each order."""
    game = Game(load_scenario(scenario), seed=seed, options=options)
    players = {side: RandomPlayer(seed * 2 + i) for i, side in enumerate(Side)}
    for _ in range(orders):
        d = game.decision
        if d is None:
            return
        yield game
        game.play(players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side)))


@pytest.mark.parametrize(("scenario", "options"), [("gazala-gallop", ["nonhistorical"]), ("gazala-gallop", []), ("first-alamein", [])])
def test_the_known_and_the_drawn_positions_show_a_side_what_the_real_one_shows(scenario: str, options: list[str]) -> None:
    rng = random.Random(1)
    looked = 0
    for game in random_positions(scenario, options, seed=4, orders=140):
        if rng.random() > 0.25:
            continue
        looked += 1
        for side in Side:
            truth = seen(game, side)
            assert seen(observed(game, side), side) == truth
            assert seen(resample(game, side, rng), side) == truth
    assert looked > 20


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


def test_a_drawn_position_rolls_dice_of_its_own() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=5)
    a, b = resample(game, Side.AXIS, random.Random(1)), resample(game, Side.AXIS, random.Random(2))
    rolls = [[g.dice.value(k, 6) for k in range(20)] for g in (game, a, b)]
    assert rolls[0] != rolls[1] and rolls[1] != rolls[2]
    assert observed(game, Side.AXIS).dice.seed != game.dice.seed  # the known position has no future to read


def test_a_placement_against_the_rules_is_not_allowed() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=5, options=["nonhistorical"])
    allowed = game.system.placement_allowed
    assert not allowed(game, Side.ALLIED, {"Dummy1": H("N9")})  # alone, and N9 holds no box (GG-V.B.1)
    assert not allowed(game, Side.ALLIED, {"1SA": H("A1")})  # outside the Allied set-up zone
    assert allowed(game, Side.ALLIED, {"1SA": H("C5"), "Dummy1": H("C5")})
