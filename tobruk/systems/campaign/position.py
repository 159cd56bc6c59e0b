"""A campaign position as the movement, ZOC and stacking rules read it: who stands where, in what state.

The campaign's rules (CA-M, CA-Z, CA-K) are functions of a position, not of a running game: the sequence of play
that will drive them is other work, and the tests want to set up a few counters on a small map.  So this module
gives the smallest immutable description those rules need.  A unit is its counter (the order of battle's
:class:`FamilyUnitDef`: level, combat class, side, nationality, printed movement), the hex it stands in as the
map's integer index, whether it is disrupted or carries a Newly Disrupted marker (CA-Q.3) and whether an attack is
allocated against it (CA-Z.1's lone armour loses its ZOC then).  A combined panzer division (XX+, CA-U.1) is one
counter that carries its regiment (``parts``).  Fort and box markers stand per hex with their owner (CA-F.1).
``broken_down`` names the panzer divisions broken down because their regiment was disrupted, which may over-stack
until the Axis can move (CA-K.3).

Hexes are integer indices into ``board.hexes`` on every hot path; a :class:`Hex` only at the edges for people.
:func:`position_from_scenario` makes the start of a loaded campaign scenario.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.counters import CombatClass, Echelon, FamilyUnitDef, UnitType
from tobruk.systems.campaign.forces import load_forces
from tobruk.systems.campaign.scenario import CampaignSetup

MOBILE_TYPES = frozenset({UnitType.ARMOUR, UnitType.MOTORIZED, UnitType.RECCE})  # a vehicle on the counter


@dataclass(frozen=True, slots=True)
class CampaignUnit:
    """One counter on the map.  ``hex`` is an index into the position's ``board.hexes``."""

    unit: FamilyUnitDef
    hex: int
    disrupted: bool = False
    newly_disrupted: bool = False
    attacked: bool = False  # an attack is allocated against it this phase (CA-Z.1)
    parts: tuple[FamilyUnitDef, ...] = ()  # the subunits a combined panzer division carries (XX+, CA-U.1)
    face_down: bool = False  # a face-down counter of the Tobruk garrison (CA-F.4): its zone is a division's

    def __post_init__(self) -> None:
        if self.newly_disrupted and not self.disrupted:
            raise ValueError(f"{self.unit.id}: a Newly Disrupted marker stands only on a disrupted unit (CA-Q.3)")

    @property
    def id(self) -> str:
        return self.unit.id

    @property
    def side(self) -> Side:
        return self.unit.side

    @property
    def division_level(self) -> bool:
        """A division (XX, XX-, XX+) or a corps (XXX): CA-Z.1's movement-stopping units, CA-K.1's big ones."""
        return self.unit.echelon is not Echelon.SUBDIVISIONAL

    @property
    def corps(self) -> bool:
        return self.unit.echelon is Echelon.CORPS

    @property
    def pure_armour(self) -> bool:
        """A pure panzer or armour unit (CA-G.14); a combined panzer division counts, for it carries its regiment."""
        return any(u.combat_class is CombatClass.PURE_ARMOUR for u in (self.unit, *self.parts))

    @property
    def infantry_type(self) -> bool:
        return self.unit.combat_class is CombatClass.INFANTRY_TYPE

    @property
    def mobile(self) -> bool:
        """A unit with a vehicle on its counter (armour, motorized, recce): CA-M.2 and CA-F.7 treat it as mobile."""
        return self.unit.type in MOBILE_TYPES

    @property
    def recce(self) -> bool:
        """The German Recce Gruppe (CA-G.14's special unit with a ZOC of its own, CA-Z.1)."""
        return self.unit.type is UnitType.RECCE


