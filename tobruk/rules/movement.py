"""Operational movement: one reach search that both validates a move and tells a UI where a unit may go.

Costs are integers in sixtieths of a movement factor (MF).  The search works on a
:class:`MoveContext` the system builds for one unit: its rates along roads and tracks, its
budget and bonus, the enemy ZOC, the hexes it may not enter or must stop in.  Every rule it
applies names its clause; :func:`walk` raises :class:`IllegalOrderError` with that clause for a
path that breaks one, and :func:`reach` offers exactly the hexes some legal path ends in.

Rules applied (The Gazala Gallop's clause IDs; other systems pass their own in ``clauses``):

* off road 1 MF a hex; along a road or track the unit's fraction; leaving the road rounds the
  fractions spent so far up to a whole MF, for vehicles (XIII.A.2, A.2a-d);
* no road or track rate on the step into an enemy ZOC (XIII.B.4);
* ascending an escarpment +1 MF (infantry) or +2 MF (vehicles), free where a road or track
  crosses it; a towering escarpment only where a road or track crosses it (XI.C, XI.D);
* no entry into enemy-occupied hexes (XIII.A.3); stop on entering an enemy ZOC (XIII.B.1) or an
  enemy box or fort (XI.A.4); no ZOC-to-ZOC step within the ZOC of one enemy unit unless into a
  friendly-occupied hex (XIII.B.3), nor between the ZOCs of units in two enemy boxes (XI.A.3n);
* the bonus MF only for a move that does not enter an enemy ZOC (XIII.C);
* optional direction limits (the Gazala Gallop, XIII.E) and weather: in a sandstorm enemy ZOCs
  count only when entered across an enemy minefield hexside (VIII.A.4, ruling R-SAND).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.hexes import Direction, Hex, Hexside
from tobruk.maps import Map, MovementRates
from tobruk.rules.zoc import ZocMap

MF = 60


@dataclass(frozen=True)
class MoveContext:
    """Everything the search needs for one unit's move, prepared by the game system."""

    map: Map
    side: Side
    start: Hex
    rates: MovementRates
    budget: int
    bonus: int
    ascent: int
    vehicle: bool
    zoc: ZocMap
    enemy_units: frozenset[Hex]
    friendly_units: frozenset[Hex]
    enemy_forts: frozenset[Hex]
    zoc_stops: bool = True
    directions: frozenset[Direction] | None = None
    clauses: dict[str, str] = field(default_factory=dict)
    tables: SideTables | None = None

    def clause(self, key: str) -> str:
        return self.clauses.get(key, key)

    def reach_key(self) -> Hashable:
        """Everything :func:`reach` reads, as a dictionary key.

        Friendly units matter to the search only in the hexes next to the start (the ZOC-to-ZOC
        exemption applies to the first step), so the key holds just those; a unit's reach then
        survives the moves of friends elsewhere, which is what makes listing every unit's
        destinations after every move affordable.
        """
        t = _tables(self)
        i = t.index[self.start]
        near = tuple(j >= 0 and t.friend[j] for j in t.nb[i * 6:i * 6 + 6])
        return (t.shared, self.start, self.rates, self.budget, self.bonus, self.ascent, self.vehicle, self.zoc_stops,
                self.directions, near)


@dataclass(frozen=True, slots=True)
class Reach:
    """The cheapest legal way to end a move in a hex."""

    hex: Hex
    spent: int
    path: tuple[Hex, ...]
    entered_zoc: bool

    def left(self, ctx: MoveContext) -> int:
        """Sixtieths of an MF still unspent (with the bonus when the move entered no enemy ZOC)."""
        return (ctx.budget if self.entered_zoc else ctx.budget + ctx.bonus) - self.spent


@dataclass(frozen=True, slots=True)
class SideTables:
    """A side's view of the board flattened onto integer hex indices, shared by all its units' searches."""

    index: Mapping[Hex, int]
    hexes: tuple[Hex, ...]
    nb: tuple[int, ...]
    route: tuple[int, ...]
    climb: tuple[bool, ...]
    towering: tuple[bool, ...]
    enemy_mines: tuple[bool, ...]
    land: tuple[bool, ...]
    enemy: tuple[bool, ...]
    friend: tuple[bool, ...]
    fort: tuple[bool, ...]
    zoc: tuple[frozenset[str] | None, ...]
    zoc_forts: tuple[frozenset[Hex], ...]
    shared: Hashable = None  # everything above but ``friend``, as a key (see MoveContext.reach_key)


