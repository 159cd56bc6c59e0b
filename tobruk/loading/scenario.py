"""Scenarios: a game system, a map, an order of battle, the set-up and the turn count, from TOML.

The format is documented in ``docs/scenario-format.md``.  A scenario names a packaged map
(``map = "NAME"``) or carries a small one inline (``[map]``), so tests can build a
5x5 board in a few lines.  Any malformed field gets one :class:`ScenarioError` naming the
file, the field and what was expected.

A game system may give its scenarios fields of its own (an order of battle shared by many scenarios,
a dated turn track ...).  Its package registers a :class:`ScenarioExtension` for the field that marks
such a scenario; this loader hands the scenario to it and keeps what it returns, so the loader names
no system and imports none (the packages are found by the system registry, which imports each).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.board.units import UnitDef
from tobruk.loading.datafile import Table, packaged_names, read_packaged_toml, read_toml
from tobruk.loading.mapfile import read_map
from tobruk.loading.unitfile import CounterReader, plain_counter, read_unit_def

if TYPE_CHECKING:
    from tobruk.engine.state import UnitState

FORMAT = "tobruk-scenario"
VERSION = 1
_RANGE = re.compile(r"^\s*([A-Za-z0-9]+)\s*(?:-\s*([A-Za-z0-9]+))?\s*$")


@dataclass(frozen=True, slots=True)
class Reinforcement:
    turn: int
    zone: str


@dataclass(frozen=True, slots=True)
class ScenarioOption:
    name: str
    clause: str
    text: str


@dataclass(frozen=True)
class Scenario:
    """Everything needed to start a game, already validated against its map."""

    name: str
    title: str
    system: str
    map: Map
    units: tuple[UnitDef, ...]
    start: Mapping[str, Hex | None]
    setup_zone: Mapping[str, str]
    reinforcements: Mapping[str, Reinforcement]
    zones: Mapping[str, frozenset[Hex]]
    turns: int
    options: tuple[ScenarioOption, ...] = ()
    digest: str = ""
    source: str = ""
    notes: str = ""
    rules: Mapping[str, Any] = field(default_factory=dict)
    extension: str = ""  # the field of the ScenarioExtension that read the system's own fields, if any
    extra: object = None  # what that extension kept of them (its own type)
    turn_names: tuple[str, ...] = ()  # each turn's name on the system's track ("II Jun 42"); none: "Turn n"

    def turn_name(self, turn: int) -> str:
        """The turn as its system's track names it (dated half-months, "II May 42"), else "Turn n"."""
        return self.turn_names[turn - 1] if 1 <= turn <= len(self.turn_names) else f"Turn {turn}"

    def turn_of_turns(self, turn: int) -> str:
        """The turn with the game's length, as the faces head a turn: "Turn 3/14", or a dated track's "II Jun 42 (1/2)"
        (the page's status line says the same)."""
        name = self.turn_name(turn)
        return f"Turn {turn}/{self.turns}" if name == f"Turn {turn}" else f"{name} ({turn}/{self.turns})"

    def unit(self, unit_id: str) -> UnitDef:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def zone(self, name: str) -> frozenset[Hex]:
        if name in self.zones:
            return self.zones[name]
        return self.map.zone(name)


ZoneLookup = Callable[[Table, str, str], frozenset[Hex]]  # (table, key, zone name) -> its hexes, or the error


@dataclass(frozen=True)
class ScenarioPart:
    """What an extension read: the counters, where they stand or when they enter, the number of turns,
    the packaged files it read besides the scenario (``(folder, name)``: part of the scenario's digest,
    so a changed counter or date changes it) and ``extra``, the rest in the system's own type."""

    units: tuple[UnitDef, ...]
    start: Mapping[str, Hex | None]
    setup_zone: Mapping[str, str]
    reinforcements: Mapping[str, Reinforcement]
    turns: int
    extra: object
    files: tuple[tuple[str, str], ...] = ()
    turn_names: tuple[str, ...] = ()  # each turn's name on the system's track, if it names them


