"""Chance nodes (tobruk.engine.chance): every roll of the rules is a chance node with exact probabilities, which the
dice resolve in play and a search may resolve itself, with the same game either way."""

from __future__ import annotations

import functools
import random
from collections import Counter
from fractions import Fraction

import pytest

from tests.engine.cases import CASES, IDS, Case
from tobruk.engine.actions import Action
from tobruk.engine.chance import Outcome, cup, dice_sum, die, grouped, labelled
from tobruk.engine.dice import Dice, ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.players.base import outcomes_for
from tobruk.players.simple import RandomPlayer
from tobruk.view import view

SEEDS = [1, 3]


def test_distributions_known_answers() -> None:
    assert [(o.value, o.probability) for o in die(6)] == [(f, Fraction(1, 6)) for f in range(1, 7)]
    two = {o.value: o.probability for o in dice_sum(2)}
    assert two[2] == Fraction(1, 36) and two[7] == Fraction(6, 36) and two[12] == Fraction(1, 36) and sum(two.values()) == 1
    assert sorted(two) == list(range(2, 13))
    chits = {o.value: o.probability for o in cup([0, 1, 1, 2, 2, 2])}
    assert chits == {0: Fraction(1, 6), 1: Fraction(2, 6), 2: Fraction(3, 6)}
    table = grouped(labelled(die(6), ["DE", "R2", "R2", "-", "-", "-"]))
    assert table == [("-", Fraction(1, 2)), ("R2", Fraction(1, 3)), ("DE", Fraction(1, 6))]


def test_a_plain_die_is_rolled_face_for_face() -> None:
    """One uniform die is the dice's own roll: the k-th roll of the game, as before chance nodes existed."""
    a, b = Dice(9), Dice(9)
    drawn = [a.draw("x", die(6)) for _ in range(40)]
    assert drawn == [b.roll("x") for _ in range(40)]
    assert [r.value for r in a.log] == drawn


def test_any_other_distribution_is_drawn_by_its_shares() -> None:
    """A cup of chits 0, 1, 1, 2, 2, 2: over many draws each value comes up about as often as its share says."""
    d = Dice(3)
    outcomes = cup([0, 1, 1, 2, 2, 2])
    counts = Counter(d.draw("chit", outcomes) for _ in range(6000))
    assert set(counts) == {0, 1, 2}
    for o in outcomes:
        assert abs(counts[o.value] / 6000 - float(o.probability)) < 0.03
    assert len(d.log) == 6000 and {r.value for r in d.log} == {0, 1, 2}


def test_forced_dice_give_an_outcome_of_any_distribution() -> None:
    d = ForcedDice([2, 0])
    assert d.draw("chit", cup([0, 2, 2])) == 2 and d.draw("chit", cup([0, 2, 2])) == 0
    with pytest.raises(AssertionError):
        ForcedDice([5]).draw("chit", cup([0, 2, 2]))


def player_action(game: Game, players: dict[Side, RandomPlayer]) -> Action:
    d = game.decision
    assert d is not None
    return players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side))


@functools.cache
def rolls_of_a_random_game(case: Case, seed: int) -> Counter[str]:
    """Play a whole random game with chance explicit, checking every chance node on the way (see below); the rolls'
    purposes, by their first word, are what it returns."""
    game = case.game(seed)
    game.explicit_chance = True
    players = {side: RandomPlayer(seed * 10 + i) for i, side in enumerate(Side)}
    rng = random.Random(seed)
    purposes: Counter[str] = Counter()
    while not game.is_over:
        rolls = len(game.dice.log)
        node = game.chance
        if node is None:
            game.play(player_action(game, players))
            assert len(game.dice.log) == rolls, "an action rolled outside a chance node"
            continue
        outcomes = game.chance_outcomes()
        assert sum(o.probability for o in outcomes) == 1 and all(o.probability > 0 for o in outcomes)
        assert len({o.value for o in outcomes}) == len(outcomes)
        assert game.decision is None and game.legal_id_list() == []  # chance decides, no player
        i = rng.choices(range(len(outcomes)), weights=[float(o.probability) for o in outcomes])[0]
        chosen = game.play_chance(i)
        assert chosen == outcomes[i] and len(game.dice.log) == rolls + 1 and game.dice.log[rolls].value == chosen.value
        purposes[game.dice.log[rolls].purpose.split(" ")[0]] += 1
    return purposes


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_roll_of_random_games_is_a_chance_node(case: Case, seed: int) -> None:
    """With chance explicit, the game stops at every roll: the outcomes are distinct, positive and sum to 1, the
    chosen one is recorded as the roll, and no action rolls a die outside a chance node."""
    assert sum(rolls_of_a_random_game(case, seed).values()) > 0  # (and the game met chance nodes)


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_search_choosing_the_dice_outcomes_plays_the_same_game(case: Case, seed: int) -> None:
    """A game played with its dice, and the same game with chance explicit and each outcome chosen as the dice gave
    it: the same positions, hash for hash."""
    played = case.game(seed)
    players = {side: RandomPlayer(seed * 10 + i) for i, side in enumerate(Side)}
    hashes = []
    for _ in range(400):
        if played.is_over:
            break
        played.play(player_action(played, players))
        hashes.append((len(played.history), played.state_hash()))
    rolls = [(r.purpose, r.value) for r in played.dice.log]
    searched = case.game(seed)
    searched.explicit_chance = True
    k = 0
    for action, (n, expected) in zip(played.played(), hashes, strict=True):
        searched.play(action)
        while searched.chance is not None:
            purpose, value = rolls[k]
            node = searched.chance
            assert node.purpose(searched) == purpose
            searched.play_chance([o.value for o in searched.chance_outcomes()].index(value))
            k += 1
        assert len(searched.history) == n and searched.state_hash() == expected
    assert k == len(rolls) > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_chance_node_refuses_a_players_order_and_the_game_refuses_a_roll_when_none_is_due(case: Case) -> None:
    game = case.game(3)
    with pytest.raises(Exception, match="no roll is due"):
        game.play_chance(0)
    assert game.chance_outcomes() == ()


def test_outcome_values_are_what_the_rule_is_given() -> None:
    o = Outcome(3, Fraction(1, 2), "R1")
    assert (o.value, o.probability, o.label) == (3, Fraction(1, 2), "R1")
