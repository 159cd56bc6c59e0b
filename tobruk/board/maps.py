"""The board: terrain per hex, hexside features, roads and tracks, places, sources, boxes.

A :class:`Map` is built once (from a map data file or an inline scenario map), validated,
then frozen.  Rule code asks it questions by :class:`Hex`; hot loops (reach and supply
searches) use the precomputed integer tables: hex index, neighbour index by direction,
route kind and hexside feature bits by ``index * 6 + direction``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.engine.sides import Side

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")  # terrain, route and feature names: words joined by '-'


class Terrain:
    """Terrain names the maps of this family use.  The set is open: a map may name any terrain (``deir``,
    ``ridge``...) and each game system's charts say what it does; the engine knows only sea and clear."""

    CLEAR = "clear"
    SEA = "sea"
    TOWN = "town"
    VILLAGE = "village"
    HILL = "hill"
    MOUNTAIN = "mountain"  # full-hex mountains (the Jebel Akhdar)
    OASIS = "oasis"
    DEPRESSION = "depression"  # the floor of the Qattara Depression: salt marsh no army crossed
    SAND_SEA = "sand-sea"  # dune seas (the Great Sand Sea)
    SALT_MARSH = "salt-marsh"  # sebkhas (the marshes of the El Agheila position)


class RouteKind:
    """Road and track names; a map lists the kinds it uses best first (:attr:`Map.route_kinds`)."""

    ROAD = "road"
    MAJOR_TRACK = "major-track"
    MINOR_TRACK = "minor-track"


ROUTE_KINDS = (RouteKind.ROAD, RouteKind.MAJOR_TRACK, RouteKind.MINOR_TRACK)  # the usual kinds, best first


class Feature:
    """Hexside feature names the maps of this family use (the set is open, as for terrain)."""

    ESCARPMENT = "escarpment"
    TOWERING_ESCARPMENT = "towering-escarpment"
    RIDGE = "ridge"
    MINEFIELD = "minefield"  # needs the side that laid it (``owner``)
    PERIMETER = "perimeter"  # a fortress perimeter: needs the hex ``inside``
    IMPASSABLE_ESCARPMENT = "impassable-escarpment"  # crossed only by road
    PASS = "pass"  # lets a unit up or down a passable escarpment at the ordinary cost
    FORTIFIED = "fortified"  # a side a fortification's defences faced: needs the hex ``inside`` and its ``owner``


HIGH_SIDED = (Feature.ESCARPMENT, Feature.TOWERING_ESCARPMENT, Feature.IMPASSABLE_ESCARPMENT)  # need a high side
CLIMBED = (Feature.ESCARPMENT, Feature.TOWERING_ESCARPMENT)  # cost more to climb


@dataclass(frozen=True, slots=True)
class SideFeature:
    """One feature on a hexside.

    ``high`` is the hex atop an escarpment; ``owner`` the side that laid a minefield or holds a fortified
    side; ``inside`` the hex inside a fortress perimeter or behind a fortified side.  Other kinds leave them
    ``None``.
    """

    kind: str
    high: Hex | None = None
    owner: Side | None = None
    inside: Hex | None = None


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    hex: Hex
    kind: str = "place"


@dataclass(frozen=True, slots=True)
class RouteLine:
    """A named road or track as drawn: a chain of adjacent hexes."""

    kind: str
    name: str
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class Railhead:
    """A railhead by date: the hex the railway ends in from ``date`` (ISO) on, until a later one.

    ``turn`` is the half-month game turn that contains the date (``"II Nov 41"``), for reading
    against a turn track; the railway itself is :attr:`Map.railway`.
    """

    name: str
    hex: Hex
    date: str
    turn: str


@dataclass(frozen=True, slots=True)
class MovementRates:
    """Cost in sixtieths of a movement factor of one hex along each route kind (by name), and off-route."""

    along_route: tuple[tuple[str, int], ...]
    cross_country: int = 60

    @classmethod
    def of(cls, cross_country: int = 60, **kinds: int) -> MovementRates:
        """``MovementRates.of(road=15, major_track=20)``: keyword names with '_' for '-'."""
        return cls(tuple((k.replace("_", "-"), v) for k, v in kinds.items()), cross_country)

    def along(self, kind: str | None) -> int:
        if kind is None:
            return self.cross_country
        return dict(self.along_route).get(kind, self.cross_country)

    def table(self, route_kinds: tuple[str, ...]) -> tuple[int, ...]:
        """The rates in the order of a map's route kinds (its route table's values index this)."""
        return tuple(self.along(k) for k in route_kinds)


