"""The changing part of a game: every unit's state as integer arrays, the system's variables, the
decision stack and the log.

Units are rows of parallel arrays indexed by their place in the order of battle: the hex as an index
into the map's hex list (``-1`` off the map), a word of status bits, a step count, and any number a system
keeps per unit.  Copying a position is then a handful of list copies (the search and undo need thousands a
second).  Rule code reads and writes a unit through a :class:`UnitView` (``game.unit("15Pz").hex = h``), which
works on the arrays in place and keeps the arrays' Zobrist hash (:class:`ZobristKeys`) up to date with every write,
so the position's key for caches costs nothing to read however many units there are.

The engine knows two statuses, a counter out of the game (*eliminated*) and a counter face down (*hidden*), and
the step count.  Everything else a counter may be (moved, disrupted, spent, retreating, out of supply, newly
disrupted ...) is a system's: its :class:`UnitView` subclass names its statuses (:attr:`UnitView.statuses`) and
its numbers (:attr:`UnitView.numbers`), the engine gives each status a bit and each number an array by that
order, and views, saves and hashes carry every one by name.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex

ENGINE_STATUSES = ("eliminated", "hidden")  # bits 0 and 1 of every game: the engine's own
ELIMINATED, HIDDEN = 1, 2  # their bits
MAX_STATUSES = 16  # status bits a unit may have (the engine's two among them)
MAX_NUMBERS = 4  # numbers a system may keep per unit beyond its steps


@dataclass(slots=True)
class UnitState:
    """One unit's state as a plain value (for rendering, views and tests): a copy, not the live unit.  ``status``
    holds every status the system declares (a name missing from it is a status not set); ``numbers`` the system's
    numbers kept per unit."""

    hex: Hex | None = None
    status: dict[str, bool] = field(default_factory=dict)
    steps: int = 0
    numbers: dict[str, int] = field(default_factory=dict)

    def flag(self, name: str) -> bool:
        return self.status.get(name, False)

    @property
    def hidden(self) -> bool:
        return self.status.get("hidden", False)

    @property
    def eliminated(self) -> bool:
        return self.status.get("eliminated", False)

    def copy(self) -> UnitState:
        return UnitState(self.hex, dict(self.status), self.steps, dict(self.numbers))

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready form: every status, the hex as its label, the steps and the system's numbers."""
        out: dict[str, Any] = dict(self.status)
        out["hex"] = None if self.hex is None else self.hex.label
        out["steps"] = self.steps
        out.update(self.numbers)
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

    __slots__ = ("flag", "hex", "hex_width", "numbers", "steps", "units")

    def __init__(self, units: int, hexes: int) -> None:
        rng = random.Random(0x70B2C4)
        self.units = units
        self.hex_width = hexes + 1  # slot 0 is "off the map" (index -1)
        self.hex = [rng.getrandbits(64) for _ in range(units * self.hex_width)]
        self.flag = [rng.getrandbits(64) for _ in range(units * MAX_STATUSES)]
        self.steps = [rng.getrandbits(64) for _ in range(units * self.STEPS)]
        # a system's numbers: as the steps, a key per unit and value 0-15 for each of the numbers a system may keep
        self.numbers = [rng.getrandbits(64) for _ in range(units * self.STEPS * MAX_NUMBERS)]

    @staticmethod
    @functools.lru_cache(maxsize=16)
    def for_size(units: int, hexes: int) -> ZobristKeys:
        """The keys for a scenario's numbers of units and hexes (made once per process: the same for every game)."""
        return ZobristKeys(units, hexes)

    def of_hex(self, i: int, j: int) -> int:
        return self.hex[i * self.hex_width + j + 1]

    def of_flags(self, i: int, flags: int) -> int:
        z, base, b = 0, i * MAX_STATUSES, 0
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

    def of_number(self, k: int, i: int, n: int) -> int:
        """The key of unit ``i`` holding ``n`` in the system's number ``k``."""
        if 0 <= n < self.STEPS:
            return self.numbers[((k * self.units) + i) * self.STEPS + n]
        return hash((0x6E, k, i, n)) & 0xFFFFFFFFFFFFFFFF

    def of_units(self, hexes: list[int], flags: list[int], steps: list[int], numbers: tuple[list[int], ...] = ()) -> int:
        z = 0
        for i, (j, f, n) in enumerate(zip(hexes, flags, steps, strict=True)):
            z ^= self.of_hex(i, j) ^ self.of_flags(i, f) ^ self.of_steps(i, n)
        for k, values in enumerate(numbers):
            for i, n in enumerate(values):
                z ^= self.of_number(k, i, n)
        return z


