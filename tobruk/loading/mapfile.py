"""Map data files: the documented TOML format (``docs/scenario-format.md``) to and from :class:`Map`.

The same table is accepted inline in a scenario, so a test can describe a 5x5 board in a
few lines.  Reading goes through :class:`tobruk.loading.datafile.Table`: a malformed file gets one
error naming the file and the field.
"""

from __future__ import annotations

import re
from typing import Any

from tobruk.board.hexes import Hex, Hexside
from tobruk.board.maps import (
    NAME,
    ROUTE_KINDS,
    Map,
    MapError,
    Place,
    Railhead,
    RouteLine,
    SideFeature,
    Terrain,
    build_map,
)
from tobruk.engine.sides import SIDES, Side
from tobruk.loading.datafile import Table, read_packaged_toml

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
FORMAT = "tobruk-map"
VERSION = 1


def grid_hexes(rows: int, columns: int, shifted_row_columns: int | None = None) -> list[Hex]:
    """Every hex of a rows x columns board; shifted rows (B, D, ...) may be one hex shorter."""
    out: list[Hex] = []
    for r in range(rows):
        cols = columns if r % 2 == 0 or shifted_row_columns is None else shifted_row_columns
        out.extend(Hex.from_offset(r, c) for c in range(cols))
    return out


def read_map(t: Table) -> Map:
    """Build a map from its table (a whole map file, or a scenario's inline ``[map]``)."""
    if t.has("format") and t.str("format") != FORMAT:
        raise t.error("format", f"expected {FORMAT!r}")
    if t.has("version") and t.int("version") != VERSION:
        raise t.error("version", f"this program reads map format version {VERSION}")
    name = t.str("name", "map")
    georef = t.table("georeference", None)  # informative: where the grid lies on the ground
    if georef is not None:
        for key in ("a1_lat", "a1_lon", "hex_km", "reference_lat"):
            georef.number(key)
        georef.done()
    grid = t.table("grid")
    rows, columns = grid.int("rows"), grid.int("columns")
    if not 1 <= rows <= 200:
        raise grid.error("rows", "expected 1 to 200")
    if not 1 <= columns <= 200:
        raise grid.error("columns", "expected 1 to 200")
    shifted = grid.int("shifted_row_columns", None)
    if shifted is not None and shifted not in (columns - 1, columns):
        raise grid.error("shifted_row_columns", f"expected {columns - 1} or {columns}")
    default = grid.name("default_terrain", Terrain.CLEAR)
    grid.done()
    terrain: dict[Hex, str] = dict.fromkeys(grid_hexes(rows, columns, shifted), default)

    def on_board(tab: Table, key: str, h: Hex) -> Hex:
        if h not in terrain:
            raise tab.error(key, f"{h} is not on the {rows}x{columns} map")
        return h

    tt = t.table("terrain", None)
    if tt is not None:
        for kind in tt.keys():
            if not NAME.match(kind):
                raise tt.error(kind, "expected a terrain name of lowercase words joined by '-'")
            for i, h in enumerate(tt.hexes(kind)):
                terrain[on_board(tt, f"{kind}[{i}]", h)] = kind
        tt.done()

    route_kinds = tuple(t.strings("route_kinds", list(ROUTE_KINDS)))
    routes = []
    for rt in t.tables("route", None):
        kind = rt.choice("kind", {k: k for k in route_kinds})
        hexes = tuple(on_board(rt, "hexes", h) for h in rt.hexes("hexes"))
        routes.append(RouteLine(kind, rt.str("name", kind), hexes))
        rt.done()

    sides: dict[Hexside, list[SideFeature]] = {}
    ht = t.table("hexsides", None)
    if ht is not None:
        for kind_name in ht.keys():
            if not NAME.match(kind_name):
                raise ht.error(kind_name, "expected a hexside feature name of lowercase words joined by '-'")
            kind = kind_name
            for ft in ht.tables(kind_name):
                side = ft.parse_hexside("side", ft.str("side"))
                high = ft.hex("high", None)
                inside = ft.hex("inside", None)
                owner = ft.choice("owner", SIDES, None)
                ft.done()
                sides.setdefault(side, []).append(SideFeature(kind, high=high, owner=owner, inside=inside))
        ht.done()

    places = []
    for pt in t.tables("place", None):
        places.append(Place(pt.str("name"), on_board(pt, "hex", pt.hex("hex")), pt.str("kind", "place")))
        pt.done()

    def by_side(key: str) -> dict[Side, list[Hex]]:
        st = t.table(key, None)
        if st is None:
            return {}
        out = {}
        for side_name in st.keys():
            if side_name not in SIDES:
                raise st.error(side_name, "expected axis or allied")
            out[SIDES[side_name]] = [on_board(st, side_name, h) for h in st.hexes(side_name)]
        st.done()
        return out

    supply = by_side("supply")
    forts = {h: s for s, hs in by_side("fortifications").items() for h in hs}
    zones: dict[str, list[Hex]] = {}
    zt = t.table("zones", None)
    if zt is not None:
        for zone in zt.keys():
            zones[zone] = [on_board(zt, zone, h) for h in zt.hexes(zone)]
        zt.done()
    railway = [on_board(t, "railway", h) for h in t.hexes("railway")] if t.has("railway") else []
    railheads = []
    for rh in t.tables("railhead", None):
        date = rh.str("date")
        if not _ISO_DATE.match(date):
            raise rh.error("date", f"expected an ISO date (1941-11-15), got {date!r}")
        railheads.append(Railhead(rh.str("name"), on_board(rh, "hex", rh.hex("hex")), date, rh.str("turn")))
        rh.done()
    t.done()
    try:
        return build_map(
            name,
            terrain,
            hexsides=sides,
            routes=routes,
            places=places,
            supply_sources=supply,
            fortifications=forts,
            zones=zones,
            railway=railway,
            railheads=railheads,
            route_kinds=route_kinds,
        )
    except MapError as exc:
        raise t.error(exc.field, exc.problem) from None


