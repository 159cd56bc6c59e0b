"""Supply lines: one search from the sources along the road and track net, then cross-country.

A supply line runs from a road or track connected to a friendly source to the unit.  The search
starts at every usable source; along road and track it goes without counting distance; off the
net each hex costs 1 MF; a hex in a ZOC the rules let it cross costs 1 MF more.  The system
decides which steps are blocked and which add the extra MF, as tables over the map's hexsides
(:class:`SupplyContext`), so the search itself runs on integers.  Costs are in sixtieths of an MF.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.caching import Cache, variable
from tobruk.engine.sides import Side
from tobruk.mechanics import _kernels
from tobruk.mechanics.searches import SearchResult, grid

if TYPE_CHECKING:
    from tobruk.engine.game import Game

MF = 60


@dataclass(frozen=True)
class SupplyContext:
    """``blocked[i * 6 + d]`` forbids the step from hex index ``i`` in direction ``d``; ``extra`` adds MF."""

    map: Map
    sources: frozenset[Hex]
    blocked: Sequence[int]  # (bools, or a byte a step)
    extra: Sequence[int]
    kernel: tuple[bytes, bytes] | None = field(default=None, compare=False, repr=False)  # step_tables, when made so

    @classmethod
    def of_steps(cls, m: Map, sources: frozenset[Hex], steps: tuple[bytes, bytes]) -> SupplyContext:
        """A context from step tables as the compiled search reads them (:func:`entry_steps`)."""
        blocked, extra = steps
        return cls(m, sources, blocked, memoryview(extra).cast("i"), steps)

    @cached_property
    def step_tables(self) -> tuple[bytes, bytes]:
        """``blocked`` (a byte a step) and ``extra`` (int32 a step) as the compiled search reads them."""
        if self.kernel is not None:
            return self.kernel
        return bytes(self.blocked), array("i", self.extra).tobytes()


def entry_steps(m: Map, state: bytes | bytearray, not_across: bytes = b"", cost: int = MF) -> tuple[bytes, bytes]:
    """The step tables of rules about the hex a line enters, given as a byte per hex (``state``: 0 open, 1 costly --
    ``cost`` more, and closed across a hexside marked in ``not_across``, a byte per hexside -- 2 closed), as the
    compiled search reads them (see :meth:`SupplyContext.of_steps`): what :func:`entry_tables` makes from sets of
    hexes, made by the compiled kernel (a supply determination needs them for each side at every position)."""
    return _kernels.entry_steps(grid(m), state, not_across, cost)


def entry_state(m: Map, open_hexes: Collection[Hex], blocked_hexes: Collection[Hex], costly_hexes: Collection[Hex]) -> bytearray:
    """The per-hex ``state`` of :func:`entry_steps` from sets of hexes, as :func:`entry_tables` reads them: a hex
    in ``open_hexes`` is open, else one in ``blocked_hexes`` closed, else one in ``costly_hexes`` costly."""
    state = bytearray(len(m.hexes))
    index = m.index
    for value, where in ((1, costly_hexes), (2, blocked_hexes), (0, open_hexes)):  # later rules win
        for h in where:
            i = index.get(h)
            if i is not None:
                state[i] = value
    return state


def enemy_mine_bytes(m: Map, side: Side) -> bytes:
    """``m.enemy_mine_table(side)`` as a byte per hexside (the ``not_across`` of :func:`entry_steps`), kept with the map."""
    kept: dict[Side, bytes] = m.__dict__.setdefault("_enemy_mine_bytes", {})
    found = kept.get(side)
    if found is None:
        found = kept[side] = bytes(m.enemy_mine_table(side))
    return found


def edge_tables(m: Map, blocked: Callable[[Hex, Hex], bool], extra: Callable[[Hex, Hex], int]) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Tabulate step rules given as functions of (here, there) (convenient for small or test maps)."""
    b: list[bool] = []
    x: list[int] = []
    for i, h in enumerate(m.hexes):
        for d in range(6):
            j = m.neighbour_table[i * 6 + d]
            if j < 0:
                b.append(True)
                x.append(0)
            else:
                b.append(blocked(h, m.hexes[j]))
                x.append(extra(h, m.hexes[j]))
    return tuple(b), tuple(x)


