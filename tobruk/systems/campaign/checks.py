"""A campaign scenario checked against the rules when it is loaded, so a file a user writes is held to them too.

The packaged scenarios are the rules' own listings; a user's file may put anything anywhere, and a game built on
it would break the rules before its first order.  So the loader refuses, naming the file, the field and the
clause: a unit on impassable ground (CA-F.8); a unit in play before the turn track brings it (CA-R.1) or an
Alamein addition before the Alamein force level (CA-R.5); more Allied units than the force level of the turn
(CA-R.1); a second British division before the Alamein force level (CA-R.3); a hex over the stacking limits at
the start (CA-K.1); a set-up or entry zone that the scenario and the map do not define, or that holds no hex a unit
may stand on (CA-F.8), or a unit's listed hex outside its set-up zone (the scenario's own clause, CA-SC.1-9: the
listed hex is the default of the set-up, docs/rulings.md).

A scenario whose listing itself departs from the track says so on the force (``listing = "CA-SC.6"``): Mersa
Matruh lists Littorio, an Alamein addition, before the Axis is near El Alamein.  The Alamein force level is in
force from the start when an Axis unit starts within its distance of El Alamein (Alam Halfa, Alamein).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import ZoneLookup
from tobruk.mechanics.counters import CombatClass, Echelon, FamilyUnitDef, UnitType
from tobruk.systems.campaign.forces import Forces
from tobruk.systems.campaign.stacking import StackCounter, free_of_stacking, over_limits
from tobruk.systems.campaign.terrain import enterable
from tobruk.systems.campaign.track import turn_ordinal


@dataclass(frozen=True, slots=True)
class Entry:
    """One ``[[force]]`` of the scenario as the checks need it: its table (for the error's field), the counter it
    puts in play, the hex it starts on (None: later or off the map), the turn it enters (None: off the map) and
    the listing clause that excuses it from the track."""

    table: Table
    unit: FamilyUnitDef
    parts: tuple[FamilyUnitDef, ...]
    hex: Hex | None
    enters: str | None
    listing: str | None


def unit_zone(t: Table, key: str, zone_of: ZoneLookup, m: Map, clause: str, what: str) -> frozenset[Hex]:
    """The hexes of a force's set-up or entry zone, or of the zone a fortification is set up in (``what``), refused
    naming ``clause`` when the scenario and the map define no such zone or when none of its hexes is one a unit may
    stand on (CA-F.8): the set-up and the entries offer only such hexes, so the unit or the marker would have nowhere
    to go."""
    name = t.str(key)
    try:
        hexes = zone_of(t, key, name)
    except ScenarioError as e:
        raise t.error(key, f"{e.problem}: the {what} is unknown ({clause})") from None
    if not any(enterable(m, h) for h in hexes):
        raise t.error(key, f"the {what} {name!r} holds no hex a unit may stand on ({clause}, CA-F.8)")
    return hexes


def counts_as_unit(u: FamilyUnitDef) -> bool:
    """Whether a counter is one of the Allied ground units the force level limits: not the Tobruk dummy (CA-F.4)."""
    return u.type is not UnitType.DUMMY


def alamein_active(forces: Forces, m: Map, entries: Sequence[Entry]) -> bool:
    """Whether the Allied Alamein Force Level is in force at the start: an Axis unit starts within its distance."""
    al = forces.track.alamein
    try:
        centre = m.place(al.place).hex
    except KeyError:
        return False
    return any(e.unit.side is Side.AXIS and e.hex is not None and e.hex.distance(centre) <= al.within for e in entries)


def check_entries(forces: Forces, m: Map, start: str, entries: Sequence[Entry]) -> bool:
    """Refuse the first entry that breaks CA-R.1, CA-R.3, CA-R.5 or CA-K.1; returns whether the Alamein level is on."""
    active = alamein_active(forces, m, entries)
    _ground(m, entries)
    _arrivals(forces, start, entries, active)
    _force_level(forces, entries, active)
    _british_divisions(forces, entries, active)
    _stacking(entries)
    return active


def _ground(m: Map, entries: Sequence[Entry]) -> None:
    """No unit starts on ground no unit may enter (the Qattara floor, the sand sea, the salt marsh: CA-F.8)."""
    for e in entries:
        if e.hex is not None and not enterable(m, e.hex):
            raise e.table.error(_where(e), f"{e.hex} is {m.terrain[e.hex]}, impassable to every unit (CA-F.8)")


def _arrivals(forces: Forces, start: str, entries: Sequence[Entry], active: bool) -> None:
    track = forces.track
    for e in entries:
        if e.unit.side is not Side.AXIS or e.enters is None or e.listing is not None:
            continue
        key = "arrives.turn" if e.enters != start or e.table.has("arrives") else "unit"
        for u in (e.unit, *e.parts):
            if u.id in track.alamein.axis_additions and not active:
                near = f"within {track.alamein.within} hexes of {track.alamein.place}"
                raise e.table.error(key, f"{u.id} comes only with the Allied Alamein Force Level, when an Axis unit is {near} (CA-R.5)")
            arrival = track.arrival(u.id)
            if arrival is not None and turn_ordinal(e.enters) < turn_ordinal(arrival.when.turn):
                raise e.table.error(key, f"{u.id} is on the turn track from {arrival.when.turn}, not {e.enters} (CA-R.1)")


def _allied(entries: Sequence[Entry]) -> list[Entry]:
    return [e for e in entries if e.unit.side is Side.ALLIED and e.enters is not None and counts_as_unit(e.unit)]


def _force_level(forces: Forces, entries: Sequence[Entry], active: bool) -> None:
    allied = sorted(_allied(entries), key=lambda e: turn_ordinal(e.enters or ""))
    for i, e in enumerate(allied):
        assert e.enters is not None
        level = forces.track.force_level(e.enters, alamein=active)
        if i + 1 > level:
            which = "the Alamein force level" if active else f"the force level of {e.enters}"
            raise e.table.error("unit", f"{e.unit.id} would be Allied unit {i + 1} in play, over {which} ({level}) (CA-R.1)")


def _british_divisions(forces: Forces, entries: Sequence[Entry], active: bool) -> None:
    if active:
        return
    most = forces.track.alamein.british_divisions
    divisions = [e for e in _allied(entries) if e.unit.nationality == "british" and e.unit.echelon is Echelon.DIVISION]
    if len(divisions) > most:
        e = divisions[most]
        first = ", ".join(d.unit.id for d in divisions[:most])
        raise e.table.error(
            "unit", f"{e.unit.id} would be a second British division beside {first} before the Allied Alamein Force Level (CA-R.3)"
        )


def _stacking(entries: Sequence[Entry]) -> None:
    """CA-K.1 on every hex at the start (the limits of ``stacking.py``); a combined panzer division (XX+) is one
    counter, a division with armour."""
    stacks: dict[Hex, list[Entry]] = {}
    for e in entries:
        if e.hex is not None and e.enters is not None and not free_of_stacking(e.unit):
            stacks.setdefault(e.hex, []).append(e)
    for h, stack in stacks.items():
        for side in (Side.AXIS, Side.ALLIED):
            own = [e for e in stack if e.unit.side is side]
            found = over_limits(
                [
                    StackCounter(e.unit.id, e.unit.echelon is not Echelon.SUBDIVISIONAL, e.unit.echelon is Echelon.CORPS, _armoured(e))
                    for e in own
                ]
            )
            if found is not None:
                e = own[found[0]]
                raise e.table.error(_where(e), f"{h} would hold {found[1]} (CA-K.1)")


def _armoured(e: Entry) -> bool:
    return any(u.combat_class is CombatClass.PURE_ARMOUR for u in (e.unit, *e.parts))


def _where(e: Entry) -> str:
    return "place" if e.table.has("place") else "hex"
