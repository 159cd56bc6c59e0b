"""Units: a static definition (what is printed on the counter) and a mutable state (where it is, how it is).

Definitions are frozen and shared by every copy of a game; a state is a small record per
unit that the game copies cheaply for undo and search.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tobruk.engine.sides import Side


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


@dataclass(frozen=True, slots=True)
class UnitDef:
    """What the counter says.  ``formation`` names a parent division for its brigades.

    Some systems also read: ``combat_class`` (CA-G.14), ``anti_tank`` (the column it shoots on, CA-T.2),
    ``irreplaceable`` (its nationality may not be replaced, CA-R.2) and ``size``, the counter's size
    symbol (``XXX``, ``XX``, ``XX-``, ``X``, ``III``) as the ZOC and stacking rules read it.
    """

    id: str
    name: str
    side: Side
    nationality: str
    echelon: Echelon
    type: UnitType
    attack: int
    defence: int
    movement: int
    tank: str | None = None
    aa: AACapability = AACapability.NONE
    flags: frozenset[str] = frozenset()
    formation: str | None = None
    combat_class: CombatClass | None = None
    anti_tank: AntiTank = AntiTank.NONE
    irreplaceable: bool = False
    size: str | None = None
    steps: int = 0  # strength steps, in systems that count them
    one_combat_factor: bool = False  # the counter prints one factor for attack and defence ("3-4": combat 3, movement 4)

    @property
    def factors(self) -> str:
        """The counter's factors as printed: attack-defence-movement, or combat-movement where one factor
        serves for attack and defence."""
        if self.one_combat_factor:
            return f"{self.attack}-{self.movement}"
        return f"{self.attack}-{self.defence}-{self.movement}"

    @property
    def is_dummy(self) -> bool:
        return self.type is UnitType.DUMMY

    @property
    def is_air(self) -> bool:
        return self.type is UnitType.AIR

    @property
    def is_division(self) -> bool:
        return self.echelon is Echelon.DIVISION
