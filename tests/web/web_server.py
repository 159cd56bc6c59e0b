"""A real tobruk server on a free localhost port, in a thread, for the API and browser tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
def running_server(db: Path, scenarios: Path, *, seeds: Callable[[], int] | None = None, busy_timeout: float = 5.0) -> Iterator[str]:
    """A server on ``db`` with the user scenario folder ``scenarios`` (the Duel in it); ``seeds``: a fixed
    source of new games' seeds, where a test needs two games with the same dice (else the server's own)."""
    scenarios.mkdir(parents=True, exist_ok=True)
    (scenarios / "duel.toml").write_text(DUEL, encoding="utf-8")
    port = free_port()
    app = create_app(f"sqlite:///{db}", [scenarios], seeds=seeds or server_seed, busy_timeout=busy_timeout)
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
