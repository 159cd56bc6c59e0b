"""Operational movement: one reach search that both validates a move and tells a UI where a unit may go.

Costs are integers in sixtieths of a movement factor (MF).  The search works on a
:class:`MoveContext` the system builds for one unit: its rates along roads and tracks, its
budget and bonus, the free hexes its roads and tracks give, the enemy ZOC, the hexes it may not
enter or must stop in.  Every rule it applies names its clause through ``clauses`` (the keys below
are the family's basic rules; each system maps them to its own clause ids); :func:`walk` raises
:class:`IllegalOrderError` with that clause for a path that breaks one, and :func:`reach` offers
exactly the hexes some legal path ends in.

The family's movement rules, by key:

* off road 1 MF a hex; along a road or track the unit's fraction; leaving the road rounds the
  fractions spent so far up to a whole MF, for vehicles (XIII.A.2, A.2a-d);
* free hexes: a step along a road or track of a kind that gives them costs nothing, up to a number
  of such steps per move (``free_steps``, ``free_total``);
* no road or track rate (nor free hex) on the step into an enemy ZOC (XIII.B.4);
* ascending an escarpment +1 MF (infantry) or +2 MF (vehicles), free where a road or track
  crosses it; a towering escarpment (or any hexside kind the system names in ``barriers``) only where
  a road or track crosses it (XI.C, XI.D);
* no entry into enemy-occupied hexes (XIII.A.3); stop on entering an enemy ZOC (XIII.B.1) or an
  enemy box or fort (XI.A.4); no ZOC-to-ZOC step within the ZOC of one enemy unit unless into a
  friendly-occupied hex (XIII.B.3), nor between the ZOCs of units in two enemy boxes (XI.A.3n);
* the bonus MF only for a move that does not enter an enemy ZOC (XIII.C);
* optional direction limits (XIII.E) and ZOCs that do not stop (``zoc_stops`` off: they count only
  when entered across an enemy minefield hexside, VIII.A.4).
"""

from __future__ import annotations

import dataclasses
import itertools
from array import array
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import Feature, Map, MovementRates
from tobruk.engine.caching import FIXED, Cache
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics import _kernels
from tobruk.mechanics.searches import SearchResult, grid
from tobruk.mechanics.zoc import ZocMap

