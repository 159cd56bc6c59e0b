"""The North-Africa campaign map rebuilt from geography: every hex the campaign rules name lands where
the geography puts it, and the relations the rules state between hexes hold."""

from __future__ import annotations

import copy
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.systems.campaign.maps import campaign, geography
from tobruk.board.hexes import Direction, Hex
from tobruk.board.maps import Feature, RouteKind, Terrain
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.geography.extra import GeoArea
from tobruk.geography.geo import GeoLine, Georeference, GeoRoute, read_build_spec, read_geography
from tobruk.loading.datafile import DATA, Table
from tobruk.loading.mapfile import read_map

H = Hex.parse
GRID = DATA / "grids" / "north-africa.toml"
GEO = DATA / "geo" / "north-africa.toml"


@cache
def grid() -> dict[str, Any]:
    return tomllib.loads(GRID.read_text(encoding="utf-8"))


def georef() -> Georeference:
    g = grid()["georeference"]
    return Georeference(g["a1_lat"], g["a1_lon"], g["hex_km"], g["reference_lat"])


def zone_hex(name: str) -> Hex:
    (h,) = campaign().zone(name)
    return h


def place_hex(name: str) -> Hex:
    """Where the geography puts a place: its latitude and longitude through the grid's georeference."""
    p = geography().place(name)
    return georef().hex_at(p.lat, p.lon)


# --- every place a scenario names lands where its latitude and longitude put it ---------------------------

SINGLE_PLACE_ZONES = sorted((z, names[0]) for z, names in grid()["place_zones"].items() if len(names) == 1)


@pytest.mark.parametrize(("zone", "place"), SINGLE_PLACE_ZONES)
def test_each_named_place_zone_is_the_hex_its_coordinates_fall_in(zone: str, place: str) -> None:
    assert campaign().zone(zone) == {place_hex(place)}
    assert campaign().is_land(place_hex(place))
    # the hex holds the point: it is no farther from the hex centre than a corner is (13 km hexes)
    p = geography().place(place)
    assert georef().distance_km(place_hex(place), p.lat, p.lon) <= 13.0 / 3**0.5 + 1e-9


def test_labels_given_to_the_forces_side_are_the_ones_the_map_has() -> None:
    """The hexes written into the scenarios (shared list of places) stay where they are."""
    expected = {
        "el-agheila": "AB4",
        "agedabia": "W12",
        "mersa-brega": "Z7",
        "benghazi": "J10",
        "derna": "C30",
        "tobruk-centre": "J39",
        "bardia": "M47",
        "mersa-matruh": "Q63",
        "el-alamein": "V75",
        "tel-el-eisa": "V74",
        "alam-nayil": "X75",
        "jalo": "AN21",
        "giarabub": "AG43",
        "siwa": "AL50",
        "nw-bugout-hex": "AA1",
        "ne-coast-road-hex": "V79",
        "mersa-matruh-south-box": "S63",
        "tel-el-eisa-ese": "W75",
        "ruweisat-ridge-east": "W76",
        "alam-halfa-ridge-second": "X77",
    }
    assert {z: zone_hex(z).label for z in expected} == expected


# --- the relations the rules state ---------------------------------------------------------------------------


@pytest.mark.rule("CA-SC.6")
def test_mersa_matruh_box_is_two_hexes_due_south_of_mersa_matruh() -> None:
    town, box = zone_hex("mersa-matruh"), zone_hex("mersa-matruh-south-box")
    assert town == place_hex("Mersa Matruh")
    assert town.distance(box) == 2
    layout = georef().layout
    (tx, ty), (bx, by) = layout.centre(town), layout.centre(box)
    assert bx == pytest.approx(tx) and by > ty  # straight south: SE then SW
    assert campaign().is_land(box)


@pytest.mark.rule("CA-SC.8")
def test_the_hex_ese_of_tel_el_eisa_is_its_south_east_neighbour_since_el_alamein_is_its_east_one() -> None:
    tel, ese, alamein = zone_hex("tel-el-eisa"), zone_hex("tel-el-eisa-ese"), zone_hex("el-alamein")
    assert tel == place_hex("Tel el Eisa") and alamein == place_hex("El Alamein")
    assert tel.neighbour(Direction.E) == alamein  # the nearer direction to ESE is taken by a box of its own
    assert ese == tel.neighbour(Direction.SE)
    layout = georef().layout
    (x0, y0), (x1, y1) = layout.centre(tel), layout.centre(ese)
    assert x1 > x0 and y1 > y0  # east and south of it


