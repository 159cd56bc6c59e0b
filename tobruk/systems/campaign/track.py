"""Turn record tracks: the half-month turns of the North-Africa campaign and what the rules put on them.

CA-R.1 puts the starting forces, the Axis arrivals, the Allied force-level limits and the Allied
tank types on the turn track; CA-T.5 adds anti-tank guns by date, CA-S.2 the railhead and CA-R.3/R.5
the Alamein force level.  The rules text lists no dates of its own beyond the scenarios', so every
entry here is rebuilt from the historical record and carries its ``source`` (docs/reconstruction.md).

A turn is named as the game prints it: ``"II Mar 41"`` is the second half of March 1941 (the 16th
to the end of the month), ``"I Apr 41"`` the first half of April.  The format is documented in
``docs/scenario-format.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from tobruk.loading.datafile import Table, read_packaged_toml
from tobruk.mechanics.counters import AntiTank

FORMAT = "tobruk-track"
VERSION = 1
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_TURN = re.compile(r"^(I|II) ([A-Z][a-z]{2}) (\d\d)$")
ANTI_TANK = {a.value: a for a in AntiTank}


def turn_ordinal(name: str) -> int:
    """A half-month as a count of half-months since January 1900 (for comparing and stepping)."""
    m = _TURN.match(name)
    if not m or m.group(2) not in MONTHS:
        raise ValueError(f"expected a turn like 'II Mar 41' (I or II, a month, a two-digit year), got {name!r}")
    year = 1900 + int(m.group(3))
    return (year - 1900) * 24 + MONTHS.index(m.group(2)) * 2 + (0 if m.group(1) == "I" else 1)


def turn_name(ordinal: int) -> str:
    year, rest = divmod(ordinal, 24)
    month, half = divmod(rest, 2)
    return f"{'I' if half == 0 else 'II'} {MONTHS[month]} {year % 100:02d}"


@dataclass(frozen=True, slots=True)
class Dated:
    """One dated entry on the track: from which turn, the historical date behind it, its source."""

    turn: str
    date: str
    source: str
    estimate: bool


@dataclass(frozen=True, slots=True)
class AxisArrival:
    unit: str
    when: Dated


@dataclass(frozen=True, slots=True)
class ForceLevel:
    """The most Allied ground units that may be on the map from ``when.turn`` (CA-R.1)."""

    units: int
    when: Dated
    note: str


@dataclass(frozen=True, slots=True)
class TankType:
    """An Allied tank type (a column of the tank table, CA-T.2) and the turn it is introduced."""

    name: str
    when: Dated


@dataclass(frozen=True, slots=True)
class AntiTankStep:
    """CA-T.5 from ``when.turn`` on: the gun of Allied armoured support groups and of other infantry-type units."""

    support: AntiTank
    infantry: AntiTank
    when: Dated


@dataclass(frozen=True, slots=True)
class Railhead:
    place: str
    when: Dated


@dataclass(frozen=True, slots=True)
class AlameinLevel:
    """CA-R.3 and CA-R.5: the Allied Alamein Force Level, activated for the rest of the game when an Axis unit
    moves within ``within`` hexes of ``place``.  From then the Allied force level is ``force_level`` whatever the
    date (the dated levels hold until then), more than ``british_divisions`` British divisions may be in play, and
    the Axis gets ``axis_additions``."""

    place: str
    within: int
    british_divisions: int
    axis_additions: tuple[str, ...]
    force_level: int


@dataclass(frozen=True)
class Track:
    name: str
    title: str
    first: str
    last: str
    axis_arrivals: tuple[AxisArrival, ...]
    force_levels: tuple[ForceLevel, ...]
    tank_types: tuple[TankType, ...]
    anti_tank: tuple[AntiTankStep, ...]
    railheads: tuple[Railhead, ...]
    alamein: AlameinLevel
    axis_reinforcements_end: str
    source: str = ""

    @property
    def turns(self) -> tuple[str, ...]:
        """Every turn on the track, first to last, as the game prints them."""
        return tuple(turn_name(o) for o in range(turn_ordinal(self.first), turn_ordinal(self.last) + 1))

    def number(self, name: str) -> int:
        """The turn's place on the track, 1 for the first."""
        return turn_ordinal(name) - turn_ordinal(self.first) + 1

    def has(self, name: str) -> bool:
        try:
            return turn_ordinal(self.first) <= turn_ordinal(name) <= turn_ordinal(self.last)
        except ValueError:
            return False

    @staticmethod
    def _latest(entries: tuple[Dated, ...], turn: str) -> int | None:
        """The entry in force on ``turn``: the last one whose turn has come."""
        t = turn_ordinal(turn)
        started = [(turn_ordinal(d.turn), i) for i, d in enumerate(entries) if turn_ordinal(d.turn) <= t]
        return max(started)[1] if started else None

    def force_level(self, turn: str, alamein: bool = False) -> int:
        """The most Allied units on the map on ``turn``: the dated level, or the Alamein level once activated."""
        if alamein:
            return self.alamein.force_level
        i = self._latest(tuple(f.when for f in self.force_levels), turn)
        return 0 if i is None else self.force_levels[i].units

    def anti_tank_at(self, turn: str) -> AntiTankStep:
        i = self._latest(tuple(a.when for a in self.anti_tank), turn)
        if i is None:
            return AntiTankStep(AntiTank.NONE, AntiTank.NONE, Dated(turn, "", "", False))
        return self.anti_tank[i]

    def railhead(self, turn: str) -> str:
        i = self._latest(tuple(r.when for r in self.railheads), turn)
        return "" if i is None else self.railheads[i].place

    def tank_type(self, name: str) -> TankType:
        for t in self.tank_types:
            if t.name == name:
                return t
        raise KeyError(name)

    def tank_available(self, name: str, turn: str) -> bool:
        return turn_ordinal(self.tank_type(name).when.turn) <= turn_ordinal(turn)

    def arrival(self, unit_id: str) -> AxisArrival | None:
        for a in self.axis_arrivals:
            if a.unit == unit_id:
                return a
        return None


