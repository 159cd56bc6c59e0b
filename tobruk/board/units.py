"""Units: a static definition (what is printed on the counter), shared by every copy of a game.

Every counter has an id, a name, a side, a nationality, a kind (an open name: what the unit is, in its system's
words: armour, infantry, support, a dummy ...), its strength in steps, flags and the formation it belongs to.  What
else it prints (factors, morale, a support factor ...) is its game system's: a system's counter class adds those
fields, reads them from data (``System.read_counter``) and says how a view shows them (:meth:`UnitDef.printed`).
The unit's changing state is the game's (:mod:`tobruk.engine.state`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tobruk.engine.sides import Side

DUMMY = "dummy"  # the kind of a counter with nothing behind it, shown face down like a unit until revealed


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitDef:
    """What every counter says.  ``formation`` names a parent formation (a division, for its brigades)."""

    id: str
    name: str
    side: Side
    nationality: str
    kind: str
    steps: int = 0  # strength steps, in systems that count them
    flags: frozenset[str] = frozenset()
    formation: str | None = None

    @property
    def is_dummy(self) -> bool:
        """A counter with nothing behind it (it stands face down for a unit, and is gone when turned up)."""
        return self.kind == DUMMY

    def printed(self) -> dict[str, Any]:
        """What the counter prints beyond the fields every counter has, by name, in the order a view lists them."""
        return {}

    @property
    def factors(self) -> str:
        """The counter's values in one line as it prints them (the factors, a strength and morale): for people."""
        return ""
