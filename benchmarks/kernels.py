"""The compiled search kernels against networkx, map by map, and how their cost grows with the map.

    python benchmarks/kernels.py

Functions for the main benchmark to import, each returning the figures for one map:

* :func:`reach_versus_networkx`: the movement reach search (armour, 5 MF, no enemy) from a hex in the middle of
  the map against networkx's ``single_source_dijkstra_path_length`` on the same costs (cutoff 5 MF);
* :func:`supply_versus_networkx`: the supply trace from one side's sources (7 MF off the road and track net)
  against ``multi_source_dijkstra_path_length`` from the net (cutoff 7 MF);
* :func:`growth`: both searches over the whole of square boards of growing size (a road along the middle row),
  the time per hex they visit.

Times are the best of three runs of many calls (``time.perf_counter``); the ratios against networkx are the
portable figures.  Both sides of each comparison must reach the same hexes (checked).
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from typing import Any

import networkx as nx

from tobruk.board.hexes import Direction, Hex
from tobruk.board.maps import Map, MovementRates, RouteLine, build_map
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.reach import MoveContext, reach_result, side_tables
from tobruk.mechanics.supply import SupplyContext, edge_tables, trace_result
from tobruk.mechanics.zoc import ZocMap

MAPS = {"Gazala": "gazala-gallop", "1st Alamein": "first-alamein", "North Africa (campaign)": "na-gazala"}
ARMOUR = MovementRates.of(road=15, major_track=20, minor_track=30, track=20)
BUDGET = 5 * 60
LINE = 7 * 60


def per_call(fn: Callable[[], Any], budget_s: float = 0.3) -> float:
    """Seconds per call: the best of three runs of as many calls as fit in about ``budget_s``."""
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    repeat = max(3, int(budget_s / 3 / once))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def middle(m: Map) -> Hex:
    """The land hex nearest the middle of the board (ties in reading order)."""
    land = [h for h in m.hexes if m.is_land(h)]
    r = sum(h.row for h in m.hexes) / len(m.hexes)
    c = sum(h.col for h in m.hexes) / len(m.hexes)
    return min(land, key=lambda h: ((h.row - r) ** 2 + (h.col - c) ** 2, h))


def move_context(m: Map, start: Hex) -> MoveContext:
    return MoveContext(
        map=m,
        side=Side.AXIS,
        start=start,
        rates=ARMOUR,
        budget=BUDGET,
        bonus=0,
        ascent=120,
        vehicle=False,
        zoc=ZocMap({}, {}),
        enemy_units=frozenset(),
        friendly_units=frozenset(),
        enemy_forts=frozenset(),
    )


def movement_graph(m: Map) -> nx.DiGraph:
    """The same costs as a plain weighted graph: route rate or 1 MF, +2 MF up an escarpment off the road,
    towering escarpments only along a road or track."""
    graph = nx.DiGraph()
    for i, h in enumerate(m.hexes):
        for d in Direction:
            e = i * 6 + d
            j = m.neighbour_table[e]
            if j < 0 or not m.land_table[j]:
                continue
            kind = m.route_table[e]
            if m.towering_table[e] and kind < 0:
                continue
            cost = ARMOUR.along(None if kind < 0 else m.route_kinds[kind])
            if kind < 0 and m.climb_table[e]:
                cost += 120
            graph.add_edge(h, m.hexes[j], weight=cost)
    return graph


def reach_versus_networkx(m: Map, start: Hex | None = None) -> dict[str, Any]:
    """Reach search vs networkx Dijkstra on one map (and the cost of the side tables, built once a position)."""
    start = middle(m) if start is None else start
    ctx = move_context(m, start)
    graph = movement_graph(m)
    ours = per_call(lambda: reach_result(ctx))
    every = per_call(lambda: dict(reach_result(ctx)))  # with every Reach and its path built
    theirs = per_call(lambda: nx.single_source_dijkstra_path_length(graph, start, cutoff=BUDGET))
    tables = per_call(lambda: side_tables(m, Side.AXIS, ctx.zoc, ctx.enemy_units, ctx.friendly_units, ctx.enemy_forts))
    found = reach_result(ctx)
    same = set(found) == set(nx.single_source_dijkstra_path_length(graph, start, cutoff=BUDGET)) - {start}
    return {
        "hexes": len(m.hexes),
        "reached": len(found),
        "reach_us": ours * 1e6,
        "reach_dict_us": every * 1e6,
        "nx_reach_us": theirs * 1e6,
        "reach_speedup": theirs / ours,
        "side_tables_us": tables * 1e6,
        "reach_same": same,
    }


def supply_versus_networkx(m: Map, side: Side = Side.AXIS) -> dict[str, Any]:
    """Supply trace vs networkx multi-source Dijkstra on one map."""
    sources = frozenset(m.supply_sources.get(side, ())) or frozenset({middle(m)})
    ctx = SupplyContext(m, sources, *edge_tables(m, lambda a, b: False, lambda a, b: 0))
    net = m.road_net(sources)
    land = nx.Graph()
    for h in m.hexes:
        for n in m.neighbours(h):
            if m.is_land(h) and m.is_land(n):
                land.add_edge(h, n, weight=60)
    ours = per_call(lambda: trace_result(ctx, LINE))
    theirs = per_call(lambda: nx.multi_source_dijkstra_path_length(land, net, cutoff=LINE))
    found = trace_result(ctx, LINE)
    return {
        "hexes": len(m.hexes),
        "reached": len(found),
        "supply_us": ours * 1e6,
        "nx_supply_us": theirs * 1e6,
        "supply_speedup": theirs / ours,
        "supply_same": set(found) == set(nx.multi_source_dijkstra_path_length(land, net, cutoff=LINE)),
    }


def square_board(size: int) -> Map:
    """``size`` x ``size`` clear hexes with a road along the middle row."""
    terrain = {Hex.from_offset(r, c): "clear" for r in range(size) for c in range(size)}
    road = RouteLine("road", "road", tuple(Hex.from_offset(size // 2, c) for c in range(size)))
    return build_map(f"square {size}", terrain, routes=[road])


def growth(sizes: tuple[int, ...] = (10, 20, 40, 80)) -> list[dict[str, Any]]:
    """Both searches over the whole of square boards of growing size: time per call and per hex reached."""
    rows = []
    for size in sizes:
        m = square_board(size)
        start = Hex.from_offset(size // 2, 0)
        ctx = MoveContext(**{**move_context(m, start).__dict__, "budget": 4 * size * 60})
        sctx = SupplyContext(m, frozenset({start}), *edge_tables(m, lambda a, b: False, lambda a, b: 0))
        limit = 4 * size * 60
        r = per_call(lambda ctx=ctx: reach_result(ctx))
        s = per_call(lambda sctx=sctx, limit=limit: trace_result(sctx, limit))
        rows.append(
            {
                "hexes": len(m.hexes),
                "reach_us": r * 1e6,
                "reach_ns_per_hex": r * 1e9 / len(reach_result(ctx)),
                "supply_us": s * 1e6,
                "supply_ns_per_hex": s * 1e9 / len(trace_result(sctx, 4 * size * 60)),
            }
        )
    return rows


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    head = ("map", "hexes", "reach (reached)", "networkx", "speed-up", "every path built", "side tables")
    print("| " + " | ".join((*head, "supply (reached)", "networkx", "speed-up")) + " |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, scenario in MAPS.items():
        m = load_scenario(scenario).map
        start = m.place("Rotonda Segnali").hex if scenario == "gazala-gallop" else None
        r = reach_versus_networkx(m, start)
        s = supply_versus_networkx(m)
        assert r["reach_same"] and s["supply_same"], f"{name}: the searches and networkx disagree"
        print(
            f"| {name} | {r['hexes']} | {r['reach_us']:.1f} µs ({r['reached']}) | {r['nx_reach_us']:.0f} µs | {r['reach_speedup']:.0f}× "
            f"| {r['reach_dict_us']:.0f} µs | {r['side_tables_us']:.0f} µs | {s['supply_us']:.1f} µs ({s['reached']}) "
            f"| {s['nx_supply_us']:.0f} µs | {s['supply_speedup']:.0f}× |"
        )
    print()
    print("| square board, hexes | reach, whole board | per hex | supply, whole board | per hex |")
    print("|---|---|---|---|---|")
    for g in growth():
        print(
            f"| {g['hexes']} | {g['reach_us']:.0f} µs | {g['reach_ns_per_hex']:.0f} ns "
            f"| {g['supply_us']:.0f} µs | {g['supply_ns_per_hex']:.0f} ns |"
        )


if __name__ == "__main__":
    main()
