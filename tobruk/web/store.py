"""Where games live: one table in a relational database (SQLite file by default, any SQLAlchemy URL).

A game is stored as its settings, the secret tokens of its seats and its record (the orders); the
position is replayed from them when the server starts, then kept in memory while it runs.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, create_engine, select, update
from sqlalchemy.engine import Engine

metadata = MetaData()
games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("scenario", String(200), nullable=False),
    Column("options", Text, nullable=False, default="[]"),
    Column("seed", Integer, nullable=False),
    Column("mode", String(20), nullable=False),
    Column("axis_player", String(20), nullable=False),
    Column("allied_player", String(20), nullable=False),
    Column("axis_token", String(64), nullable=False, unique=True),
    Column("allied_token", String(64), nullable=False, unique=True),
    Column("both_token", String(64), nullable=True, unique=True),
    Column("orders", Text, nullable=False, default="[]"),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


@dataclass
class StoredGame:
    id: str
    scenario: str
    options: list[str]
    seed: int
    mode: str
    axis_player: str
    allied_player: str
    axis_token: str
    allied_token: str
    both_token: str | None
    orders: list[str] = field(default_factory=list)


def url_for_path(path: str) -> str:
    return f"sqlite:///{path}"


class Store:
    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url, future=True)
        metadata.create_all(self.engine)

    def create(self, scenario: str, options: list[str], seed: int, mode: str, axis_player: str,
               allied_player: str) -> StoredGame:
        g = StoredGame(secrets.token_hex(8), scenario, options, seed, mode, axis_player, allied_player,
                       secrets.token_urlsafe(16), secrets.token_urlsafe(16),
                       secrets.token_urlsafe(16) if mode == "hotseat" else None)
        now = time.time()
        with self.engine.begin() as c:
            c.execute(games.insert().values(
                id=g.id, scenario=scenario, options=json.dumps(options), seed=seed, mode=mode,
                axis_player=axis_player, allied_player=allied_player, axis_token=g.axis_token,
                allied_token=g.allied_token, both_token=g.both_token, orders="[]", created=now, updated=now))
        return g

    def _row(self, row: Any) -> StoredGame:
        return StoredGame(row.id, row.scenario, json.loads(row.options), row.seed, row.mode, row.axis_player,
                          row.allied_player, row.axis_token, row.allied_token, row.both_token, json.loads(row.orders))

    def by_token(self, token: str) -> tuple[StoredGame, str] | None:
        """The game and the seat ('axis', 'allied' or 'both') a secret token opens."""
        with self.engine.connect() as c:
            for column, seat in ((games.c.axis_token, "axis"), (games.c.allied_token, "allied"),
                                 (games.c.both_token, "both")):
                row = c.execute(select(games).where(column == token)).first()
                if row is not None:
                    return self._row(row), seat
        return None

    def get(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as c:
            row = c.execute(select(games).where(games.c.id == game_id)).first()
        return None if row is None else self._row(row)

    def save_orders(self, game_id: str, orders: list[str]) -> None:
        with self.engine.begin() as c:
            c.execute(update(games).where(games.c.id == game_id).values(orders=json.dumps(orders), updated=time.time()))