@pytest.mark.rule("CA-SC.8")
def test_ruweisat_and_alam_halfa_box_hexes_are_on_their_ridges() -> None:
    m = campaign()
    ruweisat = sorted(m.zone("Ruweisat Ridge"), key=lambda h: georef().layout.centre(h)[0])
    halfa = sorted(m.zone("Alam Halfa Ridge"), key=lambda h: georef().layout.centre(h)[0])
    assert zone_hex("ruweisat-ridge-east") == ruweisat[-1]
    assert zone_hex("alam-halfa-ridge-second") == halfa[1]
    assert all(m.terrain[h] == Terrain.HILL for h in ruweisat + halfa)
    boxes = ["tel-el-eisa", "tel-el-eisa-ese", "el-alamein", "ruweisat-ridge-east", "alam-nayil", "alam-halfa-ridge-second"]
    assert len({zone_hex(b) for b in boxes}) == 6  # six boxes, six hexes


@pytest.mark.rule("CA-R.3")
def test_within_five_hexes_of_el_alamein_reaches_the_qattara_edge_but_not_fuka() -> None:
    alamein = zone_hex("el-alamein")
    assert alamein.distance(place_hex("Qaret el Himeimat")) == 5  # the southern end of the Alamein line
    assert alamein.distance(place_hex("El Daba")) == 5
    assert alamein.distance(place_hex("Fuka")) == 8
    assert alamein.distance(zone_hex("mersa-matruh")) > 5


@pytest.mark.rule("CA-S.4")
def test_sixteen_hexes_is_the_length_of_the_historical_bugouts() -> None:
    # the Gazala Gallop (Gazala to the frontier at Sollum) and the Matruh Stakes (Matruh to Alamein)
    assert zone_hex("gazala").distance(zone_hex("sollum")) == 16
    assert zone_hex("mersa-matruh").distance(zone_hex("el-alamein")) == 15


