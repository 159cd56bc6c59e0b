"""The golden playthroughs replay to the same positions (see tests/systems/gazala/golden_games.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.systems.gazala.golden_games import FORMAT, GAMES, digest, path_of, projection
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario


def _difference(want: dict[str, Any], got: dict[str, Any]) -> str:
    lines = []
    for key in sorted(set(want) | set(got)):
        if key == "units":
            for uid in sorted(set(want[key]) | set(got[key])):
                if want[key].get(uid) != got[key].get(uid):
                    lines.append(f"  {uid}: recorded {want[key].get(uid)!r}, now {got[key].get(uid)!r}")
        elif want.get(key) != got.get(key):
            lines.append(f"  {key}: recorded {want.get(key)!r}, now {got.get(key)!r}")
    return "\n".join(lines[:20])


@pytest.mark.whole_game
@pytest.mark.parametrize("name", [g.name for g in GAMES])
def test_golden_playthrough_replays_identically(name: str) -> None:
    data = json.loads(path_of(name).read_text())
    assert data["format"] == FORMAT
    game = Game(load_scenario(data["scenario"]), seed=data["seed"], options=data["options"])
    assert projection(game) == data["start"], _difference(data["start"], projection(game))
    last_full = data["start"]
    for i, step in enumerate(data["steps"]):
        game.play(step["order"])
        now = projection(game)
        if digest(now) != step["digest"]:
            expected = step.get("projection")
            detail = _difference(expected, now) if expected else f"last recorded turn end:\n{_difference(last_full, now)}"
            pytest.fail(f"{name}: order {i} ({step['order']!r}, turn {now['turn']}, {now['phase']}) leads elsewhere:\n{detail}")
        if "projection" in step:
            last_full = step["projection"]
    assert game.is_over
