"""Hex-grid geometry for pointy-topped hex maps.

A :class:`Hex` is an immutable value in axial coordinates ``(q, r)`` (the third cube
coordinate is ``s = -q - r``), so it can be a dict key or set member and its arithmetic is
exact.  Printed labels such as ``C13`` (row letter from the north edge, column number from
the west edge) exist only at the edge of the program: :meth:`Hex.parse` and
:attr:`Hex.label`.  The project's maps shift rows B, D, F, ... half a hex east of rows A,
C, E, ... (the "odd-r" offset layout), which is what the labels encode.

Directions are indexed 0-5 clockwise from north-east; a direction index doubles as a
hexside index.  Pixel layout (for drawing) lives in :mod:`tobruk.board.layout`, not here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache, total_ordering
from operator import attrgetter


class Direction(IntEnum):
    """The six neighbours of a pointy-topped hex, clockwise from north-east."""

    NE = 0
    E = 1
    SE = 2
    SW = 3
    W = 4
    NW = 5

    @property
    def opposite(self) -> Direction:
        return Direction((self + 3) % 6)

    @property
    def delta(self) -> tuple[int, int]:
        """The axial (dq, dr) step to the neighbour in this direction."""
        return _DELTAS[self]


_DELTAS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
_DELTA_TO_DIRECTION = {delta: Direction(i) for i, delta in enumerate(_DELTAS)}
_LABEL = re.compile(r"^([A-Za-z]{1,2})(\d{1,3})$")


def _row_letters(row: int) -> str:
    """Row index (0 = A) to its letters: A..Z, then AA, AB, ... as on a spreadsheet."""
    if row < 0:
        raise ValueError(f"a row index is never negative: {row}")
    letters = ""
    n = row + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def _row_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}
_PARSED: dict[str, Hex] = {}


@total_ordering
@dataclass(frozen=True, slots=True)
class Hex:
    """One hex, in axial coordinates.  Ordered by row, then column (reading order)."""

    q: int
    r: int
    _label: str | None = field(default=None, init=False, compare=False, repr=False)  # worked out on first use

    def __hash__(self) -> int:  # (the generated one hashes a tuple; hexes are hashed constantly, as keys of every table)
        return self.q * 65_537 + self.r

    @property
    def s(self) -> int:
        return -self.q - self.r

    # --- offset coordinates (rows and columns as printed) -------------------------------
    @classmethod
    def from_offset(cls, row: int, col: int) -> Hex:
        """Row index from the north (0 = A) and column index from the west (0 = column 1)."""
        return cls(col - (row - (row & 1)) // 2, row)

    @property
    def row(self) -> int:
        return self.r

    @property
    def col(self) -> int:
        """Zero-based column index (column number minus one)."""
        return self.q + (self.r - (self.r & 1)) // 2

    @property
    def label(self) -> str:
        """The printed label, e.g. ``C13`` (kept with the hex: logs and views ask for it constantly)."""
        text = self._label
        if text is None:
            if self.row < 0 or self.col < 0:
                raise ValueError(f"hex ({self.q}, {self.r}) lies north or west of A1 and has no label")
            text = f"{_row_letters(self.row)}{self.col + 1}"
            object.__setattr__(self, "_label", text)
        return text

    @classmethod
    def parse(cls, label: str) -> Hex:
        """``"C13"`` -> the hex in row C, column 13.  Case-insensitive; surrounding blanks ignored.  (Each label is
        parsed once: the rules keep hexes as labels in their variables and read them back constantly.)"""
        found = _PARSED.get(label)
        if found is None:
            m = _LABEL.match(label.strip())
            if not m or int(m.group(2)) < 1:
                raise ValueError(f"not a hex label (row letters then a column number from 1): {label!r}")
            found = cls.from_offset(_row_index(m.group(1)), int(m.group(2)) - 1)
            if len(_PARSED) < 100_000:
                _PARSED[label] = found
        return found

    # --- neighbourhood ---------------------------------------------------------------------
    def neighbour(self, direction: Direction) -> Hex:
        dq, dr = _DELTAS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six neighbours, indexed by :class:`Direction` (worked out once per hex: the rules ask constantly)."""
        found = _NEIGHBOURS.get(self)
        if found is None:
            found = _NEIGHBOURS[self] = tuple(Hex(self.q + dq, self.r + dr) for dq, dr in _DELTAS)
        return found

    def direction_to(self, other: Hex) -> Direction:
        """The direction of an adjacent hex; ``ValueError`` if ``other`` is not adjacent."""
        try:
            return _DELTA_TO_DIRECTION[(other.q - self.q, other.r - self.r)]
        except KeyError:
            raise ValueError(f"{self} and {other} are not adjacent") from None

    def is_adjacent(self, other: Hex) -> bool:
        return (other.q - self.q, other.r - self.r) in _DELTA_TO_DIRECTION

    def distance(self, other: Hex) -> int:
        """Number of hex steps between the two hexes."""
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, radius: int) -> list[Hex]:
        """The hexes exactly ``radius`` steps away (empty list for a negative radius)."""
        if radius < 0:
            return []
        if radius == 0:
            return [self]
        out: list[Hex] = []
        h = Hex(self.q + _DELTAS[Direction.SW][0] * radius, self.r + _DELTAS[Direction.SW][1] * radius)
        for d in (Direction.E, Direction.NE, Direction.NW, Direction.W, Direction.SW, Direction.SE):
            for _ in range(radius):
                out.append(h)
                h = h.neighbour(d)
        return out

    def within(self, radius: int) -> list[Hex]:
        """The hexes at most ``radius`` steps away, this one included."""
        return [h for k in range(radius + 1) for h in self.ring(k)]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Hex):
            return NotImplemented
        return (self.r, self.q) < (other.r, other.q)

    def __repr__(self) -> str:
        if self.row >= 0 and self.col >= 0:
            return f"Hex.parse({self.label!r})"
        return f"Hex({self.q}, {self.r})"

    def __str__(self) -> str:
        return self.label if self.row >= 0 and self.col >= 0 else f"({self.q},{self.r})"


