"""The settings for many games in a row (tobruk/engine/throughput.py): what they set, and why they are safe: a game played
and dropped leaves nothing for the cyclic collector (its memory goes with its last reference), so collecting
less often lets no memory pile up."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Iterator

import pytest

from tests.engine.cases import CASES, IDS, Case
from tobruk.engine.throughput import THRESHOLDS, for_many_games


@pytest.fixture
def collector_restored() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_many_games_settings_freeze_what_is_loaded_and_collect_less_often(collector_restored: None) -> None:
    frozen = gc.get_freeze_count()
    for_many_games()
    assert gc.get_threshold() == THRESHOLDS
    assert THRESHOLDS[0] > 700  # less often than Python's default young collections
    assert gc.get_freeze_count() > frozen


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_game_played_and_dropped_is_freed_without_the_cyclic_collector(case: Case) -> None:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        game = case.game(1)
        rng = random.Random(1)
        for _ in range(400):
            if game.decision is None:
                break
            game.play_id(rng.choice(game.legal_id_list()))
            if rng.random() < 0.1 and game.can_undo():
                game.pop()
        copy = game.copy()
        alive = weakref.ref(game), weakref.ref(copy)
        del game, copy
        assert [ref() is None for ref in alive] == [True, True]
    finally:
        if was_enabled:
            gc.enable()
