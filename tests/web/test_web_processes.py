"""Two ``tobruk serve`` processes on one database (an SQLite file, then PostgreSQL), played concurrently from both:
no order is lost or forked.

Every order is stored as event number *version* of its game, and the database accepts each number once, so
whichever process writes first wins and the other answers 409; each process reads the events the other
wrote before it answers.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.databases import stored_events as stored_orders
from tests.web.web_server import DUEL, server_processes
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario


@pytest.fixture
def two_servers(db_url: str, tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    with server_processes(2, db_url, tmp_path / "scenarios") as started:
        yield started[0][0], started[1][0], db_url


def api(url: str, link: str) -> str:
    return f"{url}/api/g/{link.rsplit('/', 1)[1]}"


def test_two_processes_on_one_database_never_lose_or_fork_an_order(two_servers: tuple[str, str, str], tmp_path: Path) -> None:
    a, b, db = two_servers
    created = httpx.post(f"{a}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()
    link, game = created["links"]["both"], created["game"]
    assert httpx.post(f"{api(a, link)}/order", json={"order": "end-phase", "version": 0}, timeout=60).status_code == 200
    accepted: list[tuple[int, str, str]] = []  # (the version it was made against, 'order' or 'undo', the order)
    refused: list[int] = []
    errors: list[str] = []

    def player(url: str, seed: int) -> None:
        """Moves the Panzer somewhere, or takes its move back: no die is rolled, so it can go on for ever."""
        rng = random.Random(seed)
        with httpx.Client(timeout=60) as client:
            for _ in range(40):
                s = client.get(f"{api(url, link)}/state").json()
                moves = [a for a in s["legal"]["actions"] if a["verb"] == "move"]
                if moves:
                    move = rng.choice(moves)
                    kind, text = "order", move["label"]
                    r = client.post(f"{api(url, link)}/order", json={"id": move["id"], "version": s["version"]})
                else:
                    kind, text = "undo", ""
                    r = client.post(f"{api(url, link)}/undo", json={"version": s["version"]})
                if r.status_code == 200:
                    accepted.append((s["version"], kind, text))
                elif r.status_code == 409:
                    refused.append(s["version"])
                else:
                    errors.append(f"{r.status_code} {r.text[:200]}")

    threads = [threading.Thread(target=player, args=(url, n)) for n, url in enumerate((a, b, a, b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    stored = stored_orders(db, game)[1:]  # after the set-up's end
    # every accepted order or undo is stored once, as the event numbered by the version it was made against
    assert sorted(v for v, _, _ in accepted) == [seq for seq, _, _ in stored] == list(range(1, len(stored) + 1))
    by_seq = {seq: (kind, text) for seq, kind, text in stored}
    for version, kind, text in accepted:
        assert by_seq[version][0] == kind
        if kind == "order":  # sent by its id, stored as the listed move with its route
            assert by_seq[version][1] == text and text.startswith("move Pz B3-")
    assert len(accepted) + len(refused) == 160 and refused  # the players raced: some orders were stale
    # both processes show the same position, the one the stored events give
    states = [httpx.get(f"{api(url, link)}/state", timeout=60).json() for url in (a, b)]
    assert states[0] == states[1] and states[0]["version"] == len(stored) + 1
    (tmp_path / "duel.toml").write_text(DUEL, encoding="utf-8")
    replayed = Game(load_scenario(tmp_path / "duel.toml"))
    standing: list[str] = []
    for _, kind, text in stored_orders(db, game):
        if kind == "undo":
            standing.pop()
        else:
            standing.append(text)
    for text in standing:
        replayed.play(text)
    where = {u["id"]: u["hex"] for u in states[0]["view"]["units"]}
    assert where == {uid: (u.hex.label if (u := replayed.unit(uid)).hex else None) for uid in replayed.unit_ids}


def test_the_same_version_sent_to_both_processes_at_once_is_played_once(two_servers: tuple[str, str, str]) -> None:
    a, b, db = two_servers
    created = httpx.post(f"{a}/api/games", json={"scenario": "duel", "mode": "remote"}, timeout=60).json()
    axis = created["links"]["axis"]
    for attempt in range(10):
        version = httpx.get(f"{api(a, axis)}/state", timeout=60).json()["version"]
        move = "end-phase" if attempt == 0 else ("move Pz B4" if attempt % 2 else "move Pz B2")
        if attempt > 1:  # take the last move back first, from the other process
            r = httpx.post(f"{api(b, axis)}/undo", json={"version": version}, timeout=60)
            assert r.status_code == 200, r.text
            version += 1
        barrier = threading.Barrier(2)
        answers: list[int] = []

        def send(url: str, text: str, version: int, barrier: threading.Barrier, answers: list[int]) -> None:
            barrier.wait()
            r = httpx.post(f"{api(url, axis)}/order", json={"order": text, "version": version}, timeout=60)
            answers.append(r.status_code)

        threads = [threading.Thread(target=send, args=(url, move, version, barrier, answers)) for url in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409], answers
    stored = stored_orders(db, created["game"])
    assert [seq for seq, _, _ in stored] == list(range(18))  # the set-up's end, a move, then 8 times an undo and a move


def test_a_process_that_finds_anothers_orders_tells_its_watchers(db_url: str) -> None:
    """Two referees on one database, as two processes have: the one that reads the other's order while answering
    any request tells the pages watching that game (its event streams), whoever asked."""
    from tobruk.web.referee import Referee, Scenarios
    from tobruk.web.store import Store

    first, second = Referee(Store(db_url), Scenarios()), Referee(Store(db_url), Scenarios())
    told: list[str | None] = []
    second.on_change = told.append
    stored = first.create(first.scenarios.get("gazala-gallop"), [], 7, "hotseat", "human", "human")
    assert stored.both_token is not None
    s2, _ = second.open(stored.both_token) or (None, "")
    assert s2 is not None and told == []  # nothing new to it yet
    s1, _ = first.open(stored.both_token) or (None, "")
    assert s1 is not None
    first.play(s1, "both", "end-phase", s1.version)
    assert second.open(stored.both_token) is not None  # any request: it reads the new order
    assert told == [stored.id] and s2.version == s1.version
    for referee in (first, second):
        referee.store.engine.dispose()
