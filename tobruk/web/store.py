"""Where games live: a relational database (an SQLite file by default; PostgreSQL for a host, docs/hosting.md).

Two tables.  ``game``: a game's settings, the secret tokens of its seats and its seed (kept here, never
sent to a player before the game is over).  ``game_event``: one row per order or undo, appended, never
rewritten; its key is (game, number), so writing event *n* of a game is a compare-and-set on the version
the writer saw: when two server processes on one database both try to write event *n*, the database
accepts one and refuses the other (:class:`Conflict`), and no order is lost or forked.  The version of a
game is the number of its events, so it comes from the database and survives restarts.  A third,
``seat_webhook``, holds the address a remote seat asked to be told at when the decision passes to it.

On PostgreSQL each write also sends a notice (``NOTIFY``, delivered when the write commits) naming the game,
which the other server processes hear (:mod:`tobruk.web.notify`), so their pages learn of the change at once.

A database written by the first version of this module (one ``games`` table with the whole order list in
a column) is copied into the new tables the first time the server opens it; the old table is left as it
was.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    inspect,
    or_,
    select,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.pool import QueuePool

SCHEMA = 2
ORDER, UNDO = "order", "undo"
SETUP_LOCK = 0x70B2_0C_35  # the PostgreSQL advisory lock held while a process sets up the tables
CHANNEL = "tobruk_game_changed"  # PostgreSQL's notice channel: the payload is the id of the game that changed
SHM_REGION = 32 * 1024  # SQLite maps its WAL index (the -shm file) in regions of this size

metadata = MetaData()
games = Table(
    "game",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("scenario", String(100), nullable=False),
    Column("options", Text, nullable=False),  # a JSON list of option names
    Column("seed", String(60), nullable=False),  # decimal text: a 128-bit number does not fit an SQL integer
    Column("mode", String(20), nullable=False),  # hotseat, computer, remote or replay
    Column("axis_player", String(20), nullable=False),
    Column("allied_player", String(20), nullable=False),
    Column("axis_token", String(64), nullable=False, unique=True),
    Column("allied_token", String(64), nullable=False, unique=True),
    Column("both_token", String(64), nullable=True, unique=True),  # the hotseat seat, or a replay link
    Column("rematch_of", String(32), nullable=True, unique=True),  # at most one rematch per game
    Column("created", Float, nullable=False),
)
events = Table(
    "game_event",
    metadata,
    Column("game_id", String(32), ForeignKey("game.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(10), nullable=False),  # 'order' or 'undo'
    Column("text", String(200), nullable=False),  # the order's notation ('' for an undo)
    Column("created", Float, nullable=False),
)
webhooks = Table(  # a seat's optional address to tell when the decision passes to it (web/webhooks.py)
    "seat_webhook",
    metadata,
    Column("game_id", String(32), ForeignKey("game.id"), primary_key=True),
    Column("seat", String(10), primary_key=True),  # 'axis' or 'allied'
    Column("url", String(500), nullable=False),
)
meta = Table("tobruk_schema", metadata, Column("version", Integer, primary_key=True))


class StoreError(Exception):
    """The database did not answer or refused a write; nothing was stored."""


class Conflict(StoreError):
    """Another writer stored an event with the same number first: the writer's position is stale."""


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    text: str