@dataclass(frozen=True)
class ScenarioExtension:
    """A system package's reader for the scenario fields it owns, and what ``tobruk show`` asks of a scenario
    whose rules are not played yet (its text summary, its JSON data, its counters on their starting hexes).

    ``field`` marks the scenario as one the extension reads (``units_from``); ``system`` is the only system
    such a scenario may name.  ``read`` gets the whole scenario table, the map and a zone lookup and reads
    every field besides the generic ones (title, system, notes, map, zones, option, rules).
    """

    field: str
    system: str
    read: Callable[[Table, Map, ZoneLookup], ScenarioPart]
    summary: Callable[[Scenario], str]
    data: Callable[[Scenario], dict[str, Any]]
    counters: Callable[[Scenario], list[tuple[UnitDef, UnitState]]]


def _extensions() -> dict[str, ScenarioExtension]:
    """The scenario extensions of the registered systems, by the field each reads (a field has one reader)."""
    from tobruk.engine.system import registered_systems

    out: dict[str, ScenarioExtension] = {}
    for kind in registered_systems():
        extension = kind.scenario_extension
        if isinstance(extension, ScenarioExtension):
            known = out.get(extension.field)
            if known is not None and known != extension:
                raise ValueError(f"scenario field {extension.field!r} is read by {known.system} already")
            out[extension.field] = extension
    return out


def extension_of(scenario: Scenario) -> ScenarioExtension | None:
    """The extension that read this scenario's own fields, if one did."""
    return _extensions().get(scenario.extension) if scenario.extension else None


def _axis_range(t: Table, key: str, text: str, kind: str, limit: int) -> range:
    m = _RANGE.match(text)
    if not m:
        raise t.error(key, f"expected a {kind} or a range like 1-6, got {text!r}")

    def one(tok: str) -> int:
        if kind == "row":
            if not tok.isalpha():
                raise t.error(key, f"expected row letters, got {tok!r}")
            return Hex.parse(f"{tok}1").row
        if not tok.isdigit():
            raise t.error(key, f"expected column numbers, got {tok!r}")
        return int(tok) - 1

    lo = one(m.group(1))
    hi = one(m.group(2)) if m.group(2) else lo
    if lo > hi or hi >= limit:
        raise t.error(key, f"{text!r} is not a {kind} range on this map")
    return range(lo, hi + 1)


def _named_place(t: Table, key: str, name: str, m: Map) -> Hex:
    """A place by its name on the map, a map zone of exactly one hex (``"el-agheila"``), or a hex label."""
    if name in m.zones and len(m.zones[name]) == 1:
        return next(iter(m.zones[name]))
    try:
        h = Hex.parse(name)
        if h in m:
            return h
    except ValueError:
        pass
    try:
        return m.place(name).hex
    except KeyError:
        raise t.error(key, f"the map has no place or one-hex zone {name!r}") from None


def _east(h: Hex) -> float:
    """How far east a hex's centre lies, in hex widths (rows B, D, ... sit half a hex east)."""
    return h.col + 0.5 * (h.row % 2)


def _zone_part(t: Table, m: Map, known: Mapping[str, frozenset[Hex]] | None = None) -> set[Hex]:
    """One part of a zone: named map zones, listed hexes, the land beside a line zone, a rectangle; named
    places, the land east or west of a place, a map edge, the hexes of a named road, ``all`` (the hexes
    common to several parts); ``except`` takes parts away."""
    out: set[Hex] = set()
    land = [h for h in m.hexes if m.is_land(h)]
    zones: Mapping[str, frozenset[Hex]] = {**m.zones, **(known or {})}  # the scenario's earlier zones too
    for key in t.keys():
        if key == "zone":
            name = t.str("zone")
            if name not in zones:
                raise t.error("zone", f"the map has no zone {name!r}")
            out |= zones[name]
        elif key == "hexes":
            hexes = t.hexes("hexes")
            for i, h in enumerate(hexes):
                if h not in m:
                    raise t.error(f"hexes[{i}]", f"{h} is not on the map")
            out |= set(hexes)
        elif key in ("west_of", "east_of"):
            name = t.str(key)
            if name not in m.zones:
                raise t.error(key, f"the map has no zone {name!r}")
            line_zone = m.zones[name]
            for row in {h.row for h in line_zone}:
                line_cols = [h.col for h in line_zone if h.row == row]
                if key == "west_of":
                    out |= {h for h in land if h.row == row and h.col < min(line_cols)}
                else:
                    out |= {h for h in land if h.row == row and h.col > max(line_cols)}
        elif key in ("place", "places"):
            for i, place in enumerate([t.str(key)] if key == "place" else t.strings(key)):
                out.add(_named_place(t, key if key == "place" else f"{key}[{i}]", place, m))
        elif key in ("east_of_place", "west_of_place"):
            x = _east(_named_place(t, key, t.str(key), m))
            east = key == "east_of_place"
            out |= {h for h in land if (_east(h) > x if east else _east(h) < x)}
        elif key == "edge":
            compass = t.str("edge")
            if compass not in ("north", "south", "east", "west"):
                raise t.error("edge", f"expected north, south, east or west, got {compass!r}")
            out |= m.edge(compass)
        elif key == "route":
            lines = [r for r in m.route_lines if r.name == t.str("route")]
            if not lines:
                raise t.error("route", f"the map has no road or track named {t.str('route')!r}")
            out |= {h for r in lines for h in r.hexes}
        elif key == "all":
            parts = [_zone_part(p, m, known) for p in t.tables("all")]
            if parts:
                out |= set.intersection(*parts)
        elif key == "any":
            for part in t.tables("any"):
                out |= _zone_part(part, m, known)
    if t.has("rows") or t.has("columns"):
        rows: range = _axis_range(t, "rows", t.str("rows"), "row", m.rows) if t.has("rows") else range(m.rows)
        cols = _axis_range(t, "columns", t.str("columns"), "column", m.columns) if t.has("columns") else range(m.columns)
        out |= {h for h in land if h.row in rows and h.col in cols}
    if t.has("except"):
        for part in t.tables("except"):
            out -= _zone_part(part, m, known)
    t.done()
    return out


