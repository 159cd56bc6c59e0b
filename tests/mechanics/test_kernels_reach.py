"""The compiled reach search against networkx, known answers at its thresholds, and its refusals of bad input.

The oracle is networkx's ``single_source_dijkstra`` over an explicit state graph built here from the family's
movement rules as reach.py's docstring lists them, read off the map's features directly (not the search's
tables). A state is (hex, entered an enemy ZOC, free hexes used, of them along the lesser route kinds, the MF
fraction spent when vehicles round it up on leaving a road, must stop); a step's cost depends on nothing else,
so the graph has fixed weights. Every cost only adds, and a move that enters a ZOC stops there, so a path is
legal when its last state is within the budget (plus the bonus when it entered no ZOC). For each hex the search
must offer the same cheapest way (most MF left, then least spent) and a path :func:`walk` accepts with that cost.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.mechanics.kernel_maps import random_board
from tests.mechanics.strips import vehicle_in_a1
from tests.toy_system import toy_scenario
from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import CLIMBED, ROUTE_KINDS, Feature, MovementRates, RouteLine, build_map
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics import _kernels
from tobruk.mechanics.reach import MF, REACH, MoveContext, reach, reach_result, walk
from tobruk.mechanics.zoc import ZocMap, zoc_map

H = Hex.parse


def random_context(rng: random.Random) -> MoveContext:
    m = random_board(rng)
    land = [h for h in m.hexes if m.is_land(h)]
    start = rng.choice(land)
    others = [h for h in land if h != start]
    enemy_hexes = rng.sample(others, rng.randint(0, min(3, len(others))))
    enemies = [(f"E{k}", h) for k, h in enumerate(enemy_hexes)]
    if enemy_hexes and rng.random() < 0.3:  # two units in one hex
        enemies.append(("E9", enemy_hexes[0]))
    zoc = zoc_map(m, enemies, rng.sample(land, rng.randint(0, min(2, len(land)))))
    friends = frozenset(rng.sample(others, rng.randint(0, min(3, len(others))))) - set(enemy_hexes)
    forts = frozenset(rng.sample(land, rng.randint(0, min(3, len(land))))) - {start}
    total = rng.choice((0, 0, 2, 3, 4))
    low = rng.randint(1, total - 1) if total > 1 else 0
    limits = {k: rng.choice((0, total, low) if low else (0, total)) for k in ROUTE_KINDS} if total else {}
    free = tuple((k, v) for k, v in limits.items() if v)  # the kinds that give free hexes
    rates = MovementRates.of(
        cross_country=rng.choice((60, 60, 45)), **{k.replace("-", "_"): rng.choice((10, 15, 20, 30, 45, 60, 90)) for k in ROUTE_KINDS}
    )
    directions = None if rng.random() < 0.7 else frozenset(rng.sample(list(Direction), rng.randint(1, 5)))
    return MoveContext(
        map=m,
        side=rng.choice(list(Side)),
        start=start,
        rates=rates,
        budget=rng.randint(0, 5 * MF),
        bonus=rng.choice((0, MF, 30)),
        ascent=rng.choice((0, MF, 2 * MF)),
        vehicle=rng.random() < 0.5,
        zoc=zoc,
        enemy_units=frozenset(enemy_hexes),
        friendly_units=friends,
        enemy_forts=forts,
        zoc_stops=rng.random() < 0.8,
        directions=directions,
        free_steps=free,
        free_total=total,
    )


State = tuple[Hex, bool, int, int, int, bool]  # hex, entered a ZOC, free used, lesser free used, MF fraction, stop


def step_rules(ctx: MoveContext, state: State, d: Direction) -> tuple[State, int] | None:
    """The family's rules for one hex of movement, as reach.py's docstring states them: the next state and
    the MF it costs, or ``None`` when a rule forbids the step."""
    here, entered, used, lesser, fraction, _ = state
    m = ctx.map
    there = here.neighbour(d)
    side = Hexside.between(here, there)
    feats = m.features(side)
    route = m.routes.get(side)
    if not m.is_land(there) or there == ctx.start:  # off the board, the sea; a move never comes back to its start
        return None
    if ctx.directions is not None and d not in ctx.directions:
        return None
    if there in ctx.enemy_units:
        return None
    if route is None and any(f.kind in ctx.barriers for f in feats):
        return None
    minefield = any(f.kind == Feature.MINEFIELD and f.owner is not ctx.side for f in feats)
    into_zoc = there in ctx.zoc and (ctx.zoc_stops or minefield)
    if here == ctx.start and into_zoc and ctx.zoc_stops and here in ctx.zoc and there not in ctx.friendly_units:
        if ctx.zoc.units[here] & ctx.zoc.units[there]:  # from one ZOC of an enemy unit into another of its
            return None
        boxes_here = ctx.zoc.origins[here] & ctx.enemy_forts
        boxes_there = ctx.zoc.origins[there] & ctx.enemy_forts
        if any(a != b for a in boxes_here for b in boxes_there):  # between the ZOCs of two enemy boxes
            return None
    stop_in_fort = there in ctx.enemy_forts
    free_limit = dict(ctx.free_steps).get(route, 0) if route is not None else 0
    if ctx.free_total and free_limit and not into_zoc and used < ctx.free_total:
        is_lesser = free_limit < ctx.free_total
        if not is_lesser or lesser < free_limit:
            return (there, entered, used + 1, lesser + is_lesser, fraction, stop_in_fort), 0
    rate = ctx.rates.along(route) if route is not None else ctx.rates.cross_country
    if route is not None and rate < ctx.rates.cross_country and not into_zoc:
        cost = rate
    else:
        cost = ctx.rates.cross_country + ((MF - fraction) % MF if ctx.vehicle else 0)  # round the fraction up
        if route is None and any(f.kind in CLIMBED and f.high == there for f in feats):
            cost += ctx.ascent
    new_fraction = (fraction + cost) % MF if ctx.vehicle else 0
    return (there, entered or into_zoc, used, lesser, new_fraction, stop_in_fort or into_zoc), cost


def oracle(ctx: MoveContext) -> dict[Hex, list[tuple[int, int, bool]]]:
    """For each hex, the legal ways to end there as (MF left, MF spent, entered a ZOC), best first."""
    first: State = (ctx.start, False, 0, 0, 0, False)
    g = nx.DiGraph()
    g.add_node(first)
    todo, seen = [first], {first}
    while todo:
        state = todo.pop()
        if state[5]:
            continue
        for d in Direction:
            nxt = step_rules(ctx, state, d)
            if nxt is not None:
                g.add_edge(state, nxt[0], weight=nxt[1])
                if nxt[0] not in seen:
                    seen.add(nxt[0])
                    todo.append(nxt[0])
    ways: dict[Hex, list[tuple[int, int, bool]]] = {}
    for state, spent in nx.single_source_dijkstra_path_length(g, first, cutoff=ctx.budget + ctx.bonus).items():
        h, entered = state[0], state[1]
        limit = ctx.budget if entered else ctx.budget + ctx.bonus
        if h != ctx.start and spent <= limit:
            ways.setdefault(h, []).append((limit - spent, spent, entered))
    for w in ways.values():
        w.sort(key=lambda x: (-x[0], x[1]))
    return ways


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32))
def test_the_search_agrees_with_networkx(seed: int) -> None:
    ctx = random_context(random.Random(seed))
    found = reach_result(ctx)
    ways = oracle(ctx)
    assert set(found) == set(ways)
    for j, i in enumerate(found.ends):
        h = ctx.map.hexes[i]
        best = ways[h][0]
        got = (found[h].left(ctx), found.spent_of(j), found.entered_of(j))
        assert got[:2] == best[:2] and got in ways[h]
        checked = walk(ctx, found.path(j))
        assert (
            (checked.hex, checked.spent, checked.entered_zoc)
            == (h, found.spent_of(j), found.entered_of(j))
            == (
                found[h].hex,
                found[h].spent,
                found[h].entered_zoc,
            )
        )
        assert found.path_indices(j) == tuple(ctx.map.index[x] for x in found[h].path)
    # the same answer from a ZOC map given without its bitmasks (the tables then derive them from the unit ids)
    bare = reach_result(replace(ctx, zoc=ZocMap(ctx.zoc.units, ctx.zoc.origins)))
    assert bare.ends == found.ends and dict(bare) == dict(found)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_zoc_bitmasks_hold_the_units_exerting_zoc(seed: int) -> None:
    rng = random.Random(seed)
    m = random_board(rng)
    enemies = [(f"E{rng.randint(0, 70)}", rng.choice(m.hexes)) for _ in range(rng.randint(0, 8))]
    zoc = zoc_map(m, enemies, rng.sample(m.hexes, rng.randint(0, 2)))
    order = list(dict.fromkeys(uid for uid, _ in enemies))  # a bit per unit, in the order given
    assert zoc.board is m
    assert {m.hexes[i]: frozenset(u for k, u in enumerate(order) if bits >> k & 1) for i, bits in zoc.masks.items()} == zoc.units


# known answers on a strip of hexes A1-A2-A3-A4 (a road along it when asked)


def strip(
    budget: int, bonus: int = 0, road: bool = False, *, zoc: ZocMap | None = None, enemy_units: frozenset[Hex] = frozenset()
) -> MoveContext:
    """A unit in A1 with ``budget`` MF (and ``bonus``), no enemy unit unless ``zoc`` and ``enemy_units`` are given."""
    terrain = {H(x): "clear" for x in ("A1", "A2", "A3", "A4", "B1", "B2", "B3")}
    routes = [RouteLine("road", "road", (H("A1"), H("A2"), H("A3"), H("A4")))] if road else []
    m = build_map("strip", terrain, routes=routes)
    zones = {} if zoc is None else {"zoc": zoc}
    return vehicle_in_a1(m, budget, MovementRates.of(road=20), bonus=bonus, enemy_units=enemy_units, **zones)


@pytest.mark.rule("GG-XIII.A.2")
def test_exactly_the_budget_reaches_a_hex_and_one_sixtieth_less_does_not() -> None:
    assert reach(strip(2 * MF))[H("A3")].spent == 2 * MF  # two hexes off road at 1 MF
    assert H("A3") not in reach(strip(2 * MF - 1))
    assert reach(strip(2 * MF - 1))[H("A2")].spent == MF
    assert reach(strip(60, road=True))[H("A4")].spent == 60  # three road hexes at a third of an MF
    assert H("A4") not in reach(strip(59, road=True))


@pytest.mark.rule("GG-XIII.C")
def test_the_bonus_counts_only_for_a_move_entering_no_zoc() -> None:
    free = reach(strip(MF, bonus=MF))
    assert free[H("A3")].spent == 2 * MF and not free[H("A3")].entered_zoc
    # an enemy unit in A4: A3 is in its ZOC, so the move entering A3 has no bonus MF
    m = strip(MF).map
    guarded = strip(MF, bonus=MF, zoc=zoc_map(m, [("E", H("A4"))]), enemy_units=frozenset({H("A4")}))
    found = reach(guarded)
    assert H("A3") not in found and H("A2") in found and not found[H("A2")].entered_zoc
    # with the budget alone enough, A3 is reached and the move stops there, its ZOC entered
    richer = replace(guarded, budget=2 * MF)
    enough = reach(richer)
    assert enough[H("A3")].entered_zoc and enough[H("A3")].left(richer) == 0
    assert H("A4") not in enough


@pytest.mark.rule("GG-XIII.B.3")
def test_zoc_to_zoc_of_one_enemy_unit_only_into_a_friendly_hex() -> None:
    # an enemy unit in B1 exerts ZOC into A1 (the start), A2 and B2; A1 -> A2 stays within its ZOC
    m = strip(MF).map
    ctx = strip(3 * MF, zoc=zoc_map(m, [("E", H("B1"))]), enemy_units=frozenset({H("B1")}))
    assert {H("A1"), H("A2"), H("B2")} <= set(ctx.zoc.units)
    assert H("A2") not in reach(ctx)
    with pytest.raises(IllegalOrderError) as exc:
        walk(ctx, [H("A1"), H("A2")])
    assert exc.value.clause == "XIII.B.3"
    friendly = reach(replace(ctx, friendly_units=frozenset({H("A2")})))
    assert H("A2") in friendly and friendly[H("A2")].entered_zoc
    # the ZOC of a different enemy unit is allowed: A1 in E's ZOC only, A2 in F's only
    two = ZocMap({H("A1"): frozenset({"E"}), H("A2"): frozenset({"F"})}, {H("A1"): frozenset({H("B1")}), H("A2"): frozenset({H("A3")})})
    assert H("A2") in reach(replace(ctx, zoc=two, enemy_units=frozenset({H("B1"), H("A3")})))


def test_the_answer_is_read_only_and_shared_through_the_cache() -> None:
    game = Game(toy_scenario())  # any game keeps the searches it is asked for
    ctx = strip(3 * MF)
    first = reach_result(ctx, game)
    assert reach_result(ctx, game) is first and len(game.cache_store(REACH)) == 1
    with pytest.raises(TypeError):
        first.pop(H("A2"))
    assert dict(first) == {h: first[h] for h in first} and list(first) == [ctx.map.hexes[i] for i in first.ends]


def test_bad_input_raises_value_error() -> None:
    ctx = strip(MF)
    from tobruk.mechanics.reach import _tables

    k = _tables(ctx).kernel
    rates, marks, _, _ = ctx.kernel_params

    def call(**kw: Any) -> object:
        """The kernel called with good arguments but ``kw``, which the tests below make bad in one way each (a
        length, a range: what its types cannot say and the kernel must check)."""
        args: dict[str, Any] = dict(
            grid=k.grid, eflags=k.eflags, hflags=k.hflags, zoc_mask=k.zoc_mask, zoc_words=k.zoc_words,
            fort_mask=k.fort_mask, fort_words=k.fort_words, start=0, budget=MF, bonus=0, ascent=0, vehicle=1,
            zoc_stops=1, dirmask=63, cc=MF, rates=rates, free_total=0, marks=marks, low=0,
        )  # fmt: skip
        args.update(kw)
        return _kernels.reach(*args.values())

    assert call()  # the arguments as given are good
    n = len(ctx.map.hexes)
    for bad, match in (
        (dict(start=n), "start"),
        (dict(start=-1), "start"),
        (dict(eflags=k.eflags[:-1]), "eflags"),
        (dict(hflags=k.hflags + b"\0"), "hflags"),
        (dict(zoc_words=1), "zoc_mask"),
        (dict(rates=rates[:-4]), "rates"),
        (dict(marks=marks + b"\0"), "marks"),
        (dict(budget=-1), "budget"),
        (dict(free_total=8), "free_total"),
        (dict(dirmask=64), "dirmask"),
        (dict(marks=b"\3" * len(marks)), "marks"),
    ):
        with pytest.raises(ValueError, match=match):
            call(**bad)