if TYPE_CHECKING:
    from tobruk.engine.game import Game

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
    free_steps: tuple[tuple[str, int], ...] = ()  # route kind -> free hexes along it per move
    free_total: int = 0  # free hexes per move in all
    barriers: tuple[str, ...] = (Feature.TOWERING_ESCARPMENT,)  # hexside kinds crossed only along a road or track

    @classmethod
    def of(cls, **values: Any) -> MoveContext:
        """The same context as ``MoveContext(**values)``, made without the frozen dataclass's field-by-field
        assignment (a listing makes one per unit that may move, at every decision)."""
        defaults = _CONTEXT_DEFAULTS.get(cls)
        if defaults is None:
            defaults = _CONTEXT_DEFAULTS[cls] = _defaults(cls)
        names, fixed, factories = defaults
        unknown = values.keys() - names
        if unknown:
            raise TypeError(f"MoveContext has no field {sorted(unknown)[0]!r}")
        ctx = object.__new__(cls)
        own = ctx.__dict__
        own.update(fixed)
        for name, factory in factories:
            own[name] = factory()
        own.update(values)
        if len(own) != len(names):
            raise TypeError(f"MoveContext needs {sorted(names - own.keys())[0]!r}")
        return ctx

    def clause(self, key: str) -> str:
        return self.clauses.get(key, key)

    @cached_property
    def route_rates(self) -> tuple[int, ...]:
        """The unit's rate along each of the map's route kinds, by the route table's index."""
        return _rate_table(self.rates, self.map.route_kinds)

    @cached_property
    def free_limits(self) -> tuple[tuple[int, ...], int]:
        """Per route index: 0 no free hexes along it, 1 free up to ``free_total``, 2 free up to the shared lower
        limit of the "lesser" kinds (a track's 2 where a road gives 4); and that lower limit."""
        _, marks, low, _ = self.kernel_params
        return tuple(marks), low

    @cached_property
    def kernel_params(self) -> tuple[bytes, bytes, int, int]:
        """The unit's route rates (int32) and free-hex marks (a byte) per route kind, the lesser kinds' free-hex
        limit and the allowed directions as a 6-bit mask, as the compiled search reads them (the same few for
        every unit of a kind: made once each, their bytes hashing at once in the search's key)."""
        return _kernel_params(self.rates, self.map.route_kinds, self.free_steps, self.free_total, self.directions)

    def reads_neighbours(self) -> bool:
        """Whether the search reads the friendly units next to the start: only when the start is in an enemy ZOC
        that stops (the ZOC-to-ZOC exemption, into a friendly-occupied hex, can apply only to the first step)."""
        t = _tables(self)
        return self.zoc_stops and t.zoc[t.index[self.start]] is not None

    def _friends_near_start(self) -> tuple[bool, ...]:
        """Whether each of the start's six neighbours holds a friendly unit (the only friends a search reads)."""
        t = _tables(self)
        i, friends, hexes = t.index[self.start], self.friendly_units, t.hexes
        return tuple(j >= 0 and hexes[j] in friends for j in t.nb[i * 6 : i * 6 + 6])

    def reach_key(self) -> Hashable:
        """Everything :func:`reach` reads, as a dictionary key.

        Friendly units matter to the search only in the hexes next to the start, and only when the start is
        in an enemy ZOC that stops (the ZOC-to-ZOC exemption applies to the first step out of a ZOC), so the key
        holds just those; a unit's reach then survives the moves of friends elsewhere, which is what makes
        listing every unit's destinations after every move affordable.
        """
        found: Hashable | None = self.__dict__.get("_reach_key")
        if found is not None:
            return found
        t = _tables(self)
        i = t.index[self.start]
        near = self._friends_near_start() if self.reads_neighbours() else ()
        # of quick hashes: the enemy's tables by serial number, the start by index, the rates as the bytes the
        # kernel reads (a bytes object keeps its hash); the key is looked up at every listing
        found = self.__dict__["_reach_key"] = (
            t.shared,
            i,
            self.kernel_params[0],
            self.rates.cross_country,
            self.budget,
            self.bonus,
            self.ascent,
            self.vehicle,
            self.zoc_stops,
            self.directions,
            near,
            self.free_steps,
            self.free_total,
        )
        return found


_CONTEXT_DEFAULTS: dict[type, tuple[frozenset[str], dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]] = {}


def _defaults(kind: type) -> tuple[frozenset[str], dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]:
    """A dataclass's field names, its plain defaults and its default factories (for :meth:`MoveContext.of`)."""
    fields = dataclasses.fields(kind)
    fixed = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    factories = tuple((f.name, f.default_factory) for f in fields if f.default_factory is not dataclasses.MISSING)
    return frozenset(f.name for f in fields), fixed, factories


class Reach(NamedTuple):
    """The cheapest legal way to end a move in a hex.  (A named tuple: one is made for each move played, and a tuple
    is made faster than a frozen dataclass.)"""

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
    kernel: KernelTables
    shared: Hashable = None  # everything above but ``friend``, as a key (a serial number: see MoveContext.reach_key)

    def with_friends(self, friend: tuple[bool, ...], hflags: bytes) -> SideTables:
        """These tables with the friendly units' marks (``friend``, and the kernel's hex flags with them) laid over
        (made for every position of a movement phase: built field by field, not by ``dataclasses.replace``)."""
        k = self.kernel
        kernel = KernelTables(k.grid, k.eflags, hflags, k.zoc_mask, k.zoc_words, k.fort_mask, k.fort_words)
        return SideTables(
            self.index,
            self.hexes,
            self.nb,
            self.route,
            self.climb,
            self.towering,
            self.enemy_mines,
            self.land,
            self.enemy,
            friend,
            self.fort,
            self.zoc,
            self.zoc_forts,
            kernel,
            self.shared,
        )