UnitRows = tuple[list[int], list[int], list[int], tuple[list[int], ...], int, list[int]]
"""What :meth:`Units.saved` keeps: the hex, flags and steps rows, the numbers' rows, the hash and the groups' hashes."""


class Units:
    """Every unit's state: ``hex[i]``, ``flags[i]``, ``steps[i]`` and ``numbers[k][i]`` (the system's k-th number)
    for the unit at order-of-battle index i; ``z``, the arrays' Zobrist hash, and ``group_z[g]``, the hash of the rows
    of group ``g`` alone (the units of one side: ``group[i]`` is row i's group), so that what depends on one side's
    units only can be kept while the other side moves.  Both are kept by :class:`UnitView`'s writes (the arrays are
    written through it only)."""

    __slots__ = ("flags", "group", "group_z", "groups", "hex", "keys", "numbers", "steps", "z")

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
        numbers: tuple[list[int], ...] = (),
    ) -> None:
        self.hex = hexes
        self.flags = flags
        self.steps = steps
        self.numbers = numbers
        self.keys = keys
        self.group = (0,) * len(hexes) if group is None else group
        self.groups = groups
        self.z = keys.of_units(hexes, flags, steps, numbers) if z is None else z
        self.group_z = self.group_key_afresh() if group_z is None else group_z

    def copy(self) -> Units:
        other = object.__new__(Units)  # (every field set here: a copy for undo or search, made per action)
        other.hex, other.flags, other.steps, other.keys = self.hex.copy(), self.flags.copy(), self.steps.copy(), self.keys
        other.numbers = tuple(n.copy() for n in self.numbers) if self.numbers else ()
        other.group, other.groups, other.z, other.group_z = self.group, self.groups, self.z, self.group_z.copy()
        return other

    def saved(self) -> UnitRows:
        """The rows and hashes as they are now, for :meth:`restore` (an action's undo keeps them)."""
        numbers = tuple(n.copy() for n in self.numbers) if self.numbers else ()
        return self.hex.copy(), self.flags.copy(), self.steps.copy(), numbers, self.z, self.group_z.copy()

    def restore(self, rows: UnitRows) -> None:
        """Take back the rows and hashes :meth:`saved` kept, into these very arrays: undo writes the position back in
        place, so the game's unit views (live handles on the arrays) stay valid; a search plays and takes back
        thousands of actions, and each would otherwise make its units' views afresh."""
        hexes, flags, steps, numbers, self.z, group_z = rows
        self.hex[:] = hexes
        self.flags[:] = flags
        self.steps[:] = steps
        if numbers:
            for mine, kept in zip(self.numbers, numbers, strict=True):
                mine[:] = kept
        self.group_z[:] = group_z

    def group_key_afresh(self) -> list[int]:
        """:attr:`group_z` worked out from the arrays themselves (the tests check it agrees with the kept one)."""
        out = [0] * self.groups
        keys = self.keys
        for i, (j, f, n) in enumerate(zip(self.hex, self.flags, self.steps, strict=True)):
            out[self.group[i]] ^= keys.of_hex(i, j) ^ keys.of_flags(i, f) ^ keys.of_steps(i, n)
        for k, values in enumerate(self.numbers):
            for i, n in enumerate(values):
                out[self.group[i]] ^= keys.of_number(k, i, n)
        return out

    def key_afresh(self) -> int:
        """:attr:`z` worked out from the arrays themselves (the fuzzer and the tests check the two agree)."""
        return self.keys.of_units(self.hex, self.flags, self.steps, self.numbers)

    def key(self) -> int:
        """The arrays' hash, for cache keys (equal arrays, equal keys; different arrays, different keys but
        with odds of 2^-64)."""
        return self.z

    def change(self, i: int, delta: int) -> None:
        """Fold a change of row ``i``'s key (old XOR new) into the hashes."""
        self.z ^= delta
        self.group_z[self.group[i]] ^= delta