def load_packaged_map(name: str) -> Map:
    return read_map(read_packaged_toml("maps", name))


def map_to_data(m: Map, *, shifted_row_columns: int | None = None, header: dict[str, Any] | None = None) -> dict[str, Any]:
    """The map as a table in the file format (for the map build command and round-trip tests)."""
    grid: dict[str, Any] = {"rows": m.rows, "columns": m.columns, "default_terrain": "clear"}
    if shifted_row_columns is not None:
        grid["shifted_row_columns"] = shifted_row_columns
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, **(header or {}), "name": m.name, "grid": grid}
    terrain: dict[str, list[str]] = {}
    for h in m.hexes:
        if m.terrain[h] != Terrain.CLEAR:
            terrain.setdefault(m.terrain[h], []).append(h.label)
    data["terrain"] = terrain
    data["supply"] = {s.value: [h.label for h in hs] for s, hs in m.supply_sources.items()}
    forts: dict[str, list[str]] = {}
    for h, s in sorted(m.fortifications.items()):
        forts.setdefault(s.value, []).append(h.label)
    data["fortifications"] = forts
    data["zones"] = {z: [h.label for h in sorted(hs)] for z, hs in sorted(m.zones.items())}
    hexsides: dict[str, list[dict[str, str]]] = {}
    for side in sorted(m.hexsides):
        for f in m.hexsides[side]:
            entry = {"side": side.label}
            if f.high is not None:
                entry["high"] = f.high.label
            if f.owner is not None:
                entry["owner"] = f.owner.value
            if f.inside is not None:
                entry["inside"] = f.inside.label
            hexsides.setdefault(f.kind, []).append(entry)
    data["hexsides"] = hexsides
    if m.route_kinds != ROUTE_KINDS:
        data["route_kinds"] = list(m.route_kinds)
    data["route"] = [{"kind": r.kind, "name": r.name, "hexes": [h.label for h in r.hexes]} for r in m.route_lines]
    data["place"] = [{"name": p.name, "hex": p.hex.label, "kind": p.kind} for p in m.places]
    if m.railway:  # a map without a railway writes no railway keys, so its file stays as it was
        data["railway"] = [h.label for h in m.railway]
        data["railhead"] = [{"name": r.name, "hex": r.hex.label, "date": r.date, "turn": r.turn} for r in m.railheads]
    return data