@pytest.mark.rule("CA-M.4")
def test_the_one_turn_advances_of_1941_and_1942_take_two_turns_or_more_on_the_road() -> None:
    """The scale's movement check (docs/reconstruction.md): a German mobile unit moves at most 3 x (4 + 4)
    coastal road hexes a half-month turn (CA-M.2-4); Mersa Brega to Tobruk (1-11 April 1941), Tobruk to
    El Alamein (21-30 June 1942) and Gazala to El Alamein (14-30 June 1942) each took about one turn."""
    m = campaign()
    lines = {r.name: r.hexes for r in m.route_lines}
    road = [*lines["Via Balbia"], *lines["Egyptian coast road"][1:]]

    def along(a: str, b: str) -> int:
        return road.index(zone_hex(b)) - road.index(zone_hex(a))

    per_turn = 3 * (4 + 4)
    legs = {("mersa-brega", "tobruk-centre"): 55, ("tobruk-centre", "el-alamein"): 42, ("gazala", "el-alamein"): 47}
    for (a, b), hexes in legs.items():
        assert along(a, b) == hexes, (a, b)
        assert hexes > per_turn and -(-hexes // per_turn) in (2, 3)


@pytest.mark.rule("CA-SC.3")
def test_the_north_west_bugout_hex_is_where_the_via_balbia_leaves_the_map() -> None:
    m = campaign()
    nw, agheila = zone_hex("nw-bugout-hex"), zone_hex("el-agheila")
    assert nw == place_hex("Marble Arch")
    assert nw in m.edge("west") and nw in m.zone("coastal-road")
    assert nw.row < agheila.row and nw.col < agheila.col  # north-west of El Agheila
    assert nw in m.road_net([agheila])
    # the map ends at the Marble Arch: from El Agheila a bugout leaves the map before its 16 hexes (CA-S.4)
    assert agheila.distance(nw) == 4 < 16


@pytest.mark.rule("CA-F.4")
def test_tobruk_perimeter_rings_its_centre_hex() -> None:
    m = campaign()
    centre = zone_hex("tobruk-centre")
    inside = m.zone("inside Tobruk perimeter")
    assert centre == place_hex("Tobruk") and centre in inside
    assert len(inside) >= 3  # a centre hex with a perimeter beyond it
    assert all(h == centre or h.is_adjacent(centre) for h in inside)
    ring = [(s, f) for s, fs in m.hexsides.items() for f in fs if f.kind == Feature.PERIMETER]
    assert ring
    for side, f in ring:
        a, b = side.hexes
        assert f.inside in inside and (a in inside) != (b in inside)
    # every land hex bordering the fortress from outside is behind a perimeter hexside
    for h in inside:
        for n in m.neighbours(h):
            if m.is_land(n) and n not in inside:
                assert m.feature(h, n, Feature.PERIMETER) is not None, (h, n)


@pytest.mark.rule("CA-P.1")
def test_supply_chains_of_towns_and_oases_reach_seven_hexes_and_no_farther() -> None:
    m = campaign()
    road, towns = m.zone("coastal-road"), m.zone("towns-oases")
    chained = {t for t in towns if min(t.distance(r) for r in road) <= 7}
    grew = True
    while grew:
        more = {t for t in towns - chained if any(t.distance(c) <= 7 for c in chained)}
        grew = bool(more)
        chained |= more
    for name in ("Antelat", "Soluch", "Msus", "El Adem", "Barce", "Agedabia"):
        assert place_hex(name) in chained, name
    assert min(place_hex("Msus").distance(r) for r in road) == 7  # in at exactly seven
    for name in ("Marada", "Augila", "Jalo", "Giarabub", "Siwa"):  # cut off, as Giarabub was in 1941
        assert place_hex(name) not in chained, name
    assert min(place_hex("Marada").distance(r) for r in road) == 10


@pytest.mark.rule("CA-R.4")
def test_supply_sources_and_entries_are_the_coastal_road_hexes_on_the_two_edges() -> None:
    m = campaign()
    west, east = zone_hex("west-coast-road-hex"), zone_hex("ne-coast-road-hex")
    assert m.supply_sources[Side.AXIS] == (west,) and m.supply_sources[Side.ALLIED] == (east,)
    assert west in m.edge("west") and east in m.edge("east")
    assert west in m.zone("coastal-road") and east in m.zone("coastal-road")
    assert east in m.road_net([west])  # the coastal road runs unbroken from one edge to the other
    assert m.zone("east-edge") == m.edge("east") and m.zone("west-edge") == m.edge("west")
    coast_road = [r for r in m.route_lines if r.name in ("Via Balbia", "Egyptian coast road")]
    assert all(r.kind == RouteKind.ROAD for r in coast_road)


@pytest.mark.rule("CA-M.4")
def test_the_coastal_road_runs_through_the_towns_it_joined() -> None:
    """The Via Balbia and the Egyptian coast road went through these towns (the histories; for Capuzzo the
    fort's own description), so a unit moving on the road at triple speed enters them."""
    m = campaign()
    road = [h for r in m.route_lines if r.name in ("Via Balbia", "Egyptian coast road") for h in r.hexes]
    for name in (
        "El Agheila",
        "Mersa Brega",
        "Agedabia",
        "Benghazi",
        "Barce",
        "Maraua",
        "Cyrene",
        "Giovanni Berta",
        "Derna",
        "Martuba",
        "Tmimi",
        "Gazala",
        "Acroma",
        "Tobruk",
        "Bardia",
        "Sollum",
        "Mersa Matruh",
        "Fuka",
        "El Daba",
        "El Alamein",
        "El Hammam",
    ):
        assert place_hex(name) in road, name
    # two it passed cannot both lie on a chain of hexes: each is next to the road instead (docs/reconstruction.md)
    for name in ("Sidi Barrani", "Fort Capuzzo"):
        assert place_hex(name) not in road and any(place_hex(name).is_adjacent(h) for h in road), name


@pytest.mark.rule("CA-F.8")
def test_the_qattara_depression_stays_within_its_published_bounds() -> None:
    """Between 28 deg 35 min and 30 deg 25 min N, 26 deg 20 min and 29 deg 02 min E (the source 'qattara'),
    give or take half a hex; its cliff is on the north and north-west only, so the impassable edge ends at its tip."""
    m, ref = campaign(), georef()
    half_hex_lat, half_hex_lon = 6.5 / ref.km_per_deg_lat, 6.5 / ref.km_per_deg_lon
    for h in m.zone("Qattara Depression"):
        lat, lon = ref.centre(h)
        assert 28 + 35 / 60 - half_hex_lat <= lat <= 30 + 25 / 60 + half_hex_lat, h.label
        assert 26 + 20 / 60 - half_hex_lon <= lon <= 29 + 2 / 60 + half_hex_lon, h.label
    edge = [s for s, fs in m.hexsides.items() for f in fs if f.kind == Feature.IMPASSABLE_ESCARPMENT and all(x.col >= 50 for x in s.hexes)]
    assert edge
    assert max(ref.centre(x)[1] for s in edge for x in s.hexes) <= 29 + 2 / 60 + 2 * half_hex_lon


@pytest.mark.rule("CA-S.2")
def test_railway_and_railheads_by_date() -> None:
    m = campaign()
    assert m.railway[0] == zone_hex("ne-coast-road-hex")  # from Alexandria's side of the map
    assert all(a.is_adjacent(b) for a, b in zip(m.railway, m.railway[1:], strict=False))
    assert zone_hex("mersa-matruh") in m.railway and zone_hex("el-alamein") in m.railway
    heads = {r.name: r for r in m.railheads}
    assert heads["Belhamed"].hex == place_hex("Belhamed") == m.railway[-1]
    assert heads["Misheifa"].hex == place_hex("Misheifa")
    assert heads["Fort Capuzzo"].hex == place_hex("Fort Capuzzo")
    for date, name in (
        ("1941-03-16", "Mersa Matruh"),
        ("1941-11-14", "Mersa Matruh"),
        ("1941-11-15", "Misheifa"),
        ("1942-02-14", "Misheifa"),
        ("1942-05-26", "Belhamed"),
    ):
        found = m.railhead(date)
        assert found is not None and found.name == name, date
    assert m.railhead("1930-01-01") is None


@pytest.mark.rule("CA-S.3")
def test_ports_are_coastal() -> None:
    m = campaign()
    for h in m.zone("ports"):
        assert m.is_land(h) and any(not m.is_land(n) for n in h.neighbours() if n in m), h.label


@pytest.mark.rule("CA-F.8")
def test_qattara_edge_and_jebel_akhdar_escarpments_are_impassable_with_their_high_side() -> None:
    m = campaign()
    depression = m.zone("Qattara Depression")
    assert depression and all(m.terrain[h] == Terrain.DEPRESSION for h in depression)
    impassable = [(s, f) for s, fs in m.hexsides.items() for f in fs if f.kind == Feature.IMPASSABLE_ESCARPMENT]
    south_of_alamein = [(s, f) for s, f in impassable if any(h.col >= 70 for h in s.hexes)]
    assert south_of_alamein
    layout = georef().layout
    for side, f in south_of_alamein:  # the depression lies below its northern cliff
        assert f.high is not None
        low = side.other(f.high)
        assert layout.centre(f.high)[1] <= layout.centre(low)[1], side.label  # high side to the north
        assert m.terrain[low] == Terrain.DEPRESSION or m.terrain[f.high] != Terrain.DEPRESSION, side.label
    # the Via Balbia climbs the Jebel's western escarpment by road: the only way up (CA-F.8)
    jebel_west = [s for s, f in impassable if all(h.col <= 14 for h in s.hexes)]
    assert any(m.route(*s.hexes) == RouteKind.ROAD for s in jebel_west)


@pytest.mark.rule("CA-F.10")
def test_jebel_akhdar_is_mountain_round_barce_and_cyrene_not_benghazi() -> None:
    m = campaign()
    for name in ("Barce", "Cyrene", "Maraua"):
        assert m.terrain[place_hex(name)] == Terrain.MOUNTAIN, name
    for name in ("Benghazi", "Derna", "Mechili", "Msus"):
        assert m.terrain[place_hex(name)] != Terrain.MOUNTAIN, name


@pytest.mark.rule("CA-F.7")
def test_halfaya_is_a_pass_in_the_sollum_escarpment() -> None:
    m = campaign()
    passes = [s for s, fs in m.hexsides.items() if any(f.kind == Feature.PASS for f in fs)]
    assert len(passes) == 1
    (side,) = passes
    assert any(f.kind == Feature.ESCARPMENT for f in m.hexsides[side])
    assert zone_hex("halfaya") in side.hexes or any(h.is_adjacent(zone_hex("halfaya")) for h in side.hexes)


@pytest.mark.rule("CA-SC.5")
def test_gazala_line_runs_from_the_coast_to_bir_hakeim_through_its_boxes() -> None:
    m = campaign()
    line = m.zone("gazala-line")
    assert m.zone("gazala-boxes") <= line
    assert place_hex("Bir Hakeim") in line
    north = min(line, key=lambda h: h.row)
    assert any(not m.is_land(n) for n in north.neighbours())  # touches the sea
    seen, todo = {north}, [north]
    while todo:
        for n in todo.pop().neighbours():
            if n in line and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(line)


def test_every_zone_is_land_and_on_the_map() -> None:
    m = campaign()
    for name, hexes in m.zones.items():
        assert hexes, name
        assert all(m.is_land(h) for h in hexes), name


# --- the file: the build, validation, errors naming file and field --------------------------------------------


def test_build_map_reproduces_the_committed_campaign_map() -> None:
    pytest.importorskip("global_land_mask")
    from tobruk.geography.build import build, render_toml

    m, spec = build("north-africa")
    committed = DATA / "maps" / "north-africa.toml"
    assert render_toml(m, spec, "north-africa") == committed.read_text(encoding="utf-8")


def test_map_file_validates_and_round_trips() -> None:
    from tobruk.loading.mapfile import map_to_data

    m = campaign()
    again = read_map(Table(map_to_data(m, shifted_row_columns=79), "round trip"))
    assert again.terrain == m.terrain and again.railway == m.railway and again.railheads == m.railheads
    assert dict(again.zones) == dict(m.zones)


def _map_data() -> dict[str, Any]:
    return tomllib.loads((DATA / "maps" / "north-africa.toml").read_text(encoding="utf-8"))


def test_malformed_railhead_date_in_a_map_file_names_the_field() -> None:
    data = _map_data()
    data["railhead"][1]["date"] = "Nov 1941"
    with pytest.raises(ScenarioError) as err:
        read_map(Table(data, "maps/broken.toml"))
    assert "maps/broken.toml" in str(err.value) and "railhead[1].date" in str(err.value)


def test_railhead_off_the_railway_in_a_map_file_is_refused() -> None:
    data = _map_data()
    data["railhead"][0]["hex"] = "A1"
    with pytest.raises(ScenarioError) as err:
        read_map(Table(data, "maps/broken.toml"))
    assert "maps/broken.toml" in str(err.value) and "railhead 'Mersa Matruh'" in str(err.value)


def test_malformed_grid_file_names_file_and_field() -> None:
    data = copy.deepcopy(grid())
    data["georeference"]["hex_km"] = "thirteen"
    with pytest.raises(ScenarioError) as err:
        read_build_spec(Table(data, "grids/broken.toml"))
    assert "grids/broken.toml" in str(err.value) and "georeference.hex_km" in str(err.value)
    data = copy.deepcopy(grid())
    data["edge_zones"]["east-edge"] = "eastward"
    with pytest.raises(ScenarioError) as err:
        read_build_spec(Table(data, "grids/broken.toml"))
    assert "edge_zones.east-edge" in str(err.value)


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (lambda d: d["georeference"].pop("a1_lat"), "georeference.a1_lat", "missing (required)"),
        (lambda d: d["grid"].update(rows=41.5), "grid.rows", "expected an integer"),
        (lambda d: d["zones"].update({"nw-bugout-hex": ["1AA"]}), "zones.nw-bugout-hex[0]", "not a hex label"),
        (lambda d: d["place_zones"].update(jalo="Jalo"), "place_zones.jalo", "expected a list"),
    ],
)
def test_more_malformed_grid_files_name_file_and_field(change: Any, field: str, problem: str) -> None:
    data = copy.deepcopy(grid())
    change(data)
    with pytest.raises(ScenarioError) as err:
        read_build_spec(Table(data, "grids/broken.toml"))
    assert err.value.source == "grids/broken.toml" and err.value.field == field and problem in err.value.problem