def entry_tables(
    m: Map,
    open_hexes: Collection[Hex],
    blocked_hexes: Collection[Hex],
    costly_hexes: Collection[Hex],
    cost: int = MF,
    not_across: Sequence[bool] | None = None,
) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Step tables from rules about the hex a line enters, the usual shape of the family's supply rules.

    A hex in ``open_hexes`` (friendly-occupied) is always open at no extra cost; else one in ``blocked_hexes``
    is closed; else one in ``costly_hexes`` (a ZOC the line may cross) costs ``cost`` more, and may not be
    entered across a hexside marked in the edge table ``not_across`` (an enemy minefield).
    """
    open_, blocked_, costly_ = set(open_hexes), set(blocked_hexes), set(costly_hexes)
    state = [0 if h in open_ else 2 if h in blocked_ else 1 if h in costly_ else 0 for h in m.hexes]
    blocked: list[bool] = []
    extra: list[int] = []
    for e, j in enumerate(m.neighbour_table):
        if j < 0:
            blocked.append(True)
            extra.append(0)
            continue
        blocked.append(state[j] == 2 or (state[j] == 1 and not_across is not None and not_across[e]))
        extra.append(cost if state[j] == 1 else 0)
    return tuple(blocked), tuple(extra)


@dataclass(frozen=True, slots=True)
class SupplyTrace:
    """The cheapest line to a hex: its cost off the net (plus extras) and its route from the source."""

    hex: Hex
    cost: int
    route: tuple[Hex, ...]


class SupplyResult(SearchResult[SupplyTrace]):
    """:func:`trace_all`'s answer: every hex a line reaches with its :class:`SupplyTrace`, built from the compiled
    search's arrays when read; ``ends`` are the hexes' indices in the order the search first reached them,
    ``cost_of(j)`` their costs, ``path(j)`` their routes."""

    __slots__ = ()

    def route(self, j: int) -> tuple[Hex, ...]:
        return self.path(j)


def trace_all(ctx: SupplyContext, limit: int) -> dict[Hex, SupplyTrace]:
    """:func:`trace_result`, typed as the dictionary the callers read (it is a read-only :class:`SupplyResult`)."""
    return trace_result(ctx, limit)


def trace_result(ctx: SupplyContext, limit: int) -> SupplyResult:
    """Every hex a supply line of at most ``limit`` sixtieths reaches, with its cheapest route.

    State: (hex, still on the net).  On the net a step along a road or track costs only its
    extra; any other step costs 1 MF plus its extra and leaves the net for good.  Multi-source Dijkstra,
    compiled (``_kernels.supply``); a source off the map or in the sea starts no line.
    """
    m = ctx.map
    index = m.index
    sources = array("i", sorted(i for s in ctx.sources if (i := index.get(s)) is not None))
    answer = _kernels.supply(grid(m), ctx.step_tables[0], ctx.step_tables[1], sources, limit)
    return SupplyResult(m.hexes, answer, _make_trace, m.index)


def _make_trace(h: Hex, cost: int, _: int, route: tuple[Hex, ...]) -> SupplyTrace:
    return SupplyTrace(h, cost, route)


@dataclass
class SupplyMarkers:
    """The part of a system's variables that keeps each side's last supply determination for people (side -> unit ->
    supplied, how, route): shown on the map, read back by no rule."""

    supply: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict, metadata={"key": False})


supply_markers = cast("Callable[[Game], SupplyMarkers]", attrgetter("state.vars"))  # a game's variables, typed


def shown_supply_lines(game: Game, side: Side) -> tuple[tuple[str, bool, str, tuple[str, ...]], ...]:
    """The side's part of the last supply determination, as a system keeps it for people in its ``supply`` variable
    (side -> unit -> supplied, how, route), as (unit, supplied, how, route): read once per determination (the
    variable is immutable: the answer is kept under it); every view makes its own dicts and lists of it."""
    supply = supply_markers(game).supply.get(side.value, {})
    return _SUPPLY_LINES.get(game, side, lambda: tuple((uid, e["supplied"], e["how"], tuple(e["route"])) for uid, e in supply.items()))


_SUPPLY_LINES: Cache[tuple[tuple[str, bool, str, tuple[str, ...]], ...]] = Cache("supply-lines", variable("supply"))
