"""Geography once, maps many: the geographic dataset and its rasterising onto a game's hex grid.

The dataset (``data/geo/*.toml``) holds places with latitude/longitude, confidence and
source, and lines (roads, tracks, escarpments, ridges, minefields, fortress perimeters)
as lat/lon polylines.  A game's *georeference* (centre of A1, hex size, reference
latitude) places its grid on the ground.  :func:`rasterise` turns the two into a
:class:`tobruk.board.maps.Map`; ``tobruk build-map`` writes that as the game's committed map file.

Rasterising rules (documented in ``docs/reconstruction.md``):

* a road or track becomes the chain of hexes its line passes through;
* a hexside gets an escarpment, ridge, minefield or perimeter when the line crosses the
  segment joining the two hex centres; the high side, inside, or owner follows from data;
* a hex is sea when less than ``land_threshold`` of it is land in the land mask
  (hexes carrying a road or place stay land);
* a fortification's hex carries a ``fortified`` hexside feature on each side its ``fortified`` facings
  (directions, north to north-west) cover, the hex inside (:mod:`tobruk.geography.extra`).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tobruk.board.hexes import Direction, Hex, Hexside, line
from tobruk.board.layout import SQRT3, Layout
from tobruk.board.maps import (
    HIGH_SIDED,
    NAME,
    ROUTE_KINDS,
    Feature,
    Map,
    Place,
    Railhead,
    RouteKind,
    RouteLine,
    SideFeature,
    Terrain,
    build_map,
)
from tobruk.engine.sides import SIDES, Side
from tobruk.geography.extra import (
    GeoArea,
    GeoRailhead,
    add_fortified_sides,
    add_pass,
    area_hexes,
    nearest_escarpment_side,
    railway_chain,
    read_areas,
    read_facings,
    read_railheads,
    snap_railhead,
)
from tobruk.loading.datafile import Table, read_packaged_toml
from tobruk.loading.mapfile import grid_hexes

# place kinds that give their hex its terrain, by rank (a town outranks a village outranks a hill); a
# grid may give its own in [place_terrain]
PLACE_TERRAIN = {Terrain.TOWN: 3, Terrain.VILLAGE: 2, Terrain.HILL: 1}

LatLon = tuple[float, float]
COMPASS = {"north": (0.0, -1.0), "south": (0.0, 1.0), "east": (1.0, 0.0), "west": (-1.0, 0.0)}


@dataclass(frozen=True, slots=True)
class GeoPlace:
    name: str
    lat: float
    lon: float
    confidence: str
    source: str
    kind: str = "place"
    fortification: Side | None = None
    fortified: tuple[str, ...] = ()  # the directions its defences faced (a fortification's closed sides)


@dataclass(frozen=True, slots=True)
class GeoRoute:
    name: str
    kind: str
    points: tuple[LatLon, ...]
    confidence: str
    source: str


@dataclass(frozen=True, slots=True)
class GeoLine:
    """An escarpment, ridge, minefield or perimeter as a polyline (``closed`` for a ring)."""

    name: str
    kind: str
    points: tuple[LatLon, ...]
    confidence: str
    source: str
    high: str | None = None
    owner: Side | None = None
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Geography:
    name: str
    places: tuple[GeoPlace, ...]
    routes: tuple[GeoRoute, ...]
    lines: tuple[GeoLine, ...]
    sources: dict[str, str]
    areas: tuple[GeoArea, ...] = ()
    railways: tuple[GeoRoute, ...] = ()
    railheads: tuple[GeoRailhead, ...] = ()

    def place(self, name: str) -> GeoPlace:
        for p in self.places:
            if p.name == name:
                return p
        raise KeyError(name)


def _points(t: Table, key: str) -> tuple[LatLon, ...]:
    raw = t.list(key)
    pts = []
    for i, p in enumerate(raw):
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) for v in p)):
            raise t.error(f"{key}[{i}]", f"expected [lat, lon], got {p!r}")
        lat, lon = float(p[0]), float(p[1])
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise t.error(f"{key}[{i}]", f"not a latitude/longitude: {p!r}")
        pts.append((lat, lon))
    if len(pts) < 2:
        raise t.error(key, "a line needs at least two points")
    return tuple(pts)


def read_geography(t: Table) -> Geography:
    name = t.str("name")
    t.str("format")
    t.int("version")
    sources = {}
    for st in t.tables("source"):
        sources[st.str("id")] = st.str("text")
        st.done()

    def source_of(tab: Table) -> str:
        sid: str = tab.str("source")
        for part in sid.split(","):
            if part.strip() not in sources:
                raise tab.error("source", f"unknown source id {part.strip()!r}; define it in [[source]]")
        return sid

    places = []
    for pt in t.tables("place"):
        lat, lon = pt.number("lat"), pt.number("lon")
        fortification = pt.choice("fortification", SIDES, None)
        places.append(
            GeoPlace(
                pt.str("name"),
                lat,
                lon,
                pt.str("confidence"),
                source_of(pt),
                pt.str("kind", "place"),
                fortification,
                read_facings(pt, fortification is not None),
            )
        )
        pt.done()
    routes = []
    for rt in t.tables("route"):
        routes.append(GeoRoute(rt.str("name"), rt.name("kind"), _points(rt, "points"), rt.str("confidence"), source_of(rt)))
        rt.done()
    lines = []
    for lt in t.tables("line"):
        kind = lt.name("kind")
        high = lt.choice("high", {k: k for k in COMPASS}, None)
        if kind in HIGH_SIDED and high is None:
            raise lt.error("high", "an escarpment needs the compass side it is high on (north, south, east, west)")
        owner = lt.choice("owner", SIDES, None)
        if kind == Feature.MINEFIELD and owner is None:
            raise lt.error("owner", "a minefield needs its owner (axis or allied)")
        closed = lt.bool("closed", False)
        if kind == Feature.PERIMETER and not closed:
            raise lt.error("closed", "a perimeter must be a closed ring (closed = true)")
        lines.append(GeoLine(lt.str("name"), kind, _points(lt, "points"), lt.str("confidence"), source_of(lt), high, owner, closed))
        lt.done()
    areas = read_areas(t, _points, source_of)
    railways = []
    for rt in t.tables("railway", None):
        railways.append(GeoRoute(rt.str("name"), RouteKind.ROAD, _points(rt, "points"), rt.str("confidence"), source_of(rt)))
        rt.done()
    railheads = read_railheads(t, source_of)
    for it in t.tables("include", None):  # named items of another geography, drawn once, used by several maps
        other = load_geography(it.str("geography"))
        sources.update(other.sources)

        def pick(key: str, items: tuple[Any, ...], tab: Table = it, geo: str = other.name) -> list[Any]:
            by_name = {x.name: x for x in items}
            wanted = tab.strings(key, [])
            for i, n in enumerate(wanted):
                if n not in by_name:
                    raise tab.error(f"{key}[{i}]", f"{geo!r} has no {key[:-1]} named {n!r}")
            return [by_name[n] for n in wanted]

        # an included place brings its position and kind, not the other game's boxes and forts
        places.extend(dataclasses.replace(p, fortification=None, fortified=()) for p in pick("places", tuple(other.places)))
        routes.extend(pick("routes", tuple(other.routes)))
        lines.extend(pick("lines", tuple(other.lines)))
        it.done()
    t.done()
    return Geography(name, tuple(places), tuple(routes), tuple(lines), sources, tuple(areas), tuple(railways), tuple(railheads))


def load_geography(name: str) -> Geography:
    return read_geography(read_packaged_toml("geo", name))


@dataclass(frozen=True, slots=True)
class Georeference:
    """Where a game's hex grid lies on the ground.

    Positions are projected onto a local plane (equirectangular at ``reference_lat``),
    which over a 200 km map is exact to well under 1% of a hex.
    """

    a1_lat: float
    a1_lon: float
    hex_km: float
    reference_lat: float

    @property
    def km_per_deg_lat(self) -> float:
        p = math.radians(self.reference_lat)
        return 111.132954 - 0.559822 * math.cos(2 * p) + 0.001175 * math.cos(4 * p)

    @property
    def km_per_deg_lon(self) -> float:
        p = math.radians(self.reference_lat)
        return 111.412840 * math.cos(p) - 0.09350 * math.cos(3 * p)

    @property
    def layout(self) -> Layout:
        """Kilometre layout: A1's centre at (0, 0), x east, y south."""
        return Layout(self.hex_km / SQRT3)

    def to_km(self, lat: float, lon: float) -> tuple[float, float]:
        return (lon - self.a1_lon) * self.km_per_deg_lon, (self.a1_lat - lat) * self.km_per_deg_lat

    def to_latlon(self, x: float, y: float) -> LatLon:
        return self.a1_lat - y / self.km_per_deg_lat, self.a1_lon + x / self.km_per_deg_lon

    def hex_at(self, lat: float, lon: float) -> Hex:
        return self.layout.hex_at(*self.to_km(lat, lon))

    def centre(self, h: Hex) -> LatLon:
        return self.to_latlon(*self.layout.centre(h))

    def distance_km(self, h: Hex, lat: float, lon: float) -> float:
        cx, cy = self.layout.centre(h)
        x, y = self.to_km(lat, lon)
        return math.hypot(x - cx, y - cy)