def read_zone(t: Table, m: Map, known: Mapping[str, frozenset[Hex]] | None = None) -> frozenset[Hex]:
    """A zone is one part, or ``any = [part, ...]``, the union of several (see the format doc).

    ``known`` are the zones the scenario defined before this one, which a part may name like a map zone.
    """
    return frozenset(_zone_part(t, m, known))


def read_scenario(t: Table, name: str) -> Scenario:
    if t.str("format") != FORMAT:
        raise t.error("format", f"expected {FORMAT!r}")
    if t.int("version") != VERSION:
        raise t.error("version", f"this program reads scenario format version {VERSION}")
    title = t.str("title")
    system = t.str("system")
    extension = _extension_for(t, system)  # a system package reads its own fields (and the turns) itself
    turns = 0 if extension else t.int("turns")
    if not extension and not 1 <= turns <= 200:
        raise t.error("turns", "expected 1 to 200")
    notes = t.str("notes", "")
    if t.has("map") and isinstance(t.data.get("map"), str):
        map_name = t.str("map")
        m = read_map(read_packaged_toml("maps", map_name))
        map_data: Any = map_name
    else:
        m = read_map(t.table("map"))
        map_data = t.data["map"]
    _check_terrain(t, system, m, isinstance(map_data, str))

    zones: dict[str, frozenset[Hex]] = {}
    zt = t.table("zones", None)
    if zt is not None:
        for zone_name in zt.keys():
            zones[zone_name] = read_zone(zt.table(zone_name), m, zones)
        zt.done()

    def known_zone(tab: Table, key: str, zone_name: str) -> str:
        if zone_name not in zones and zone_name not in m.zones:
            raise tab.error(key, f"no zone {zone_name!r} in the scenario's [zones] or the map")
        return zone_name

    def zone_hexes(tab: Table, key: str, zone_name: str) -> frozenset[Hex]:
        known_zone(tab, key, zone_name)
        return zones[zone_name] if zone_name in zones else m.zones[zone_name]

    units: list[UnitDef] = []
    start: dict[str, Hex | None] = {}
    setup_zone: dict[str, str] = {}
    reinforcements: dict[str, Reinforcement] = {}
    part: ScenarioPart | None = None
    if extension:
        if t.has("unit"):
            raise t.error("unit", f"a scenario with {extension.field} has its units from it, not as [[unit]]")
        part = extension.read(t, m, zone_hexes)
        units, start, setup_zone, turns = list(part.units), dict(part.start), dict(part.setup_zone), part.turns
        reinforcements = dict(part.reinforcements)
    reader = _counter_reader(system)
    for ut in t.tables("unit", None):
        unit = read_unit_def(ut, reader)
        uid = unit.id
        if uid in start:
            raise ut.error("id", f"unit id {uid!r} is used twice")
        where = ut.hex("hex", None)
        if where is not None and where not in m:
            raise ut.error("hex", f"{where} is not on the map")
        if where is not None and not m.is_land(where):
            raise ut.error("hex", f"{where} is a sea hex")
        if ut.has("setup_zone"):
            setup_zone[uid] = known_zone(ut, "setup_zone", ut.str("setup_zone"))
            if where is not None and where not in (zones.get(setup_zone[uid]) or m.zones[setup_zone[uid]]):
                raise ut.error("hex", f"{where} is outside its set-up zone {setup_zone[uid]!r}")
        if ut.has("arrives"):
            at = ut.table("arrives")
            reinforcements[uid] = Reinforcement(at.int("turn"), known_zone(at, "zone", at.str("zone")))
            if not 1 <= reinforcements[uid].turn <= turns:
                raise at.error("turn", f"expected a turn from 1 to {turns}")
            at.done()
        off_map = ut.bool("off_map", False)
        if where is None and not off_map and uid not in reinforcements:
            raise ut.error("hex", "missing: give a starting hex, off_map = true, or an arrives table")
        ut.done()
        units.append(unit)
        start[uid] = where

    options = []
    for ot in t.tables("option", None):
        options.append(ScenarioOption(ot.str("name"), ot.str("clause"), ot.str("text")))
        ot.done()
    rules_t = t.table("rules", None)
    rules: dict[str, Any] = dict(rules_t.items()) if rules_t is not None else {}
    t.done()
    digest = hashlib.sha256(
        json.dumps([dict(t.data), map_data if isinstance(map_data, str) else None], sort_keys=True, default=str).encode()
    ).hexdigest()
    if isinstance(map_data, str):
        digest = hashlib.sha256((digest + _map_digest(map_data)).encode()).hexdigest()
    if part is not None and part.files:  # counters and dates kept in other files are part of it too
        digest = hashlib.sha256((digest + "".join(_packaged_digest(folder, file) for folder, file in part.files)).encode()).hexdigest()
    return Scenario(
        name,
        title,
        system,
        m,
        tuple(units),
        start,
        setup_zone,
        reinforcements,
        zones,
        turns,
        tuple(options),
        digest,
        t.source,
        notes,
        rules,
        extension.field if extension else "",
        part.extra if part is not None else None,
        part.turn_names if part is not None else (),
    )


