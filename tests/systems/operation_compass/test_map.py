"""The map of Operation Compass (the battle of Sidi Barrani, 9-12 December 1940) rebuilt from the geography
(docs/reconstruction.md, "Operation Compass").

The expected hexes and relations come from the sources' words (distances in miles and kilometres, the sides
the camps' defences faced, where the escarpment runs), not from the files under test: where a test needs a
number, it says where the number comes from."""

from __future__ import annotations

import math
import re
import tomllib
from collections import deque
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import Feature, Map, Terrain
from tobruk.engine.sides import Side
from tobruk.geography.extra import GeoArea
from tobruk.geography.geo import Geography, GeoLine, Georeference, GeoRoute, load_geography
from tobruk.loading.datafile import DATA
from tobruk.loading.mapfile import load_packaged_map

H = Hex.parse
D = Direction
GRID = DATA / "grids" / "operation-compass.toml"
DOCS = Path(__file__).resolve().parents[3] / "docs"
HEX_KM = 5.0
ROW_KM = HEX_KM * math.sqrt(3) / 2  # rows of pointy-topped hexes are this far apart
MILE_KM = 1.609
CAMPS = ("Maktila", "Tummar West", "Tummar East", "Point 90", "Nibeiwa", "Alam el Iktufa", "Alam Rabia", "Bir Sofafi")


@cache
def oc_map() -> Map:
    return load_packaged_map("operation-compass")


@cache
def geography() -> Geography:
    return load_geography("sidi-barrani")


@cache
def grid() -> dict[str, Any]:
    return tomllib.loads(GRID.read_text(encoding="utf-8"))


def georef() -> Georeference:
    g = grid()["georeference"]
    return Georeference(g["a1_lat"], g["a1_lon"], g["hex_km"], g["reference_lat"])


def place_hex(name: str) -> Hex:
    """Where the geography puts a place: its latitude and longitude through the grid's georeference."""
    p = geography().place(name)
    return georef().hex_at(p.lat, p.lon)


def zone_hex(name: str) -> Hex:
    (h,) = oc_map().zone(name)
    return h


def hexes_for(km: float) -> int:
    return round(km / HEX_KM)


def sides_of(kind: str) -> dict[Hexside, Any]:
    return {s: f for s, fs in oc_map().hexsides.items() for f in fs if f.kind == kind}


def steps(start: Hex, goal: Hex, closed: Iterable[Hexside]) -> int | None:
    """Hexes from ``start`` to ``goal`` over land without crossing a ``closed`` hexside (breadth first)."""
    m, shut = oc_map(), set(closed)
    seen, todo = {start: 0}, deque([start])
    while todo:
        h = todo.popleft()
        if h == goal:
            return seen[h]
        for n in m.neighbours(h):
            if n not in seen and m.is_land(n) and Hexside.between(h, n) not in shut:
                seen[n] = seen[h] + 1
                todo.append(n)
    return None


# --- the map is what the build gives, and every place lands where its coordinates put it -------------------


def test_build_map_reproduces_the_committed_file() -> None:
    pytest.importorskip("global_land_mask")
    from tobruk.geography.build import build, render_toml

    m, spec = build("operation-compass")
    committed = DATA / "maps" / "operation-compass.toml"
    assert render_toml(m, spec, "operation-compass") == committed.read_text(encoding="utf-8")


def test_grid_is_5_km_hexes_over_the_battlefield_rows_from_the_north_columns_from_the_west() -> None:
    ref, m = georef(), oc_map()
    assert ref.hex_km == HEX_KM and m.name == "Operation Compass"
    assert (m.rows, m.columns) == (14, 27)
    a1_lat, a1_lon = ref.centre(H("A1"))
    n1_lat, _ = ref.centre(H("N1"))
    _, a27_lon = ref.centre(H("A27"))
    assert n1_lat < a1_lat and a27_lon > a1_lon
    # the extent the research proposed: 31.15-31.70 N, 25.05-26.45 E, about 375 hexes
    assert 31.12 < n1_lat < 31.18 and 31.66 < a1_lat < 31.72
    assert 25.02 < a1_lon < 25.08 and 26.40 < a27_lon < 26.47
    assert 350 <= len(m.hexes) <= 400


SINGLE_PLACE_ZONES = sorted((z, names[0]) for z, names in grid()["place_zones"].items() if len(names) == 1)


