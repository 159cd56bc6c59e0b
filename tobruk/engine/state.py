"""The changing part of a game: every unit's state as integer arrays, the system's variables, the
decision stack and the log.

Units are rows of parallel arrays indexed by their place in the order of battle: the hex as an index
into the map's hex list (``-1`` off the map), a word of status bits, and a step count.  Copying a
position is then a handful of list copies (the search and undo need thousands a second), and a
position's key for caches is the arrays themselves.  Rule code reads and writes a unit through
:class:`UnitView` (``game.unit("15Pz").hex = h``), which works on the arrays in place.

The status bits are the family's vocabulary (:data:`STATUS`): every system of these games marks a unit
eliminated, face down, moved or attacked this turn, disrupted or spent, out of supply; a system gives
them its own names in what it shows (a system may call *disrupted* "Spent").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tobruk.hexes import Hex

# the status bits, in this order (bit i is 1 << i)
STATUS = ("eliminated", "hidden", "moved", "attacked", "disrupted", "out_of_supply", "activated")
BIT = {name: 1 << i for i, name in enumerate(STATUS)}


@dataclass(slots=True)
class UnitState:
    """One unit's state as a plain value (for rendering, views and tests): a copy, not the live unit."""

    hex: Hex | None = None
    disrupted: bool = False
    activated: bool = False
    hidden: bool = False
    eliminated: bool = False
    moved: bool = False
    attacked: bool = False
    out_of_supply: bool = False
    steps: int = 0

    def copy(self) -> UnitState:
        return UnitState(
            self.hex,
            self.disrupted,
            self.activated,
            self.hidden,
            self.eliminated,
            self.moved,
            self.attacked,
            self.out_of_supply,
            self.steps,
        )

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready form: every field, the hex as its label."""
        out: dict[str, Any] = {name: getattr(self, name) for name in STATUS}
        out["hex"] = None if self.hex is None else self.hex.label
        out["steps"] = self.steps
        return out


class Units:
    """Every unit's state: ``hex[i]``, ``flags[i]``, ``steps[i]`` for the unit at order-of-battle index i."""

    __slots__ = ("flags", "hex", "steps")

    def __init__(self, hexes: list[int], flags: list[int], steps: list[int]) -> None:
        self.hex = hexes
        self.flags = flags
        self.steps = steps

    def copy(self) -> Units:
        return Units(self.hex.copy(), self.flags.copy(), self.steps.copy())

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return tuple(self.hex), tuple(self.flags), tuple(self.steps)


def _flag(name: str) -> property:
    bit = BIT[name]

    def get(self: UnitView) -> bool:
        return bool(self._units.flags[self._i] & bit)

    def put(self: UnitView, value: bool) -> None:
        flags = self._units.flags
        flags[self._i] = (flags[self._i] | bit) if value else (flags[self._i] & ~bit)

    return property(get, put, doc=f"the unit's {name.replace('_', ' ')} status")


class UnitView:
    """A live handle on one unit's row: reading and writing its fields changes the game's arrays."""

    __slots__ = ("_hexes", "_i", "_index", "_units")

    def __init__(self, units: Units, i: int, hexes: tuple[Hex, ...], index: Mapping[Hex, int]) -> None:
        self._units, self._i, self._hexes, self._index = units, i, hexes, index

    @property
    def hex(self) -> Hex | None:
        j = self._units.hex[self._i]
        return None if j < 0 else self._hexes[j]

    @hex.setter
    def hex(self, h: Hex | None) -> None:
        if h is None:
            self._units.hex[self._i] = -1
            return
        j = self._index.get(h)
        if j is None:
            raise ValueError(f"{h} is not on the map")
        self._units.hex[self._i] = j

    @property
    def hex_index(self) -> int:
        return self._units.hex[self._i]

    @property
    def steps(self) -> int:
        return self._units.steps[self._i]

    @steps.setter
    def steps(self, n: int) -> None:
        self._units.steps[self._i] = n

    eliminated = _flag("eliminated")
    hidden = _flag("hidden")
    moved = _flag("moved")
    attacked = _flag("attacked")
    disrupted = _flag("disrupted")
    out_of_supply = _flag("out_of_supply")
    activated = _flag("activated")

    def value(self) -> UnitState:
        """The unit's state now, as a plain value that later changes do not touch."""
        f = self._units.flags[self._i]
        return UnitState(
            self.hex,
            disrupted=bool(f & BIT["disrupted"]),
            activated=bool(f & BIT["activated"]),
            hidden=bool(f & BIT["hidden"]),
            eliminated=bool(f & BIT["eliminated"]),
            moved=bool(f & BIT["moved"]),
            attacked=bool(f & BIT["attacked"]),
            out_of_supply=bool(f & BIT["out_of_supply"]),
            steps=self.steps,
        )

    copy = value

    def to_data(self) -> dict[str, Any]:
        return self.value().to_data()
