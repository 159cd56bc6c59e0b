"""A real tobruk server on a free localhost port, in a thread, for the API and browser tests; or real ``tobruk serve``
processes, for what only a process shows (a crash, several processes on one database)."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from subprocess import DEVNULL, PIPE, Popen, TimeoutExpired
from typing import Any

import httpx
import uvicorn

from tobruk.web.referee import server_seed
from tobruk.web.server import create_app

DUEL = """
format = "tobruk-scenario"
version = 1
title = "Duel"
system = "gazala-gallop"
turns = 2

[map]
name = "duel"
grid = { rows = 5, columns = 8 }

[[unit]]
id = "Pz"
name = "Panzer"
side = "axis"
nationality = "german"
echelon = "division"
type = "armour"
factors = "6-3-4"
hex = "B3"

[[unit]]
id = "Tommy"
name = "Tommy"
side = "allied"
nationality = "british"
echelon = "division"
type = "infantry"
factors = "1-2-2"
hex = "B5"
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(
    db: Path | str,
    scenarios: Path,
    *,
    seeds: Callable[[], int] | None = None,
    busy_timeout: float = 5.0,
    webhooks_anywhere: bool = False,
) -> Iterator[str]:
    """A server on ``db`` (an SQLite file, or a database URL) with the user scenario folder ``scenarios`` (the Duel
    in it); ``seeds``: a fixed source of new games' seeds, where a test needs two games with the same dice (else the
    server's own)."""
    scenarios.mkdir(parents=True, exist_ok=True)
    (scenarios / "duel.toml").write_text(DUEL, encoding="utf-8")
    port = free_port()
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    app = create_app(url, [scenarios], seeds=seeds or server_seed, busy_timeout=busy_timeout, webhooks_anywhere=webhooks_anywhere)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def server_processes(
    count: int, db_url: str, scenarios: Path, *, env: dict[str, str] | None = None
) -> Iterator[list[tuple[str, Popen[bytes]]]]:
    """``count`` real ``tobruk serve`` processes on the database ``db_url`` (the Duel in the folder ``scenarios``),
    each on a free port: the URL and the process of each, stopped at the end."""
    scenarios.mkdir(parents=True, exist_ok=True)
    (scenarios / "duel.toml").write_text(DUEL, encoding="utf-8")
    started: list[tuple[str, Popen[bytes]]] = []
    try:
        for _ in range(count):
            port = free_port()
            command = [sys.executable, "-m", "tobruk.cli", "serve", "--port", str(port), "--db-url", db_url, "--scenarios", str(scenarios)]
            proc = Popen(command, stdout=DEVNULL, stderr=PIPE, env={**os.environ, **(env or {})})
            started.append((f"http://127.0.0.1:{port}", proc))
        for url, proc in started:
            for _ in range(300):
                try:
                    if httpx.get(f"{url}/", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    if proc.poll() is not None:
                        raise RuntimeError(f"tobruk serve ended: {proc.stderr.read().decode() if proc.stderr else ''}") from None
                    time.sleep(0.1)
        yield started
    finally:
        for _, proc in started:
            proc.terminate()
        for _, proc in started:
            try:
                proc.wait(timeout=20)
            except TimeoutExpired:
                proc.kill()
                proc.wait()


# --- the legal actions as the server lists them (tobruk.engine.offers) -------------------------------------------
def labels(state: dict[str, Any]) -> list[str]:
    """The labels (the notation) of a state's legal actions, in the order listed."""
    return [a["label"] for a in state["legal"]["actions"]]


def listed(state: dict[str, Any], label: str) -> dict[str, Any]:
    """The listed action with this label."""
    return next(a for a in state["legal"]["actions"] if a["label"] == label)


def end_or_first(state: dict[str, Any]) -> dict[str, int]:
    """What a script that only wants the game to go on sends: the action that ends the step if listed, else the first
    one listed, by its id."""
    actions = state["legal"]["actions"]
    chosen = next((a for a in actions if a["verb"] == "end-phase"), actions[0])
    return {"id": chosen["id"]}


def api_of(link: str) -> str:
    """The API address of a game page's link (``/g/TOKEN`` -> ``/api/g/TOKEN``)."""
    return link.replace("/g/", "/api/g/")


def state_of(link: str) -> dict[str, Any]:
    """The seat's state as the server gives it to the page of ``link``."""
    answer: dict[str, Any] = httpx.get(api_of(link) + "/state", timeout=60).json()
    return answer


def play_orders(link: str, *orders: str) -> dict[str, Any]:
    """Play ``orders`` (notation) one after another as the seat of ``link``, each against the version it then sees;
    the answer to the last (the seat's state after it)."""
    answer: dict[str, Any] = {}
    for order in orders:
        r = httpx.post(api_of(link) + "/order", json={"order": order, "version": state_of(link)["version"]}, timeout=60)
        assert r.status_code == 200, r.text
        answer = r.json()
    return answer
