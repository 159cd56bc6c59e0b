"""Cheapest paths over a map whose every step has its own cost: a plain Dijkstra on a table of step costs.

A rule that prices each step by what it enters and crosses (a terrain cost per hex, extras per hexside, a road's
rate along it) gives the search a table of integers, one per hex index and direction (``i * 6 + d``): the cost of
the step from hex ``i`` in direction ``d``, or :data:`BLOCKED`.  The search runs from one or more starts (each with
the cost already spent) up to a limit and answers, for every hex it reaches, the least cost and the path that gives
it.  Ties are broken by hex index, so the same table always gives the same paths.

The family's movement and supply searches are compiled and know the family's rules (zones of control, free road
hexes); this one knows none: it serves the systems whose costs are a table, on maps of a few hundred hexes.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map

BLOCKED = -1  # a step cost meaning the step may not be taken


@dataclass(frozen=True, slots=True)
class Paths:
    """What :func:`cheapest` found: the least cost to each hex reached (by hex index) and the hex each came from
    (``-1`` for a start)."""

    map: Map
    cost: Mapping[int, int]
    came_from: Mapping[int, int]

    def __contains__(self, h: object) -> bool:
        return isinstance(h, Hex) and self.map.index.get(h, -1) in self.cost

    def cost_to(self, h: Hex) -> int | None:
        """The least cost to ``h``, or ``None`` if it was not reached."""
        return self.cost.get(self.map.index.get(h, -1))

    def path_to(self, h: Hex) -> tuple[Hex, ...]:
        """The cheapest path from a start to ``h`` (both included); empty if ``h`` was not reached."""
        i = self.map.index.get(h, -1)
        if i not in self.cost:
            return ()
        out = []
        while i >= 0:
            out.append(self.map.hexes[i])
            i = self.came_from[i]
        return tuple(reversed(out))

    def reached(self) -> list[Hex]:
        """Every hex reached, in hex index order."""
        return [self.map.hexes[i] for i in sorted(self.cost)]


def cheapest(m: Map, starts: Iterable[tuple[Hex, int]], steps: Sequence[int], limit: int | None = None) -> Paths:
    """The cheapest paths from ``starts`` (hex, cost already spent) over the step costs ``steps`` (one per ``i * 6 +
    d``, :data:`BLOCKED` where the step may not be taken), no further than ``limit`` when one is given."""
    nb = m.neighbour_table
    cost: dict[int, int] = {}
    came_from: dict[int, int] = {}
    queue: list[tuple[int, int, int]] = []
    for h, spent in starts:
        i = m.index[h]
        if limit is not None and spent > limit:
            continue  # (everything found costs at most the limit, the starts too)
        if i not in cost or spent < cost[i]:
            cost[i], came_from[i] = spent, -1
            heapq.heappush(queue, (spent, i, -1))
    done: set[int] = set()
    while queue:
        spent, i, _ = heapq.heappop(queue)
        if i in done or spent > cost[i]:
            continue
        done.add(i)
        base = i * 6
        for d in range(6):
            j = nb[base + d]
            step = steps[base + d]
            if j < 0 or step < 0 or j in done:
                continue
            total = spent + step
            if limit is not None and total > limit:
                continue
            known = cost.get(j)
            if known is None or total < known or (total == known and i < came_from[j]):
                cost[j], came_from[j] = total, i
                heapq.heappush(queue, (total, j, i))
    return Paths(m, cost, came_from)
