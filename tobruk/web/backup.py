"""Every game of a server's database to a file and back: ``tobruk dump-games`` and ``tobruk load-games``.

A backup that a host can read and carry between databases (SQLite to PostgreSQL and back, one version of the
schema to the next), whatever each database's own dump tool writes.  The file is JSON Lines: a first line
``{"format": "tobruk-games", "version": 1}``, then one line per game with every column of its ``game`` row (its
seats' tokens and its seed too: the file is as secret as the database) and its events as ``[number, kind, text,
time]`` and its seats' webhooks.  A dump reads the whole database in one transaction, so it is one moment of it even while servers write.

Loading adds what the database does not have: a new game with all its events; for a game it already has (the
same id, tokens and seed), the events past the ones it holds, when the file's and the database's agree as far as
both go (a game that went on after the dump is left as it is).  A
game that differs (another game under the same id, or events that fork) is left as it is and reported.  Each game
goes in its own transaction, so loading the same file twice changes nothing the second time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from tobruk.web.store import Store, StoreError, events, games, webhooks

FORMAT = "tobruk-games"
VERSION = 1
COLUMNS = [c.name for c in games.columns]


@dataclass
class Loaded:
    """What a load did: games added whole, games given more events, games already there, games refused (why)."""

    added: int = 0
    extended: int = 0
    unchanged: int = 0
    refused: list[str] = field(default_factory=list)


def dump(store: Store, out: IO[str]) -> int:
    """Write every game of ``store`` to ``out``; the number of games."""
    out.write(json.dumps({"format": FORMAT, "version": VERSION}) + "\n")
    count = 0
    try:
        snapshot = {"isolation_level": "REPEATABLE READ"} if store.postgres else {}  # (SQLite: a read transaction is one)
        with store.engine.connect().execution_options(**snapshot) as c, c.begin():
            for game in c.execute(select(games).order_by(games.c.id)).mappings():
                rows = c.execute(
                    select(events.c.seq, events.c.kind, events.c.text, events.c.created)
                    .where(events.c.game_id == game["id"])
                    .order_by(events.c.seq)
                ).all()
                entry = {name: game[name] for name in COLUMNS}
                entry["events"] = [[r.seq, r.kind, r.text, r.created] for r in rows]
                hooks = c.execute(select(webhooks.c.seat, webhooks.c.url).where(webhooks.c.game_id == game["id"]).order_by(webhooks.c.seat))
                entry["webhooks"] = {r.seat: r.url for r in hooks}
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
                count += 1
    except SQLAlchemyError as exc:
        raise StoreError(f"the games could not be read: {str(getattr(exc, 'orig', exc)).splitlines()[0][:200]}") from None
    return count


def _entries(source: IO[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    header = source.readline()
    try:
        head = json.loads(header)
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("version") != VERSION:
        raise ValueError(f"line 1: not a tobruk games file (expected format {FORMAT!r} version {VERSION})")
    for number, line in enumerate(source, start=2):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            raise ValueError(f"line {number}: not JSON") from None
        if not isinstance(entry, dict) or set(entry) != {*COLUMNS, "events", "webhooks"} or not isinstance(entry["events"], list):
            raise ValueError(f"line {number}: not a game (expected the columns {', '.join(COLUMNS)}, events and webhooks)")
        hooks = entry["webhooks"]
        if not isinstance(hooks, dict) or not all(k in ("axis", "allied") and isinstance(v, str) for k, v in hooks.items()):
            raise ValueError(f"line {number}: game {entry['id']!r}: webhooks are {{seat: URL}}")
        for e in entry["events"]:
            if not (isinstance(e, list) and len(e) == 4 and isinstance(e[0], int) and isinstance(e[1], str) and isinstance(e[2], str)):
                raise ValueError(f"line {number}: game {entry['id']!r}: an event is not [number, kind, text, time]")
        if [e[0] for e in entry["events"]] != list(range(len(entry["events"]))):
            raise ValueError(f"line {number}: game {entry['id']!r}: the events are not numbered 0, 1, 2...")
        yield number, entry


def _load_one(c: Connection, entry: dict[str, Any], done: Loaded) -> None:
    row = c.execute(select(games).where(games.c.id == entry["id"])).mappings().first()
    new = [{"game_id": entry["id"], "seq": e[0], "kind": e[1], "text": e[2], "created": e[3]} for e in entry["events"]]
    if row is None:
        c.execute(games.insert().values(**{name: entry[name] for name in COLUMNS}))
        if new:
            c.execute(events.insert(), new)
        for seat, url in entry["webhooks"].items():
            c.execute(webhooks.insert().values(game_id=entry["id"], seat=seat, url=url))
        done.added += 1
        return
    if any(row[k] != entry[k] for k in ("axis_token", "allied_token", "both_token", "seed", "scenario", "options")):
        done.refused.append(f"game {entry['id']}: the database has another game under this id")
        return
    held = [
        (r.kind, r.text)
        for r in c.execute(select(events.c.kind, events.c.text).where(events.c.game_id == entry["id"]).order_by(events.c.seq))
    ]
    common = min(len(held), len(new))  # the database may hold more: the game went on after the dump
    if held[:common] != [(e["kind"], e["text"]) for e in new[:common]]:
        done.refused.append(f"game {entry['id']}: its events in the database and in the file differ")
        return
    if len(new) > len(held):
        c.execute(events.insert(), new[len(held) :])
        done.extended += 1
    else:
        done.unchanged += 1


def load(store: Store, source: IO[str]) -> Loaded:
    """Add the games of a dump to ``store`` (each in its own transaction); :class:`ValueError` for a bad file
    (the games before the bad line are loaded), :class:`StoreError` when the database fails."""
    done = Loaded()
    for _number, entry in _entries(source):
        try:
            with store.engine.begin() as c:
                _load_one(c, entry, done)
        except SQLAlchemyError as exc:
            raise StoreError(f"game {entry['id']}: {str(getattr(exc, 'orig', exc)).splitlines()[0][:200]}") from None
    return done