def read_turn(t: Table, key: str, track: Track | None = None) -> str:
    """A turn name from a data file, checked (and, given a track, on it)."""
    text: str = t.str(key)
    try:
        turn_ordinal(text)
    except ValueError as exc:
        raise t.error(key, str(exc)) from None
    if track is not None and not track.has(text):
        raise t.error(key, f"{text!r} is not on the {track.name} turn track ({track.first} to {track.last})")
    return text


def _dated(t: Table, key: str, first: str, last: str) -> Dated:
    turn = read_turn(t, key)
    if not turn_ordinal(first) <= turn_ordinal(turn) <= turn_ordinal(last):
        raise t.error(key, f"{turn!r} is not on the track ({first} to {last})")
    source = t.str("source")
    if not source.strip():
        raise t.error("source", "every date needs its historical source")
    return Dated(turn, t.str("date", ""), source, t.bool("estimate", False))


def read_track(t: Table, name: str) -> Track:
    if t.str("format") != FORMAT:
        raise t.error("format", f"expected {FORMAT!r}")
    if t.int("version") != VERSION:
        raise t.error("version", f"this program reads track format version {VERSION}")
    title = t.str("title")
    first = read_turn(t, "first")
    last = read_turn(t, "last")
    if turn_ordinal(last) < turn_ordinal(first):
        raise t.error("last", f"{last!r} comes before the first turn {first!r}")

    arrivals = []
    for at in t.tables("axis_arrival", None):
        arrivals.append(AxisArrival(at.str("unit"), _dated(at, "turn", first, last)))
        at.done()
    levels = []
    for ft in t.tables("allied_force_level", None):
        units = ft.int("units")
        if units < 0:
            raise ft.error("units", "expected a count of 0 or more")
        levels.append(ForceLevel(units, _dated(ft, "from", first, last), ft.str("note", "")))
        ft.done()
    tanks: list[TankType] = []
    for tt in t.tables("tank_type", None):
        tname = tt.str("name")
        if any(x.name == tname for x in tanks):
            raise tt.error("name", f"tank type {tname!r} is listed twice")
        tanks.append(TankType(tname, _dated(tt, "from", first, last)))
        tt.done()
    steps = []
    for st in t.tables("anti_tank", None):
        steps.append(AntiTankStep(st.choice("support", ANTI_TANK), st.choice("infantry", ANTI_TANK), _dated(st, "from", first, last)))
        st.str("clause", "")
        st.done()
    rails = []
    for rt in t.tables("railhead", None):
        rails.append(Railhead(rt.str("place"), _dated(rt, "from", first, last)))
        rt.done()
    al = t.table("alamein")
    within = al.int("within")
    if within < 1:
        raise al.error("within", "expected a distance of 1 hex or more")
    alamein = AlameinLevel(al.str("place"), within, al.int("british_divisions"), tuple(al.strings("axis_additions")), al.int("force_level"))
    highest = max((f.units for f in levels), default=0)
    if alamein.force_level < highest:
        raise al.error("force_level", f"{alamein.force_level} is below the dated level {highest}: the approach raises it (CA-R.3)")
    al.str("clause", "")
    al.str("source", "")  # the rules themselves (documentation only)
    al.done()
    end = read_turn(t, "axis_reinforcements_end")
    t.str("notes", "")
    t.done()
    for i, a in enumerate(arrivals):
        if a.unit in alamein.axis_additions:
            raise t.error(f"axis_arrival[{i}].unit", f"{a.unit} comes only with the Alamein force level (CA-R.5)")
    return Track(name, title, first, last, tuple(arrivals), tuple(levels), tuple(tanks), tuple(steps), tuple(rails), alamein, end, t.source)


@cache
def load_track(name: str) -> Track:
    """A packaged turn track (``tracks/NAME.toml``); read once per process."""
    return read_track(read_packaged_toml("tracks", name), name)


def turns_between(first: str, last: str) -> int:
    return turn_ordinal(last) - turn_ordinal(first) + 1
