"""Orders of battle: the counters of the campaign, defined once and shared by its scenarios.

A scenario of a single battle may list its counters itself (``[[unit]]``).  The North-Africa
campaign has nine scenarios and a campaign game drawing on one pool of counters, so those live in a
forces file (``forces/NAME.toml`` in this package) and a scenario names it (``units_from = "north-africa"``)
and only says where each unit stands or when it enters.  Both read a counter with
:func:`tobruk.loading.unitfile.read_unit_def`.
A forces file also names its turn track, its nationalities, which of them are irreplaceable (CA-R.2)
and the panzer divisions' subunits that combine into one counter (XX+) or break down (XX-) (CA-U.1).
A counter of ``type = "dummy"`` (the hidden dummy inside the Tobruk perimeter, CA-F.4) has no class and no
factors: it is a decoy the Axis cannot tell from a unit while it is face down, never a unit that fights.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache, partial

from tobruk.engine.sides import Side
from tobruk.loading.datafile import Table, packaged_names, read_packaged_toml
from tobruk.loading.unitfile import read_unit_def
from tobruk.mechanics.counters import CombatClass, Echelon, FamilyUnitDef, UnitType, read_family_unit
from tobruk.systems.campaign.track import Track, load_track

FORMAT = "tobruk-forces"
VERSION = 1
FORMS = {"XX+": "XX+", "XX-": "XX-"}


@dataclass(frozen=True, slots=True)
class PanzerDivision:
    """A division whose subunits may be combined into one XX+ counter or broken down (CA-U.1).

    ``base`` is the division's own counter (XX- when alone: CA-Z.1 still counts it a division);
    ``parts`` the subunits (the panzer regiment) that join it.  Combined, the counter's factors are
    those of its subunits together (CA-G.8 lets the division expend one subunit in an exchange).
    """

    base: str
    parts: tuple[str, ...]
    name: str


@dataclass(frozen=True)
class Forces:
    name: str
    title: str
    track: Track
    units: Mapping[str, FamilyUnitDef]
    nationalities: frozenset[str]
    irreplaceable: frozenset[str]
    divisions: Mapping[str, PanzerDivision]
    source: str = ""

    def unit(self, unit_id: str) -> FamilyUnitDef:
        return self.units[unit_id]

    def combined(self, base: str) -> FamilyUnitDef:
        """The XX+ counter of a panzer division: its base and subunits as one (CA-U.1)."""
        div = self.divisions[base]
        parts = [self.units[base], *(self.units[p] for p in div.parts)]
        return replace(
            parts[0],
            name=div.name,
            attack=sum(p.attack for p in parts),
            defence=sum(p.defence for p in parts),
            size="XX+",
            tank=next((p.tank for p in parts if p.tank), None),
        )


def read_forces(t: Table, name: str) -> Forces:
    if t.str("format") != FORMAT:
        raise t.error("format", f"expected {FORMAT!r}")
    if t.int("version") != VERSION:
        raise t.error("version", f"this program reads forces format version {VERSION}")
    title = t.str("title")
    track_name = t.str("track")
    if track_name not in packaged_names("tracks"):
        raise t.error("track", f"no turn track {track_name!r} (known: {', '.join(packaged_names('tracks'))})")
    track = load_track(track_name)
    nationalities = frozenset(t.strings("nationalities"))
    irreplaceable = frozenset(t.strings("irreplaceable"))
    for i, n in enumerate(t.strings("irreplaceable")):
        if n not in nationalities:
            raise t.error(f"irreplaceable[{i}]", f"{n!r} is not one of the nationalities")
    t.str("irreplaceable_clause", "")
    units: dict[str, FamilyUnitDef] = {}
    for ut in t.tables("unit"):
        unit = read_unit_def(ut, partial(read_family_unit, irreplaceable=irreplaceable), nationalities=nationalities)
        assert isinstance(unit, FamilyUnitDef)
        if unit.id in units:
            raise ut.error("id", f"unit id {unit.id!r} is used twice")
        if unit.type is UnitType.DUMMY:
            if unit.combat_class is not None or unit.attack or unit.defence or unit.movement:
                raise ut.error("class" if unit.combat_class is not None else "factors", "a dummy has no class and factors 0-0-0 (CA-F.4)")
        elif unit.combat_class is None:
            raise ut.error("class", "missing (required in a forces file): pure-armour, special or infantry-type")
        if unit.side is Side.ALLIED and unit.combat_class is CombatClass.PURE_ARMOUR:
            if unit.tank is None:
                raise ut.error("tank", "an Allied armour unit needs its tank type (CA-T.2)")
            try:
                track.tank_type(unit.tank)
            except KeyError:
                known = ", ".join(x.name for x in track.tank_types)
                raise ut.error("tank", f"expected one of the tank table's types ({known}), got {unit.tank!r}") from None
        ut.done()
        units[unit.id] = unit
    divisions: dict[str, PanzerDivision] = {}
    for ft in t.tables("panzer_division", None):
        base = ft.str("base")
        if base not in units or units[base].echelon is not Echelon.DIVISION:
            raise ft.error("base", f"{base!r} is not a division of this order of battle")
        parts = ft.strings("parts")
        for i, p in enumerate(parts):
            if p not in units:
                raise ft.error(f"parts[{i}]", f"no unit {p!r} in this order of battle")
        divisions[base] = PanzerDivision(base, tuple(parts), ft.str("name"))
        ft.done()
    t.done()
    for key, ids in (
        ("axis_arrival", [a.unit for a in track.axis_arrivals]),
        ("alamein.axis_additions", list(track.alamein.axis_additions)),
    ):
        for uid in ids:
            if uid not in units or units[uid].side is not Side.AXIS:
                raise t.error("track", f"the track's {key} names {uid!r}, not an Axis unit of this order of battle")
    return Forces(name, title, track, units, nationalities, irreplaceable, divisions, t.source)


@cache
def load_forces(name: str) -> Forces:
    """A packaged order of battle (``forces/NAME.toml``); read once per process."""
    return read_forces(read_packaged_toml("forces", name), name)
