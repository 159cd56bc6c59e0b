"""Game records: scenario + options + seed + the orders; everything else is replayed.

A record is JSON with a format version and the scenario's digest.  Each order carries the
hash of the state after it, so :func:`replay` can prove that a replay reproduces every
state exactly (and a tampered file is caught at the first bad line).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tobruk.engine.actions import Action as Order
from tobruk.engine.errors import RecordError, TobrukError
from tobruk.engine.game import Game
from tobruk.loading.scenario import Scenario, load_scenario

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
    rec = Record(
        game.scenario.name, game.scenario.digest, game.seed, sorted(game.options), dict(players or {}), start_hash=replayed.state_hash()
    )
    for order in game.played():
        replayed.play(order)
        rec.orders.append(order.notation())
        rec.hashes.append(replayed.state_hash())
    rec.dice = [[r.purpose, r.value] for r in replayed.dice.log]
    return rec


def save(record: Record, path: Path) -> None:
    path.write_text(json.dumps(record.to_data(), indent=1) + "\n", encoding="utf-8")


MAX_BYTES = 64 * 1024 * 1024  # a full game is some tens of kilobytes; anything near this is not a record
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")  # a scenario is named, never a path


def _bad(path: str, where: str, problem: str) -> RecordError:
    return RecordError(f"{path}: {where}: {problem}")


def excerpt(value: object, limit: int = 60) -> str:
    """A short quotation of a bad value for an error message: a record may hold anything."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _read_text(path: Path) -> str:
    name = str(path)
    if path.is_dir():
        raise _bad(name, "(file)", "is a folder, not a game record")
    if path.exists() and not path.is_file():
        raise _bad(name, "(file)", "not a regular file")
    try:
        if path.stat().st_size > MAX_BYTES:
            raise _bad(name, "(file)", f"larger than {MAX_BYTES // (1024 * 1024)} MiB: not a game record")
        raw = path.read_bytes()
    except OSError as exc:
        raise _bad(name, "(file)", exc.strerror or str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(name, "(file)", "not a text file (a game record is JSON in UTF-8)") from None


def _parse_json(name: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        cut = not text[exc.pos :].strip() or exc.msg.startswith("Unterminated")
        raise _bad(
            name, f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}" + (" (the file ends too soon: cut short?)" if cut else "")
        ) from None
    except RecursionError:
        raise _bad(name, "(file)", "not a game record: nested too deeply") from None


def _field(name: str, data: dict[str, Any], key: str, kind: type, what: str, default: Any = None) -> Any:
    value = data.get(key, default)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _bad(name, key, f"expected {what}, got {excerpt(value) if key in data else 'nothing (missing)'}")
    return value


def record_from_data(data: Any, name: str) -> Record:
    """Check a record's fields (as JSON data) one by one; the first bad one raises :class:`RecordError`."""
    if not isinstance(data, dict):
        raise _bad(name, "(top level)", f"expected a JSON object (a tobruk game record), got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise _bad(name, "format", f"expected {FORMAT!r}, got {excerpt(data.get('format'))}: not a tobruk game record")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise _bad(name, "version", f"this program reads record version {VERSION}, got {excerpt(data.get('version'))}")
    scenario = _field(name, data, "scenario", str, "a scenario name")
    if not _NAME.fullmatch(scenario):
        raise _bad(name, "scenario", f"expected a scenario name (letters, digits, '-' and '_'), got {excerpt(scenario)}")
    digest = _field(name, data, "scenario_digest", str, "text")
    seed = _field(name, data, "seed", int, "an integer")
    options = _field(name, data, "options", list, "a list of option names")
    for i, o in enumerate(options):
        if not isinstance(o, str):
            raise _bad(name, f"options[{i}]", f"expected an option name, got {excerpt(o)}")
    players = _field(name, data, "players", dict, "an object naming each side's player", {})
    for side, who in players.items():
        if not isinstance(who, str):
            raise _bad(name, f"players.{side}", f"expected text, got {excerpt(who)}")
    start_hash = _field(name, data, "start_hash", str, "text")
    dice = _field(name, data, "dice", list, "a list of [purpose, value] rolls", [])
    for i, roll in enumerate(dice):
        if not (
            isinstance(roll, list)
            and len(roll) == 2
            and isinstance(roll[0], str)
            and isinstance(roll[1], int)
            and not isinstance(roll[1], bool)
        ):
            raise _bad(name, f"dice[{i}]", f"expected [purpose, value], got {excerpt(roll)}")
    rec = Record(scenario, digest, seed, list(options), dict(players), start_hash=start_hash, dice=list(dice))
    for i, entry in enumerate(_field(name, data, "orders", list, "a list of orders")):
        if not (isinstance(entry, dict) and isinstance(entry.get("order"), str) and isinstance(entry.get("hash"), str)):
            raise _bad(name, f"orders[{i}]", f'expected {{"order": text, "hash": text}}, got {excerpt(entry)}')
        rec.orders.append(entry["order"])
        rec.hashes.append(entry["hash"])
    return rec


def load(path: Path) -> Record:
    """Read a record file; a missing, unreadable or malformed one raises :class:`RecordError` naming the file
    and the field or order."""
    return record_from_data(_parse_json(str(path), _read_text(path)), str(path))


def start(rec: Record, *, verify: bool = True, source: str = "record", scenario: Scenario | None = None) -> Game:
    """The game a record starts from; with ``verify`` its scenario and starting position must be the recorded ones.

    ``scenario``: the scenario itself, for one that is not packaged (a file); else it is found by name.
    """
    if scenario is None:
        try:
            scenario = load_scenario(rec.scenario)
        except (TobrukError, KeyError) as exc:
            raise RecordError(f"{source}: scenario: {exc}") from None
    if verify and scenario.digest != rec.scenario_digest:
        raise RecordError(
            f"{source}: scenario_digest: the scenario {rec.scenario!r} has changed since this game was recorded (or the record was altered)"
        )
    try:
        game = Game(scenario, seed=rec.seed, options=rec.options)
    except (ValueError, TobrukError) as exc:
        raise RecordError(f"{source}: options: {exc}") from None
    if verify and game.state_hash() != rec.start_hash:
        raise RecordError(f"{source}: start_hash: the starting position differs from the record")
    return game


def play_recorded(game: Game, rec: Record, i: int, *, verify: bool = True, source: str = "record") -> Order:
    """Play the record's order ``i``; a refused order, or with ``verify`` a state unlike the recorded one,
    raises :class:`RecordError` naming the order."""
    text = rec.orders[i]
    try:
        order = game.parse(text)
        game.play(order)
    except TobrukError as exc:
        raise RecordError(f"{source}: orders[{i}] ({excerpt(text)}): {exc}") from None
    if verify and game.state_hash() != rec.hashes[i]:
        raise RecordError(f"{source}: orders[{i}] ({excerpt(text)}): the state after it differs from the record (the record was altered)")
    return order


def check_dice(game: Game, rec: Record, *, source: str = "record") -> None:
    """Every die rolled in the replay is the recorded one."""
    if not rec.dice:
        return
    rolled = [[r.purpose, r.value] for r in game.dice.log]
    for i, (want, got) in enumerate(zip(rec.dice, rolled, strict=False)):
        if list(want) != got:
            raise RecordError(f"{source}: dice[{i}]: recorded {excerpt(want)}, rolled {got}")
    if len(rec.dice) != len(rolled):
        raise RecordError(f"{source}: dice: {len(rec.dice)} recorded, {len(rolled)} rolled")


def replay(rec: Record, *, verify: bool = True, source: str = "record", upto: int | None = None, scenario: Scenario | None = None) -> Game:
    """Play a record's orders again; with ``verify``, every state hash (and every die) must match.

    ``scenario``: the scenario itself, for one that is not packaged (a file); else it is found by name.
    """
    game = start(rec, verify=verify, source=source, scenario=scenario)
    count = len(rec.orders) if upto is None else min(upto, len(rec.orders))
    for i in range(count):
        play_recorded(game, rec, i, verify=verify, source=source)
    if verify and upto is None:
        check_dice(game, rec, source=source)
    return game