@pytest.mark.parametrize(("zone", "place"), SINGLE_PLACE_ZONES)
def test_each_named_place_zone_is_the_hex_its_coordinates_fall_in(zone: str, place: str) -> None:
    assert zone_hex(zone) == place_hex(place)


def test_every_place_of_the_geography_is_on_the_map_in_its_own_hex() -> None:
    m = oc_map()
    for p in geography().places:
        assert m.place(p.name).hex == place_hex(p.name), p.name


def test_the_shared_places_are_the_campaign_maps_own() -> None:
    shared = load_geography("north-africa")
    for name in ("Sidi Barrani", "Sollum", "Halfaya Pass", "Buq Buq", "Fort Capuzzo"):
        here, there = geography().place(name), shared.place(name)
        assert (here.lat, here.lon, here.kind) == (there.lat, there.lon, there.kind), name


# --- the camps ------------------------------------------------------------------------------------------


def test_each_camp_is_a_fortification_in_a_hex_of_its_own_and_sidi_barrani_is_not_one() -> None:
    m = oc_map()
    camps = {name: m.place(name).hex for name in CAMPS}
    assert len(set(camps.values())) == len(CAMPS)
    assert dict(m.fortifications) == dict.fromkeys(camps.values(), Side.AXIS)
    assert set(m.zone("camps")) == set(camps.values())
    # Sidi Barrani is the charts' own +4 hex (OC-TER.2), not a fort: no fortified side, no camp beside it in its hex
    sb = zone_hex("sidi-barrani")
    assert sb not in m.fortifications
    assert not any(f.kind == Feature.FORTIFIED for d in Direction for f in m.features(Hexside.of(sb, d)))


def fortified_directions(camp: str) -> set[Direction]:
    """The sides of a camp's hex fortified for it (a side between two camps may be its neighbour's)."""
    h = oc_map().place(camp).hex
    out = set()
    for d in Direction:
        f = oc_map().feature(h, h.neighbour(d), Feature.FORTIFIED)
        if f is not None and f.inside == h:
            assert f.owner is Side.AXIS, camp
            out.add(d)
    return out


def test_every_fortified_side_belongs_to_a_camp_and_faces_out_of_it() -> None:
    camps = {oc_map().place(c).hex for c in CAMPS}
    for side, f in sides_of(Feature.FORTIFIED).items():
        assert f.inside in camps and f.inside in side.hexes, side
        assert f.owner is Side.AXIS


def test_nibeiwa_faced_east_and_north_and_was_open_at_its_rear() -> None:
    # itwp-nibeiwa: the minefield unfinished at the rear (west) for the supply lorries, the camp entered at its
    # north-west corner; scenari-sahariani: the Saharan battalion on the north front; the attack expected from
    # Mersa Matruh, to the east
    sides = fortified_directions("Nibeiwa")
    assert {D.NE, D.E} <= sides
    assert not sides & {D.W, D.NW}


def test_every_camp_was_open_to_the_west_where_the_attack_came_from() -> None:
    # the WDF came round through the Enba gap and took the camps from the west and north-west ("from the rear",
    # itwp-compass); their defences faced east, toward Mersa Matruh
    for camp in CAMPS:
        assert D.W not in fortified_directions(camp), camp
    for camp in ("Tummar West", "Tummar East", "Point 90", "Nibeiwa", "Alam el Iktufa"):
        assert D.E in fortified_directions(camp), camp
    assert not fortified_directions("Tummar West") & {D.NW, D.NE}  # attacked from the rear (north-west)


def test_maktila_faced_matruh_and_no_fortified_side_faces_the_sea() -> None:
    m = oc_map()
    maktila = m.place("Maktila").hex
    assert D.SE in fortified_directions("Maktila")  # toward Selby Force and Mersa Matruh
    for side in sides_of(Feature.FORTIFIED):
        assert all(m.is_land(h) for h in side.hexes), side
    assert maktila in m.zone("coast-road")


def test_the_cirene_posts_faced_the_plain_and_the_gap_with_their_backs_to_the_escarpment_top() -> None:
    # wp-cirene: posts round Bir Sofafi on the escarpment, left by night along its top toward Halfaya
    for camp in ("Alam Rabia", "Bir Sofafi"):
        sides = fortified_directions(camp)
        assert sides and sides <= {D.NW, D.NE, D.E}, camp


# --- distances the sources give ---------------------------------------------------------------------------


