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
import re
from array import array
from collections.abc import Callable
from typing import Literal

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.mechanics.kernel_maps import random_board
from tobruk.board.hexes import Hex, Hexside
from tobruk.board.maps import Map
from tobruk.mechanics import _kernels
from tobruk.mechanics.searches import grid
from tobruk.mechanics.supply import MF, SupplyContext, SupplyResult, edge_tables, entry_state, entry_steps, entry_tables, trace_result


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
    assert (found == {}) is False and found != {} and found != {first: found[first]}  # (a dictionary's equality, not an identity)
    assert bool(found) and repr(found) == f"SupplyResult({plain!r})"
    assert found.route(0) == found.path(0) and found.path(0) in {t.route for t in plain.values()}
    assert list(found.items()) == list(plain.items()) and list(found.values()) == list(plain.values())
    label: object = "A1"  # a hex's label is not a hex
    assert found.get(Hex(-99, -99)) is None and Hex(-99, -99) not in found and label not in found
    with pytest.raises(KeyError):
        found[Hex(-99, -99)]
    changes: tuple[Callable[[], object], ...] = (
        lambda: found.__setitem__(first, found[first]),
        lambda: found.pop(first),
        found.clear,
        lambda: found.update({}),
    )
    for change in changes:
        with pytest.raises(TypeError, match=r"^a search result is read-only: copy it with dict\(\.\.\.\) to change it$"):
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


# --- the step tables from the entered hexes' states (entry_steps) against the Python entry_tables -------------
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_compiled_entry_steps_equal_the_python_entry_tables(seed: int) -> None:
    rng = random.Random(seed)
    m = random_board(rng)

    def pick(p: float) -> set[Hex]:
        return {h for h in m.hexes if rng.random() < p}

    open_, closed, costly = pick(0.2), pick(0.2), pick(0.3)
    across = [rng.random() < 0.2 for _ in range(len(m.hexes) * 6)] if rng.random() < 0.5 else None
    cost = rng.choice((0, 7, MF))
    blocked, extra = entry_tables(m, open_, closed, costly, cost, not_across=across)
    state = entry_state(m, open_, closed, costly)
    steps = entry_steps(m, state, bytes(across) if across is not None else b"", cost)
    assert steps == (bytes(blocked), array("i", extra).tobytes())
    ctx = SupplyContext.of_steps(m, frozenset(), steps)  # read as the tables the Python callers know
    assert list(ctx.blocked) == [int(b) for b in blocked] and list(ctx.extra) == list(extra)


def test_entry_steps_known_answers_on_a_strip() -> None:
    # A1 open, A2 costly, A3 closed: a step into A2 costs MF more (closed across a marked hexside), into A3 never
    m = random_board(random.Random(1))
    a, b, c = m.hexes[0], m.hexes[1], m.hexes[2]
    state = entry_state(m, [a], [c], [b])
    assert list(state[:3]) == [0, 1, 2]
    blocked, extra = entry_steps(m, state)
    x = memoryview(extra).cast("i")
    for e, j in enumerate(m.neighbour_table):
        if j < 0:
            assert (blocked[e], x[e]) == (1, 0)  # off the board: closed
        else:
            assert (blocked[e], x[e]) == {0: (0, 0), 1: (0, MF), 2: (1, 0)}.get(state[j], (0, 0))
    marks = bytes(1 if j == 1 else 0 for j in m.neighbour_table)  # every hexside into A2 marked
    blocked, _ = entry_steps(m, state, marks)
    assert all(blocked[e] == 1 for e, j in enumerate(m.neighbour_table) if j == 1)


@pytest.mark.parametrize(
    ("state", "across", "cost", "message"),
    [
        (b"\x00", b"", 0, "state must hold a byte per hex"),
        (None, b"\x00", 0, "not_across must hold a byte per hexside"),
        ("three", b"", 0, "must be 0, 1 or 2"),
        (None, b"", -1, "cost must be 0 to 2**30"),
    ],
)
def test_entry_steps_refuses_bad_tables(state: bytes | Literal["three"] | None, across: bytes, cost: int, message: str) -> None:
    m = random_board(random.Random(2))
    good = bytes(len(m.hexes))
    given_state = state if isinstance(state, bytes) else good if state is None else b"\x03" + good[1:]
    with pytest.raises(ValueError, match=re.escape(message)):
        _kernels.entry_steps(grid(m), given_state, across, cost)