class Status:
    """A status of a unit view class, by name: a bool read from and written to the unit's status bits, the bit being
    the name's place in the class's :attr:`UnitView.statuses` (so the class says the order, and the engine allocates)."""

    __slots__ = ("bit", "index", "name")

    def __set_name__(self, owner: type[UnitView], name: str) -> None:
        if name not in owner.statuses:
            raise TypeError(f"{owner.__name__}.{name}: name it in {owner.__name__}.statuses first")
        self.name, self.index = name, owner.statuses.index(name)
        self.bit = 1 << self.index

    def __get__(self, view: UnitView | None, owner: type | None = None) -> bool:
        assert view is not None
        return bool(view._units.flags[view._i] & self.bit)

    def __set__(self, view: UnitView, value: bool) -> None:
        units, i = view._units, view._i
        old = units.flags[i]
        new = (old | self.bit) if value else (old & ~self.bit)
        if new != old:
            units.flags[i] = new
            delta = units.keys.flag[i * MAX_STATUSES + self.index]
            units.z ^= delta  # (Units.change inlined: a status is written by most actions)
            units.group_z[units.group[i]] ^= delta


class UnitView:
    """A live handle on one unit's row: reading and writing its fields changes the game's arrays.

    A system subclasses it to name its own statuses and numbers: ``statuses`` extends the engine's two in the
    order their bits are given (each may also be a :class:`Status` attribute, read and written as a bool), ``numbers``
    lists the numbers kept per unit (read with :meth:`number`); the game makes its units' views of the system's
    class (:attr:`~tobruk.engine.system.System.unit_view`)."""

    statuses: ClassVar[tuple[str, ...]] = ENGINE_STATUSES
    numbers: ClassVar[tuple[str, ...]] = ()
    bits: ClassVar[Mapping[str, int]] = {name: 1 << i for i, name in enumerate(ENGINE_STATUSES)}

    __slots__ = ("_hexes", "_i", "_index", "_units")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.statuses[: len(ENGINE_STATUSES)] != ENGINE_STATUSES or len(set(cls.statuses)) != len(cls.statuses):
            raise TypeError(f"{cls.__name__}.statuses must begin with {ENGINE_STATUSES} and name each status once")
        if len(cls.statuses) > MAX_STATUSES or len(cls.numbers) > MAX_NUMBERS:
            raise TypeError(f"{cls.__name__}: at most {MAX_STATUSES} statuses and {MAX_NUMBERS} numbers")
        cls.bits = {name: 1 << i for i, name in enumerate(cls.statuses)}

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
        base = i * keys.hex_width + 1  # (ZobristKeys.of_hex and Units.change inlined: every move writes a hex)
        delta = keys.hex[base + units.hex[i]] ^ keys.hex[base + j]
        units.hex[i] = j
        units.z ^= delta
        units.group_z[units.group[i]] ^= delta

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

    eliminated = Status()
    hidden = Status()

    def flag(self, name: str) -> bool:
        """A status by name (one of :attr:`statuses`)."""
        return bool(self._units.flags[self._i] & self.bits[name])

    def set_flag(self, name: str, value: bool) -> None:
        units, i, bit = self._units, self._i, self.bits[name]
        old = units.flags[i]
        new = (old | bit) if value else (old & ~bit)
        if new != old:
            units.flags[i] = new
            units.change(i, units.keys.flag[i * MAX_STATUSES + self.statuses.index(name)])

    def number(self, name: str) -> int:
        """One of the system's numbers kept for this unit (one of :attr:`numbers`)."""
        return self._units.numbers[self.numbers.index(name)][self._i]

    def set_number(self, name: str, n: int) -> None:
        k, units, i = self.numbers.index(name), self._units, self._i
        old = units.numbers[k][i]
        units.change(i, units.keys.of_number(k, i, old) ^ units.keys.of_number(k, i, n))
        units.numbers[k][i] = n

    def value(self) -> UnitState:
        """The unit's state now, as a plain value that later changes do not touch."""
        f = self._units.flags[self._i]
        return UnitState(
            self.hex,
            {name: bool(f & (1 << b)) for b, name in enumerate(self.statuses)},
            self.steps,
            {name: self._units.numbers[k][self._i] for k, name in enumerate(self.numbers)},
        )

    copy = value

    def to_data(self) -> dict[str, Any]:
        return self.value().to_data()


@functools.cache
def numbered(view: type[UnitView]) -> dict[str, int]:
    """The bits of a view class's statuses by name (for code that reads the flags arrays in bulk)."""
    return dict(view.bits)
