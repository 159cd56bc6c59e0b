"""Supply in the North-Africa campaign: the lines of CA-P.1 with CA-F.3 and CA-F.6, and what being out of supply
does (CA-P.2, CA-P.3).

A supply line is a chain of hexes each no farther from the nearest friendly unit than from the nearest enemy
unit.  The Axis line runs to the coastal road where it still leads back to the west edge, or to a town or oasis
in supply: one no more than 7 hexes from that road or from another town or oasis in supply.  The Allied line runs
to the coastal-road hex on the east edge.  No line enters ground no unit may enter (the sea, the Qattara floor,
the sand sea, the salt marsh: :mod:`.terrain`), nor a vacant enemy fortification (CA-F.3).  Each reading the
words leave open is decided once in docs/rulings.md ("North-Africa campaign: supply").

The rule code the supply phase and combat call works on a position given as plain hex indices of the map (the
index of :attr:`Map.hexes`): the friendly units' hexes, the enemy units' hexes and the enemy fortifications'.
It needs no game state, so the position model and the sequence wire it as they are built.  One call measures the
two distance fields once (a breadth-first search from all friendly units, one from all enemy units), marks the
hexes a line may use, and runs the family's supply search once from every source (:mod:`tobruk.mechanics.supply`,
compiled; a line has no length limit here, so its cost is only used to find a route); every unit's status is then
read off the answer.  :class:`SupplyGround` holds what the rules read of the map and is built once per map (and
per section, for a scenario played on part of it).
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.sides import Side
from tobruk.mechanics.supply import SupplyContext, SupplyResult, entry_steps, trace_result
from tobruk.systems.campaign.terrain import enterable

CHAIN_LINK = 7  # CA-P.1: the farthest a town or oasis may be from the road or from the next town, in hexes
COASTAL_ROAD = "coastal-road"  # the map's zone of the coastal road (the Via Balbia and the Egyptian coast road)
TOWNS_OASES = "towns-oases"  # the map's zone of the towns and oases (CA-F.6)
FAR = 1 << 30  # a distance no unit is at: the side has no unit on the map
NO_LIMIT = 1 << 30  # a supply line's length is not limited (CA-P.1); the search's own cap


@dataclass(frozen=True, eq=False)
class SupplyGround:
    """What the supply rules read of a map, or of the section a scenario is played on, as integer tables.

    ``open[i]`` is 1 where a line may run whatever the position (a land hex no unit is barred from, inside the
    section); ``road`` the coastal road's hexes in the section, in order from its west end to its east end;
    ``towns`` the towns and oases a line may reach; ``town_road[t][k]`` the distance in hexes from town ``t`` to
    the nearest of ``road[0..k]``, and ``town_town`` the distances between towns, so that a determination
    measures no distance between places."""

    map: Map
    open: bytes
    road: tuple[int, ...]
    towns: tuple[int, ...]
    town_road: tuple[tuple[int, ...], ...]
    town_town: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def west_end(self) -> int:
        """CA-P.1, CA-R.4: the coastal road hex at the west edge, where the Axis line leads back to."""
        return self.road[0]

    @property
    def east_end(self) -> int:
        """CA-P.1, CA-R.4: the coastal road hex at the east edge, the end of every Allied line."""
        return self.road[-1]

    def hex(self, i: int) -> Hex:
        return self.map.hexes[i]

    def label(self, i: int) -> str:
        return self.map.hexes[i].label


def supply_ground(m: Map, section: Collection[Hex] | None = None) -> SupplyGround:
    """The supply ground of ``m`` (kept with the map), or of a ``section`` of it: a scenario played on part of the map
    has its own edges (docs/rulings.md), so its road ends are the coastal road's first and last hexes inside it and
    no line leaves it."""
    key = None if section is None else frozenset(section)
    kept: dict[frozenset[Hex] | None, SupplyGround] = m.__dict__.setdefault("_campaign_supply_ground", {})
    found = kept.get(key)
    if found is None:
        found = kept[key] = _build(m, key)
    return found


def _build(m: Map, section: frozenset[Hex] | None) -> SupplyGround:
    index = m.index
    inside = (lambda h: True) if section is None else section.__contains__
    open_ = bytes(1 if enterable(m, h) and inside(h) else 0 for h in m.hexes)
    road = [index[h] for h in _coastal_road(m) if inside(h)]
    if not road:
        raise ValueError(f"map {m.name!r}: no coastal road in the section (CA-P.1)")
    towns = tuple(sorted(index[h] for h in m.zones.get(TOWNS_OASES, frozenset()) if open_[index[h]]))
    hexes = m.hexes
    town_road = []
    for t in towns:
        nearest, row = FAR, []
        for r in road:
            nearest = min(nearest, hexes[t].distance(hexes[r]))
            row.append(nearest)
        town_road.append(tuple(row))
    town_town = tuple(tuple(hexes[a].distance(hexes[b]) for b in towns) for a in towns)
    table = m.neighbour_table
    neighbours = tuple(tuple(j for j in table[i * 6 : i * 6 + 6] if j >= 0) for i in range(len(hexes)))
    return SupplyGround(m, open_, tuple(road), towns, tuple(town_road), town_town, neighbours)


def _coastal_road(m: Map) -> list[Hex]:
    """The coastal road's hexes in order from the Axis source (its west end) along the road to its other end."""
    zone = m.zone(COASTAL_ROAD)
    start = next((h for h in m.supply_sources.get(Side.AXIS, ()) if h in zone), None)
    if start is None:
        raise ValueError(f"map {m.name!r}: the Axis supply source is not on the coastal road (CA-P.1)")
    order, seen = [start], {start}
    while True:
        nexts = [n for n in m.neighbours(order[-1]) if n in zone and n not in seen and m.route(order[-1], n) is not None]
        if not nexts:
            break
        if len(nexts) > 1:
            raise ValueError(f"map {m.name!r}: the coastal road forks at {order[-1]} (CA-P.1 needs one road)")
        order.append(nexts[0])
        seen.add(nexts[0])
    return order


