"""Operation Compass's counters and units: what a counter prints, and what a unit may be.

A counter prints its strength in steps, a morale rating (a check passes when a die plus its modifiers is at most
the rating, OC-MC), attack and defence strength a step, its movement allowance in MP and its kind: armour,
motorized infantry, infantry, recce, or support (the artillery, OC-CRT.4); Selby Force prints a support factor
as well.  A unit may have moved, assaulted, fired (a support unit that bombarded or supported an assault this
turn), retreated this turn (an Italian unit, OC-CRT.4's -1) and be out of supply (an Allied unit, OC-MC.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from tobruk.board.units import UnitDef
from tobruk.engine.game import Game
from tobruk.engine.state import ENGINE_STATUSES, Status, UnitView

if TYPE_CHECKING:
    from tobruk.loading.datafile import Table

# OC-MC.2 reads failing by 8 or more as "3 steps/eliminated": the same thing only for a counter of at most 3 steps, so
# no counter has more (ruling R-OC-MC8)
MOST_STEPS = 3
KINDS = ("armour", "motorized-infantry", "infantry", "recce", "support")
SUPPORT = "support"
# what the counters' views give as their echelon: the faces' computer player weighs stacks by divisions, a family
# rule; Operation Compass counts units, not divisions (ruling R-OC-STACK), so no counter is a division to it
ECHELON = "brigade"


@dataclass(frozen=True, slots=True, kw_only=True)
class CompassUnitDef(UnitDef):
    """A counter of Operation Compass: ``steps`` (on :class:`UnitDef`) is its full strength; ``support`` the support
    factor Selby Force prints (0 for the others)."""

    morale: int
    attack: int
    defence: int
    movement: int
    support: int = 0

    @property
    def is_support(self) -> bool:
        """An artillery unit (OC-CRT.4: -1 to an assault while at full strength)."""
        return self.kind == SUPPORT

    @property
    def factors(self) -> str:
        """As the counter prints it: attack-defence a step, movement, then morale ("2-2-8 M5")."""
        return f"{self.attack}-{self.defence}-{self.movement} M{self.morale}"

    def printed(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "echelon": ECHELON,
            "full_steps": self.steps,
            "morale": self.morale,
            "attack": self.attack,
            "defence": self.defence,
            "movement": self.movement,
            "support": self.support,
        }


class CompassUnit(UnitView):
    """A unit's statuses: moved and assaulted this turn, fired (a support unit used this turn), retreating (an Italian
    unit that retreated in this turn's Retreat Phase), out of supply (an Allied unit, at the last determination)."""

    statuses = (*ENGINE_STATUSES, "moved", "assaulted", "fired", "retreating", "out_of_supply")
    moved = Status()
    assaulted = Status()
    fired = Status()
    retreating = Status()
    out_of_supply = Status()


# the game's units and counters, typed (the game makes its views CompassUnit, its loader its counters CompassUnitDef)
compass_unit = cast("Callable[[Game, str], CompassUnit]", Game.unit)
compass_defs = cast("Callable[[Game], Mapping[str, CompassUnitDef]]", attrgetter("defs"))


def read_counter(ut: Table, common: Mapping[str, Any]) -> CompassUnitDef:
    """A counter of Operation Compass from its ``[[unit]]`` table (the common fields read by the loader)."""
    kind = ut.str("kind")
    if kind not in KINDS:
        raise ut.error("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    if not 1 <= common["steps"] <= MOST_STEPS:
        raise ut.error("steps", f"a unit has 1 to {MOST_STEPS} steps (ruling R-OC-MC8), got {common['steps']}")
    values = {key: ut.int(key) for key in ("morale", "attack", "defence", "movement")}
    if not 1 <= values["morale"] <= 6:
        raise ut.error("morale", f"a morale rating is 1 to 6, got {values['morale']}")
    for key in ("attack", "defence", "movement"):
        if values[key] < 0:
            raise ut.error(key, f"expected 0 or more, got {values[key]}")
    support = ut.int("support", 0)
    if support < 0:
        raise ut.error("support", f"expected 0 or more, got {support}")
    return CompassUnitDef(**common, kind=kind, support=support, **values)
