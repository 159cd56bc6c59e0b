"""SQLite's shared-memory file (``-shm``, the WAL index) made unusable under a running server (issue 35).

SQLite writes to that file through a memory mapping, so a file made read-only or cut short does not give an error:
the kernel kills the process with SIGBUS, and every game it serves goes down.  The server must instead answer
503 and keep serving, as it does when the WAL file itself cannot be written.  Real ``tobruk serve`` processes: a
crash is what is tested for, and it must not take the test run with it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.web.web_server import server_processes


def hotseat_duel(url: str) -> tuple[str, int]:
    r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
    assert r.status_code == 200, r.text
    api = r.json()["links"]["both"].replace("/g/", "/api/g/")
    s = httpx.get(f"{api}/state", timeout=60).json()
    r = httpx.post(f"{api}/order", json={"order": "end-phase", "version": s["version"]}, timeout=60)
    assert r.status_code == 200, r.text
    return api, int(r.json()["version"])


def test_a_shm_file_cut_short_gets_503_and_the_server_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with server_processes(1, f"sqlite:///{db}", tmp_path / "scenarios") as [(url, proc)]:
        api, version = hotseat_duel(url)
        assert Path(f"{db}-shm").stat().st_size > 0
        os.truncate(f"{db}-shm", 0)
        r = httpx.get(f"{api}/state", timeout=60)
        assert proc.poll() is None, "the server died"
        assert r.status_code == 503 and "try again" in r.json()["error"]
        # the index is rebuilt from the WAL by the next request: nothing stored is lost
        s = httpx.get(f"{api}/state", timeout=60)
        assert s.status_code == 200 and s.json()["version"] == version
        r = httpx.post(f"{api}/order", json={"order": "move Pz B4", "version": version}, timeout=60)
        assert r.status_code == 200 and r.json()["version"] == version + 1
        assert proc.poll() is None


@pytest.mark.skipif(shutil.which("chattr") is None, reason="needs chattr (e2fsprogs)")
def test_a_read_only_shm_file_gets_503_and_the_server_goes_on(tmp_path: Path) -> None:
    """Read-only even for root: the immutable flag (``chattr +i``; root only, on a file system that has it)."""
    db = tmp_path / "games.sqlite"
    shm = f"{db}-shm"
    with server_processes(1, f"sqlite:///{db}", tmp_path / "scenarios") as [(url, proc)]:
        api, version = hotseat_duel(url)
        if subprocess.run(["chattr", "+i", shm], capture_output=True).returncode != 0:
            pytest.skip("cannot make a file immutable here (not root, or the file system has no such flag)")
        try:
            order = httpx.post(f"{api}/order", json={"order": "move Pz B4", "version": version}, timeout=60)
            state = httpx.get(f"{api}/state", timeout=60)
            new = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
            assert proc.poll() is None, "the server died"
            assert [order.status_code, state.status_code, new.status_code] == [503, 503, 503]
            assert "read-only" in order.json()["error"]
        finally:
            subprocess.run(["chattr", "-i", shm], check=True)
        r = httpx.post(f"{api}/order", json={"order": "move Pz B4", "version": version}, timeout=60)
        assert r.status_code == 200 and r.json()["version"] == version + 1  # the refused order changed nothing
