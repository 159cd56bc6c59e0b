"""A unit's moves as Operation Compass lists them: one per destination, along the cheapest path, made only when read.

A movement listing holds every WDF unit's moves (some 130 destinations each) at every decision while a player or a
search picks one: :class:`UnitMoves` gives their ids from the unit and the destinations alone (the ids of one
unit's moves differ only in the destination's coordinate) and builds a :class:`~tobruk.mechanics.actions.Move`
with its path only when it is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tobruk.board.hexes import Hex
from tobruk.engine.actions import ActionBlock, ActionSpace
from tobruk.mechanics.actions import Move
from tobruk.mechanics.paths import Paths


class UnitMoves(ActionBlock[Move]):
    """The moves of ``unit`` to ``ends`` (in listing order), each along the path ``paths`` found to it."""

    kind = Move
    __slots__ = ("_place", "ends", "made", "paths", "unit")

    def __init__(self, unit: str, paths: Paths, ends: Sequence[Hex]) -> None:
        self.unit, self.paths, self.ends = unit, paths, tuple(ends)
        self.made = [None] * len(self.ends)
        self._place: dict[Hex, int] | None = None

    def make(self, i: int) -> Move:
        return Move(self.unit, self.paths.path_to(self.ends[i]))

    def __contains__(self, order: object) -> bool:
        """Whether ``order`` is one of these moves as listed (its unit, a listed destination, the listed path), making
        that one move only: a listed move is legal as it stands."""
        if not isinstance(order, Move) or order.unit != self.unit or order.trucks or not order.path:
            return False
        if self._place is None:
            self._place = {h: i for i, h in enumerate(self.ends)}
        i = self._place.get(order.path[-1])
        return i is not None and self[i] == order

    def keys(self) -> list[tuple[Any, ...]]:
        return [(self.unit, h, False) for h in self.ends]

    def ids(self, space: ActionSpace) -> tuple[int, ...]:
        """The first move's id, and the others' from the destinations' places in the space's numbering."""
        if not self.ends:
            return ()
        first, index = space.id_of_key(Move, self.keys()[0]), space.hexes
        stride, h0 = space.stride(Move, 1), index[self.ends[0]]
        return tuple([first + (index[h] - h0) * stride for h in self.ends])