def test_the_distances_the_sources_give_are_kept_in_hexes() -> None:
    m = oc_map()
    sb, maktila, nibeiwa = zone_hex("sidi-barrani"), zone_hex("maktila"), zone_hex("nibeiwa")
    # wikisum-compass: the 1st Libyan Division moved the 15 miles (24 km) from Maktila to Sidi Barrani
    assert sb.distance(maktila) == hexes_for(15 * MILE_KM)
    # itwp-nibeiwa: south of Sidi Barrani (25.6 km to its coordinate), within a column of due south
    assert nibeiwa.row - sb.row == round(25.6 / ROW_KM) and abs(nibeiwa.col - sb.col) <= 1
    # the Tummar camps between the two, on the track from Sidi Barrani
    for camp in ("tummar-west", "tummar-east", "point-90"):
        assert sb.row < zone_hex(camp).row < nibeiwa.row, camp
    # daybyday: a gap of 15 miles (24 km) between Nibeiwa and Sofafi (the estimate puts them 27 km apart)
    assert abs(nibeiwa.distance(zone_hex("sofafi")) - hexes_for(15 * MILE_KM)) <= 1
    # wp-sallum: Halfaya 7.5 km from Sollum, a hex and a half: its own hex, next to Sollum's or one beyond
    assert 1 <= zone_hex("sollum").distance(zone_hex("halfaya-pass")) <= 2
    # Buq Buq about half-way along the road from Sidi Barrani to Sollum (38 km either way on the coordinates)
    buq = m.place("Buq Buq").hex
    assert abs(buq.distance(sb) - buq.distance(zone_hex("sollum"))) <= 1


# --- the escarpment, the ridge, the passes ------------------------------------------------------------------


def test_the_escarpment_is_impassable_from_the_sea_at_sollum_to_bir_sofafi_and_no_farther() -> None:
    scarp = sides_of(Feature.IMPASSABLE_ESCARPMENT)
    sofafi = zone_hex("sofafi")
    # wp-halfaya: a scarp running south, then south-east, for 55 km from the border: about 11 hexes of it
    assert all(h.col <= sofafi.col for side in scarp for h in side.hexes)
    assert max(h.row for side in scarp for h in side.hexes) == sofafi.row
    # its high side is the plateau: the top of the Sollum pass and of Halfaya, Fort Capuzzo's side
    for f in scarp.values():
        assert f.high is not None
    top_of_halfaya = H("F3")
    assert any(f.high == top_of_halfaya for f in scarp.values())
    assert all(f.high != zone_hex("sollum") for f in scarp.values())  # Sollum stands at its foot


def test_the_escarpment_is_crossed_only_at_the_sollum_pass_and_halfaya() -> None:
    m = oc_map()
    scarp = sides_of(Feature.IMPASSABLE_ESCARPMENT)
    passes = sides_of(Feature.PASS)
    assert len(passes) == 2 and set(passes) <= set(scarp)
    # long-aus: two tracks climbed it, one above Sollum, one through Halfaya
    crossing = {side: kind for side, kind in m.routes.items() if side in scarp}
    assert set(crossing) == set(passes)
    names = {r.name for r in m.route_lines for a, b in zip(r.hexes, r.hexes[1:], strict=False) if Hexside.between(a, b) in passes}
    assert names == {"Via Balbia (Sollum - Fort Capuzzo)", "Halfaya - Sidi Omar track"}
    # from Sollum up to Fort Capuzzo: straight up the pass; with both passes shut, round the far end past Sofafi
    sollum, capuzzo = zone_hex("sollum"), m.place("Fort Capuzzo").hex
    assert steps(sollum, capuzzo, set(scarp) - set(passes)) == sollum.distance(capuzzo)
    shut = steps(sollum, capuzzo, scarp)
    assert shut is not None and shut >= 2 * zone_hex("sollum").distance(zone_hex("sofafi"))


def test_east_of_sofafi_the_plateau_edge_is_a_ridge_to_the_east_edge() -> None:
    m = oc_map()
    ridge = sides_of(Feature.RIDGE)
    assert ridge and all(h.col >= zone_hex("sofafi").col - 1 for side in ridge for h in side.hexes)
    assert any(h in m.edge("east") for side in ridge for h in side.hexes)
    # nz-press: the Italian right along the top of it: the plain round Nibeiwa and Bir Enba is cut off from
    # Rabia and Sofafi by the ridge alone (closing it and the escarpment leaves no way up)
    closed = set(ridge) | set(sides_of(Feature.IMPASSABLE_ESCARPMENT))
    assert steps(zone_hex("nibeiwa"), zone_hex("rabia"), closed) is None
    assert steps(m.place("Bir Enba").hex, zone_hex("sofafi"), closed) is None
    assert steps(zone_hex("nibeiwa"), zone_hex("rabia"), sides_of(Feature.IMPASSABLE_ESCARPMENT)) is not None


