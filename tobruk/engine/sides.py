"""The two sides of every game in this family."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import overload


class Side(StrEnum):
    AXIS = "axis"
    ALLIED = "allied"

    @property
    def enemy(self) -> Side:
        return Side.ALLIED if self is Side.AXIS else Side.AXIS

    @property
    def display(self) -> str:
        return "Axis" if self is Side.AXIS else "Allied"


SIDES = {s.value: s for s in Side}
SIDE_GROUP = {side: i for i, side in enumerate(Side)}  # a side's group of unit rows (engine/state.py Units.group)


_ORDER = tuple(Side)
_PLACE = {side: i for i, side in enumerate(_ORDER)}


class SideTrail(Sequence[Side]):
    """The side of each action of a history, one byte each: a copy of a game for search copies it as bytes (a list of
    hundreds of sides cost more to copy than the rest of the game's lists)."""

    __slots__ = ("_bytes",)

    def __init__(self, sides: Iterable[Side] = ()) -> None:
        self._bytes = bytearray(_PLACE[s] for s in sides)

    def __len__(self) -> int:
        return len(self._bytes)

    @overload
    def __getitem__(self, k: int) -> Side: ...

    @overload
    def __getitem__(self, k: slice) -> list[Side]: ...

    def __getitem__(self, k: int | slice) -> Side | list[Side]:
        if isinstance(k, slice):
            return [_ORDER[i] for i in self._bytes[k]]
        return _ORDER[self._bytes[k]]

    def __delitem__(self, k: slice) -> None:
        del self._bytes[k]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SideTrail):
            return self._bytes == other._bytes
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # (mutable, like the list it stands for)

    def __repr__(self) -> str:
        return f"SideTrail({list(self)!r})"

    def append(self, side: Side) -> None:
        self._bytes.append(_PLACE[side])

    def copy(self) -> SideTrail:
        other = SideTrail.__new__(SideTrail)
        other._bytes = self._bytes[:]
        return other
