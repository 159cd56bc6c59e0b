"""What a side may know, as a game (tobruk.engine.information), for every system: the position as the side knows it,
and positions drawn that it cannot tell from the real one, each show the side exactly what the real game shows it;
a drawn position fills the same face-down places with the enemy's unseen counters, and rolls dice of its own."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from tests.engine.cases import CASES, IDS, Case
from tobruk.engine.game import Game
from tobruk.engine.information import knowledge, observed, resample
from tobruk.engine.sides import Side
from tobruk.players.base import outcomes_for
from tobruk.players.simple import RandomPlayer
from tobruk.view import view


def seen(game: Game, side: Side) -> str:
    return json.dumps(view(game, side), separators=(",", ":"))


def random_positions(case: Case, seed: int, orders: int) -> Iterator[Game]:
    """The positions of random games, one after each order, ``orders`` in all (a game that ends is followed by
    another, of the next seed)."""
    while orders > 0:
        game = case.game(seed)
        players = {side: RandomPlayer(seed * 2 + i) for i, side in enumerate(Side)}
        while orders > 0 and (d := game.decision) is not None:
            yield game
            game.play(players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side)))
            orders -= 1
        seed += 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_known_and_the_drawn_positions_show_a_side_what_the_real_one_shows(case: Case) -> None:
    rng = random.Random(1)
    looked = 0
    for game in random_positions(case, seed=4, orders=140):
        if rng.random() > 0.25:
            continue
        looked += 1
        for side in Side:
            truth = seen(game, side)
            assert seen(observed(game, side), side) == truth
            assert seen(resample(game, side, rng), side) == truth
    assert looked > 20


def swappable(game: Game, side: Side) -> bool:
    """Whether two of the enemy's unseen counters in different places could change places, by the rules."""
    known = knowledge(game, side)
    fill = {uid: place.hex for uid, place in zip(known.unseen, known.places, strict=True)}
    return any(
        fill[u] != fill[v] and game.system.placement_allowed(game, side.enemy, fill | {u: fill[v], v: fill[u]})
        for i, u in enumerate(known.unseen)
        for v in known.unseen[i + 1 :]
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_drawn_position_fills_the_face_down_places_with_the_unseen_counters(case: Case) -> None:
    for k, game in enumerate(random_positions(case, seed=5, orders=60)):
        if k % 3:
            continue
        for side in Side:
            known = knowledge(game, side)
            assert len(known.places) == len(known.unseen)
            truth = {uid: game.unit(uid).hex for uid in game.unit_ids}
            drawn = [resample(game, side, random.Random(j)) for j in range(6)]
            mine = {uid: truth[uid] for uid in game.units_of(side)}
            places = sorted(str(p.hex) for p in known.places)
            fills = set()
            for g in drawn:
                # the side's own units stay where they are, the enemy's face-up ones stand where the side sees them ...
                assert {uid: g.unit(uid).hex for uid in mine} == mine
                assert {uid: (g.unit(uid).hex, g.unit(uid).eliminated) for uid in known.face_up} == dict(known.face_up)
                # ... and the unseen ones fill the face-down places, face down, as the rules of their placing allow
                fill = {uid: g.unit(uid).hex for uid in known.unseen}
                assert sorted(map(str, fill.values())) == places and all(g.unit(uid).hidden for uid in known.unseen)
                assert game.system.placement_allowed(game, side.enemy, fill)
                fills.add(tuple(fill.items()))
            if swappable(game, side):
                assert len(fills) > 1  # other identities behind the same counters
            # the real game is untouched, and the drawn ones cannot undo into it
            assert {uid: game.unit(uid).hex for uid in game.unit_ids} == truth
            assert all(not g.can_undo() and g.history == [] for g in drawn)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_drawn_position_rolls_dice_of_its_own(case: Case) -> None:
    game = case.game(5)
    a, b = resample(game, Side.AXIS, random.Random(1)), resample(game, Side.AXIS, random.Random(2))
    rolls = [[g.dice.value(k, 6) for k in range(20)] for g in (game, a, b)]
    assert rolls[0] != rolls[1] and rolls[1] != rolls[2]
    assert observed(game, Side.AXIS).dice.seed != game.dice.seed  # the known position has no future to read