def distances(ground: SupplyGround, starts: Iterable[int]) -> array[int]:
    """Each hex's distance in hexes to the nearest of ``starts`` (FAR if there is none), counted across the whole board,
    sea and impassable ground included: on the rectangular board that is the distance as the crow flies."""
    out = array("i", [FAR]) * len(ground.neighbours)
    todo: deque[int] = deque()
    for s in starts:
        if out[s] != 0:
            out[s] = 0
            todo.append(s)
    neighbours = ground.neighbours
    while todo:
        i = todo.popleft()
        d = out[i] + 1
        for j in neighbours[i]:
            if out[j] > d:
                out[j] = d
                todo.append(j)
    return out


@dataclass(frozen=True, slots=True)
class UnitSupply:
    """One unit's supply: its hex, whether it is in supply, the clause that decides and why (for a unit out of
    supply, the line it lacks), and its line as hex indices from the source to its hex (empty when out)."""

    unit: str
    hex: int
    supplied: bool
    clause: str
    reason: str
    route: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class SupplyLines:
    """A side's supply lines in one position: which hexes a line may use, the sources (the road leading back, the
    towns and oases in supply) and every hex a line reaches (:meth:`supplied`)."""

    ground: SupplyGround
    side: Side
    usable: bytes  # 1: a line may run through the hex now
    road: tuple[int, ...]  # the part of the coastal road that is a source now
    towns: frozenset[int]  # the towns and oases in supply (the Axis only)
    reached: bytes  # 1: a line reaches the hex
    search: SupplyResult
    forts: frozenset[int]  # the enemy fortifications that close their hexes (vacant of friendly units)
    near_enough: bytes  # 1: the hex passes the distance test (CA-P.1), whatever else closes it

    def supplied(self, i: int) -> bool:
        return bool(self.reached[i])

    def supplied_hexes(self) -> frozenset[int]:
        return frozenset(i for i, r in enumerate(self.reached) if r)

    def route(self, i: int) -> tuple[int, ...]:
        """The line of the hex, as hex indices from its source (a road hex or a town in supply) to the hex."""
        j = self.search.position(self.ground.hex(i))
        return () if j is None else self.search.path_indices(j)

    def target(self) -> str:
        g = self.ground
        if self.side is Side.AXIS:
            return f"the coastal road leading back to the west edge ({g.label(g.west_end)}) or a town or oasis in supply"
        return f"the coastal-road hex on the east edge ({g.label(g.east_end)})"

    def status(self, units: Mapping[str, int]) -> dict[str, UnitSupply]:
        """Each unit's :class:`UnitSupply`, by unit id, from its hex index."""
        out: dict[str, UnitSupply] = {}
        for uid, i in units.items():
            if self.reached[i]:
                route = self.route(i)
                src = route[0] if route else i
                how = "the coastal road" if src in self.road else "a town or oasis in supply"
                out[uid] = UnitSupply(uid, i, True, "CA-P.1", f"a line from {self.ground.label(src)} ({how})", route)
            else:
                out[uid] = self._shortfall(uid, i)
        return out

    def _shortfall(self, uid: str, i: int) -> UnitSupply:
        """Why the unit at ``i`` is out of supply: CA-F.3 when a vacant enemy fortification it could otherwise pass
        closes its only way, else CA-P.1."""
        g = self.ground
        where = g.label(i)
        if not g.open[i]:
            return UnitSupply(uid, i, False, "CA-P.1", f"{where} is ground no supply line may enter")
        border = self._border(i)
        forts = sorted(f for f in border if f in self.forts and self.near_enough[f])
        if forts:
            others = frozenset(f for f in self.forts if f not in forts)
            opened = _with_forts(self, others)
            if opened.reached[i]:
                names = ", ".join(g.label(f) for f in forts)
                return UnitSupply(uid, i, False, "CA-F.3", f"the enemy fortification at {names} closes its line to {self.target()}")
        line = "no line of hexes, each no nearer an enemy unit than a friendly one"
        return UnitSupply(uid, i, False, "CA-P.1", f"{line}, from {where} reaches {self.target()}")

    def _border(self, i: int) -> set[int]:
        """The closed hexes bordering those a line from ``i`` may reach."""
        region, border, todo = {i}, set(), [i]
        usable, neighbours = self.usable, self.ground.neighbours
        while todo:
            k = todo.pop()
            for j in neighbours[k]:
                if j in region or j in border:
                    continue
                if usable[j]:
                    region.add(j)
                    todo.append(j)
                else:
                    border.add(j)
        return border


