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


class SideTrail(Sequence[Side]):
    """The side of each action of a history, read from bytes (a side's place in :data:`SIDE_GROUP` each): the game
    keeps them as bytes, so that a copy of a game for search copies bytes, and shows them through this view."""

    __slots__ = ("_places",)

    def __init__(self, places: bytes | bytearray) -> None:
        self._places = places

    @classmethod
    def of(cls, sides: Iterable[Side]) -> SideTrail:
        return cls(bytes(SIDE_GROUP[s] for s in sides))

    def __len__(self) -> int:
        return len(self._places)

    @overload
    def __getitem__(self, k: int) -> Side: ...

    @overload
    def __getitem__(self, k: slice) -> list[Side]: ...

    def __getitem__(self, k: int | slice) -> Side | list[Side]:
        if isinstance(k, slice):
            return [_ORDER[i] for i in self._places[k]]
        return _ORDER[self._places[k]]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SideTrail):
            return self._places == other._places
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # (a view of changing bytes)

    def __repr__(self) -> str:
        return f"SideTrail({list(self)!r})"