@dataclass(frozen=True, slots=True)
class KernelTables:
    """The same view as the compiled search reads it: a byte of flags per hexside step (climb, barrier, enemy
    minefield) and per hex (enemy, friend, enemy fort, enemy ZOC), the enemy units exerting ZOC into each hex as a
    bitmask (``zoc_words`` 64-bit words a hex, a bit per enemy unit) and the enemy forts whose ZOC covers it
    (``fort_words`` words a hex, a bit per fort)."""

    grid: _kernels.Grid
    eflags: bytes
    hflags: bytes
    zoc_mask: bytes
    zoc_words: int
    fort_mask: bytes
    fort_words: int


# the flag bits, as _kernels.c names them (H_ENEMY ..., E_CLIMB ...); a hex's land comes from the map's Grid
HEX_ENEMY, HEX_FRIEND, HEX_FORT, HEX_ZOC = 2, 4, 8, 16
EDGE_CLIMB, EDGE_BARRIER, EDGE_ENEMY_MINES = 1, 2, 4


def _edge_flags(m: Map, side: Side, barriers: tuple[str, ...]) -> bytes:
    """A byte per hexside step: climbs, crosses a barrier, crosses an enemy minefield (kept with the map)."""
    cache: dict[tuple[Side, tuple[str, ...]], bytes] = m.__dict__.setdefault("_kernel_edge_flags", {})
    key = (side, barriers)
    if key not in cache:
        cache[key] = bytes(
            EDGE_CLIMB * c | EDGE_BARRIER * t | EDGE_ENEMY_MINES * x
            for c, t, x in zip(m.climb_table, m.side_table(*barriers), m.enemy_mine_table(side), strict=True)
        )
    return cache[key]


