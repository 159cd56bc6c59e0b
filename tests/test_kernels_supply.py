"""The compiled supply trace against networkx, and its refusals of bad input.

The oracle is networkx's ``multi_source_dijkstra`` over the explicit state graph the supply rules describe:
a state is (hex, still on the road and track net); from every usable source (on the net), a step along a road
or track while on the net costs only its extra, any other step 1 MF plus its extra and leaves the net for
good; blocked steps and sea hexes are left out. The trace must reach the same hexes at the same least cost,
and each route must be a chain of legal steps from a source that costs what the trace says.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from array import array

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.kernel_maps import random_board
from tobruk.hexes import Hex, Hexside
from tobruk.maps import Map
from tobruk.mechanics import _kernels
from tobruk.mechanics.searches import grid
from tobruk.mechanics.supply import MF, SupplyContext, SupplyResult, edge_tables, trace_result


def random_context(rng: random.Random) -> tuple[SupplyContext, int]:
    m = random_board(rng)
    blocked = {(a, b) for a in m.hexes for b in a.neighbours() if rng.random() < 0.15}
    extra = {(a, b): rng.choice((0, 0, 0, MF, 2 * MF, 7)) for a in m.hexes for b in a.neighbours()}
    tables = edge_tables(m, lambda a, b: (a, b) in blocked, lambda a, b: extra[(a, b)])
    sources = frozenset(rng.sample(m.hexes, rng.randint(0, min(3, len(m.hexes)))))
    return SupplyContext(m, sources, *tables), rng.randint(0, 6 * MF)


def oracle(ctx: SupplyContext, limit: int) -> dict[Hex, int]:
    m = ctx.map
    g = nx.DiGraph()
    starts = [(s, True) for s in ctx.sources if m.is_land(s)]
    g.add_nodes_from(starts)
    for i, here in enumerate(m.hexes):
        for d, there in enumerate(here.neighbours()):
            e = i * 6 + d
            if not m.is_land(there) or ctx.blocked[e]:
                continue
            for on_net in (True, False):
                along = on_net and Hexside.between(here, there) in m.routes
                g.add_edge((here, on_net), (there, along), weight=ctx.extra[e] + (0 if along else MF))
    if not starts:
        return {}
    dist = nx.multi_source_dijkstra_path_length(g, starts, cutoff=limit)
    best: dict[Hex, int] = {}
    for (h, _), cost in dist.items():
        best[h] = min(cost, best.get(h, cost))
    return best


def route_cost(m: Map, ctx: SupplyContext, route: tuple[Hex, ...]) -> int:
    """The cost of following the route from its source, or a failed assertion at its first illegal step."""
    assert route[0] in ctx.sources
    cost, on_net = 0, True
    for a, b in itertools.pairwise(route):
        e = m.index[a] * 6 + a.direction_to(b)
        assert m.is_land(b) and not ctx.blocked[e]
        on_net = on_net and Hexside.between(a, b) in m.routes
        cost += ctx.extra[e] + (0 if on_net else MF)
    return cost


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_the_trace_agrees_with_networkx(seed: int) -> None:
    ctx, limit = random_context(random.Random(seed))
    found = trace_result(ctx, limit)
    expected = oracle(ctx, limit)
    assert set(found) == set(expected)
    for j, i in enumerate(found.ends):
        h = ctx.map.hexes[i]
        assert found.cost_of(j) == expected[h] == found[h].cost
        assert found[h].route == found.path(j) and found[h].route[-1] == h
        assert route_cost(ctx.map, ctx, found[h].route) == expected[h]


def test_the_result_is_a_read_only_mapping_built_on_demand() -> None:
    found = next(f for seed in range(100) if len(f := trace_result(*random_context(random.Random(seed)))) > 1)
    assert len(found) == len(found.ends)
    assert not dict.__len__(found)  # nothing built yet
    first = next(iter(found))
    assert found[first] == found.get(first) and first in found
    assert not dict.__len__(found)  # still nothing built for the dictionary
    assert list(found.keys()) == list(found) and list(reversed(found)) == list(found)[::-1]
    assert not dict.__len__(found)  # the keys alone build no entry
    plain = {h: found[h] for h in found}
    assert dict(found) == plain == found and {**found} == plain and (found | {}) == plain == ({} | found)
    assert list(found.items()) == list(plain.items()) and list(found.values()) == list(plain.values())
    assert found.get(Hex(-99, -99)) is None and Hex(-99, -99) not in found and "A1" not in found
    with pytest.raises(KeyError):
        found[Hex(-99, -99)]
    for change in (lambda: found.__setitem__(first, found[first]), lambda: found.pop(first), found.clear, lambda: found.update({})):
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert len(found) == len(found.ends)
    for copied in (copy.copy(found), copy.deepcopy(found), pickle.loads(pickle.dumps(found)), found.copy()):
        assert type(copied) is dict and copied == plain
    assert isinstance(found, SupplyResult) and isinstance(found, dict)


def board_arrays(m: Map) -> tuple[bytes, bytes]:
    return bytes(6 * len(m.hexes)), array("i", [0] * (6 * len(m.hexes))).tobytes()


def test_bad_input_raises_value_error() -> None:
    m = random_board(random.Random(3))
    g = grid(m)
    blocked, extra = board_arrays(m)
    n = len(m.hexes)
    sources = array("i", [0]).tobytes()
    with pytest.raises(ValueError, match="blocked"):
        _kernels.supply(g, blocked[:-1], extra, sources, 60)
    with pytest.raises(ValueError, match="extra"):
        _kernels.supply(g, blocked, extra + b"\0\0\0\0", sources, 60)
    with pytest.raises(ValueError, match="source"):
        _kernels.supply(g, blocked, extra, array("i", [n]).tobytes(), 60)
    with pytest.raises(ValueError, match="source"):
        _kernels.supply(g, blocked, extra, array("i", [-1]).tobytes(), 60)
    with pytest.raises(ValueError, match="extra"):
        _kernels.supply(g, blocked, array("i", [-1] * (6 * n)).tobytes(), sources, 60)
    with pytest.raises(ValueError, match="limit"):
        _kernels.supply(g, blocked, extra, sources, -1)
    with pytest.raises(ValueError, match="nb"):
        _kernels.Grid(array("i", [0] * 5).tobytes(), bytes(6), bytes(1), 3)
    with pytest.raises(ValueError, match="not a hex index"):
        _kernels.Grid(array("i", [1] * 6).tobytes(), bytes(6), bytes(1), 3)
    with pytest.raises(ValueError, match="not a route kind"):
        _kernels.Grid(array("i", [-1] * 6).tobytes(), bytes([3] * 6), bytes(1), 3)
    # after the refusals the kernel still answers: the source first, if it is land
    assert _kernels.supply(g, blocked, extra, sources, 0)[0][:4] == (array("i", [0]).tobytes() if m.land_table[0] else b"")