def _geo_data() -> dict[str, Any]:
    return tomllib.loads(GEO.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["railhead"][1].update(turn="II Nov 41"), "railhead[1].turn"),
        (lambda d: d["railhead"][0].update(date="7 April 1936"), "railhead[0].date"),
        (lambda d: d["area"][0].update(kind="Forest land"), "area[0].kind"),
        (lambda d: d["include"][0]["places"].append("Atlantis"), "include[0].places[25]"),
        (lambda d: d["line"][0].pop("high"), "line[0].high"),
        (lambda d: d["place"][0].update(lat="north"), "place[0].lat"),
        (lambda d: d["place"][0].pop("confidence"), "place[0].confidence"),
        (lambda d: d["place"][0].update(source="wp-na,atlas"), "place[0].source"),
        (lambda d: d["route"][0].update(points=[[30.3, 18.7]]), "route[0].points"),
        (lambda d: d["route"][0]["points"].__setitem__(1, [300.0, 19.0]), "route[0].points[1]"),
    ],
)
def test_malformed_geography_names_file_and_field(change: Any, field: str) -> None:
    data = _geo_data()
    change(data)
    with pytest.raises(ScenarioError) as err:
        read_geography(Table(data, "geo/broken.toml"))
    assert "geo/broken.toml" in str(err.value) and field in str(err.value)


DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_the_picture_in_docs_shows_the_map_as_it_is() -> None:
    """docs/north-africa-map.svg is the committed map: every hex with its terrain, every named hex labelled
    (redraw with ``python -m tobruk.render.pictures north-africa docs`` after changing the geography)."""
    svg = (DOCS / "north-africa-map.svg").read_text(encoding="utf-8")
    drawn = dict(re.findall(r'<polygon data-hex="([A-Z]+\d+)" points="[^"]*" fill="[^"]*"><title>\S+ ([a-z-]+)</title>', svg))
    m = campaign()
    assert drawn == {h.label: m.terrain[h] for h in m.hexes}
    first_named: dict[Hex, str] = {}
    for p in m.places:
        if p.kind not in ("box", "fort"):
            first_named.setdefault(p.hex, p.name)  # the renderer writes up to two names a hex
    assert all(f">{name}</text>" in svg for name in first_named.values()) and ">Siwa</text>" in svg
    png = (DOCS / "north-africa-map.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert f'width="{width}" height="{height}"' in svg.splitlines()[0]  # drawn at the SVG's own size


def test_the_reconstruction_doc_gives_every_place_and_line_with_its_source_and_hex() -> None:
    """docs/reconstruction.md's campaign tables say what the geography says: a drifting file shows here."""
    doc = (DOCS / "reconstruction.md").read_text(encoding="utf-8")
    section = doc[doc.index("## The North-Africa campaign map") : doc.index("## Campaign forces and turn track")]
    geo, ref = geography(), georef()
    for p in geo.places:
        h = ref.hex_at(p.lat, p.lon)
        assert f"| {p.name} | {p.lat:g} | {p.lon:g} | {p.confidence} | {p.source} | {h.label} |" in section, p.name
    items: list[GeoRoute | GeoLine | GeoArea] = [*geo.routes, *geo.lines, *geo.areas, *geo.railways]
    for item in items:
        assert re.search(rf"\| {re.escape(item.name)} \| [^|]+ \| {item.confidence} \| {item.source} \|", section), item.name
    for sid in geo.sources:
        assert f"| `{sid}` |" in section, sid
    for zone, hexes in grid()["zones"].items():
        assert f"| {zone} | {' '.join(hexes)} |" in section, zone


def test_the_map_pictures_are_redrawn_by_one_command(tmp_path: Path) -> None:
    from tobruk.render.pictures import main

    assert main(["north-africa", str(tmp_path)]) == 0
    written = sorted(tmp_path.iterdir(), key=lambda p: p.suffix != ".svg")
    assert written[0] == tmp_path / "north-africa-map.svg"
    body = written[0].read_text(encoding="utf-8")
    # the title from the map file: its name and the grid's hex size (13 km, docs/reconstruction.md)
    assert body.startswith("<svg") and "North Africa 1941-43: 13 km hexes" in body and 'id="counters"' in body
    assert body.count("<polygon data-hex=") == len(campaign().hexes) and "<rect x=" not in body.split('id="counters"')[1]
    if len(written) == 2:  # cairosvg installed: the names keep their dark fill over a light halo
        assert written[1].read_bytes()[:4] == b"\x89PNG"


def test_included_places_leave_the_other_games_boxes_behind() -> None:
    geo = geography()
    assert geo.place("Tobruk").fortification is None  # a fort of the Gazala set-up, not of the campaign map
    assert not campaign().fortifications
    assert Path(GEO).exists()
