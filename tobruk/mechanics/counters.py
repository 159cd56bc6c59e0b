"""The counters of the odds-CRT family (the GG, FA and CA rules): what they print and what a unit of theirs may be.

A family counter prints attack-defence-movement factors (or combat-movement), an echelon, a unit type (armour,
motorized, infantry, recce, AA, artillery, air, dummy), perhaps a tank type, where it may fire at aircraft, and for
the CA rules its combat class, anti-tank column, size and whether it is irreplaceable (:class:`FamilyUnitDef`).  A
family unit may be moved, attacked, disrupted (or "spent", FA-CRT.2), out of supply and activated this turn
(:class:`FamilyUnit`, bits given by the engine in that order).  The engine knows none of these words: a system of the
family declares them by naming these classes (``System.unit_view``, its counter reader).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from tobruk.board.units import UnitDef
from tobruk.engine.game import Game
from tobruk.engine.state import ENGINE_STATUSES, Status, UnitView
from tobruk.engine.system import Rendering

if TYPE_CHECKING:
    from tobruk.loading.datafile import Table


class UnitType(StrEnum):
    ARMOUR = "armour"
    MOTORIZED = "motorized"
    INFANTRY = "infantry"
    RECCE = "recce"
    AA = "aa"
    ARTILLERY = "artillery"
    AIR = "air"
    DUMMY = "dummy"


class Echelon(StrEnum):
    """Division level or subdivisional, as the stacking and victory rules count them (corps: CA-K.1, CA-Z.1)."""

    CORPS = "corps"
    DIVISION = "division"
    SUBDIVISIONAL = "subdivisional"


class CombatClass(StrEnum):
    """A unit's kind where a system's combat tables and special rules differ by kind (infantry-type, pure armour,
    special)."""

    PURE_ARMOUR = "pure-armour"
    SPECIAL = "special"
    INFANTRY_TYPE = "infantry-type"


class AntiTank(StrEnum):
    """The anti-tank column a unit shoots on (CA-T.2), if any; Allied guns change by date (CA-T.5)."""

    NONE = "none"
    TWO_POUNDER = "2pdr"
    FIFTY_MM = "50mm"
    SIX_POUNDER = "6pdr"
    EIGHTY_EIGHT = "88mm"


class AACapability(StrEnum):
    """Where a ground unit can fire at aircraft (GG-X.B.1b)."""

    NONE = "none"
    IN_BOX = "in-box"
    ANYWHERE = "anywhere"


@dataclass(frozen=True, slots=True, kw_only=True)
class FamilyUnitDef(UnitDef):
    """What a family counter prints.  ``formation`` (on :class:`UnitDef`) names a parent division for its brigades.

    The CA rules also read ``combat_class`` (CA-G.14), ``anti_tank`` (the column it shoots on, CA-T.2),
    ``irreplaceable`` (its nationality may not be replaced, CA-R.2) and ``size``, the counter's size symbol (``XXX``,
    ``XX``, ``XX-``, ``X``, ``III``) as the ZOC and stacking rules read it.
    """

    echelon: Echelon
    type: UnitType
    attack: int
    defence: int
    movement: int
    tank: str | None = None
    aa: AACapability = AACapability.NONE
    combat_class: CombatClass | None = None
    anti_tank: AntiTank = AntiTank.NONE
    irreplaceable: bool = False
    size: str | None = None
    one_combat_factor: bool = False  # the counter prints one factor for attack and defence ("3-4": combat 3, movement 4)

    @property
    def factors(self) -> str:
        """The counter's factors as printed: attack-defence-movement, or combat-movement where one factor
        serves for attack and defence."""
        if self.one_combat_factor:
            return f"{self.attack}-{self.movement}"
        return f"{self.attack}-{self.defence}-{self.movement}"

    @property
    def is_air(self) -> bool:
        return self.type is UnitType.AIR

    @property
    def is_division(self) -> bool:
        return self.echelon is Echelon.DIVISION

    def printed(self) -> dict[str, Any]:
        return {
            "echelon": self.echelon.value,
            "type": self.type.value,
            "factors": self.factors,
            "attack": self.attack,
            "defence": self.defence,
            "movement": self.movement,
            "tank": self.tank,
            "aa": self.aa.value,
        }


class FamilyUnit(UnitView):
    """A family unit's statuses: moved and attacked this game-turn, disrupted (or spent), out of supply at the last
    determination, activated (an Allied unit waits to be, GG-V.A.2)."""

    statuses = (*ENGINE_STATUSES, "moved", "attacked", "disrupted", "out_of_supply", "activated")
    moved = Status()
    attacked = Status()
    disrupted = Status()
    out_of_supply = Status()
    activated = Status()


FAMILY_BITS: Mapping[str, int] = FamilyUnit.bits  # for code that reads the flags arrays in bulk
MOVED, ATTACKED, DISRUPTED = FAMILY_BITS["moved"], FAMILY_BITS["attacked"], FAMILY_BITS["disrupted"]
OUT_OF_SUPPLY, ACTIVATED = FAMILY_BITS["out_of_supply"], FAMILY_BITS["activated"]


# A family game's units and counters, typed: the game makes its units' views of the system's class (FamilyUnit) and its
# loader made its counters family counters.  Bound as they are (Game.unit itself, an attribute getter), so that rule
# code in the hot paths pays nothing for the types.
family_unit = cast("Callable[[Game, str], FamilyUnit]", Game.unit)
family_defs = cast("Callable[[Game], Mapping[str, FamilyUnitDef]]", attrgetter("defs"))


FACTORS = re.compile(r"^([0-9]+)-([0-9]+)(?:-([0-9]+))?$")  # attack-defence-movement, or combat-movement
UNIT_TYPES = {t.value: t for t in UnitType}
ECHELONS = {e.value: e for e in Echelon}
AA = {a.value: a for a in AACapability}
CLASSES = {c.value: c for c in CombatClass}
ANTI_TANK = {a.value: a for a in AntiTank}
SIZES = {s: s for s in ("XXX", "XX", "XX-", "X", "III")}


def read_family_unit(
    ut: Table,
    common: Mapping[str, Any],
    *,
    irreplaceable: frozenset[str] = frozenset(),
    one_combat_factor: bool = False,
) -> FamilyUnitDef:
    """A family counter from its ``[[unit]]`` table, given the fields every counter has (``common``, read by the
    loader); a unit of an ``irreplaceable`` nationality is marked so.  With ``one_combat_factor`` (a system whose
    counters print one factor for attack and defence) the factors may also be written combat-movement."""
    fm = FACTORS.match(ut.str("factors"))
    if not fm or (fm.group(3) is None and not one_combat_factor):
        forms = "attack-defence-movement, e.g. '4-3-2'" + (", or combat-movement, e.g. '3-4'" if one_combat_factor else "")
        raise ut.error("factors", f"expected {forms}")
    one = fm.group(3) is None  # one combat factor for attack and defence, then the movement
    attack = int(fm.group(1))
    kind = ut.choice("type", UNIT_TYPES)
    return FamilyUnitDef(
        **common,
        kind=kind.value,
        echelon=ut.choice("echelon", ECHELONS),
        type=kind,
        attack=attack,
        defence=attack if one else int(fm.group(2)),
        movement=int(fm.group(2) if one else fm.group(3)),
        tank=ut.str("tank", None),
        aa=ut.choice("aa", AA, AACapability.NONE),
        combat_class=ut.choice("class", CLASSES, None),
        anti_tank=ut.choice("anti_tank", ANTI_TANK, AntiTank.NONE),
        irreplaceable=common["nationality"] in irreplaceable,
        size=ut.choice("size", SIZES, None),
        one_combat_factor=one,
    )


# --- how the family's counters are drawn ----------------------------------------------------------------------------
FAMILY_SYMBOLS = {"armour": "oval", "motorized": "cross-wheels", "infantry": "cross", "recce": "slash", "aa": "aa", "artillery": "dot"}


def family_rendering(rendering: Rendering) -> Rendering:
    """A system's rendering with the family's ways of drawing a counter beneath it: NATO-like symbols by unit type,
    a disrupted (spent) unit's edge in red, a ``*`` after the factors of a unit out of supply (the system's own
    symbols, alarms and marks where it has them)."""
    return replace(
        rendering,
        symbols={**FAMILY_SYMBOLS, **rendering.symbols},
        alarms=rendering.alarms or ("disrupted",),
        marks={"out_of_supply": "*", **rendering.marks},
    )