@dataclass(frozen=True)
class CampaignPosition:
    """The units on the map, the fort/box markers by hex index and the broken-down panzer divisions (CA-K.3)."""

    board: Map
    units: tuple[CampaignUnit, ...]
    forts: Mapping[int, Side] = field(default_factory=dict)
    broken_down: frozenset[str] = frozenset()  # base ids of panzer divisions that may over-stack (CA-K.3)
    subunits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # panzer division base -> its regiment(s)
    area: frozenset[int] | None = None  # the section of the map a scenario is played on (its edges are the edges)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        n = len(self.board.hexes)
        for u in self.units:
            if u.id in seen:
                raise ValueError(f"unit {u.id!r} stands on the map twice")
            if not 0 <= u.hex < n:
                raise ValueError(f"unit {u.id!r}: hex index {u.hex} is not on the map")
            seen.add(u.id)

    @cached_property
    def by_id(self) -> Mapping[str, CampaignUnit]:
        return MappingProxyType({u.id: u for u in self.units})

    @cached_property
    def occupants(self) -> Mapping[int, tuple[CampaignUnit, ...]]:
        """The units in each occupied hex, by hex index."""
        out: dict[int, list[CampaignUnit]] = {}
        for u in self.units:
            out.setdefault(u.hex, []).append(u)
        return MappingProxyType({i: tuple(v) for i, v in out.items()})

    @cached_property
    def held(self) -> Mapping[Side, frozenset[int]]:
        """The hexes each side's units stand in."""
        return MappingProxyType({s: frozenset(u.hex for u in self.units if u.side is s) for s in Side})

    def unit(self, unit_id: str) -> CampaignUnit:
        try:
            return self.by_id[unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r} on the map") from None

    def at(self, i: int) -> tuple[CampaignUnit, ...]:
        return self.occupants.get(i, ())

    def index(self, h: Hex) -> int:
        return self.board.index[h]

    def hex(self, i: int) -> Hex:
        return self.board.hexes[i]

    def side_units(self, side: Side) -> Iterator[CampaignUnit]:
        return (u for u in self.units if u.side is side)

    def with_unit(self, unit: CampaignUnit) -> CampaignPosition:
        """The same position with one unit replaced (by id) or added."""
        rest = tuple(u for u in self.units if u.id != unit.id)
        return replace(self, units=(*rest, unit))

    def moved(self, unit_id: str, to: int) -> CampaignPosition:
        return self.with_unit(replace(self.unit(unit_id), hex=to))


def position_from_scenario(scenario: Scenario) -> CampaignPosition:
    """The start of a loaded campaign scenario: every unit the scenario places on a hex, with its start status, and
    the fortifications it fixes.  A combined panzer division (XX+) becomes one counter carrying its regiment; units
    set up later in a zone, arriving later or held off the map are not on it yet, nor forts built in a zone."""
    setup = scenario.extra
    if not isinstance(setup, CampaignSetup):
        raise TypeError(f"{scenario.name} is not a campaign scenario")
    forces = load_forces(setup.forces)
    index = scenario.map.index
    carried = {p for base, form in setup.forms.items() if form == "XX+" for p in forces.divisions[base].parts}
    units: list[CampaignUnit] = []
    for u in scenario.units:
        where = scenario.start.get(u.id)
        if where is None or u.id in carried or u.id in scenario.reinforcements:
            continue
        assert isinstance(u, FamilyUnitDef)
        if setup.forms.get(u.id) == "XX+":
            combined = forces.combined(u.id)
            parts = tuple(forces.units[p] for p in forces.divisions[u.id].parts)
            units.append(CampaignUnit(replace(combined, anti_tank=u.anti_tank), index[where], u.id in setup.disrupted, parts=parts))
        else:
            units.append(CampaignUnit(u, index[where], u.id in setup.disrupted))
    forts = {index[h]: f.side for f in setup.fortifications for h in f.hexes}
    subunits = {base: d.parts for base, d in forces.divisions.items()}
    return CampaignPosition(scenario.map, tuple(units), MappingProxyType(forts), frozenset(), MappingProxyType(subunits))
