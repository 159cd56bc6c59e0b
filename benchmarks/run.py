"""Benchmarks for tobruk: prints its figures (run with the project's environment).

    python benchmarks/run.py [--games N]

* complete random Gazala games per second on one core, and orders per second;
* fuzzed games per second (random games with every invariant checked after every order);
* listing every legal order in a movement phase, worked out afresh and as the next decision sees it
  (after one move, with the searches of the units it did not disturb kept);
* the time to copy a game (what a search does per node);
* the reach search against networkx's ``single_source_dijkstra`` (with a cutoff) on the Gazala map with
  the same costs, and the supply search against ``multi_source_dijkstra``: a ratio from one run.

Times are CPU seconds of this process (``time.process_time``), so a busy machine slows the figures
less than it would wall-clock ones.  Figures vary with the machine; docs/performance.md records them with
the machine and date.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import time
from collections.abc import Callable
from typing import Any

import networkx as nx

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.fuzz import fuzz_game
from tobruk.hexes import Direction
from tobruk.maps import MovementRates
from tobruk.mechanics.actions import Move
from tobruk.mechanics.reach import MoveContext, reach
from tobruk.mechanics.supply import SupplyContext, edge_tables, trace_all
from tobruk.mechanics.zoc import ZocMap
from tobruk.players import make_player, play_game
from tobruk.scenario import load_scenario


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Best of three runs of ``repeat`` calls, seconds per call."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, (time.process_time() - start) / repeat)
    return best


def random_games(n: int) -> tuple[float, float]:
    scenario = load_scenario("gazala-gallop")
    orders = 0
    start = time.process_time()
    for seed in range(n):
        game = play_game(
            Game(scenario, seed=seed), {Side.AXIS: make_player("random", seed * 2 + 1), Side.ALLIED: make_player("random", seed * 2 + 2)}
        )
        orders += len(game.history)
    elapsed = time.process_time() - start
    return n / elapsed, orders / elapsed


def fuzzed_games(n: int) -> float:
    scenario = load_scenario("gazala-gallop")
    start = time.process_time()
    for seed in range(n):
        result = fuzz_game(scenario, seed)
        if result.failure:
            raise SystemExit(f"fuzzed game {seed} failed: {result.failure}")
    return n / (time.process_time() - start)


def listing_times() -> tuple[float, float, int]:
    """Seconds to list every legal order at the Axis movement phase of turn 2: afresh, and after one move."""
    scenario = load_scenario("gazala-gallop")
    game = Game(scenario, seed=2)
    while game.decision is not None and not (game.turn == 2 and game.phase.key == "axis-movement"):
        game.play(game.legal_orders()[-1] if game.decision.phase != "weather" else "weather 1 2")
    moves = itertools.cycle([o for o in game.legal_orders() if isinstance(o, Move)])

    def fresh() -> None:
        game.forget_caches()
        game.legal_orders()

    def after_a_move() -> None:  # a different move each time, as in a game: only the listing of its position is new
        game.play(next(moves))
        game.legal_orders()
        game.pop()

    count = len(game.legal_orders())
    return timed(fresh, 20), timed(after_a_move, 20), count


def clone_time() -> float:
    scenario = load_scenario("gazala-gallop")
    game = Game(scenario, seed=1)
    while game.turn < 3 and game.decision is not None:
        game.play(game.legal_orders()[-1] if game.decision.phase != "weather" else "weather 1 2")
    return timed(game.copy, 2000)


ARMOUR = MovementRates.of(road=15, major_track=20, minor_track=30)


def search_versus_networkx() -> dict[str, float]:
    m = load_scenario("gazala-gallop").map
    start = m.place("Rotonda Segnali").hex
    budget = 5 * 60
    # the same costs for both: road/track rates, 1 MF off road, +2 MF up an escarpment, towering impassable
    ctx = MoveContext(
        map=m,
        side=Side.AXIS,
        start=start,
        rates=ARMOUR,
        budget=budget,
        bonus=0,
        ascent=120,
        vehicle=False,
        zoc=ZocMap({}, {}),
        enemy_units=frozenset(),
        friendly_units=frozenset(),
        enemy_forts=frozenset(),
    )
    graph = nx.DiGraph()
    idx = m.index
    for h in m.hexes:
        i = idx[h]
        for d in Direction:
            j = m.neighbour_table[i * 6 + d]
            if j < 0 or not m.land_table[j]:
                continue
            kind = m.route_table[i * 6 + d]
            if m.towering_table[i * 6 + d] and kind < 0:
                continue
            cost = ARMOUR.along(None if kind < 0 else m.route_kinds[kind])
            if kind < 0 and m.climb_table[i * 6 + d]:
                cost += 120
            graph.add_edge(h, m.hexes[j], weight=cost)
    ours = timed(lambda: reach(ctx), 200)
    theirs = timed(lambda: nx.single_source_dijkstra_path_length(graph, start, cutoff=budget), 200)
    same = set(reach(ctx)) == set(nx.single_source_dijkstra_path_length(graph, start, cutoff=budget)) - {start}
    # supply: the road net from the Axis sources, then 7 MF cross-country
    sources = frozenset(m.supply_sources[Side.AXIS])
    sctx = SupplyContext(m, sources, *edge_tables(m, lambda a, b: False, lambda a, b: 0))
    net = m.road_net(sources)
    land = nx.Graph()
    for h in m.hexes:
        for n in m.neighbours(h):
            if m.is_land(h) and m.is_land(n):
                land.add_edge(h, n, weight=60)
    ours_s = timed(lambda: trace_all(sctx, 7 * 60), 100)
    theirs_s = timed(lambda: nx.multi_source_dijkstra_path_length(land, net, cutoff=7 * 60), 100)
    same_s = set(trace_all(sctx, 7 * 60)) == set(nx.multi_source_dijkstra_path_length(land, net, cutoff=7 * 60))
    return {
        "reach_ms": ours * 1e3,
        "nx_reach_ms": theirs * 1e3,
        "reach_ratio": ours / theirs,
        "reach_same": same,
        "supply_ms": ours_s * 1e3,
        "nx_supply_ms": theirs_s * 1e3,
        "supply_ratio": ours_s / theirs_s,
        "supply_same": same_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    games, orders = random_games(args.games)
    print(f"random Gazala games: {games:.2f} games/s, {orders:.0f} orders/s (one core, {args.games} games)")
    print(f"fuzzed Gazala games (every invariant checked): {fuzzed_games(max(1, args.games // 2)):.2f} games/s")
    fresh, warm, count = listing_times()
    print(
        f"listing {count} legal orders (Axis movement, turn 2): {fresh * 1e3:.1f} ms afresh, "
        f"{warm * 1e3:.1f} ms for a move and the next listing"
    )
    print(f"game copy: {clone_time() * 1e6:.1f} us")
    r = search_versus_networkx()
    print(
        f"reach search (armour, 5 MF, from Rotonda Segnali): {r['reach_ms']:.3f} ms; networkx "
        f"single_source_dijkstra: {r['nx_reach_ms']:.3f} ms; ratio {r['reach_ratio']:.2f} "
        f"(same hexes: {r['reach_same']})"
    )
    print(
        f"supply search (Axis, 7 MF): {r['supply_ms']:.3f} ms; networkx multi_source_dijkstra: "
        f"{r['nx_supply_ms']:.3f} ms; ratio {r['supply_ratio']:.2f} (same hexes: {r['supply_same']})"
    )


if __name__ == "__main__":
    main()