@dataclass(frozen=True, eq=False)
class Map:
    """A validated, frozen game board.  Build with :func:`build_map` (or load a map file)."""

    name: str
    terrain: Mapping[Hex, str]
    hexsides: Mapping[Hexside, tuple[SideFeature, ...]]
    routes: Mapping[Hexside, str]
    route_lines: tuple[RouteLine, ...] = ()
    places: tuple[Place, ...] = ()
    supply_sources: Mapping[Side, tuple[Hex, ...]] = field(default_factory=dict)
    fortifications: Mapping[Hex, Side] = field(default_factory=dict)
    zones: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    railway: tuple[Hex, ...] = ()
    railheads: tuple[Railhead, ...] = ()
    route_kinds: tuple[str, ...] = ROUTE_KINDS  # best first

    # --- membership and geometry -----------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    @cached_property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the board, sea included, in reading order."""
        return tuple(sorted(self.terrain))

    @cached_property
    def index(self) -> Mapping[Hex, int]:
        return MappingProxyType({h: i for i, h in enumerate(self.hexes)})

    @cached_property
    def rows(self) -> int:
        return max(h.row for h in self.hexes) + 1

    @cached_property
    def columns(self) -> int:
        return max(h.col for h in self.hexes) + 1

    def is_land(self, h: Hex) -> bool:
        return self.terrain.get(h, Terrain.SEA) != Terrain.SEA

    def neighbours(self, h: Hex) -> list[Hex]:
        """Neighbours on the board (sea included)."""
        return [n for n in h.neighbours() if n in self.terrain]

    def edge(self, compass: str) -> frozenset[Hex]:
        """Land hexes on one map edge: ``north``, ``south``, ``east`` or ``west``.

        A hex is on the east edge when its east neighbour is off the board, and likewise
        for the west; north and south are the first and last rows.
        """
        if compass not in self._edges:
            self._edges[compass] = self._edge(compass)
        return self._edges[compass]

    @cached_property
    def _edges(self) -> dict[str, frozenset[Hex]]:
        return {}

    def _edge(self, compass: str) -> frozenset[Hex]:
        if compass == "north":
            return frozenset(h for h in self.hexes if h.row == 0 and self.is_land(h))
        if compass == "south":
            return frozenset(h for h in self.hexes if h.row == self.rows - 1 and self.is_land(h))
        probe = {"east": Direction.E, "west": Direction.W}.get(compass)
        if probe is None:
            raise ValueError(f"no such map edge: {compass!r} (north, south, east, west)")
        return frozenset(h for h in self.hexes if h.neighbour(probe) not in self.terrain and self.is_land(h))

    # --- features -----------------------------------------------------------------------------
    def features(self, side: Hexside) -> tuple[SideFeature, ...]:
        return self.hexsides.get(side, ())

    def feature(self, a: Hex, b: Hex, kind: str) -> SideFeature | None:
        for f in self.hexsides.get(Hexside.between(a, b), ()):
            if f.kind == kind:
                return f
        return None

    def route(self, a: Hex, b: Hex) -> str | None:
        """The best road or track joining two adjacent hexes, if any."""
        return self.routes.get(Hexside.between(a, b))

    def on_route(self, h: Hex) -> bool:
        return any(Hexside.of(h, d) in self.routes for d in Direction)

    def road_net(self, starts: Iterable[Hex]) -> frozenset[Hex]:
        """The hexes reachable from ``starts`` along roads and tracks (the starts included)."""
        net = {h for h in starts if h in self.terrain}
        todo = list(net)
        while todo:
            h = todo.pop()
            for n in self.neighbours(h):
                if n not in net and self.route(h, n) is not None:
                    net.add(n)
                    todo.append(n)
        return frozenset(net)

    def railhead(self, date: str) -> Railhead | None:
        """The railhead in force on an ISO ``date`` (the latest one opened by then), if any."""
        current = None
        for r in sorted(self.railheads, key=lambda r: r.date):
            if r.date <= date:
                current = r
        return current

    def places_in(self, h: Hex) -> tuple[Place, ...]:
        return tuple(p for p in self.places if p.hex == h)

    def place(self, name: str) -> Place:
        for p in self.places:
            if p.name == name:
                return p
        raise KeyError(name)

    def zone(self, name: str) -> frozenset[Hex]:
        try:
            return self.zones[name]
        except KeyError:
            raise KeyError(f"map {self.name!r} has no zone {name!r}") from None

    # --- precomputed integer tables for hot loops ---------------------------------------------
    @cached_property
    def neighbour_table(self) -> tuple[int, ...]:
        """``table[i * 6 + d]``: index of the neighbour of hex ``i`` in direction ``d``, or -1."""
        idx = self.index
        return tuple(idx.get(n, -1) for h in self.hexes for n in h.neighbours())

    @cached_property
    def route_table(self) -> tuple[int, ...]:
        """``table[i * 6 + d]``: the index in :attr:`route_kinds` of the route across that hexside, or -1."""
        rank = {k: i for i, k in enumerate(self.route_kinds)}
        return tuple(rank[self.routes[s]] if (s := Hexside.of(h, d)) in self.routes else -1 for h in self.hexes for d in Direction)

    def side_table(self, *kinds: str) -> tuple[bool, ...]:
        """``table[i * 6 + d]``: the hexside carries a feature of one of ``kinds``."""
        key = ("side", kinds)
        if key not in self._tables:
            self._tables[key] = tuple(
                any(f.kind in kinds for f in self.hexsides.get(Hexside.of(h, d), ())) for h in self.hexes for d in Direction
            )
        return self._tables[key]

    def climb_table_of(self, *kinds: str) -> tuple[bool, ...]:
        """``table[i * 6 + d]``: the step from hex ``i`` in direction ``d`` goes up onto the high side of a
        feature of one of ``kinds``."""
        key = ("climb", kinds)
        if key not in self._tables:
            self._tables[key] = tuple(
                any(f.kind in kinds and f.high == h.neighbour(d) for f in self.hexsides.get(Hexside.of(h, d), ()))
                for h in self.hexes
                for d in Direction
            )
        return self._tables[key]

    @cached_property
    def _tables(self) -> dict[tuple[str, tuple[str, ...]], tuple[bool, ...]]:
        return {}

    @cached_property
    def climb_table(self) -> tuple[bool, ...]:
        """``table[i * 6 + d]``: the step climbs an escarpment (ordinary or towering)."""
        return self.climb_table_of(*CLIMBED)

    @cached_property
    def towering_table(self) -> tuple[bool, ...]:
        """``table[i * 6 + d]``: a towering escarpment on that hexside."""
        return self.side_table(Feature.TOWERING_ESCARPMENT)

    @cached_property
    def _enemy_mine_tables(self) -> dict[Side, tuple[bool, ...]]:
        return {side: tuple(o is not None and o is not side for o in self.mine_table) for side in Side}

    def enemy_mine_table(self, side: Side) -> tuple[bool, ...]:
        """``table[i * 6 + d]``: is there a minefield of ``side``'s enemy on that hexside?"""
        return self._enemy_mine_tables[side]

    @cached_property
    def mine_table(self) -> tuple[Side | None, ...]:
        """``table[i * 6 + d]``: the owner of a minefield on that hexside, if any."""
        out: list[Side | None] = []
        for h in self.hexes:
            for d in Direction:
                owner = None
                for f in self.hexsides.get(Hexside.of(h, d), ()):
                    if f.kind == Feature.MINEFIELD:
                        owner = f.owner
                out.append(owner)
        return tuple(out)

    @cached_property
    def land_table(self) -> tuple[bool, ...]:
        return tuple(self.is_land(h) for h in self.hexes)

    def edge_costs(self, rates: MovementRates) -> tuple[int, ...]:
        """``table[i * 6 + d]``: sixtieths of an MF to step that way at the route (or off-road) rate.

        -1 where the step leaves the board or enters the sea.  Escarpments and zones of
        control are rules, applied by the movement code on top of this table.
        """
        cache = self._cost_cache
        if rates not in cache:
            land = [self.is_land(h) for h in self.hexes]
            out = []
            for i, n in enumerate(self.neighbour_table):
                if n < 0 or not land[n]:
                    out.append(-1)
                    continue
                kind = self.route_table[i]
                out.append(rates.along(self.route_kinds[kind] if kind >= 0 else None))
            cache[rates] = tuple(out)
        return cache[rates]

    @cached_property
    def _cost_cache(self) -> dict[MovementRates, tuple[int, ...]]:
        return {}


