"""The greedy player's golden games play out the same (see tests/faces/greedy_golden.py)."""

from __future__ import annotations

import json

import pytest

from tests.faces.greedy_golden import GAMES, GreedyGame, path_of, play


@pytest.mark.whole_game
@pytest.mark.parametrize("golden", GAMES, ids=[g.name for g in GAMES])
def test_the_same_seeds_give_the_same_records(golden: GreedyGame) -> None:
    want = json.loads(path_of(golden.name).read_text(encoding="utf-8"))
    got = play(golden)
    assert got["seed"] == want["seed"] and got["players"] == want["players"]
    for i, (w, g) in enumerate(zip(want["orders"], got["orders"], strict=False)):
        assert g == w, f"{golden.name}: order {i} is now {g['order']!r}, recorded {w['order']!r}"
    assert len(got["orders"]) == len(want["orders"])
    assert got == want