def side_tables(m: Map, side: Side, zoc: ZocMap, enemy_units: frozenset[Hex], friendly_units: frozenset[Hex],
                enemy_forts: frozenset[Hex]) -> SideTables:
    hexes, index = m.hexes, m.index
    shared = (id(m), side, enemy_units, enemy_forts, frozenset(zoc.units.items()),
              frozenset((h, o & enemy_forts) for h, o in zoc.origins.items() if o & enemy_forts))

    def marks(where: frozenset[Hex]) -> tuple[bool, ...]:  # built from the few marked hexes, not the whole map
        out = [False] * len(hexes)
        for h in where:
            i = index.get(h)
            if i is not None:
                out[i] = True
        return tuple(out)

    zoc_units: list[frozenset[str] | None] = [None] * len(hexes)
    zoc_forts: list[frozenset[Hex]] = [frozenset()] * len(hexes)
    for h, ids in zoc.units.items():
        if h in index:
            zoc_units[index[h]] = ids
    for h, origins in zoc.origins.items():
        if h in index:
            zoc_forts[index[h]] = origins & enemy_forts
    return SideTables(
        index=index, hexes=hexes, nb=m.neighbour_table, route=m.route_table, climb=m.climb_table,
        towering=m.towering_table, enemy_mines=m.enemy_mine_table(side), land=m.land_table,
        enemy=marks(enemy_units), friend=marks(friendly_units), fort=marks(enemy_forts),
        zoc=tuple(zoc_units), zoc_forts=tuple(zoc_forts), shared=shared,
    )


def _tables(ctx: MoveContext) -> SideTables:
    if ctx.tables is not None:
        return ctx.tables
    cached: SideTables | None = ctx.__dict__.get("_tables")
    if cached is None:
        cached = side_tables(ctx.map, ctx.side, ctx.zoc, ctx.enemy_units, ctx.friendly_units, ctx.enemy_forts)
        ctx.__dict__["_tables"] = cached  # a frozen dataclass: cache beside the fields
    return cached


# reasons a step is illegal (see _explain)
OFF_MAP, WRONG_WAY, ENEMY, TOWERING, ZOC_TO_ZOC, BOX_TO_BOX, NO_MF = range(1, 8)