def trace(
    ground: SupplyGround, side: Side, friends: Collection[int], enemies: Collection[int], enemy_forts: Collection[int] = ()
) -> SupplyLines:
    """``side``'s supply lines with its units on hex indices ``friends``, the enemy's on ``enemies`` and the enemy's
    fortifications (forts or boxes, occupied or not) on ``enemy_forts`` (CA-P.1, CA-F.3, CA-F.6)."""
    friendly = frozenset(friends)
    hostile = frozenset(enemies)
    clash = friendly & hostile
    if clash:
        raise ValueError(f"opposing units share {ground.label(min(clash))} (CA-M.1)")
    df, de = distances(ground, friendly), distances(ground, hostile)
    near = bytes(1 if ground.open[i] and df[i] <= de[i] else 0 for i in range(len(df)))
    forts = frozenset(f for f in enemy_forts if f not in friendly)  # CA-F.3: unless a friendly unit occupies it
    return _lines(ground, side, near, forts)


def _with_forts(lines: SupplyLines, forts: frozenset[int]) -> SupplyLines:
    return _lines(lines.ground, lines.side, lines.near_enough, forts)


def _lines(ground: SupplyGround, side: Side, near: bytes, forts: frozenset[int]) -> SupplyLines:
    usable = bytearray(near)
    for f in forts:
        usable[f] = 0
    usable_ = bytes(usable)
    if side is Side.AXIS:
        road = _road_back(ground.road, usable_)
        towns = _towns_in_supply(ground, usable_, len(road))
        sources = (*road, *sorted(towns))
    else:
        road = (ground.east_end,) if usable_[ground.east_end] else ()
        towns = frozenset()
        sources = road
    m = ground.map
    state = bytes(0 if u else 2 for u in usable_)
    ctx = SupplyContext.of_steps(m, frozenset(m.hexes[s] for s in sources), entry_steps(m, state))
    search = trace_result(ctx, NO_LIMIT)
    reached = bytearray(len(usable_))
    for i in search.ends:
        reached[i] = 1
    return SupplyLines(ground, side, usable_, road, towns, bytes(reached), search, forts, near)


