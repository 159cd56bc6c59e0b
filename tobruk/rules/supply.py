"""Supply lines: one search from the sources along the road and track net, then cross-country.

A supply line runs from a road or track connected to a friendly source to the unit.  The search
starts at every usable source; along road and track it goes without counting distance; off the
net each hex costs 1 MF; a hex in a ZOC the rules let it cross costs 1 MF more.  The system
decides which hexes block a line and which add the extra MF (:class:`SupplyContext`).  Costs are
in sixtieths of an MF, as in movement.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tobruk.hexes import Hex, Hexside
from tobruk.maps import Map

MF = 60


@dataclass(frozen=True)
class SupplyContext:
    """What a supply line may cross: ``blocked(here, there)`` forbids a step, ``extra(here, there)`` adds MF."""

    map: Map
    sources: frozenset[Hex]
    blocked: Callable[[Hex, Hex], bool]
    extra: Callable[[Hex, Hex], int]


@dataclass(frozen=True, slots=True)
class SupplyTrace:
    """The cheapest line to a hex: its cost off the net (plus extras) and its route from the source."""

    hex: Hex
    cost: int
    route: tuple[Hex, ...]


def trace_all(ctx: SupplyContext, limit: int) -> dict[Hex, SupplyTrace]:
    """Every hex a supply line of at most ``limit`` sixtieths reaches, with its cheapest route.

    State: (hex, still on the net).  On the net a step along a road or track costs only its
    extra; any other step costs 1 MF plus its extra and leaves the net for good.
    """
    m = ctx.map
    State = tuple[Hex, bool]
    best: dict[State, int] = {}
    routes: dict[State, tuple[Hex, ...]] = {}
    queue: list[tuple[int, int, State]] = []
    counter = 0
    for s in sorted(ctx.sources):
        if s in m and m.is_land(s):
            best[(s, True)] = 0
            routes[(s, True)] = (s,)
            queue.append((0, counter, (s, True)))
            counter += 1
    heapq.heapify(queue)
    found: dict[Hex, SupplyTrace] = {}
    while queue:
        cost, _, key = heapq.heappop(queue)
        if best.get(key) != cost:
            continue
        here, on_net = key
        if here not in found or cost < found[here].cost:
            found[here] = SupplyTrace(here, cost, routes[key])
        for there in here.neighbours():
            if there not in m or not m.is_land(there) or ctx.blocked(here, there):
                continue
            along = on_net and Hexside.between(here, there) in m.routes
            step = ctx.extra(here, there) + (0 if along else MF)
            new = cost + step
            if new > limit:
                continue
            nkey = (there, along)
            if new < best.get(nkey, 1 << 30):
                best[nkey] = new
                routes[nkey] = (*routes[key], there)
                counter += 1
                heapq.heappush(queue, (new, counter, nkey))
    return found


def within(found: dict[Hex, SupplyTrace], hexes: Iterable[Hex]) -> set[Hex]:
    return {h for h in hexes if h in found}
