"""A unit's moves as a listing offers them: one per destination, in reading order, made only when read.

A movement phase's listing holds hundreds of moves at every decision while a player (or a search) picks one: a
:class:`MoveBlock` gives their ids from the unit, destinations and means alone, their notation from the search's
paths and the hexes' labels, and a :class:`~tobruk.mechanics.actions.Move` with its route only when it is read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.actions import ActionBlock, ActionSpace
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import family_defs
from tobruk.mechanics.reach import Reach, ReachResult

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def reading_rank(m: Map) -> tuple[int, ...]:
    """Each hex index's place in reading order (by row, then along the row): the order listings give
    destinations in, as a sort key over hex indices."""
    cached: tuple[int, ...] | None = m.__dict__.get("_reading_rank")
    if cached is None:
        order = sorted(range(len(m.hexes)), key=lambda i: (m.hexes[i].r, m.hexes[i].q))
        rank = [0] * len(order)
        for place, i in enumerate(order):
            rank[i] = place
        cached = m.__dict__["_reading_rank"] = tuple(rank)
    return cached


def listed_route(game: Game, order: Move, side: Side, listed: Mapping[int, Sequence[Sequence[Any]]]) -> Reach | None:
    """The route of ``order`` if it is one of the side's listed moves (``listed``: each unit's blocks of moves by its
    row, :class:`MoveBlock` s), else ``None``: a listed move is legal as listed, with nothing to check again."""
    row = game.row_of(order.unit)
    if row is None or family_defs(game)[order.unit].side is not side:
        return None
    for block in listed[row]:
        route = block.route(order) if isinstance(block, MoveBlock) else None
        if route is not None:
            return route
    return None


_LABELS: dict[int, tuple[tuple[Hex, ...], tuple[str, ...]]] = {}


def _labels(hexes: tuple[Hex, ...]) -> tuple[str, ...]:
    """The labels of a board's hexes, by index (kept per board, with the board's tuple so its id stays its own)."""
    found = _LABELS.get(id(hexes))
    if found is None or found[0] is not hexes:
        found = _LABELS[id(hexes)] = (hexes, tuple(h.label for h in hexes))
    return found[1]


class MoveBlock(ActionBlock[Move]):
    """A unit's move actions, one per destination (the route the search found to each), made on demand.

    Listing a movement phase asks for every unit's moves at every decision; the ids come from the unit, the
    destinations and ``trucks`` alone, and a :class:`Move` with its route is built only when someone reads it (the
    move a player picks; every move when a person or a view wants the list), the same object on every read.
    """

    kind = Move
    __slots__ = ("_listed", "_result", "_trucks", "_unit", "ends", "made")

    def __init__(self, unit: str, result: ReachResult, ends: Sequence[int], trucks: bool = False) -> None:
        """``ends``: which of the search's ends are destinations (``j`` into ``result.ends``), in listing order."""
        self._unit, self._result, self._trucks = unit, result, trucks
        self.ends = tuple(ends)
        self.made = [None] * len(self.ends)
        self._listed: dict[int, int] | None = None  # end j -> its place in ``ends``

    @property
    def trucks(self) -> bool:
        return self._trucks

    def route(self, order: Move) -> Reach | None:
        """The route of ``order`` if it is one of this block's moves (its unit and means, a listed destination and
        the route listed to it, or the destination alone), else ``None``: a listed move needs no check again."""
        if order.unit != self._unit or order.trucks != self._trucks:
            return None
        result = self._result
        j = result.position(order.path[-1])
        if j is None:
            return None
        listed = self._listed
        if listed is None:
            listed = self._listed = {end: i for i, end in enumerate(self.ends)}
        i = listed.get(j)
        if i is None:
            return None
        if self.made[i] is order:  # the very move this block made (a move played from the listing): its route
            return result.entry(j, order.path)
        if len(order.path) > 1 and result.path(j) != order.path:
            return None
        return result.entry(j)

    def make(self, i: int) -> Move:
        return Move(self._unit, self._result.path(self.ends[i]), self._trucks)

    def __iter__(self) -> Iterator[Move]:
        """Every move (all made at once: whoever iterates wants them all)."""
        made = self.made
        if None in made:
            unit, trucks, path, ends = self._unit, self._trucks, self._result.path, self.ends
            for i, m in enumerate(made):
                if m is None:
                    made[i] = Move(unit, path(ends[i]), trucks)
        return iter(cast(list[Move], made))  # (all made now)

    def keys(self) -> list[tuple[Any, ...]]:
        unit, trucks, hex_of = self._unit, self._trucks, self._result.hex_of
        return [(unit, hex_of(j), trucks) for j in self.ends]

    def texts(self) -> tuple[str, ...]:
        """The moves' notation (as :meth:`Move.notation` writes it), from the search's paths and the hexes' labels,
        without making the moves (a view lists every move of every unit in notation)."""
        result = self._result
        offsets, paths = result.path_lists()
        labels = _labels(result.hexes)
        head, tail = f"move {self._unit} ", " by-trucks" if self._trucks else ""
        return tuple([f"{head}{'-'.join([labels[i] for i in paths[offsets[j] : offsets[j + 1]]])}{tail}" for j in self.ends])

    def ids(self, space: ActionSpace) -> tuple[int, ...]:
        """The moves' ids, which differ only in the destination's coordinate: the first one's id and the others'
        distances in hexes from it (the searches number hexes as the action space does: the map's order)."""
        if not self.ends:
            return ()
        result, ends = self._result, self._result.ends
        j0 = self.ends[0]
        first, e0 = space.id_of_key(Move, (self._unit, result.hex_of(j0), self._trucks)), ends[j0]
        if space.hexes[result.hex_of(j0)] != e0:
            raise ValueError("the search's hexes are not numbered as the action space's")
        stride = space.stride(Move, 1)
        return tuple([first + (ends[j] - e0) * stride for j in self.ends])
