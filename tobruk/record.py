"""Game records: scenario + options + seed + the orders; everything else is replayed.

A record is JSON with a format version and the scenario's digest.  Each order carries the
hash of the state after it, so :func:`replay` can prove that a replay reproduces every
state exactly (and a tampered file is caught at the first bad line).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tobruk.errors import InvalidOrderError, RecordError, TobrukError
from tobruk.game import Game
from tobruk.orders import format_order, parse_order
from tobruk.scenario import Scenario, load_scenario

FORMAT = "tobruk-record"
VERSION = 1


@dataclass
class Record:
    scenario: str
    scenario_digest: str
    seed: int
    options: list[str] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    orders: list[str] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    dice: list[list[Any]] = field(default_factory=list)
    start_hash: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "scenario": self.scenario,
            "scenario_digest": self.scenario_digest,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
            "start_hash": self.start_hash,
            "orders": [{"order": o, "hash": h} for o, h in zip(self.orders, self.hashes, strict=True)],
            "dice": self.dice,
        }


def record_of(game: Game, players: dict[str, str] | None = None) -> Record:
    """The record of a game played so far, replaying its orders to collect the state hashes."""
    replayed = Game(game.scenario, seed=game.seed, options=game.options)
    rec = Record(game.scenario.name, game.scenario.digest, game.seed, sorted(game.options), dict(players or {}),
                 start_hash=replayed.state_hash())
    for order in game.history:
        replayed.play(order)
        rec.orders.append(format_order(order))
        rec.hashes.append(replayed.state_hash())
    rec.dice = [[r.purpose, r.value] for r in replayed.dice.log]
    return rec


def save(record: Record, path: Path) -> None:
    path.write_text(json.dumps(record.to_data(), indent=1) + "\n", encoding="utf-8")


def _bad(path: str, where: str, problem: str) -> RecordError:
    return RecordError(f"{path}: {where}: {problem}")


def load(path: Path) -> Record:
    """Read a record file; a malformed one raises :class:`RecordError` naming the field or order."""
    name = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _bad(name, "(file)", exc.strerror or str(exc)) from None
    except json.JSONDecodeError as exc:
        raise _bad(name, f"line {exc.lineno}", f"not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(name, "format", f"expected {FORMAT!r}")
    if data.get("version") != VERSION:
        raise _bad(name, "version", f"this program reads record version {VERSION}, got {data.get('version')!r}")
    for key, kind in (("scenario", str), ("scenario_digest", str), ("seed", int), ("options", list),
                      ("orders", list), ("start_hash", str)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise _bad(name, key, f"missing or not a {kind.__name__}")
    rec = Record(data["scenario"], data["scenario_digest"], data["seed"], list(data["options"]),
                 dict(data.get("players") or {}), start_hash=data["start_hash"], dice=list(data.get("dice") or []))
    for i, entry in enumerate(data["orders"]):
        if not (isinstance(entry, dict) and isinstance(entry.get("order"), str) and isinstance(entry.get("hash"), str)):
            raise _bad(name, f"orders[{i}]", "expected {\"order\": text, \"hash\": text}")
        rec.orders.append(entry["order"])
        rec.hashes.append(entry["hash"])
    return rec


def replay(rec: Record, *, verify: bool = True, source: str = "record", upto: int | None = None,
           scenario: Scenario | None = None) -> Game:
    """Play a record's orders again; with ``verify``, every state hash must match.

    ``scenario``: the scenario itself, for one that is not packaged (a file); else it is found by name.
    """
    if scenario is None:
        try:
            scenario = load_scenario(rec.scenario)
        except (TobrukError, KeyError) as exc:
            raise RecordError(f"{source}: scenario: {exc}") from None
    if verify and scenario.digest != rec.scenario_digest:
        raise RecordError(f"{source}: scenario_digest: the scenario {rec.scenario!r} has changed since this game "
                          "was recorded")
    try:
        game = Game(scenario, seed=rec.seed, options=rec.options)
    except ValueError as exc:
        raise RecordError(f"{source}: options: {exc}") from None
    if verify and game.state_hash() != rec.start_hash:
        raise RecordError(f"{source}: start_hash: the starting position differs")
    for i, (text, expected) in enumerate(zip(rec.orders, rec.hashes, strict=True)):
        if upto is not None and i >= upto:
            break
        try:
            game.play(parse_order(text))
        except (InvalidOrderError, TobrukError) as exc:
            raise RecordError(f"{source}: orders[{i}] ({text!r}): {exc}") from None
        if verify and game.state_hash() != expected:
            raise RecordError(f"{source}: orders[{i}] ({text!r}): the state after it differs from the record")
    if verify and upto is None and rec.dice:
        rolled = [[r.purpose, r.value] for r in game.dice.log]
        for i, (want, got) in enumerate(zip(rec.dice, rolled, strict=False)):
            if list(want) != got:
                raise RecordError(f"{source}: dice[{i}]: recorded {want}, rolled {got}")
        if len(rec.dice) != len(rolled):
            raise RecordError(f"{source}: dice: {len(rec.dice)} recorded, {len(rolled)} rolled")
    return game
