"""Actions, for every system: the notation round-trips, every action shape has one stable id, play by id plays the
listed action of that shape, and a whole choice is played as its small steps, all or none."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from tests.engine.cases import CASES, IDS, Case, walk
from tobruk.engine.actions import Action, ActionSpace, Dim
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game


def random_positions(case: Case, seed: int, count: int) -> list[Game]:
    """Copies of one random game at ``count`` successive decisions (fewer if it ends first)."""
    return [game.copy() for game in walk(case.game(seed), seed, count)]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_listed_action_reads_back_from_its_notation(case: Case) -> None:
    for game in walk(case.game(11), 11, 400):
        for action in game.legal_orders():
            assert game.parse(action.notation()) == action


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_each_shape_has_one_stable_id(case: Case) -> None:
    game = case.game()
    space = game.action_space
    again = ActionSpace(game.system.vocabulary, game.unit_ids, game.scenario.map.hexes)
    assert space.size == again.size and space.offsets == again.offsets
    seen: dict[int, tuple[type, tuple[object, ...]]] = {}
    for game in walk(case.game(5), 5, 300):
        for action in game.legal_orders():
            i = space.id_of(action)
            assert 0 <= i < space.size and space.kind_of(i) is type(action)
            shape = (type(action), action.key())
            assert seen.setdefault(i, shape) == shape  # one id, one shape, in every position


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_play_by_id_plays_the_listed_action_of_that_shape(case: Case) -> None:
    game = random_positions(case, 7, 60)[-1]
    ids = game.legal_ids()
    mask = game.legal_mask()
    assert len(mask) == game.action_space.size and {i for i, bit in enumerate(mask) if bit} == set(ids)
    assert game.legal_id_list() == sorted(ids)
    first = next(iter(ids))
    expected = ids[first]
    assert game.play_id(first) == expected
    with pytest.raises(IllegalOrderError):
        game.play_id(game.action_space.size + 1)


@dataclass(frozen=True, slots=True)
class Both(Action):
    """A whole choice of two actions (made up here: the engine plays any action's parts, whatever its system)."""

    first: Action
    second: Action
    verb: ClassVar[str] = "both"
    shape: ClassVar[tuple[Dim, ...]] = ()
    composite: ClassVar[bool] = True

    def expand(self) -> tuple[Action, ...]:
        return (self.first, self.second)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_whole_choice_is_played_all_or_none(case: Case) -> None:
    rng = random.Random(13)
    tried: list[Action] = []  # every action listed so far: candidates for an action refused later
    checked = 0
    for game in walk(case.game(13), 13, 80):
        if checked == 3:
            break
        legal = game.legal_orders()
        tried += legal
        first = rng.choice(legal)
        after = game.copy()
        after.play(first)
        if after.decision is None:
            continue
        refused = None
        for candidate in [first, *rng.sample(tried, min(20, len(tried)))]:
            trial = after.copy()
            try:
                trial.play(candidate)
            except IllegalOrderError:
                refused = candidate
                break
        if refused is None:
            continue
        before, log, played, rolls = game.state_text(), list(game.state.log), len(game.history), len(game.dice.log)
        with pytest.raises(IllegalOrderError):
            game.play(Both(first, refused))  # the first part is legal, the second refused: nothing is played
        assert game.state_text() == before and game.state.log == log and len(game.history) == played and len(game.dice.log) == rolls
        second = after.legal_orders()[0]
        whole = game.copy()
        whole.play(Both(first, second))
        after.play(second)
        # the parts are the player's actions (the rules' replies to them, if any, follow each)
        assert [a for a, ruled in zip(whole.history[played:], whole.by_rules[played:], strict=True) if not ruled] == [first, second]
        assert whole.history == after.history and whole.state_hash() == after.state_hash()
        checked += 1
    assert checked == 3