@total_ordering
@dataclass(frozen=True, slots=True)
class Hexside:
    """The edge shared by two adjacent hexes, as one canonical value.

    Stored as a hex and one of the three directions NE, E, SE, so the same edge reached
    from either side compares and hashes equal.  Its label lists both hexes in reading
    order, e.g. ``B5|C5``.
    """

    hex: Hex
    direction: Direction

    def __post_init__(self) -> None:
        if self.direction > Direction.SE:
            raise ValueError("use Hexside.of() or Hexside.between() to build a hexside")

    @classmethod
    def of(cls, hex_: Hex, direction: Direction) -> Hexside:
        """The hexside of ``hex_`` facing ``direction``."""
        if direction <= Direction.SE:
            return cls(hex_, direction)
        return cls(hex_.neighbour(direction), direction.opposite)

    @classmethod
    def between(cls, a: Hex, b: Hex) -> Hexside:
        return cls.of(a, a.direction_to(b))

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        """Both hexes, in reading order."""
        a, b = self.hex, self.hex.neighbour(self.direction)
        return (a, b) if a < b else (b, a)

    def other(self, hex_: Hex) -> Hex:
        """The hex across this side from ``hex_``."""
        a, b = self.hexes
        if hex_ == a:
            return b
        if hex_ == b:
            return a
        raise ValueError(f"{hex_} is not on hexside {self}")

    @property
    def label(self) -> str:
        a, b = self.hexes
        return f"{a.label}|{b.label}"

    @classmethod
    def parse(cls, text: str) -> Hexside:
        """``"B5|C5"`` (either order) -> the hexside between the two hexes."""
        parts = text.split("|")
        if len(parts) != 2:
            raise ValueError(f"not a hexside (two hex labels joined by '|'): {text!r}")
        a, b = Hex.parse(parts[0]), Hex.parse(parts[1])
        if not a.is_adjacent(b):
            raise ValueError(f"not a hexside: {a.label} and {b.label} are not adjacent")
        return cls.between(a, b)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Hexside):
            return NotImplemented
        return self.hexes < other.hexes

    def __repr__(self) -> str:
        return f"Hexside.parse({self.label!r})"

    def __str__(self) -> str:
        return self.label


_LABEL_OF = attrgetter("label")


def route_text(path: Iterable[Hex], separator: str = "-") -> str:
    """The hexes' labels joined, as a move is written (``C4-C5-D5``): every move played writes one in the log."""
    return separator.join(map(_LABEL_OF, path))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive, each adjacent to the next.

    Cube linear interpolation with a tiny nudge so that lines along hex edges break ties
    consistently (Red Blob Games' hex guide, "line drawing").
    """
    n = a.distance(b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + 2 * eps
    bq, br = b.q + eps, b.r + 2 * eps
    return [round_axial(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def round_axial(q: float, r: float) -> Hex:
    """The hex containing fractional axial coordinates (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


@cache
def in_reading_order(hexes: frozenset[Hex]) -> tuple[Hex, ...]:
    """A fixed set of hexes (a zone, an area) in reading order: sorted once per set, as rules list a zone's hexes in
    every listing of a set-up or an arrival."""
    return tuple(sorted(hexes))