# --- terrain, routes, supply -------------------------------------------------------------------------------


def test_terrain_is_clear_rough_and_sea_with_rough_only_on_the_coast() -> None:
    m = oc_map()
    assert set(m.terrain.values()) == {Terrain.CLEAR, "rough", Terrain.SEA}
    rough = {h for h in m.hexes if m.terrain[h] == "rough"}
    # qrh: the salt marsh at Buq Buq; wikisum-compass: the dunes north of the coast road toward Maktila
    assert rough == set(m.zone("Salt marsh and dunes of Buq Buq")) | set(m.zone("Coastal dunes between Sidi Barrani and Maktila"))
    assert all(any(not m.is_land(n) for n in m.neighbours(h)) for h in rough)
    for name in (*CAMPS, "Sidi Barrani", "Sollum", "Buq Buq"):
        assert m.terrain[m.place(name).hex] == Terrain.CLEAR, name


def test_roads_and_tracks_are_the_charts_two_kinds_and_join_the_places() -> None:
    m = oc_map()
    assert m.route_kinds == ("road", "minor-road")
    coast = m.zone("coast-road")
    for name in ("Sollum", "Buq Buq", "Sidi Barrani", "Maktila"):
        assert m.place(name).hex in coast, name
    tracks = {h for r in m.route_lines if r.kind == "minor-road" for h in r.hexes}
    for name in ("Tummar West", "Nibeiwa", "Bir Enba", "Alam Rabia", "Bir Sofafi", "Halfaya Pass"):
        assert m.place(name).hex in tracks, name
    # the coast road leaves the east edge toward Mersa Matruh; the Via Balbia the west edge toward Bardia
    assert set(coast) & set(m.edge("east"))
    balbia = next(r for r in m.route_lines if r.name.startswith("Via Balbia"))
    assert balbia.kind == "road" and balbia.hexes[-1] in m.edge("west")


def test_supply_sources_are_the_west_edge_ways_for_the_italians_and_the_east_edge_for_the_wdf() -> None:
    m = oc_map()
    ways = {h for r in m.route_lines for h in r.hexes}
    axis = set(m.supply_sources[Side.AXIS])
    assert axis <= set(m.edge("west")) & ways and len(axis) == 2
    assert m.place("Fort Capuzzo").hex in axis
    assert set(m.supply_sources[Side.ALLIED]) == set(m.edge("east"))
    assert set(m.zone("coast-road")) & set(m.supply_sources[Side.ALLIED])


def test_every_zone_is_land_and_on_the_map() -> None:
    m = oc_map()
    for name, hexes in m.zones.items():
        assert hexes, name
        assert all(h in m.terrain and m.is_land(h) for h in hexes), name


# --- the documentation says what the files say -------------------------------------------------------------


def test_the_reconstruction_doc_gives_every_place_and_line_with_its_source_and_hex() -> None:
    doc = (DOCS / "reconstruction.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Operation Compass") :]
    geo, ref = geography(), georef()
    for p in geo.places:
        h = ref.hex_at(p.lat, p.lon)
        assert f"| {p.name} | {p.lat:g} | {p.lon:g} | {p.confidence} | {p.source} | {h.label} |" in section, p.name
    drawn: list[GeoRoute | GeoLine | GeoArea] = [*geo.routes, *geo.lines, *geo.areas]
    for item in drawn:
        assert re.search(rf"\| {re.escape(item.name)} \| [^|]+ \| {item.confidence} \| {item.source} \|", section), item.name
    used = {sid for item in (*geo.places, *drawn) for sid in item.source.split(",")}
    for sid in used:
        assert f"*{sid}*" in section, sid


def test_the_picture_in_docs_is_a_png_of_the_map() -> None:
    from tobruk.render.pictures import map_title
    from tobruk.render.svg import render_map

    png = (DOCS / "operation-compass-map.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    from tobruk.loading.datafile import read_packaged_toml

    svg = render_map(oc_map(), title=map_title(read_packaged_toml("maps", "operation-compass")))
    assert f'width="{width}" height="{height}"' in svg.splitlines()[0]  # drawn from this map at its own size