def _densify(pts: Sequence[tuple[float, float]], step: float) -> list[tuple[float, float]]:
    out = [pts[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out.extend((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1))
    return out


def trace_route(points: Sequence[tuple[float, float]], layout: Layout, on_board: Callable[[Hex], bool]) -> list[list[Hex]]:
    """The chains of adjacent on-board hexes a polyline (in km) passes through.

    A line that leaves the board and comes back gives several chains.
    """
    hexes: list[Hex] = []
    for x, y in _densify(points, layout.size / 8):
        h = layout.hex_at(x, y)
        if not hexes or hexes[-1] != h:
            if hexes and not hexes[-1].is_adjacent(h):
                hexes.extend(line(hexes[-1], h)[1:-1])
            hexes.append(h)
    hexes = _cut_corners(hexes)
    chains: list[list[Hex]] = [[]]
    for h in hexes:
        if on_board(h):
            chains[-1].append(h)
        elif chains[-1]:
            chains.append([])
    return [c for c in chains if len(c) >= 2]


def _cut_corners(hexes: list[Hex]) -> list[Hex]:
    """Drop a hex the line only clips at a corner: one whose neighbours in the chain touch each other."""
    out: list[Hex] = []
    for h in hexes:
        out.append(h)
        while len(out) >= 3 and out[-3].is_adjacent(out[-1]):
            del out[-2]
    return out


def _cross(p: tuple[float, float], q: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Do segments p-q and a-b properly intersect?"""

    def orient(u: tuple[float, float], v: tuple[float, float], w: tuple[float, float]) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    return d1 * d2 < 0 and d3 * d4 < 0


def crossed_hexsides(
    points: Sequence[tuple[float, float]], layout: Layout, hexes: Iterable[Hex], closed: bool = False
) -> dict[Hexside, tuple[float, float]]:
    """Hexsides whose centre-to-centre segment the polyline crosses, with the crossing segment's direction."""
    pts = list(points) + ([points[0]] if closed else [])
    board = set(hexes)
    found: dict[Hexside, tuple[float, float]] = {}
    segs = list(itertools.pairwise(pts))
    for h in board:
        for d in (Direction.NE, Direction.E, Direction.SE):
            n = h.neighbour(d)
            if n not in board:
                continue
            p, q = layout.centre(h), layout.centre(n)
            for a, b in segs:
                if _cross(p, q, a, b):
                    found[Hexside.of(h, d)] = (b[0] - a[0], b[1] - a[1])
                    break
    return found


def _inside(pt: tuple[float, float], ring: Sequence[tuple[float, float]]) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(ring, [*ring[1:], ring[0]], strict=False):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def land_fraction(geo: Georeference, h: Hex, is_land: Callable[[float, float], bool], samples: int = 7) -> float:
    """Share of sample points inside the hex that the land mask calls land."""
    layout = geo.layout
    cx, cy = layout.centre(h)
    r = layout.size
    total = land = 0
    for i in range(samples):
        for j in range(samples):
            x = cx + (i / (samples - 1) - 0.5) * r * SQRT3
            y = cy + (j / (samples - 1) - 0.5) * 2 * r
            if layout.hex_at(x, y) != h:
                continue
            total += 1
            land += bool(is_land(*geo.to_latlon(x, y)))
    return land / total if total else 0.0


@dataclass(frozen=True, slots=True)
class BuildSpec:
    """A game's map build: its grid, georeference, rules-named hexes and extra zones."""

    name: str
    geography: str
    georeference: Georeference
    rows: int
    columns: int
    shifted_row_columns: int | None
    land_threshold: float
    supply: dict[Side, list[Hex]]
    zones: dict[str, list[Hex]]
    line_zones: dict[str, str]
    terrain: dict[Hex, str]
    place_terrain: dict[str, int]  # place kinds that give their hex its terrain, and their rank
    place_zones: dict[str, list[str]] = field(default_factory=dict)
    route_zones: dict[str, list[str]] = field(default_factory=dict)
    edge_zones: dict[str, str] = field(default_factory=dict)
    route_kinds: tuple[str, ...] = ROUTE_KINDS  # best first


def read_build_spec(t: Table) -> BuildSpec:
    g = t.table("georeference")
    ref = Georeference(g.number("a1_lat"), g.number("a1_lon"), g.number("hex_km"), g.number("reference_lat"))
    g.done()
    grid = t.table("grid")
    rows, cols = grid.int("rows"), grid.int("columns")
    shifted = grid.int("shifted_row_columns", None)
    grid.done()
    supply_t = t.table("supply")
    supply = {SIDES[k]: supply_t.hexes(k) for k in supply_t.keys() if k in SIDES}
    supply_t.done()
    zones_t = t.table("zones", None)
    zones = {k: zones_t.hexes(k) for k in zones_t.keys()} if zones_t is not None else {}
    if zones_t is not None:
        zones_t.done()
    lz = t.table("line_zones", None)
    line_zones = {k: lz.str(k) for k in lz.keys()} if lz is not None else {}
    if lz is not None:
        lz.done()
    tt = t.table("terrain", None)
    terrain: dict[Hex, str] = {}
    if tt is not None:
        for k in tt.keys():
            if not NAME.match(k):
                raise tt.error(k, "expected a terrain name of lowercase words joined by '-'")
            for h in tt.hexes(k):
                terrain[h] = k
        tt.done()
    pt = t.table("place_terrain", None)
    place_terrain = dict(PLACE_TERRAIN)
    if pt is not None:
        place_terrain = {}
        for k in pt.keys():
            if not NAME.match(k):
                raise pt.error(k, "expected a place kind of lowercase words joined by '-'")
            place_terrain[k] = pt.int(k)
        pt.done()
    named: dict[str, dict[str, list[str]]] = {}
    for key in ("place_zones", "route_zones"):
        nt = t.table(key, None)
        named[key] = {k: nt.strings(k) for k in nt.keys()} if nt is not None else {}
        if nt is not None:
            nt.done()
    et = t.table("edge_zones", None)
    edge_zones = {k: et.choice(k, {c: c for c in COMPASS}) for k in et.keys()} if et is not None else {}
    if et is not None:
        et.done()
    kinds = tuple(t.strings("route_kinds", list(ROUTE_KINDS)))
    for i, k in enumerate(kinds):
        if not NAME.match(k):
            raise t.error(f"route_kinds[{i}]", f"expected a route kind of lowercase words joined by '-', got {k!r}")
    spec = BuildSpec(
        t.str("name"),
        t.str("geography"),
        ref,
        rows,
        cols,
        shifted,
        t.number("land_threshold"),
        supply,
        zones,
        line_zones,
        terrain,
        place_terrain,
        named["place_zones"],
        named["route_zones"],
        edge_zones,
        kinds,
    )
    t.done()
    return spec


def rasterise(spec: BuildSpec, geography: Geography, is_land: Callable[[float, float], bool]) -> Map:
    """Lay the geography onto the game's grid and return the validated map."""
    ref = spec.georeference
    layout = ref.layout
    board = grid_hexes(spec.rows, spec.columns, spec.shifted_row_columns)
    on_board = set(board).__contains__
    terrain = {h: (Terrain.CLEAR if land_fraction(ref, h, is_land) >= spec.land_threshold else Terrain.SEA) for h in board}

    routes: list[RouteLine] = []
    for r in geography.routes:
        for chain in trace_route([ref.to_km(*p) for p in r.points], layout, on_board):
            routes.append(RouteLine(r.kind, r.name, tuple(chain)))
            for h in chain:  # a road or track proves there is land to drive on
                if terrain[h] == Terrain.SEA:
                    terrain[h] = Terrain.CLEAR

    places: list[Place] = []
    forts: dict[Hex, Side] = {}
    for p in geography.places:
        h = ref.hex_at(p.lat, p.lon)
        if not on_board(h):
            continue
        places.append(Place(p.name, h, p.kind))
        if terrain[h] == Terrain.SEA:
            terrain[h] = Terrain.CLEAR
        rank = spec.place_terrain
        if rank.get(p.kind, 0) > rank.get(terrain[h], 0):
            terrain[h] = p.kind  # a place of higher rank gives the hex its terrain (a town over a hill)
        if p.fortification is not None:
            forts[h] = p.fortification
    terrain.update(spec.terrain)

    hexsides: dict[Hexside, list[SideFeature]] = {}
    zones: dict[str, list[Hex]] = {k: list(v) for k, v in spec.zones.items()}
    for gl in geography.lines:
        pts = [ref.to_km(*p) for p in gl.points]
        crossed = crossed_hexsides(pts, layout, board, gl.closed)
        for side, (dx, dy) in sorted(crossed.items()):
            a, b = side.hexes
            if terrain[a] == Terrain.SEA or terrain[b] == Terrain.SEA:
                continue  # a coastline is not an escarpment, minefield or perimeter
            high = inside = None
            if gl.high is not None:
                cx, cy = COMPASS[gl.high]
                nx, ny = -dy, dx  # right-hand normal of the crossing segment (screen axes)
                if nx * cx + ny * cy < 0:
                    nx, ny = -nx, -ny
                (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
                high = a if (ax - bx) * nx + (ay - by) * ny > 0 else b
            if gl.kind == Feature.PERIMETER:
                inside = a if _inside(layout.centre(a), pts) else b
            feats = hexsides.setdefault(side, [])
            if all(f.kind != gl.kind for f in feats):
                feats.append(SideFeature(gl.kind, high=high, owner=gl.owner, inside=inside))
        if gl.closed:
            zone = f"inside {gl.name}"
            zones[zone] = [h for h in board if _inside(layout.centre(h), pts) and terrain[h] != Terrain.SEA]
        for zone_name, line_name in spec.line_zones.items():
            if line_name == gl.name:
                zones[zone_name] = sorted({h for chain in trace_route(pts, layout, on_board) for h in chain if terrain[h] != Terrain.SEA})
    railway, railheads = _rasterise_extras(spec, geography, board, terrain, hexsides, zones, places, routes)
    m = build_map(
        spec.name,
        terrain,
        hexsides=hexsides,
        routes=routes,
        places=places,
        supply_sources=spec.supply,
        fortifications=forts,
        zones=zones,
        railway=railway,
        railheads=railheads,
        route_kinds=spec.route_kinds,
    )
    if not spec.edge_zones:
        return m
    zones.update({z: sorted(m.edge(compass)) for z, compass in spec.edge_zones.items()})
    return build_map(
        spec.name,
        terrain,
        hexsides=hexsides,
        routes=routes,
        places=places,
        supply_sources=spec.supply,
        fortifications=forts,
        zones=zones,
        railway=railway,
        railheads=railheads,
        route_kinds=spec.route_kinds,
    )


def _rasterise_extras(
    spec: BuildSpec,
    geography: Geography,
    board: list[Hex],
    terrain: dict[Hex, str],
    hexsides: dict[Hexside, list[SideFeature]],
    zones: dict[str, list[Hex]],
    places: list[Place],
    routes: list[RouteLine],
) -> tuple[list[Hex], list[Railhead]]:
    """Areas, passes, the railway and the zones named after places and routes (for maps whose geography has them)."""
    ref = spec.georeference
    layout = ref.layout
    on_board = set(board).__contains__

    def trace(pts: Sequence[tuple[float, float]]) -> list[list[Hex]]:
        return trace_route(pts, layout, on_board)

    for area in geography.areas:  # each area is also a zone of its own name (its land hexes)
        hexes = [
            h for h in area_hexes([ref.to_km(*p) for p in area.points], area.closed, layout, board, trace) if terrain[h] != Terrain.SEA
        ]
        for h in hexes:
            terrain[h] = area.kind
        zones[area.name] = hexes
    terrain.update(spec.terrain)  # the grid's own word stays last
    for p in geography.places:
        if p.kind == "pass" and on_board(ref.hex_at(p.lat, p.lon)):
            side = nearest_escarpment_side(*ref.to_km(p.lat, p.lon), layout, hexsides)
            if side is not None:
                add_pass(side, hexsides)

    def land(h: Hex) -> bool:
        return on_board(h) and terrain[h] != Terrain.SEA

    holders: dict[Hexside, str] = {}  # the place that fortified each side, to refuse a side fortified twice
    for p in geography.places:
        h = ref.hex_at(p.lat, p.lon)
        if p.fortified and p.fortification is not None and on_board(h):
            add_fortified_sides(p.name, h, p.fortified, p.fortification, land, hexsides, holders)
    railway: list[Hex] = []
    for r in geography.railways:
        railway = railway_chain(trace([ref.to_km(*pt) for pt in r.points]))
    railheads = [snap_railhead(rh, ref.hex_at(rh.lat, rh.lon), railway) for rh in geography.railheads if railway]
    hex_of = {p.name: p.hex for p in places}
    for zone_name, names in spec.place_zones.items():
        missing = [n for n in names if n not in hex_of]
        if missing:
            raise ValueError(f"zone {zone_name!r}: no place {missing[0]!r} on the map")
        zones[zone_name] = sorted({hex_of[n] for n in names})
    for zone_name, names in spec.route_zones.items():
        zones[zone_name] = sorted({h for r in routes if r.name in names for h in r.hexes})
    return railway, railheads
