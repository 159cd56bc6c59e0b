"""The changing part of a game: every unit's state as integer arrays, the system's variables, the
decision stack and the log.

Units are rows of parallel arrays indexed by their place in the order of battle: the hex as an index
into the map's hex list (``-1`` off the map), a word of status bits, and a step count.  Copying a
position is then a handful of list copies (the search and undo need thousands a second).  Rule code reads
and writes a unit through :class:`UnitView` (``game.unit("15Pz").hex = h``), which works on the arrays in
place and keeps the arrays' Zobrist hash (:class:`ZobristKeys`) up to date with every write, so the
position's key for caches costs nothing to read however many units there are.

The status bits are the family's vocabulary (:data:`STATUS`): every system of these games marks a unit
eliminated, face down, moved or attacked this turn, disrupted or spent, out of supply; a system gives
them its own names in what it shows (a system may call *disrupted* "Spent").
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex

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


class ZobristKeys:
    """Random 64-bit keys, one per (unit, hex), (unit, status bit) and (unit, step count): a Zobrist hash.

    The hash of the unit arrays is the XOR of the keys of every unit's hex, set status bits and step count, so a
    write changes it by two XORs (the old value's key out, the new one's in) and two positions that differ
    anywhere in the arrays differ in the hash but with odds of 2^-64.  The keys come from a fixed seed, so a
    position hashes the same in every game of a scenario (the hash is for caches inside one process; the
    saved state hash is :meth:`Game.state_hash`).
    """

    STEPS = 16  # step counts 0-15 have their own keys; larger ones (none in these games) a derived one

    __slots__ = ("flag", "hex", "hex_width", "steps")

    def __init__(self, units: int, hexes: int) -> None:
        rng = random.Random(0x70B2C4)
        self.hex_width = hexes + 1  # slot 0 is "off the map" (index -1)
        self.hex = [rng.getrandbits(64) for _ in range(units * self.hex_width)]
        self.flag = [rng.getrandbits(64) for _ in range(units * len(STATUS))]
        self.steps = [rng.getrandbits(64) for _ in range(units * self.STEPS)]

    @staticmethod
    @functools.lru_cache(maxsize=16)
    def for_size(units: int, hexes: int) -> ZobristKeys:
        """The keys for a scenario's numbers of units and hexes (made once per process: the same for every game)."""
        return ZobristKeys(units, hexes)

    def of_hex(self, i: int, j: int) -> int:
        return self.hex[i * self.hex_width + j + 1]

    def of_flags(self, i: int, flags: int) -> int:
        z, base, b = 0, i * len(STATUS), 0
        while flags:
            if flags & 1:
                z ^= self.flag[base + b]
            flags >>= 1
            b += 1
        return z

    def of_steps(self, i: int, n: int) -> int:
        if 0 <= n < self.STEPS:
            return self.steps[i * self.STEPS + n]
        return hash((0x5E, i, n)) & 0xFFFFFFFFFFFFFFFF

    def of_units(self, hexes: list[int], flags: list[int], steps: list[int]) -> int:
        z = 0
        for i, (j, f, n) in enumerate(zip(hexes, flags, steps, strict=True)):
            z ^= self.of_hex(i, j) ^ self.of_flags(i, f) ^ self.of_steps(i, n)
        return z


class Units:
    """Every unit's state: ``hex[i]``, ``flags[i]``, ``steps[i]`` for the unit at order-of-battle index i; ``z``,
    the arrays' Zobrist hash, and ``group_z[g]``, the hash of the rows of group ``g`` alone (the units of one side:
    ``group[i]`` is row i's group), so that what depends on one side's units only can be kept while the other
    side moves.  Both are kept by :class:`UnitView`'s writes (the arrays are written through it only)."""

    __slots__ = ("flags", "group", "group_z", "groups", "hex", "keys", "steps", "z")

    def __init__(
        self,
        hexes: list[int],
        flags: list[int],
        steps: list[int],
        keys: ZobristKeys,
        group: tuple[int, ...] | None = None,
        groups: int = 2,
        z: int | None = None,
        group_z: list[int] | None = None,
    ) -> None:
        self.hex = hexes
        self.flags = flags
        self.steps = steps
        self.keys = keys
        self.group = (0,) * len(hexes) if group is None else group
        self.groups = groups
        self.z = keys.of_units(hexes, flags, steps) if z is None else z
        self.group_z = self.group_key_afresh() if group_z is None else group_z

    def copy(self) -> Units:
        other = object.__new__(Units)  # (every field set here: a copy for undo or search, made per action)
        other.hex, other.flags, other.steps, other.keys = self.hex.copy(), self.flags.copy(), self.steps.copy(), self.keys
        other.group, other.groups, other.z, other.group_z = self.group, self.groups, self.z, self.group_z.copy()
        return other

    def group_key_afresh(self) -> list[int]:
        """:attr:`group_z` worked out from the arrays themselves (the tests check it agrees with the kept one)."""
        out = [0] * self.groups
        keys = self.keys
        for i, (j, f, n) in enumerate(zip(self.hex, self.flags, self.steps, strict=True)):
            out[self.group[i]] ^= keys.of_hex(i, j) ^ keys.of_flags(i, f) ^ keys.of_steps(i, n)
        return out

    def key_afresh(self) -> int:
        """:attr:`z` worked out from the arrays themselves (the fuzzer and the tests check the two agree)."""
        return self.keys.of_units(self.hex, self.flags, self.steps)

    def key(self) -> int:
        """The arrays' hash, for cache keys (equal arrays, equal keys; different arrays, different keys but
        with odds of 2^-64)."""
        return self.z

    def change(self, i: int, delta: int) -> None:
        """Fold a change of row ``i``'s key (old XOR new) into the hashes."""
        self.z ^= delta
        self.group_z[self.group[i]] ^= delta


def _flag(name: str) -> property:
    bit = BIT[name]

    index = STATUS.index(name)

    def get(self: UnitView) -> bool:
        return bool(self._units.flags[self._i] & bit)

    def put(self: UnitView, value: bool) -> None:
        units, i = self._units, self._i
        old = units.flags[i]
        new = (old | bit) if value else (old & ~bit)
        if new != old:
            units.flags[i] = new
            units.change(i, units.keys.flag[i * len(STATUS) + index])

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
            j = -1
        else:
            found = self._index.get(h)
            if found is None:
                raise ValueError(f"{h} is not on the map")
            j = found
        units, i = self._units, self._i
        keys = units.keys
        units.change(i, keys.of_hex(i, units.hex[i]) ^ keys.of_hex(i, j))
        units.hex[i] = j

    @property
    def hex_index(self) -> int:
        return self._units.hex[self._i]

    @property
    def steps(self) -> int:
        return self._units.steps[self._i]

    @steps.setter
    def steps(self, n: int) -> None:
        units, i = self._units, self._i
        units.change(i, units.keys.of_steps(i, units.steps[i]) ^ units.keys.of_steps(i, n))
        units.steps[i] = n

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