class MapError(ValueError):
    """A map that fails validation: ``field`` is the part at fault."""

    def __init__(self, field_name: str, problem: str) -> None:
        self.field = field_name
        self.problem = problem
        super().__init__(f"{field_name}: {problem}")


def build_map(
    name: str,
    terrain: Mapping[Hex, str],
    *,
    hexsides: Mapping[Hexside, Iterable[SideFeature]] | None = None,
    routes: Iterable[RouteLine] = (),
    places: Iterable[Place] = (),
    supply_sources: Mapping[Side, Iterable[Hex]] | None = None,
    fortifications: Mapping[Hex, Side] | None = None,
    zones: Mapping[str, Iterable[Hex]] | None = None,
    railway: Iterable[Hex] = (),
    railheads: Iterable[Railhead] = (),
    route_kinds: tuple[str, ...] = ROUTE_KINDS,
) -> Map:
    """Validate the parts of a board and freeze them into a :class:`Map`.

    ``routes`` are chains of hexes, each adjacent to the next; a hexside on two routes
    keeps the better kind.  Raises :class:`MapError` naming the offending part.
    """
    terrain = dict(terrain)
    if not terrain:
        raise MapError("terrain", "a map needs at least one hex")
    for h, kind in terrain.items():
        if not NAME.match(kind):
            raise MapError("terrain", f"{h}: {kind!r} is not a terrain name (lowercase words joined by '-')")
    rank = {k: i for i, k in enumerate(route_kinds)}

    def on_board(what: str, h: Hex) -> Hex:
        if h not in terrain:
            raise MapError(what, f"{h} is not on the map")
        return h

    route_map: dict[Hexside, str] = {}
    lines = tuple(routes)
    for n, line in enumerate(lines):
        kind, hexes = line.kind, list(line.hexes)
        if kind not in rank:
            raise MapError(f"route[{n}]", f"{kind!r} is not one of the map's route kinds ({', '.join(route_kinds)})")
        if len(hexes) < 2:
            raise MapError(f"route[{n}]", "a route needs at least two hexes")
        for a, b in itertools.pairwise(hexes):
            on_board(f"route[{n}]", a)
            on_board(f"route[{n}]", b)
            if not a.is_adjacent(b):
                raise MapError(f"route[{n}]", f"{a} and {b} are not adjacent (a route is a chain of hexes)")
            if terrain[a] == Terrain.SEA or terrain[b] == Terrain.SEA:
                raise MapError(f"route[{n}]", f"{a}-{b} runs through the sea")
            side = Hexside.between(a, b)
            route_map[side] = min(kind, route_map.get(side, kind), key=rank.__getitem__)

    side_map: dict[Hexside, tuple[SideFeature, ...]] = {}
    for side, feats in (hexsides or {}).items():
        a, b = side.hexes
        if a not in terrain and b not in terrain:
            raise MapError("hexsides", f"{side} is not on the map")
        clean: list[SideFeature] = []
        for f in feats:
            if not NAME.match(f.kind):
                raise MapError("hexsides", f"{side}: {f.kind!r} is not a feature name (lowercase words joined by '-')")
            if f.kind in HIGH_SIDED and f.high not in (a, b):
                raise MapError("hexsides", f"{f.kind} {side}: its high side must be {a} or {b}, not {f.high}")
            if f.kind == Feature.MINEFIELD and f.owner is None:
                raise MapError("hexsides", f"minefield {side}: needs the side that owns it")
            if f.kind == Feature.PERIMETER and f.inside not in (a, b):
                raise MapError("hexsides", f"perimeter {side}: its inside must be {a} or {b}, not {f.inside}")
            if f.kind == Feature.FORTIFIED and (f.inside not in (a, b) or f.owner is None):
                raise MapError("hexsides", f"fortified {side}: needs its inside ({a} or {b}, not {f.inside}) and its owner")
            if any(g.kind == f.kind for g in clean):
                raise MapError("hexsides", f"{side} carries {f.kind} twice")
            clean.append(f)
        if clean:
            side_map[side] = tuple(clean)

    place_list = tuple(places)
    for p in place_list:
        on_board(f"place {p.name!r}", p.hex)
    sources = {s: tuple(on_board(f"supply.{s}", h) for h in hs) for s, hs in (supply_sources or {}).items()}
    forts = {on_board("fortifications", h): s for h, s in (fortifications or {}).items()}
    zone_map = {z: frozenset(on_board(f"zones.{z}", h) for h in hs) for z, hs in (zones or {}).items()}
    rail = tuple(railway)
    for a, b in itertools.pairwise(rail):
        if not on_board("railway", a).is_adjacent(on_board("railway", b)):
            raise MapError("railway", f"{a} and {b} are not adjacent (the railway is a chain of hexes)")
    heads = tuple(railheads)
    for rh in heads:
        if rh.hex not in rail:
            raise MapError(f"railhead {rh.name!r}", f"{rh.hex} is not on the railway")
    for what, hexes in (("supply", [h for hs in sources.values() for h in hs]), ("fortifications", list(forts)), ("railway", list(rail))):
        for h in hexes:
            if terrain[h] == Terrain.SEA:
                raise MapError(what, f"{h} is a sea hex")

    return Map(
        name=name,
        terrain=MappingProxyType(terrain),
        hexsides=MappingProxyType(side_map),
        routes=MappingProxyType(route_map),
        route_lines=lines,
        places=place_list,
        supply_sources=MappingProxyType(sources),
        fortifications=MappingProxyType(forts),
        zones=MappingProxyType(zone_map),
        railway=rail,
        railheads=heads,
        route_kinds=tuple(route_kinds),
    )