def _packed(n: int, masks: Mapping[int, int]) -> tuple[bytes, int]:
    """Bitmasks by hex index as ``n`` times as many little-endian 64-bit words as the widest needs."""
    words = (max((v.bit_length() for v in masks.values()), default=0) + 63) // 64
    out = array("Q", bytes(8 * n * words))
    if words == 1:
        for i, v in masks.items():
            out[i] = v
    else:
        for i, v in masks.items():
            for w in range(words):
                out[i * words + w] = (v >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out.tobytes(), words


def _bitmasks(index: Mapping[Hex, int], members: Mapping[Hex, frozenset[Any]]) -> dict[int, int]:
    """For each hex index, its set of members as a bitmask (a bit per member, in sorted order)."""
    bit = {x: k for k, x in enumerate(sorted({x for v in members.values() for x in v}))}
    out: dict[int, int] = {}
    for h, v in members.items():
        i = index.get(h)
        if i is not None and v:
            out[i] = sum(1 << bit[x] for x in v)
    return out


def _kernel_tables(
    m: Map,
    side: Side,
    zoc: ZocMap,
    enemy_units: frozenset[Hex],
    friendly_units: frozenset[Hex],
    enemy_forts: frozenset[Hex],
    barriers: tuple[str, ...],
    zoc_forts: Mapping[Hex, frozenset[Hex]],
) -> KernelTables:
    index = m.index
    hflags = bytearray(len(m.hexes))
    for flag, where in ((HEX_ENEMY, enemy_units), (HEX_FRIEND, friendly_units), (HEX_FORT, enemy_forts), (HEX_ZOC, zoc.units)):
        for h in where:
            i = index.get(h)
            if i is not None:
                hflags[i] |= flag
    n = len(m.hexes)
    zoc_mask, zoc_words = _packed(n, zoc.masks if zoc.board is m else _bitmasks(index, zoc.units))
    fort_mask, fort_words = _packed(n, _bitmasks(index, zoc_forts) if zoc_forts else {})
    return KernelTables(grid(m), _edge_flags(m, side, barriers), bytes(hflags), zoc_mask, zoc_words, fort_mask, fort_words)


def side_tables(
    m: Map,
    side: Side,
    zoc: ZocMap,
    enemy_units: frozenset[Hex],
    friendly_units: frozenset[Hex],
    enemy_forts: frozenset[Hex],
    barriers: tuple[str, ...] = (Feature.TOWERING_ESCARPMENT,),
) -> SideTables:
    """A side's tables for the searches; ``barriers``: the hexside kinds no unit crosses off a road or track.

    Everything but the friendly units' marks depends on the enemy alone, so it is kept with the map under the
    enemy's units, forts and ZOC map (:func:`enemy_tables`) and the friendly marks are laid over it.  The searches
    themselves read the friends from their context, not these marks (see :func:`enemy_tables`).
    """
    base = enemy_tables(m, side, zoc, enemy_units, enemy_forts, barriers)
    index = m.index
    friend = [False] * len(m.hexes)
    hflags = bytearray(base.kernel.hflags)
    for h in friendly_units:
        i = index.get(h)
        if i is not None:
            friend[i] = True
            hflags[i] |= HEX_FRIEND
    return base.with_friends(tuple(friend), bytes(hflags))


def enemy_tables(
    m: Map,
    side: Side,
    zoc: ZocMap,
    enemy_units: frozenset[Hex],
    enemy_forts: frozenset[Hex],
    barriers: tuple[str, ...] = (Feature.TOWERING_ESCARPMENT,),
) -> SideTables:
    """A side's tables for the searches without its friendly units' marks, kept with the map under the enemy's units,
    forts and ZOC map (the same object while the enemy stands still: a whole movement phase).  This is all a
    :class:`MoveContext` needs: the searches read the friendly units from the context's ``friendly_units``, and only
    next to the start (the ZOC-to-ZOC exemption of the first step), so a position's moves need no tables of their
    own.  :func:`side_tables` lays the friends over them, for a caller that wants the whole board."""
    kept: dict[Hashable, tuple[ZocMap, SideTables]] = m.__dict__.setdefault("_enemy_side_tables", {})
    key = (side, enemy_units, enemy_forts, barriers, id(zoc))
    found = kept.get(key)
    if found is None or found[0] is not zoc:
        if len(kept) >= 64:
            kept.clear()
        found = kept[key] = (zoc, _enemy_side_tables(m, side, zoc, enemy_units, enemy_forts, barriers))
    return found[1]


_SERIALS: dict[Hashable, int] = {}
_NEXT_SERIAL = itertools.count(1)


def _serial(content: Hashable) -> int:
    """A number for a value, the same for equal values while it is remembered: a key that hashes at once. Numbers
    are never given twice, so forgetting (the table is emptied when it grows large) costs only a fresh search."""
    found = _SERIALS.get(content)
    if found is None:
        if len(_SERIALS) >= 4096:
            _SERIALS.clear()
        found = _SERIALS[content] = next(_NEXT_SERIAL)
    return found


def _enemy_side_tables(
    m: Map,
    side: Side,
    zoc: ZocMap,
    enemy_units: frozenset[Hex],
    enemy_forts: frozenset[Hex],
    barriers: tuple[str, ...],
) -> SideTables:
    """The tables of :func:`side_tables` but the friendly units' marks (which are left empty)."""
    friendly_units: frozenset[Hex] = frozenset()
    hexes, index = m.hexes, m.index
    # (a ZOC map made by zoc_map is told by what it was made from, on this board; one built by hand by its content)
    content = (
        zoc.source
        if zoc.source is not None and zoc.board is m
        else (frozenset(zoc.units.items()), frozenset((h, o & enemy_forts) for h, o in zoc.origins.items() if o & enemy_forts))
    )
    shared = _serial((id(m), side, enemy_units, enemy_forts, barriers, content))

    def marks(where: frozenset[Hex]) -> tuple[bool, ...]:  # built from the few marked hexes, not the whole map
        out = [False] * len(hexes)
        for h in where:
            i = index.get(h)
            if i is not None:
                out[i] = True
        return tuple(out)

    zoc_units: list[frozenset[str] | None] = [None] * len(hexes)
    zoc_forts: list[frozenset[Hex]] = [frozenset()] * len(hexes)
    forts_near: dict[Hex, frozenset[Hex]] = {}
    for h, ids in zoc.units.items():
        if h in index:
            zoc_units[index[h]] = ids
    for h, origins in zoc.origins.items():
        if h in index:
            zoc_forts[index[h]] = forts_near[h] = origins & enemy_forts
    return SideTables(
        index=index,
        hexes=hexes,
        nb=m.neighbour_table,
        route=m.route_table,
        climb=m.climb_table,
        towering=m.side_table(*barriers),
        enemy_mines=m.enemy_mine_table(side),
        land=m.land_table,
        enemy=marks(enemy_units),
        friend=marks(friendly_units),
        fort=marks(enemy_forts),
        zoc=tuple(zoc_units),
        zoc_forts=tuple(zoc_forts),
        kernel=_kernel_tables(m, side, zoc, enemy_units, friendly_units, enemy_forts, barriers, forts_near),
        shared=shared,
    )


def _tables(ctx: MoveContext) -> SideTables:
    if ctx.tables is not None:
        return ctx.tables
    cached: SideTables | None = ctx.__dict__.get("_tables")
    if cached is None:
        cached = side_tables(ctx.map, ctx.side, ctx.zoc, ctx.enemy_units, ctx.friendly_units, ctx.enemy_forts, ctx.barriers)
        ctx.__dict__["_tables"] = cached  # a frozen dataclass: cache beside the fields
    return cached


@lru_cache(maxsize=256)
def _kernel_params(
    rates: MovementRates,
    kinds: tuple[str, ...],
    free_steps: tuple[tuple[str, int], ...],
    free_total: int,
    directions: frozenset[Direction] | None,
) -> tuple[bytes, bytes, int, int]:
    if free_total:
        limits = dict(free_steps)
        lesser = {v for v in limits.values() if v < free_total}
        if len(lesser) > 1 or free_total > 7:
            raise ValueError("free hexes: at most 7 in all, and one lower limit shared by the lesser route kinds")
        low = lesser.pop() if lesser else 0
        marks = tuple(0 if limits.get(k, 0) == 0 else (2 if limits[k] < free_total else 1) for k in kinds)
    else:
        marks, low = (0,) * len(kinds), 0
    dirmask = 63 if directions is None else sum(1 << int(d) for d in directions)
    return array("i", _rate_table(rates, kinds)).tobytes(), bytes(marks), low, dirmask


@lru_cache(maxsize=256)
def _rate_table(rates: MovementRates, kinds: tuple[str, ...]) -> tuple[int, ...]:
    return rates.table(kinds)


# reasons a step is illegal (see _explain)
OFF_MAP, WRONG_WAY, ENEMY, TOWERING, ZOC_TO_ZOC, BOX_TO_BOX, NO_MF = range(1, 8)


# the search's state beside the hex: bit 0 entered an enemy ZOC; bits 1-3 free hexes used; bits 4-6 free
# hexes used along the lesser route kinds
AUX = 128


def _step(ctx: MoveContext, t: SideTables, i: int, d: int, spent: int, aux: int, first: bool) -> tuple[int, bool, int] | int:
    """One hex of movement from hex index ``i`` in direction ``d``: (spent, must stop, the new state bits),
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
    if first and zoc_there and ctx.zoc_stops and t.zoc[i] is not None and t.hexes[j] not in ctx.friendly_units:
        if t.zoc[i] & t.zoc[j]:  # type: ignore[operator]
            return ZOC_TO_ZOC
        if any(x != y for x in t.zoc_forts[i] for y in t.zoc_forts[j]):
            return BOX_TO_BOX
    cc = ctx.rates.cross_country
    if ctx.free_total and kind >= 0 and not zoc_there:
        marks, low = ctx.free_limits
        used, lesser = (aux >> 1) & 7, (aux >> 4) & 7
        if marks[kind] and used < ctx.free_total and (marks[kind] == 1 or lesser < low):
            lesser += marks[kind] == 2
            return spent, bool(t.fort[j]), (aux & 1) | ((used + 1) << 1) | (lesser << 4)
    rate = ctx.route_rates[kind] if kind >= 0 else cc
    if kind >= 0 and rate < cc and not zoc_there:
        new = spent + rate
    else:
        new = (-(-spent // MF) * MF if ctx.vehicle else spent) + cc
        if kind < 0 and t.climb[e]:
            new += ctx.ascent
    entered_now = bool(aux & 1) or zoc_there
    if new > (ctx.budget if entered_now else ctx.budget + ctx.bonus):
        return NO_MF
    return new, t.fort[j] or zoc_there, (aux & ~1) | entered_now


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
        side = Hexside.between(here, there)
        kind = next((f.kind for f in ctx.map.features(side) if f.kind in ctx.barriers), "towering-escarpment")
        return IllegalOrderError(ctx.clause("XI.D"), f"the {kind.replace('-', ' ')} {side} is impassable off road and track")
    if code == ZOC_TO_ZOC:
        # named by the hex it comes from, never by unit: the unit may be face down
        shared = sorted(ctx.zoc.origins.get(here, frozenset()) & ctx.zoc.origins.get(there, frozenset()))
        return IllegalOrderError(ctx.clause("XIII.B.3"), f"{here}-{there} moves from one ZOC of the enemy in {shared[0]} into another")
    if code == BOX_TO_BOX:
        return IllegalOrderError(ctx.clause("XI.A.3n"), f"{here}-{there} moves from the ZOC of one enemy box or fort into that of another")
    limit = ctx.budget if entered or there in ctx.zoc else ctx.budget + ctx.bonus
    return IllegalOrderError(
        ctx.clause("XIII.A.2"), f"not enough movement to enter {there} ({(limit - spent) / MF:g} MF left of {limit / MF:g})"
    )


def walk(ctx: MoveContext, path: Sequence[Hex]) -> Reach:
    """Check a whole path hex by hex; raise :class:`IllegalOrderError` at the first illegal step."""
    return _walked(ctx, path, None)


def walk_costs(ctx: MoveContext, path: Sequence[Hex]) -> tuple[int, ...]:
    """The MF (sixtieths) spent on a legal path up to each of its hexes (0 for the first), checked as :func:`walk`
    checks it, in one pass."""
    costs = [0]
    _walked(ctx, path, costs)
    return tuple(costs)


def _walked(ctx: MoveContext, path: Sequence[Hex], costs: list[int] | None) -> Reach:
    if not path or path[0] != ctx.start:
        raise IllegalOrderError(ctx.clause("XIII.A.1"), f"the path must start where the unit is, {ctx.start}")
    if len(path) < 2:
        raise IllegalOrderError(ctx.clause("XIII.A.1"), "a move needs at least one hex to enter")
    t = _tables(ctx)
    spent, aux, stopped, stop_rule = 0, 0, False, "XIII.B.1"
    for n, (here, there) in enumerate(itertools.pairwise(path)):
        if stopped:  # in an enemy ZOC (XIII.B.1), or in an enemy box or fort (XI.A.4)
            raise IllegalOrderError(ctx.clause(stop_rule), f"the unit had to stop in {here}")
        if not here.is_adjacent(there):
            raise IllegalOrderError(ctx.clause("XIII.A.2"), f"{here} and {there} are not adjacent")
        if there not in t.index:
            raise _explain(ctx, OFF_MAP, here, there, spent, bool(aux & 1))
        result = _step(ctx, t, t.index[here], here.direction_to(there), spent, aux, n == 0)
        if isinstance(result, int):
            raise _explain(ctx, result, here, there, spent, bool(aux & 1))
        spent, stopped, aux = result
        stop_rule = "XI.A.4" if stopped and t.fort[t.index[there]] else "XIII.B.1"
        if costs is not None:
            costs.append(spent)
    return Reach(path[-1], spent, tuple(path), bool(aux & 1))


class ReachResult(SearchResult[Reach]):
    """:func:`reach`'s answer: every end hex with its :class:`Reach`, built from the compiled search's arrays when
    read; ``ends`` are the end hexes' indices in the order the search first reached them."""

    __slots__ = ()

    def spent_of(self, j: int) -> int:
        """MF (sixtieths) spent to reach the ``j``-th end."""
        return int(self._costs[j])

    def entered_of(self, j: int) -> bool:
        """Did the way to the ``j``-th end enter an enemy ZOC?"""
        return bool(self._more[j])


def reach(ctx: MoveContext, game: Game | None = None) -> dict[Hex, Reach]:
    """:func:`reach_result`, typed as the dictionary the callers read (it is a read-only :class:`ReachResult`)."""
    return reach_result(ctx, game)


# a unit's searches, kept under their whole key (:meth:`MoveContext.reach_key`: everything the search reads), so
# the same search in another position or a copy of the game is answered at once
REACH: Cache[ReachResult] = Cache("reach", FIXED, size=4096)


def reach_result(ctx: MoveContext, game: Game | None = None) -> ReachResult:
    """Every hex the unit can end its move in, with the legal path leaving it the most MF.

    Dijkstra over states (hex, whether an enemy ZOC was entered, free hexes used), compiled (``_kernels.reach``,
    the rules of :func:`_step` step for step): every cost is monotone in the MF already spent, so the cheapest
    arrival in a state is never worse than a dearer one; of two ways to a hex the one leaving more MF (then
    spending less) wins. With a ``game``, an earlier answer for the same :meth:`MoveContext.reach_key` is reused
    (:data:`REACH`); answers are read-only, so it is shared.
    """
    if game is not None:
        return REACH.get(game, ctx.reach_key(), lambda: _search(ctx))
    return _search(ctx)


def _search(ctx: MoveContext) -> ReachResult:
    t = _tables(ctx)
    k = t.kernel
    rates, marks, low, dirmask = ctx.kernel_params
    hflags = k.hflags
    if ctx.reads_neighbours():  # the friends next to the start marked (the kernel reads no other friend)
        i = t.index[ctx.start]
        near = [j for j, friend in zip(t.nb[i * 6 : i * 6 + 6], ctx._friends_near_start(), strict=True) if friend]
        if near:
            marked = bytearray(hflags)
            for j in near:
                marked[j] |= HEX_FRIEND
            hflags = bytes(marked)
    answer = _kernels.reach(
        k.grid, k.eflags, hflags, k.zoc_mask, k.zoc_words, k.fort_mask, k.fort_words, t.index[ctx.start],
        ctx.budget, ctx.bonus, ctx.ascent, int(ctx.vehicle), int(ctx.zoc_stops), dirmask, ctx.rates.cross_country,
        rates, ctx.free_total, marks, low,
    )  # fmt: skip
    return ReachResult(t.hexes, answer, _make_reach, t.index)


def _make_reach(h: Hex, spent: int, entered: int, path: tuple[Hex, ...]) -> Reach:
    return Reach(h, spent, path, bool(entered))
