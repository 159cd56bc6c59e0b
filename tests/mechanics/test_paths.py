"""The cheapest-path search over a table of step costs (tobruk.mechanics.paths), held to networkx's Dijkstra on the
same graph, and to a strip worked by hand."""

from __future__ import annotations

import itertools
import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.mechanics.kernel_maps import random_board
from tobruk.board.hexes import Hex
from tobruk.board.maps import build_map
from tobruk.mechanics.paths import BLOCKED, cheapest

H = Hex.parse


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_the_costs_and_paths_agree_with_networkx(seed: int) -> None:
    rng = random.Random(seed)
    m = random_board(rng)
    steps = [BLOCKED if rng.random() < 0.2 else rng.randint(0, 9) for _ in range(len(m.hexes) * 6)]
    starts = [(h, rng.randint(0, 3)) for h in rng.sample(m.hexes, rng.randint(1, min(3, len(m.hexes))))]
    limit = rng.choice([None, rng.randint(0, 20)])
    graph = nx.DiGraph()
    graph.add_node("start")
    for i in range(len(m.hexes)):
        graph.add_node(i)
        for d in range(6):
            j = m.neighbour_table[i * 6 + d]
            if j >= 0 and steps[i * 6 + d] >= 0:
                graph.add_edge(i, j, weight=steps[i * 6 + d])
    for h, spent in starts:
        i = m.index[h]
        if not graph.has_edge("start", i) or graph["start"][i]["weight"] > spent:
            graph.add_edge("start", i, weight=spent)
    want = {i: c for i, c in nx.single_source_dijkstra_path_length(graph, "start").items() if i != "start"}
    if limit is not None:
        want = {i: c for i, c in want.items() if c <= limit}
    got = cheapest(m, starts, steps, limit)
    assert dict(got.cost) == want
    for i, c in want.items():
        path = got.path_to(m.hexes[i])
        assert path[-1] == m.hexes[i] and any(path[0] == h and s + sum_of(m, steps, path) == c for h, s in starts)


def sum_of(m, steps, path) -> int:  # type: ignore[no-untyped-def]
    """What a path costs by the table (every step taken as it is listed)."""
    total = 0
    for a, b in itertools.pairwise(path):
        i = m.index[a]
        d = next(d for d in range(6) if m.neighbour_table[i * 6 + d] == m.index[b])
        assert steps[i * 6 + d] >= 0
        total += steps[i * 6 + d]
    return total


def test_a_strip_worked_by_hand() -> None:
    # A1-A2-A3-A4 in a row, each step east costing 2, 3, 1 and west nothing; a start in A1 with 1 spent
    m = build_map("strip", {H(f"A{c}"): "clear" for c in range(1, 5)})
    steps = [BLOCKED] * (len(m.hexes) * 6)
    east = {("A1", "A2"): 2, ("A2", "A3"): 3, ("A3", "A4"): 1}
    for (a, b), cost in east.items():
        i, j = m.index[H(a)], m.index[H(b)]
        d = next(d for d in range(6) if m.neighbour_table[i * 6 + d] == j)
        steps[i * 6 + d] = cost
    found = cheapest(m, [(H("A1"), 1)], steps)
    assert [found.cost_to(H(f"A{c}")) for c in range(1, 5)] == [1, 3, 6, 7]
    assert found.path_to(H("A4")) == (H("A1"), H("A2"), H("A3"), H("A4"))
    limited = cheapest(m, [(H("A1"), 1)], steps, limit=6)
    assert H("A3") in limited and H("A4") not in limited and limited.path_to(H("A4")) == ()
    assert limited.reached() == [H("A1"), H("A2"), H("A3")]
