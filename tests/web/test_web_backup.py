"""``tobruk dump-games`` and ``tobruk load-games`` (docs/hosting.md): every game of a server's database, played
through the server, is written to a file and loaded into a new database of the other kind (SQLite to PostgreSQL
and back), where a server shows every seat exactly what the first one showed, and plays on; loading again adds
nothing, and a game that differs under the same id is refused, not overwritten."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.databases import database, postgres_admin, rows, why_no_postgres
from tests.web.web_server import running_server

OTHER = {"sqlite": "postgresql", "postgresql": "sqlite"}


def tobruk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tobruk.cli", *args], capture_output=True, text=True, timeout=120)


def seats_and_states(url: str, tokens: list[str]) -> dict[str, Any]:
    out = {}
    for tok in tokens:
        r = httpx.get(f"{url}/api/g/{tok}/state", timeout=60)
        out[tok] = r.json() if r.status_code == 200 else r.status_code
        out[f"{tok} webhook"] = httpx.get(f"{url}/api/g/{tok}/webhook", timeout=60).text
    return out


def make_games(url: str) -> list[str]:
    """A hotseat game with orders and an undo, a remote game, a game against the computer (its replies stored)."""
    tokens = []
    r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()
    both = r["links"]["both"].rsplit("/", 1)[1]
    for text in ("end-phase", "move Pz B4"):
        v = httpx.get(f"{url}/api/g/{both}/state", timeout=60).json()["version"]
        assert httpx.post(f"{url}/api/g/{both}/order", json={"order": text, "version": v}, timeout=60).status_code == 200
    assert httpx.post(f"{url}/api/g/{both}/undo", json={"version": v + 1}, timeout=60).status_code == 200
    tokens.append(both)
    r = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}, timeout=60)
    tokens += [link.rsplit("/", 1)[1] for link in r.json()["links"].values()]
    hook = {"url": "http://127.0.0.1:9/turn"}  # (the server is told webhooks may point anywhere)
    assert httpx.put(f"{url}/api/g/{tokens[-1]}/webhook", json=hook, timeout=60).status_code == 200
    r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "computer", "human_side": "allied"}, timeout=60)
    tokens += [link.rsplit("/", 1)[1] for link in r.json()["links"].values()]
    return tokens


@pytest.mark.parametrize("source", ["sqlite", "postgresql"])
def test_every_game_is_dumped_and_loaded_into_the_other_database(source: str, tmp_path: Path) -> None:
    if postgres_admin() is None:
        pytest.skip(why_no_postgres())
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with database(source, tmp_path / "a") as first, database(OTHER[source], tmp_path / "b") as second:
        with running_server(first, tmp_path / "scenarios", webhooks_anywhere=True) as url:
            tokens = make_games(url)
            before = seats_and_states(url, tokens)
        dump = tmp_path / "games.jsonl"
        r = tobruk("dump-games", str(dump), "--db-url", first)
        assert r.returncode == 0, r.stderr
        lines = dump.read_text().splitlines()
        assert json.loads(lines[0]) == {"format": "tobruk-games", "version": 1} and len(lines) == 1 + 3
        r = tobruk("load-games", str(dump), "--db-url", second)
        assert r.returncode == 0 and r.stdout.startswith("3 games added"), r.stdout + r.stderr
        assert rows(second, "game_event") == rows(first, "game_event")
        with running_server(second, tmp_path / "scenarios", webhooks_anywhere=True) as url:
            assert seats_and_states(url, tokens) == before
            v = before[tokens[0]]["version"]
            assert httpx.post(f"{url}/api/g/{tokens[0]}/order", json={"order": "move Pz B2", "version": v}, timeout=60).status_code == 200
        r = tobruk("load-games", str(dump), "--db-url", second)  # again: the games are there, one with a move more
        assert r.returncode == 0 and "0 games added, 0 continued, 3 already there" in r.stdout, r.stdout
        again = tmp_path / "again.jsonl"
        assert tobruk("dump-games", str(again), "--db-url", first).returncode == 0
        assert again.read_text() == dump.read_text()  # the same database gives the same file


def test_a_different_game_under_the_same_id_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite'}"
    with running_server(db, tmp_path / "scenarios", webhooks_anywhere=True) as url:
        make_games(url)
    dump = tmp_path / "games.jsonl"
    assert tobruk("dump-games", str(dump), "--db-url", db).returncode == 0
    lines = dump.read_text().splitlines()
    forged = json.loads(lines[1])
    forged["both_token"] = "another-token-0000"
    forged["events"].append([len(forged["events"]), "order", "end-phase", 0.0])
    (tmp_path / "forged.jsonl").write_text(lines[0] + "\n" + json.dumps(forged) + "\n")
    before = rows(db, "game_event")
    r = tobruk("load-games", str(tmp_path / "forged.jsonl"), "--db-url", db)
    assert r.returncode == 1 and "another game under this id" in r.stdout
    assert rows(db, "game_event") == before
    (tmp_path / "bad.jsonl").write_text('{"format": "chess"}\n')
    r = tobruk("load-games", str(tmp_path / "bad.jsonl"), "--db-url", db)
    assert r.returncode == 2 and "not a tobruk games file" in r.stderr
