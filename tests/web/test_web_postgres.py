"""What only PostgreSQL does for the server (docs/hosting.md): a write that waits too long for another's lock fails
and changes nothing (503), and a change made through one server process reaches the pages of another at once,
by the database's notices (LISTEN/NOTIFY), not at the other's next look at the database (every five seconds)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.web.databases import new_postgres_database, postgres_admin, rows, why_no_postgres
from tests.web.web_server import end_or_first, running_server, server_processes
from tobruk.web.server import POLL_SECONDS


@pytest.fixture
def pg_url() -> Iterator[str]:
    if postgres_admin() is None:
        pytest.skip(why_no_postgres())
    with new_postgres_database() as url:
        yield url


def play(api: str, text: str) -> int:
    version = httpx.get(f"{api}/state", timeout=60).json()["version"]
    r = httpx.post(f"{api}/order", json={"order": text, "version": version}, timeout=60)
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def test_a_write_that_waits_for_a_lock_too_long_answers_503_and_changes_nothing(pg_url: str, tmp_path: Path) -> None:
    with running_server(pg_url, tmp_path / "scenarios", busy_timeout=0.3) as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
        api = r.json()["links"]["both"].replace("/g/", "/api/g/")
        version = play(api, "end-phase")
        before = httpx.get(f"{api}/state", timeout=60).json()
        locker = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
        with locker.begin() as c:
            c.exec_driver_sql("LOCK TABLE game_event IN EXCLUSIVE MODE")  # reads go on, writes wait (and time out)
            r = httpx.post(f"{api}/order", json={"order": "move Pz B4", "version": version}, timeout=60)
            assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
            assert httpx.get(f"{api}/state", timeout=60).json() == before
        locker.dispose()
        assert rows(pg_url, "game_event") == 1
        r = httpx.post(f"{api}/order", json={"order": "move Pz B4", "version": version}, timeout=60)
        assert r.status_code == 200 and r.json()["version"] == version + 1


def test_an_order_through_one_process_reaches_a_page_on_another_at_once(pg_url: str, tmp_path: Path) -> None:
    with server_processes(2, pg_url, tmp_path / "scenarios") as [(a, _), (b, _)]:
        created = httpx.post(f"{a}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()
        on_a = created["links"]["both"].replace("/g/", "/api/g/")
        on_b = on_a.replace(a, b)
        delays = []
        with httpx.stream("GET", f"{on_b}/events", timeout=60) as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("data:")  # the version the page has
            for _ in range(3):
                time.sleep(0.5)  # the listener is up, and the stream is in its wait (its next look is seconds away)
                state = httpx.get(f"{on_a}/state", timeout=60).json()
                sent = time.monotonic()
                r = httpx.post(f"{on_a}/order", json={**end_or_first(state), "version": state["version"]}, timeout=60)
                assert r.status_code == 200, r.text
                version = int(r.json()["version"])
                line = next(line for line in lines if line.startswith("data:"))
                delays.append(time.monotonic() - sent)
                assert f'"version": {version}' in line
        assert max(delays) < POLL_SECONDS / 3, delays  # heard from the notice, not found by the periodic look
