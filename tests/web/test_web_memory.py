"""A long-running server keeps only so many games in memory; a game let go comes back from the database."""

from __future__ import annotations

from pathlib import Path

from tests.web.web_server import DUEL
from tobruk.web.referee import Referee, Scenarios
from tobruk.web.store import Store


def referee(tmp_path: Path, open_games: int) -> Referee:
    folder = tmp_path / "scenarios"
    folder.mkdir(exist_ok=True)
    (folder / "duel.toml").write_text(DUEL, encoding="utf-8")
    return Referee(Store(f"sqlite:///{tmp_path / 'games.sqlite'}"), Scenarios([folder]), seeds=lambda: 7, open_games=open_games)


def test_games_used_longest_ago_are_let_go_and_rebuilt_when_opened(tmp_path: Path) -> None:
    ref = referee(tmp_path, open_games=2)
    scenario = ref.scenarios.get("duel")
    games = [ref.create(scenario, [], None, "hotseat", "human", "human") for _ in range(3)]
    assert ref.games_in_memory == 2  # the first game was let go when the third was made
    opened = ref.open(games[0].axis_token)
    assert opened is not None
    s, seat = opened
    assert seat == "axis" and s.stored.id == games[0].id
    ref.play(s, seat, "end-phase", s.version)
    hash_after = s.game.state_hash()
    assert ref.games_in_memory == 2
    for g in games[1:]:  # using the others lets the first go again
        assert ref.open(g.axis_token) is not None
    again = ref.open(games[0].allied_token)
    assert again is not None
    s2, seat2 = again
    assert s2 is not s and seat2 == "allied"  # rebuilt from the database ...
    assert s2.game.state_hash() == hash_after and s2.version == s.version == 1  # ... exactly as it was left


def test_a_game_busy_with_an_order_is_not_let_go(tmp_path: Path) -> None:
    ref = referee(tmp_path, open_games=1)
    scenario = ref.scenarios.get("duel")
    first = ref.create(scenario, [], None, "hotseat", "human", "human")
    opened = ref.open(first.axis_token)
    assert opened is not None
    s, _ = opened
    with s.lock:  # an order being worked out
        ref.create(scenario, [], None, "hotseat", "human", "human")
        assert ref.games_in_memory == 2
    ref.create(scenario, [], None, "hotseat", "human", "human")
    assert ref.games_in_memory == 1


def test_an_unknown_token_opens_nothing(tmp_path: Path) -> None:
    ref = referee(tmp_path, open_games=1)
    assert ref.open("no-such-token-at-all") is None and ref.games_in_memory == 0