def _extension_for(t: Table, system: str) -> ScenarioExtension | None:
    """The extension whose field the scenario has (at most one), checked against the scenario's system."""
    found = [e for key, e in _extensions().items() if t.has(key)]
    if len(found) > 1:
        raise t.error(found[1].field, f"a scenario takes one of {', '.join(e.field for e in found)}, not several")
    if found and found[0].system != system:
        raise t.error(found[0].field, f"read by the {found[0].system} system; this scenario's system is {system!r}")
    return found[0] if found else None


def _counter_reader(system: str) -> CounterReader:
    """How the system reads its counters (``System.read_counter``); a counter of its kind alone for a system with no
    rules yet."""
    from tobruk.engine.system import find_system

    try:
        return find_system(system).read_counter
    except KeyError:
        return plain_counter


def _check_terrain(t: Table, system: str, m: Map, packaged: bool) -> None:
    """The map's terrain must be terrain its game system knows (the names are open; a typo is not)."""
    from tobruk.engine.system import find_system

    try:
        known = find_system(system).terrain_kinds
    except KeyError:
        return  # a system with no rules yet (its scenarios are data only)
    if known is None:
        return
    for kind in sorted(set(m.terrain.values()) - known):
        where = "map" if packaged else f"map.terrain.{kind}"
        raise t.error(where, f"unknown terrain {kind!r} for {system}; it knows {', '.join(sorted(known))}")


def _map_digest(map_name: str) -> str:
    return _packaged_digest("maps", map_name)


def _packaged_digest(folder: str, name: str) -> str:
    return hashlib.sha256(json.dumps(read_packaged_toml(folder, name).data, sort_keys=True, default=str).encode()).hexdigest()


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A packaged scenario by name (its file's name without ``.toml``) or a scenario file by path."""
    text = str(name_or_path)
    if text.endswith(".toml") or Path(text).exists():
        path = Path(text)
        return read_scenario(read_toml(path), path.stem)
    return read_scenario(read_packaged_toml("scenarios", text), text)


def scenario_names() -> list[str]:
    return packaged_names("scenarios")