def _road_back(road: Sequence[int], usable: bytes) -> tuple[int, ...]:
    """CA-P.1: the coastal road still leads back to the west edge from its west end up to the first hex a line may
    not use; beyond that hex it leads nowhere."""
    out: list[int] = []
    for r in road:
        if not usable[r]:
            break
        out.append(r)
    return tuple(out)


def _towns_in_supply(ground: SupplyGround, usable: bytes, road_length: int) -> frozenset[int]:
    """CA-P.1, CA-F.6: the towns and oases a line may use that lie within 7 hexes of the road leading back, or of
    another such town or oasis, link by link (each link counted in hexes, as the crow flies)."""
    live = [k for k, t in enumerate(ground.towns) if usable[t]]
    found: set[int] = set()
    if road_length:
        found = {k for k in live if ground.town_road[k][road_length - 1] <= CHAIN_LINK}
    todo = list(found)
    while todo:
        k = todo.pop()
        for other in live:
            if other not in found and ground.town_town[k][other] <= CHAIN_LINK:
                found.add(other)
                todo.append(other)
    return frozenset(ground.towns[k] for k in found)


# --- what being out of supply does (CA-P.2, CA-P.3) -----------------------------------------------------------------


def odds_shift(attackers_supplied: Iterable[bool], defenders_supplied: Iterable[bool]) -> int:
    """CA-P.2: the columns an attack's odds move for supply, with each unit's status at the moment of the attack: one
    down if any attacking unit is out of supply, one up if any defending unit is; both apply, and cancel."""
    down = 0 if all(attackers_supplied) else -1
    up = 0 if all(defenders_supplied) else 1
    return down + up


def may_recover(supplied: bool) -> bool:
    """CA-P.1: a unit out of supply is not recovered from disruption (its status traced when recovery comes)."""
    return supplied


class SupplyOutcome(Enum):
    """What a supply status determination does to one unit (CA-P.3)."""

    NONE = "none"
    DISRUPTED = "disrupted"
    ELIMINATED = "eliminated"


def determination(supplied: bool, disrupted: bool) -> SupplyOutcome:
    """CA-P.3: in its side's supply status determination a unit out of supply is eliminated if it is already
    disrupted and disrupted if it is not; a unit in supply is untouched."""
    if supplied:
        return SupplyOutcome.NONE
    return SupplyOutcome.ELIMINATED if disrupted else SupplyOutcome.DISRUPTED


def determine(lines: SupplyLines, units: Mapping[str, int], disrupted: Collection[str]) -> dict[str, tuple[SupplyOutcome, UnitSupply]]:
    """CA-P.3 for every unit of the side at once: one trace for the phase, so a unit the phase eliminates changes no
    other unit's status, and a unit it disrupts is not then eliminated."""
    status = lines.status(units)
    return {uid: (determination(s.supplied, uid in disrupted), s) for uid, s in status.items()}