def _step(ctx: MoveContext, t: SideTables, i: int, d: int, spent: int, entered: bool,
          first: bool) -> tuple[int, bool, bool] | int:
    """One hex of movement from hex index ``i`` in direction ``d``: (spent, must stop, entered a ZOC),
    or the code of the rule that forbids it."""
    e = i * 6 + d
    j = t.nb[e]
    if j < 0 or not t.land[j]:
        return OFF_MAP
    if ctx.directions is not None and Direction(d) not in ctx.directions:
        return WRONG_WAY
    if t.enemy[j]:
        return ENEMY
    kind = t.route[e]
    if t.towering[e] and kind < 0:
        return TOWERING
    zoc_there = t.zoc[j] is not None and (ctx.zoc_stops or t.enemy_mines[e])
    if first and zoc_there and ctx.zoc_stops and t.zoc[i] is not None and not t.friend[j]:
        if t.zoc[i] & t.zoc[j]:  # type: ignore[operator]
            return ZOC_TO_ZOC
        if any(x != y for x in t.zoc_forts[i] for y in t.zoc_forts[j]):
            return BOX_TO_BOX
    cc = ctx.rates.cross_country
    rate = (ctx.rates.road, ctx.rates.major_track, ctx.rates.minor_track)[kind] if kind >= 0 else cc
    if kind >= 0 and rate < cc and not zoc_there:
        new = spent + rate
    else:
        new = (-(-spent // MF) * MF if ctx.vehicle else spent) + cc
        if kind < 0 and t.climb[e]:
            new += ctx.ascent
    entered_now = entered or zoc_there
    if new > (ctx.budget if entered_now else ctx.budget + ctx.bonus):
        return NO_MF
    return new, t.fort[j] or zoc_there, entered_now


def _explain(ctx: MoveContext, code: int, here: Hex, there: Hex, spent: int, entered: bool) -> IllegalOrderError:
    """The player's message for a refused step, naming its rule."""
    if code == OFF_MAP:
        return IllegalOrderError(ctx.clause("XIII.A.2"), f"{there} is off the map or in the sea")
    if code == WRONG_WAY:
        allowed = ", ".join(d.name for d in sorted(ctx.directions or ()))
        return IllegalOrderError(ctx.clause("XIII.E"), f"{here}-{there} is not a step {allowed}")
    if code == ENEMY:
        return IllegalOrderError(ctx.clause("XIII.A.3"), f"{there} holds enemy units")
    if code == TOWERING:
        return IllegalOrderError(ctx.clause("XI.D"), f"the towering escarpment {Hexside.between(here, there)} is "
                                                     "impassable off road and track")
    if code == ZOC_TO_ZOC:
        # named by the hex it comes from, never by unit: the unit may be face down
        shared = sorted(ctx.zoc.origins.get(here, frozenset()) & ctx.zoc.origins.get(there, frozenset()))
        return IllegalOrderError(ctx.clause("XIII.B.3"), f"{here}-{there} moves from one ZOC of the enemy in {shared[0]} "
                                                         "into another")
    if code == BOX_TO_BOX:
        return IllegalOrderError(ctx.clause("XI.A.3n"), f"{here}-{there} moves from the ZOC of one enemy box or fort "
                                                        "into that of another")
    limit = ctx.budget if entered or there in ctx.zoc else ctx.budget + ctx.bonus
    return IllegalOrderError(ctx.clause("XIII.A.2"), f"not enough movement to enter {there} "
                                                     f"({(limit - spent) / MF:g} MF left of {limit / MF:g})")


def walk(ctx: MoveContext, path: Sequence[Hex]) -> Reach:
    """Check a whole path hex by hex; raise :class:`IllegalOrderError` at the first illegal step."""
    if not path or path[0] != ctx.start:
        raise IllegalOrderError(ctx.clause("XIII.A.1"), f"the path must start where the unit is, {ctx.start}")
    if len(path) < 2:
        raise IllegalOrderError(ctx.clause("XIII.A.1"), "a move needs at least one hex to enter")
    t = _tables(ctx)
    spent, entered, stopped = 0, False, False
    for n, (here, there) in enumerate(itertools.pairwise(path)):
        if stopped:
            raise IllegalOrderError(ctx.clause("XIII.B.1"), f"the unit had to stop in {here}")
        if not here.is_adjacent(there):
            raise IllegalOrderError(ctx.clause("XIII.A.2"), f"{here} and {there} are not adjacent")
        if there not in t.index:
            raise _explain(ctx, OFF_MAP, here, there, spent, entered)
        result = _step(ctx, t, t.index[here], here.direction_to(there), spent, entered, n == 0)
        if isinstance(result, int):
            raise _explain(ctx, result, here, there, spent, entered)
        spent, stopped, entered = result
    return Reach(path[-1], spent, tuple(path), entered)


def reach(ctx: MoveContext, cache: MutableMapping[Hashable, dict[Hex, Reach]] | None = None) -> dict[Hex, Reach]:
    """Every hex the unit can end its move in, with the legal path leaving it the most MF.

    Dijkstra over states (hex, whether an enemy ZOC was entered), on integer hex indices: every
    cost is monotone in the MF already spent, so the cheapest arrival in a state is never worse
    than a dearer one.  With a ``cache``, an earlier answer for the same :meth:`MoveContext.reach_key`
    is reused (the caller owns the cache and may clear it at any time).
    """
    if cache is not None:
        key = ctx.reach_key()
        found = cache.get(key)
        if found is None:
            if len(cache) >= REACH_CACHE_SIZE:
                cache.clear()
            found = cache[key] = _search(ctx)
        return dict(found)
    return _search(ctx)


REACH_CACHE_SIZE = 4096


def _search(ctx: MoveContext) -> dict[Hex, Reach]:
    t = _tables(ctx)
    start = t.index[ctx.start]
    best: dict[int, int] = {start * 2: 0}
    parent: dict[int, int] = {start * 2: -1}
    stops: set[int] = set()
    queue: list[tuple[int, int]] = [(0, start * 2)]
    found: dict[int, tuple[int, int, int]] = {}  # hex index -> (MF left, -spent, state)
    budget, bonus = ctx.budget, ctx.bonus
    while queue:
        spent, key = heapq.heappop(queue)
        if best[key] != spent:
            continue
        i, entered = key >> 1, bool(key & 1)
        if i != start:
            left = (budget if entered else budget + bonus) - spent
            old = found.get(i)
            if old is None or (left, -spent) > old[:2]:
                found[i] = (left, -spent, key)
        if key in stops:
            continue
        for d in range(6):
            result = _step(ctx, t, i, d, spent, entered, i == start)
            if isinstance(result, int):
                continue
            new, stop, now_entered = result
            j = t.nb[i * 6 + d]
            if j == start:
                continue
            nkey = j * 2 + now_entered
            if new < best.get(nkey, 1 << 30):
                best[nkey] = new
                parent[nkey] = key
                if stop:
                    stops.add(nkey)
                else:
                    stops.discard(nkey)
                heapq.heappush(queue, (new, nkey))
    out: dict[Hex, Reach] = {}
    for i, (_left, neg_spent, key) in found.items():
        path = []
        k = key
        while k >= 0:
            path.append(t.hexes[k >> 1])
            k = parent[k]
        out[t.hexes[i]] = Reach(t.hexes[i], -neg_spent, tuple(reversed(path)), bool(key & 1))
    return out