def effective_orders(stored: Sequence[Event]) -> list[str]:
    """The orders in force after a list of events: each undo takes back the last order still standing."""
    orders: list[str] = []
    for e in stored:
        if e.kind == UNDO:
            orders.pop()
        else:
            orders.append(e.text)
    return orders


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers go on while one process writes; foreign keys keep events tied to their game.

    ``synchronous=NORMAL``: in WAL mode a commit is not flushed to the disk one by one but at checkpoints,
    which saves about 5 ms an order.  A process that crashes loses nothing committed; a machine that loses
    power may lose the last orders before the checkpoint (never the database): the game is then as it
    was a few orders earlier, and the pages, whose versions are then ahead, get 409 and reload.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """The games and their events.  ``busy_timeout``: how long a write waits for another writer's lock
    before it fails (SQLite's busy timeout; PostgreSQL's ``lock_timeout``)."""

    def __init__(self, url: str, busy_timeout: float = 5.0) -> None:
        self.url = url = database_url(url)
        sqlite = url.startswith("sqlite")
        self.postgres = url.startswith("postgresql")
        connect_args: dict[str, Any] = {"timeout": busy_timeout} if sqlite else {}
        if self.postgres:  # a write that waits longer than this for another's lock fails (503), as on SQLite
            connect_args = {"options": f"-c lock_timeout={max(1, round(busy_timeout * 1000))}", "connect_timeout": 10}
        try:
            self.engine: Engine = create_engine(url, future=True, pool_size=10, max_overflow=30, connect_args=connect_args)
        except (ImportError, SQLAlchemyError) as exc:  # (an unknown dialect, a driver not installed)
            raise StoreError(f"cannot use the database {url.split(':', 1)[0]!r}: {exc}") from None
        # One writer at a time within the process: SQLite takes one writer anyway, and threads that find its
        # lock taken sleep in growing steps (up to 100 ms) before they try again; waiting here is first come,
        # first served.  Writers in other processes still wait on the database's lock.
        self._writing = threading.Lock() if sqlite else contextlib.nullcontext()
        database = self.engine.url.database
        self._shm_mapped = 0  # the length of the -shm file this process has seen while it had it mapped
        self._shm = f"{database}-shm" if sqlite and database and database != ":memory:" and "mode=memory" not in url else None
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        for attempt in range(3):
            try:
                if self.postgres:  # one process at a time sets up the tables (PostgreSQL refuses a race with any of several errors)
                    with self.engine.begin() as c:
                        c.execute(select(func.pg_advisory_xact_lock(SETUP_LOCK)))
                        metadata.create_all(c)
                        self._migrate(c)
                else:
                    metadata.create_all(self.engine)
                    with self.engine.begin() as c:
                        self._migrate(c)
                break
            except IntegrityError:
                break  # another server process set up the same new database at the same moment
            except OperationalError as exc:
                if "already exists" not in str(exc) or attempt == 2:  # (the same race, on the tables)
                    raise StoreError(f"cannot open the games database: {_reason(exc)}") from None
            except SQLAlchemyError as exc:
                raise StoreError(f"cannot open the games database: {_reason(exc)}") from None

    # --- SQLite's shared memory -----------------------------------------------------------------------
    def _check_shared_memory(self) -> None:
        """Refuse (:class:`StoreError`) before SQLite touches a WAL index it cannot use.

        SQLite maps the ``-shm`` file into memory and writes to it on every read and write.  If the file has been
        made read-only (``chattr +i``) or cut short while mapped, that write does not fail: the kernel kills the
        whole process with SIGBUS, every game with it (closing the connections would touch it too).  So each use of
        the database first looks at the file.  One that cannot be written is refused (503) until it can.  One
        shorter than this process has mapped is given its length back (zeros: SQLite finds the index's header
        invalid and rebuilds the index from the WAL, so nothing stored is lost) and the request is refused once.
        A file changed in the instant between this look and SQLite's next access still kills the process: the
        look narrows the window, it cannot close it.
        """
        if self._shm is None:
            return
        try:
            size = os.stat(self._shm).st_size
        except FileNotFoundError:
            return  # not made yet, or removed by the last connection to close: SQLite makes a new one
        except OSError as exc:
            raise StoreError(f"the database's shared-memory file cannot be read ({exc.strerror})") from None
        if not os.access(self._shm, os.W_OK):
            raise StoreError("the database's shared-memory file (-shm) is read-only")
        pool = self.engine.pool
        if not (isinstance(pool, QueuePool) and pool.checkedin() + pool.checkedout() > 0):
            return  # nothing mapped yet: SQLite sizes the file itself when it maps it
        mapped = max(self._shm_mapped, SHM_REGION)  # a connection maps at least one region
        if size >= mapped:
            self._shm_mapped = size - size % SHM_REGION if size > mapped else mapped
            return
        try:
            os.truncate(self._shm, mapped)  # only ever made longer: a region SQLite is adding is not cut
        except OSError as exc:
            raise StoreError(f"the database's shared-memory file (-shm) was cut short and cannot be restored ({exc.strerror})") from None
        raise StoreError("the database's shared-memory file (-shm) was cut short; it has been restored")

    # --- games --------------------------------------------------------------------------------------
    def create(
        self, scenario: str, options: list[str], seed: int, mode: str, axis_player: str, allied_player: str, rematch_of: str | None = None
    ) -> StoredGame:
        """A new game with fresh secret tokens; with ``rematch_of``, the one rematch of that game (if two
        players ask at once, the second gets the game the first made)."""
        g = StoredGame(
            secrets.token_hex(8),
            scenario,
            list(options),
            seed,
            mode,
            axis_player,
            allied_player,
            secrets.token_urlsafe(16),
            secrets.token_urlsafe(16),
            secrets.token_urlsafe(16) if mode in ("hotseat", "replay") else None,
        )
        try:
            self._check_shared_memory()
            with self._writing, self.engine.begin() as c:
                c.execute(
                    games.insert().values(
                        id=g.id,
                        scenario=scenario,
                        options=json.dumps(options),
                        seed=str(seed),
                        mode=mode,
                        axis_player=axis_player,
                        allied_player=allied_player,
                        axis_token=g.axis_token,
                        allied_token=g.allied_token,
                        both_token=g.both_token,
                        rematch_of=rematch_of,
                        created=time.time(),
                    )
                )
        except IntegrityError:
            if rematch_of is not None and (existing := self.rematch(rematch_of)) is not None:
                return existing
            raise StoreError("the game could not be stored") from None
        except SQLAlchemyError as exc:
            raise StoreError(f"the game could not be stored: {_reason(exc)}") from None
        return g

    def by_token(self, token: str) -> tuple[StoredGame, str] | None:
        """The game and the seat ('axis', 'allied', 'both' or 'replay') a secret token opens."""
        query = select(games).where(or_(games.c.axis_token == token, games.c.allied_token == token, games.c.both_token == token))
        row = self._first(query)
        if row is None:
            return None
        stored = self._game(row)
        if stored.mode == "replay":
            return stored, "replay"
        if token == stored.axis_token:
            return stored, "axis"
        if token == stored.allied_token:
            return stored, "allied"
        return stored, "replay" if stored.mode == "replay" else "both"

    def rematch(self, game_id: str) -> StoredGame | None:
        row = self._first(select(games).where(games.c.rematch_of == game_id))
        return None if row is None else self._game(row)

    # --- a seat's webhook ---------------------------------------------------------------------------
    def webhook(self, game_id: str, seat: str) -> str | None:
        row = self._first(select(webhooks.c.url).where(webhooks.c.game_id == game_id, webhooks.c.seat == seat))
        return None if row is None else str(row.url)

    def set_webhook(self, game_id: str, seat: str, url: str | None) -> None:
        """Set (or with ``None`` remove) a seat's webhook."""
        try:
            self._check_shared_memory()
            with self._writing, self.engine.begin() as c:
                c.execute(webhooks.delete().where(webhooks.c.game_id == game_id, webhooks.c.seat == seat))
                if url is not None:
                    c.execute(webhooks.insert().values(game_id=game_id, seat=seat, url=url))
        except SQLAlchemyError as exc:
            raise StoreError(f"the games database refused the write: {_reason(exc)}") from None

    # --- events -------------------------------------------------------------------------------------
    def events(self, game_id: str, since: int = 0) -> list[Event]:
        """The game's events from number ``since`` on, in order."""
        query = (
            select(events.c.seq, events.c.kind, events.c.text)
            .where(events.c.game_id == game_id, events.c.seq >= since)
            .order_by(events.c.seq)
        )
        try:
            self._check_shared_memory()
            with self.engine.connect() as c:
                rows = c.execute(query).all()
        except SQLAlchemyError as exc:
            raise StoreError(f"the games database did not answer: {_reason(exc)}") from None
        return [Event(r.seq, r.kind, r.text) for r in rows]

    def version(self, game_id: str) -> int:
        """The number of events of a game (its version)."""
        try:
            self._check_shared_memory()
            with self.engine.connect() as c:
                return int(c.execute(select(func.count()).where(events.c.game_id == game_id)).scalar_one())
        except SQLAlchemyError as exc:
            raise StoreError(f"the games database did not answer: {_reason(exc)}") from None

    def append(self, game_id: str, version: int, new: Sequence[tuple[str, str]]) -> int:
        """Store events ``(kind, text)`` as numbers ``version``, ``version + 1``...: all or none.

        Raises :class:`Conflict` when another writer stored event ``version`` first, :class:`StoreError`
        when the database fails; either way nothing was stored.  Returns the new version.
        """
        if not new:
            return version
        now = time.time()
        rows = [{"game_id": game_id, "seq": version + i, "kind": kind, "text": text, "created": now} for i, (kind, text) in enumerate(new)]
        try:
            self._check_shared_memory()
            with self._writing, self.engine.begin() as c:
                c.execute(events.insert(), rows)
                if self.postgres:
                    c.execute(select(func.pg_notify(CHANNEL, game_id)))
        except IntegrityError:
            raise Conflict("another move was stored first") from None
        except SQLAlchemyError as exc:
            raise StoreError(f"the games database refused the write: {_reason(exc)}") from None
        return version + len(new)

    # --- helpers ------------------------------------------------------------------------------------
    def _first(self, query: Any) -> Any:
        try:
            self._check_shared_memory()
            with self.engine.connect() as c:
                return c.execute(query).first()
        except SQLAlchemyError as exc:
            raise StoreError(f"the games database did not answer: {_reason(exc)}") from None

    @staticmethod
    def _game(row: Any) -> StoredGame:
        return StoredGame(
            row.id,
            row.scenario,
            json.loads(row.options),
            int(row.seed),
            row.mode,
            row.axis_player,
            row.allied_player,
            row.axis_token,
            row.allied_token,
            row.both_token,
        )

    @staticmethod
    def _migrate(c: Connection) -> None:
        """Copy the games of a first-version database (``games`` with an ``orders`` column) once."""
        if c.execute(select(meta.c.version)).first() is not None:
            return
        c.execute(meta.insert().values(version=SCHEMA))
        if "games" not in inspect(c).get_table_names():
            return
        for row in c.exec_driver_sql(
            "SELECT id, scenario, options, seed, mode, axis_player, allied_player, "
            "axis_token, allied_token, both_token, orders, created FROM games"
        ).all():
            c.execute(
                games.insert().values(
                    id=row.id,
                    scenario=row.scenario,
                    options=row.options,
                    seed=str(row.seed),
                    mode=row.mode,
                    axis_player=row.axis_player,
                    allied_player=row.allied_player,
                    axis_token=row.axis_token,
                    allied_token=row.allied_token,
                    both_token=row.both_token,
                    created=row.created,
                )
            )
            orders = json.loads(row.orders)
            if orders:
                c.execute(
                    events.insert(),
                    [{"game_id": row.id, "seq": i, "kind": ORDER, "text": o, "created": row.created} for i, o in enumerate(orders)],
                )


def database_url(url: str) -> str:
    """An SQLAlchemy URL with the driver this project installs: ``postgresql://`` (and ``postgres://``, as hosts
    often write it) means psycopg 3, not SQLAlchemy's default psycopg2."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


def _reason(exc: SQLAlchemyError) -> str:
    """The database's own one-line reason, without the statement and parameters SQLAlchemy adds."""
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).splitlines()[0][:200]
