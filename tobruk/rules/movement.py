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
from collections.abc import Sequence
from dataclasses import dataclass, field

from tobruk.errors import IllegalOrderError
from tobruk.hexes import Direction, Hex, Hexside
from tobruk.maps import Feature, Map, MovementRates
from tobruk.rules.zoc import ZocMap
from tobruk.sides import Side

MF = 60


def round_up_mf(spent: int) -> int:
    """Sixtieths rounded up to a whole movement factor."""
    return -(-spent // MF) * MF


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

    def clause(self, key: str) -> str:
        return self.clauses.get(key, key)


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
class _Step:
    spent: int
    stop: bool
    entered_zoc: bool


def _step(ctx: MoveContext, here: Hex, there: Hex, spent: int, entered: bool, first: bool) -> _Step | IllegalOrderError:
    """One hex of movement, or the reason it is illegal."""
    m = ctx.map
    if there not in m or not m.is_land(there):
        return IllegalOrderError(ctx.clause("XIII.A.2"), f"{there} is off the map or in the sea")
    if not here.is_adjacent(there):
        return IllegalOrderError(ctx.clause("XIII.A.2"), f"{here} and {there} are not adjacent")
    direction = here.direction_to(there)
    if ctx.directions is not None and direction not in ctx.directions:
        allowed = ", ".join(d.name for d in sorted(ctx.directions))
        return IllegalOrderError(ctx.clause("XIII.E"), f"{here}-{there} is not a step {allowed}")
    if there in ctx.enemy_units:
        return IllegalOrderError(ctx.clause("XIII.A.3"), f"{there} holds enemy units")
    side = Hexside.between(here, there)
    route = m.routes.get(side)
    feats = {f.kind: f for f in m.hexsides.get(side, ())}
    towering = feats.get(Feature.TOWERING_ESCARPMENT)
    if towering is not None and route is None:
        return IllegalOrderError(ctx.clause("XI.D"), f"the towering escarpment {side} is impassable off road and track")
    crossed_mines = any(f.kind is Feature.MINEFIELD and f.owner is not ctx.side for f in feats.values())
    # in normal weather every enemy ZOC counts; in a sandstorm only one entered across an enemy minefield
    in_zoc_there = there in ctx.zoc and (ctx.zoc_stops or crossed_mines)
    in_zoc_here = first and here in ctx.zoc and ctx.zoc_stops
    if in_zoc_here and in_zoc_there and there not in ctx.friendly_units:
        shared = ctx.zoc.sources(here) & ctx.zoc.sources(there)
        if shared:
            return IllegalOrderError(ctx.clause("XIII.B.3"), f"{here}-{there} moves from one ZOC of "
                                     f"{sorted(shared)[0]} into another")
        boxes_here = ctx.zoc.origins.get(here, frozenset()) & ctx.enemy_forts
        boxes_there = ctx.zoc.origins.get(there, frozenset()) & ctx.enemy_forts
        if any(x != y for x in boxes_here for y in boxes_there):
            return IllegalOrderError(ctx.clause("XI.A.3n"), f"{here}-{there} moves from the ZOC of one enemy box "
                                     "or fort into that of another")
    rate = ctx.rates.along(route) if route is not None else ctx.rates.cross_country
    boosted = route is not None and rate < ctx.rates.cross_country and not in_zoc_there
    if boosted:
        new = spent + rate
    else:
        new = (round_up_mf(spent) if ctx.vehicle else spent) + ctx.rates.cross_country
        esc = feats.get(Feature.ESCARPMENT) or towering
        if esc is not None and route is None and esc.high == there:
            new += ctx.ascent
    entered_now = entered or in_zoc_there
    limit = ctx.budget if entered_now else ctx.budget + ctx.bonus
    if new > limit:
        left = (limit - spent) / MF
        return IllegalOrderError(ctx.clause("XIII.A.2"), f"not enough movement to enter {there} "
                                 f"({new / MF:g} MF needed of {limit / MF:g}; {left:g} left)")
    return _Step(new, there in ctx.enemy_forts or in_zoc_there, entered_now)


def walk(ctx: MoveContext, path: Sequence[Hex]) -> Reach:
    """Check a whole path hex by hex; raise :class:`IllegalOrderError` at the first illegal step."""
    if not path or path[0] != ctx.start:
        raise IllegalOrderError(ctx.clause("XIII.A.1"), f"the path must start where the unit is, {ctx.start}")
    if len(path) < 2:
        raise IllegalOrderError(ctx.clause("XIII.A.1"), "a move needs at least one hex to enter")
    spent, entered, stopped = 0, False, False
    for i, (here, there) in enumerate(itertools.pairwise(path)):
        if stopped:
            raise IllegalOrderError(ctx.clause("XIII.B.1"), f"the unit had to stop in {here}")
        result = _step(ctx, here, there, spent, entered, i == 0)
        if isinstance(result, IllegalOrderError):
            raise result
        spent, entered, stopped = result.spent, result.entered_zoc, result.stop
    return Reach(path[-1], spent, tuple(path), entered)


def reach(ctx: MoveContext) -> dict[Hex, Reach]:
    """Every hex the unit can end its move in, with the legal path leaving it the most MF.

    Dijkstra over states (hex, whether an enemy ZOC was entered): every cost is monotone in
    the MF already spent, so the cheapest arrival in a state is never worse than a dearer one.
    """
    State = tuple[Hex, bool]
    start: State = (ctx.start, False)
    best: dict[State, int] = {start: 0}
    paths: dict[State, tuple[Hex, ...]] = {start: (ctx.start,)}
    stops: set[State] = set()
    queue: list[tuple[int, int, State]] = [(0, 0, start)]
    found: dict[Hex, Reach] = {}
    counter = 0
    while queue:
        spent, _, key = heapq.heappop(queue)
        if best[key] != spent:
            continue
        here, entered = key
        path = paths[key]
        if here != ctx.start:
            candidate = Reach(here, spent, path, entered)
            old = found.get(here)
            if old is None or (candidate.left(ctx), -spent, -len(path)) > (old.left(ctx), -old.spent, -len(old.path)):
                found[here] = candidate
        if key in stops:
            continue
        for there in here.neighbours():
            if there in path:
                continue
            result = _step(ctx, here, there, spent, entered, here == ctx.start)
            if isinstance(result, IllegalOrderError):
                continue
            nkey: State = (there, result.entered_zoc)
            if result.spent < best.get(nkey, 1 << 30):
                best[nkey] = result.spent
                paths[nkey] = (*path, there)
                if result.stop:
                    stops.add(nkey)
                else:
                    stops.discard(nkey)
                counter += 1
                heapq.heappush(queue, (result.spent, counter, nkey))
    return found
