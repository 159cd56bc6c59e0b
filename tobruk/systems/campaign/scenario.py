"""The campaign part of a scenario file: forces drawn from an order of battle, dates on a turn track.

A scenario with ``units_from = "north-africa"`` does not define its counters: it names them
(``[[force]]``, by id in this package's ``forces/north-africa.toml``) with where each stands or when it
enters (a turn name such as ``"II Jul 42"``), its tank type if the listing gives one, its panzer
division form (XX+ or XX-, CA-U.1) and whether it starts disrupted.  It also carries the start and end
turns, who moves first, the boxes and forts, the anti-tank guns (CA-T.5 by date, as the listing
amends them), the Tobruk multiplier (CA-F.4) and the victory condition as data.  The rules of the
campaign are not implemented; this is what they will be built on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.sides import SIDES, Side
from tobruk.loading.datafile import Table, packaged_names
from tobruk.loading.scenario import Reinforcement, ScenarioPart, ZoneLookup
from tobruk.mechanics.counters import ANTI_TANK, AntiTank, CombatClass, Echelon, FamilyUnitDef
from tobruk.systems.campaign.checks import Entry, check_entries, unit_zone
from tobruk.systems.campaign.forces import FORMS, Forces, load_forces
from tobruk.systems.campaign.terrain import enterable
from tobruk.systems.campaign.track import read_turn, turn_name, turn_ordinal, turns_between

TESTS = {t: t for t in ("any", "all", "occupy", "take", "hold", "bypass", "supply-line", "evacuate", "unstated")}
WHEN = {w: w for w in ("end", "any-time", "last-player-turn")}
COMPASS = {c: c for c in ("north", "south", "east", "west", "north-west", "north-east")}
AT_CLASSES = ("support", "brigades", "divisions", "infantry")


@dataclass(frozen=True, slots=True)
class Fortification:
    """Boxes (Allied) or forts (Axis) a scenario starts with: fixed ``hexes``, or ``count`` built in ``zone``."""

    side: Side
    count: int
    zone: str | None
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class VictoryTest:
    """One test of a victory condition; ``any``/``all`` combine ``parts``.

    occupy: a unit of the side stands in ``zone`` (``supplied`` if required) ``at`` the time given;
    take: a unit of the side has entered ``zone``; hold: no enemy unit has taken it; bypass: a unit of
    the side is beyond ``zone`` toward ``toward``; supply-line: the side traces supply into ``zone``
    from ``toward``; evacuate: every unit of the side leaves the map through ``zone`` (a bugout).
    """

    test: str
    zone: str | None = None
    supplied: bool = False
    at: str = "end"
    toward: str | None = None
    parts: tuple[VictoryTest, ...] = ()


@dataclass(frozen=True, slots=True)
class Victory:
    side: Side | None
    clause: str
    text: str
    test: VictoryTest
    strategic: VictoryTest | None = None


@dataclass(frozen=True)
class CampaignSetup:
    """What a campaign scenario says beyond where its units stand (see the module docstring).

    A game-turn is the Axis player-turn, then the Allied (CA-Q.1, CA-Q.2); ``first = allied`` therefore
    means the first game-turn has the Allied player-turn only (Operation Crusader, CA-SC.4).  ``area`` is
    the part of the map the scenario is played on; ``alone`` the side whose units start one to a hex
    (1st Alamein, CA-SC.7).  ``no_forts`` holds the sides that may neither start with nor build a fort or box in
    the scenario (El Agheila II's "No forts", CA-SC.2): the rules of CA-F.1 read it through :meth:`may_build`.
    ``alamein_active``: the Allied Alamein Force Level is in force from the start (an Axis unit starts within its
    distance of El Alamein, CA-R.3), so the rules need not wait for the approach.
    """

    forces: str
    track: str
    clause: str
    start: str
    end: str
    first: Side
    area: str | None
    alone: Side | None
    turn_names: tuple[str, ...]
    arrivals: Mapping[str, str]
    forms: Mapping[str, str]
    disrupted: frozenset[str]
    fortifications: tuple[Fortification, ...]
    tobruk_multiplier: int
    no_forts: frozenset[Side]
    alamein_active: bool
    anti_tank: Mapping[str, AntiTank]
    anti_tank_clause: str
    victory: Victory

    def may_build(self, side: Side) -> bool:
        """Whether ``side`` may build fortifications in this scenario (CA-F.1, unless the listing says none)."""
        return side not in self.no_forts


def _forces(t: Table) -> Forces:
    name = t.str("units_from")
    if name not in packaged_names("forces"):
        raise t.error("units_from", f"no order of battle {name!r} (known: {', '.join(packaged_names('forces'))})")
    return load_forces(name)


def _no_forts(t: Table) -> list[str]:
    """The sides listed in ``no_forts`` (each once, each a side)."""
    sides = t.strings("no_forts", [])
    for i, v in enumerate(sides):
        if v not in SIDES:
            raise t.error(f"no_forts[{i}]", f"expected one of {', '.join(SIDES)}, got {v!r}")
        if v in sides[:i]:
            raise t.error(f"no_forts[{i}]", f"{v!r} is listed twice")
    return sides


def _place_hex(t: Table, key: str, m: Map, name: str | None = None) -> Hex:
    """A place by name, or a one-hex map zone (the campaign map names its places as zones)."""
    name = t.str(key) if name is None else name
    if name in m.zones and len(m.zones[name]) == 1:
        return next(iter(m.zones[name]))
    try:
        return m.place(name).hex
    except KeyError:
        raise t.error(key, f"the map has no place or one-hex zone {name!r}") from None


def _victory_test(t: Table, zone_of: ZoneLookup) -> VictoryTest:
    test = t.choice("test", TESTS)
    parts: tuple[VictoryTest, ...] = ()
    zone = None
    if test in ("any", "all"):
        parts = tuple(_victory_test(p, zone_of) for p in t.tables("parts"))
        if not parts:
            raise t.error("parts", f"'{test}' needs at least one part")
    elif test != "unstated":
        zone = t.str("zone")
        zone_of(t, "zone", zone)
    default_at = "any-time" if test in ("take", "hold") else "end"
    toward = t.choice("toward", COMPASS, None)
    if test in ("bypass", "supply-line") and toward is None:
        raise t.error("toward", f"'{test}' needs the direction it is judged toward")
    out = VictoryTest(test, zone, t.bool("supplied", False), t.choice("at", WHEN, default_at), toward, parts)
    t.done()
    return out


def _victory(t: Table, zone_of: ZoneLookup) -> Victory:
    side = t.choice("side", SIDES, None)
    clause = t.str("clause")
    text = t.str("text")
    test = t.table("condition")
    strategic = t.table("strategic", None)
    out = Victory(side, clause, text, _victory_test(test, zone_of), _victory_test(strategic, zone_of) if strategic is not None else None)
    if side is None and out.test.test != "unstated":
        raise t.error("side", "missing: the side the condition is for")
    t.done()
    return out


def _anti_tank(t: Table | None, forces: Forces, start: str) -> tuple[dict[str, AntiTank], dict[str, str], str]:
    """Per-class guns: CA-T.5 at the start date, amended by the scenario's own ``[anti_tank]`` table."""
    step = forces.track.anti_tank_at(start)
    classes = {"support": step.support.value, "infantry": step.infantry.value}
    units: dict[str, str] = {}
    clause = "CA-T.5"
    if t is not None:
        clause = t.str("clause")
        for key in AT_CLASSES:
            if t.has(key):
                classes[key] = t.choice(key, ANTI_TANK).value
        ut = t.table("units", None)
        if ut is not None:
            for uid in ut.keys():
                if uid not in forces.units:
                    raise ut.error(uid, f"no unit {uid!r} in the order of battle {forces.name!r}")
                units[uid] = ut.choice(uid, ANTI_TANK).value
            ut.done()
        t.done()
    return {k: AntiTank(v) for k, v in classes.items()}, units, clause


def allied_gun(u: FamilyUnitDef, classes: Mapping[str, AntiTank], units: Mapping[str, str]) -> AntiTank:
    """The anti-tank gun of an Allied unit under a scenario's classes (explicit units first).

    ``support``: the armoured support groups (flag ``support``); ``brigades``: British and Indian
    infantry-type brigades; ``divisions``: infantry-type divisions; ``infantry``: every other
    infantry-type unit.  Pure armour and special units have none (they fight on the tank table).
    """
    if u.id in units:
        return AntiTank(units[u.id])
    if u.combat_class is not CombatClass.INFANTRY_TYPE:
        return AntiTank.NONE
    if "support" in u.flags:
        return classes["support"]
    if u.echelon is Echelon.SUBDIVISIONAL and u.nationality in ("british", "indian") and "brigades" in classes:
        return classes["brigades"]
    if u.echelon is not Echelon.SUBDIVISIONAL and "divisions" in classes:
        return classes["divisions"]
    return classes["infantry"]


def read_campaign(t: Table, m: Map, zone_of: ZoneLookup) -> ScenarioPart:
    """The ``units_from`` half of a scenario: forces, dates, fortifications, anti-tank, victory (the
    scenario loader's extension for this system; its ``extra`` is the :class:`CampaignSetup`)."""
    forces = _forces(t)
    track = forces.track
    clause = t.str("clause")
    start = read_turn(t, "start", track)
    end = read_turn(t, "end", track)
    if turn_ordinal(end) < turn_ordinal(start):
        raise t.error("end", f"{end!r} comes before the start {start!r}")
    turns = turns_between(start, end)
    if t.has("turns") and t.int("turns") != turns:
        raise t.error("turns", f"{start} to {end} is {turns} turns, not {t.int('turns')}")
    first = t.choice("first", SIDES, Side.AXIS)
    area_name = t.str("area", None)
    area = zone_of(t, "area", area_name) if area_name is not None else None

    def in_area(tab: Table, key: str, hexes: frozenset[Hex] | set[Hex]) -> None:
        if area is not None and not set(hexes) <= area:
            outside = sorted(set(hexes) - area)
            raise tab.error(key, f"{outside[0]} is outside the scenario's area {area_name!r}")

    alone = t.choice("alone", SIDES, None)
    tobruk = t.int("tobruk_multiplier", 3)
    if tobruk not in (2, 3):
        raise t.error("tobruk_multiplier", "expected 3 (CA-F.4) or 2 (the Gazala listing)")
    no_forts = frozenset(SIDES[v] for v in _no_forts(t))
    classes, at_units, at_clause = _anti_tank(t.table("anti_tank", None), forces, start)

    units: list[FamilyUnitDef] = []
    placed: dict[str, Hex | None] = {}
    setup_zone: dict[str, str] = {}
    arrivals: dict[str, tuple[int, str]] = {}
    arrival_names: dict[str, str] = {}
    forms: dict[str, str] = {}
    disrupted: set[str] = set()
    entries: list[Entry] = []

    def add(ft: Table, unit: FamilyUnitDef, where: Hex | None) -> None:
        if unit.id in placed:
            raise ft.error("unit", f"unit {unit.id!r} is listed twice")
        placed[unit.id] = where
        units.append(unit)

    for ft in t.tables("force"):
        uid = ft.str("unit")
        if uid not in forces.units:
            raise ft.error("unit", f"no unit {uid!r} in the order of battle {forces.name!r}")
        unit = forces.units[uid]
        where = ft.hex("hex", None)
        if ft.has("place"):
            if where is not None:
                raise ft.error("place", "give a hex or a place, not both")
            where = _place_hex(ft, "place", m)
        if where is not None and (where not in m or not m.is_land(where)):
            raise ft.error("hex", f"{where} is not a land hex of the map")
        if where is not None:
            in_area(ft, "place" if ft.has("place") else "hex", {where})
        enters = start
        if ft.has("arrives"):
            at = ft.table("arrives")
            enters = read_turn(at, "turn", track)
            if not turn_ordinal(start) <= turn_ordinal(enters) <= turn_ordinal(end):
                raise at.error("turn", f"{enters!r} is outside the scenario ({start} to {end})")
            zone = at.str("zone")
            in_area(at, "zone", unit_zone(at, "zone", zone_of, m, clause, "entry zone"))
            arrivals[uid] = (turn_ordinal(enters) - turn_ordinal(start) + 1, zone)
            arrival_names[uid] = enters
            at.done()
        if ft.has("setup_zone"):
            zone = ft.str("setup_zone")
            hexes = unit_zone(ft, "setup_zone", zone_of, m, clause, "set-up zone")
            in_area(ft, "setup_zone", hexes)
            setup_zone[uid] = zone
            if where is not None and where not in hexes:
                raise ft.error("place" if ft.has("place") else "hex", f"{where} is outside its set-up zone {zone!r} ({clause})")
        off_map = ft.bool("off_map", False)
        if where is None and not off_map and uid not in arrivals and uid not in setup_zone:
            raise ft.error("hex", "missing: give a hex, a place, a setup_zone, an arrives table or off_map = true")
        if ft.has("tank"):
            tank = ft.str("tank")
            try:
                track.tank_type(tank)
            except KeyError:
                known = ", ".join(x.name for x in track.tank_types)
                raise ft.error("tank", f"expected one of the tank table's types ({known}), got {tank!r}") from None
            if unit.combat_class is not CombatClass.PURE_ARMOUR or unit.side is not Side.ALLIED:
                raise ft.error("tank", f"{uid} is not an Allied armour unit")
            unit = replace(unit, tank=tank)
        # a unit held off the map enters later as a reinforcement, its tank type checked then (CA-R.4)
        if (
            unit.side is Side.ALLIED
            and unit.combat_class is CombatClass.PURE_ARMOUR
            and unit.tank is not None
            and not off_map
            and not track.tank_available(unit.tank, enters)
        ):
            raise ft.error("tank", f"the {unit.tank} is introduced {track.tank_type(unit.tank).when.turn}, after {enters} (CA-R.1)")
        if unit.side is Side.ALLIED:
            unit = replace(unit, anti_tank=allied_gun(unit, classes, at_units))
        if ft.bool("disrupted", False):
            disrupted.add(uid)
        form = ft.choice("form", FORMS, None)
        listing = ft.str("listing", None)
        if listing is not None and not listing.startswith("CA-SC."):
            raise ft.error("listing", f"expected the clause of the scenario listing that puts {uid} here (CA-SC.1-9), got {listing!r}")
        parts = tuple(forces.units[p] for p in forces.divisions[uid].parts) if form == "XX+" and uid in forces.divisions else ()
        in_play = None if off_map and where is None and uid not in setup_zone else enters
        entries.append(Entry(ft, unit, parts, where, in_play, listing))
        add(ft, unit, where)
        if form is not None:
            if uid not in forces.divisions:
                raise ft.error("form", f"{uid} is not a panzer division with subunits (CA-U.1)")
            forms[uid] = form
            if form == "XX+":
                for part in forces.divisions[uid].parts:
                    add(ft, forces.units[part], where)
                    if uid in setup_zone:
                        setup_zone[part] = setup_zone[uid]
                    if uid in arrivals:
                        arrivals[part] = arrivals[uid]
                        arrival_names[part] = arrival_names[uid]
                    if uid in disrupted:
                        disrupted.add(part)
        ft.done()

    active = check_entries(forces, m, start, entries)
    if alone is not None:
        seen: dict[Hex, str] = {}
        for ft in t.tables("force"):
            uid = ft.str("unit")
            where = placed.get(uid)
            if forces.units[uid].side is alone and where is not None:
                if where in seen:
                    raise ft.error("hex", f"{uid} shares {where} with {seen[where]}, but the {alone.value} units start one to a hex")
                seen[where] = uid

    forts: list[Fortification] = []
    for ft in t.tables("fortification", None):
        side = ft.choice("side", SIDES)
        if side in no_forts:
            raise ft.error("side", f"the scenario's no_forts lists the {side.value} side, so it starts with no fortification (CA-F.1)")
        fixed: list[Hex] = list(ft.hexes("hexes", None))
        for i, name in enumerate(ft.strings("places", None)):
            fixed.append(_place_hex(ft, f"places[{i}]", m, name))
        for i, h in enumerate(fixed):
            if h not in m or not m.is_land(h):
                raise ft.error(f"hexes[{i}]", f"{h} is not a land hex of the map")
            if not enterable(m, h):
                raise ft.error(f"hexes[{i}]", f"{h} is {m.terrain[h]}, impassable ground (CA-F.8)")
        in_area(ft, "hexes", set(fixed))
        count = ft.int("count", len(fixed))
        zone = ft.str("zone", None)
        if zone is not None:
            in_area(ft, "zone", unit_zone(ft, "zone", zone_of, m, clause, "fortification zone"))
        if fixed and count != len(fixed):
            raise ft.error("count", f"{count} does not match the {len(fixed)} fixed positions")
        if count < 1:
            raise ft.error("count", "expected 1 or more")
        if not fixed and zone is None:
            raise ft.error("zone", "missing: give fixed hexes/places or the zone they are built in")
        forts.append(Fortification(side, count, zone, tuple(fixed)))
        ft.done()

    victory = _victory(t.table("victory"), zone_of)
    setup = CampaignSetup(
        forces.name,
        track.name,
        clause,
        start,
        end,
        first,
        area_name,
        alone,
        tuple(track.turns[track.number(start) - 1 : track.number(end)]),
        arrival_names,
        forms,
        frozenset(disrupted),
        tuple(forts),
        tobruk,
        no_forts,
        active,
        {**{k: v for k, v in classes.items()}, **{k: AntiTank(v) for k, v in at_units.items()}},
        at_clause,
        victory,
    )
    reinforcements = {uid: Reinforcement(turn, zone) for uid, (turn, zone) in arrivals.items()}
    first = turn_ordinal(start)
    return ScenarioPart(
        tuple(units),
        placed,
        setup_zone,
        reinforcements,
        turns,
        setup,
        files=(("forces", forces.name), ("tracks", track.name)),
        turn_names=tuple(turn_name(first + k) for k in range(turns)),  # the track's half-months (CA-Q)
    )
