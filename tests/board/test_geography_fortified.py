"""A fortification's fortified sides in the geography: the compass points its defences faced, rasterised onto
the hexsides of its hex (``tobruk.geography``), carried by the map file and checked by the map model.

The expected hexsides follow from the geometry of a pointy-topped hex with north up: its six sides face
north-east (30 degrees), east (90), south-east (150), south-west (210), west (270) and north-west (330), so
each of the eight compass points falls on one side, except north and south, which fall on a corner and take
the two sides beside it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import Feature, Map, MapError, SideFeature, Terrain, build_map
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.geography.extra import facing_directions
from tobruk.geography.geo import Georeference, rasterise, read_build_spec, read_geography
from tobruk.loading.datafile import Table
from tobruk.loading.mapfile import map_to_data, read_map

H = Hex.parse
D = Direction
REF = Georeference(31.0, 25.0, 5.0, 31.0)  # A1's centre; 5 km hexes


def geography(*places: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "tobruk-geography",
        "version": 1,
        "name": "test ground",
        "source": [{"id": "s", "text": "a made-up source"}],
        "place": list(places),
        "route": [],
        "line": [],
    }


def camp(name: str, label: str, facings: list[str] | None, fortification: str | None = "axis") -> dict[str, Any]:
    """A place at the centre of the hex ``label`` on :data:`REF`'s grid."""
    lat, lon = REF.centre(H(label))
    place: dict[str, Any] = {"name": name, "lat": lat, "lon": lon, "confidence": "D", "source": "s"}
    if fortification is not None:
        place["fortification"] = fortification
    if facings is not None:
        place["fortified"] = facings
    return place


def build(geo: dict[str, Any], is_land: Callable[[float, float], bool] = lambda lat, lon: True) -> Map:
    spec = read_build_spec(
        Table(
            {
                "name": "test",
                "geography": "test ground",
                "land_threshold": 0.25,
                "georeference": {"a1_lat": REF.a1_lat, "a1_lon": REF.a1_lon, "hex_km": REF.hex_km, "reference_lat": REF.reference_lat},
                "grid": {"rows": 5, "columns": 5},
                "supply": {"axis": ["E1"]},
            },
            "grids/test.toml",
        )
    )
    return rasterise(spec, read_geography(Table(geo, "geo/test.toml")), is_land)


def fortified(m: Map, h: Hex) -> dict[Direction, SideFeature]:
    out = {}
    for d in Direction:
        for f in m.features(Hexside.of(h, d)):
            if f.kind == Feature.FORTIFIED:
                out[d] = f
    return out


@pytest.mark.parametrize(
    ("facing", "sides"),
    [
        ("north", {D.NE, D.NW}),
        ("north-east", {D.NE}),
        ("east", {D.E}),
        ("south-east", {D.SE}),
        ("south", {D.SE, D.SW}),
        ("south-west", {D.SW}),
        ("west", {D.W}),
        ("north-west", {D.NW}),
    ],
)
def test_each_compass_point_covers_the_sides_that_face_it(facing: str, sides: set[Direction]) -> None:
    assert set(facing_directions([facing])) == sides


def test_a_camp_is_fortified_on_the_sides_its_defences_faced_and_open_on_the_rest() -> None:
    # a camp whose defences faced north, east and south, its rear (west) left open for its supply lorries
    m = build(geography(camp("Camp", "C3", ["north", "east", "south"])))
    sides = fortified(m, H("C3"))
    assert set(sides) == {D.NE, D.NW, D.E, D.SE, D.SW}
    assert all(f.inside == H("C3") and f.owner is Side.AXIS for f in sides.values())
    assert dict(m.fortifications) == {H("C3"): Side.AXIS}
    # the open side carries nothing, and no other hex has a fortified side
    assert not m.features(Hexside.of(H("C3"), D.W))
    assert sum(f.kind == Feature.FORTIFIED for fs in m.hexsides.values() for f in fs) == 5


def test_a_fortification_without_facings_has_no_fortified_sides() -> None:
    m = build(geography(camp("Box", "C3", None, "allied")))
    assert dict(m.fortifications) == {H("C3"): Side.ALLIED}
    assert not m.hexsides


def test_no_fortified_side_faces_the_sea_or_the_edge_of_the_map() -> None:
    # row A (north of 31.0 N less half a row) is sea; a coastal camp in B2 faced every way
    sea_north = REF.centre(H("B1"))[0] + 0.02

    def is_land(lat: float, lon: float) -> bool:
        return lat < sea_north

    m = build(geography(camp("Coast camp", "B2", ["north", "east", "south", "west"]), camp("Edge camp", "D1", ["west"])), is_land)
    assert m.terrain[H("A2")] == Terrain.SEA and m.terrain[H("A3")] == Terrain.SEA
    assert set(fortified(m, H("B2"))) == {D.E, D.SE, D.SW, D.W}
    assert not fortified(m, H("D1"))  # its west side is the map's edge


def test_one_side_fortified_by_two_neighbouring_camps_is_refused_naming_both() -> None:
    with pytest.raises(ValueError, match=r"C3\|C4.*'West camp'.*'East camp'"):
        build(geography(camp("West camp", "C3", ["east"]), camp("East camp", "C4", ["west"])))
    # facing away from each other, the two are fine
    m = build(geography(camp("West camp", "C3", ["west"]), camp("East camp", "C4", ["east"])))
    assert set(fortified(m, H("C3"))) == {D.W} and set(fortified(m, H("C4"))) == {D.E}


@pytest.mark.parametrize(
    ("facings", "fortification", "field", "words"),
    [
        (["north", "northward"], "axis", "place[0].fortified[1]", "expected a direction"),
        (["east", "south", "east"], "axis", "place[0].fortified[2]", "listed twice"),
        (["east"], None, "place[0].fortified", "only a fortification"),
        ("east", "axis", "place[0].fortified", "expected a list"),
    ],
)
def test_malformed_facings_name_the_file_and_field(facings: Any, fortification: str | None, field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        read_geography(Table(geography(camp("Camp", "C3", facings, fortification)), "geo/broken.toml"))
    assert err.value.source == "geo/broken.toml" and err.value.field == field and words in err.value.problem


def test_fortified_sides_round_trip_through_the_map_file() -> None:
    m = build(geography(camp("Camp", "C3", ["north-east", "south-west"])))
    again = read_map(Table(map_to_data(m), "maps/test.toml"))
    assert fortified(again, H("C3")) == fortified(m, H("C3"))
    assert set(fortified(again, H("C3"))) == {D.NE, D.SW}


@pytest.mark.parametrize(
    "feature",
    [
        SideFeature(Feature.FORTIFIED, owner=Side.AXIS),  # no inside
        SideFeature(Feature.FORTIFIED, owner=Side.AXIS, inside=H("A1")),  # an inside off this side
        SideFeature(Feature.FORTIFIED, inside=H("C3")),  # no owner
    ],
)
def test_the_map_refuses_a_fortified_side_without_its_inside_or_owner(feature: SideFeature) -> None:
    terrain = {H(f"{r}{c}"): Terrain.CLEAR for r in "ABCDE" for c in range(1, 6)}
    with pytest.raises(MapError, match="fortified"):
        build_map("test", terrain, hexsides={Hexside.of(H("C3"), D.E): [feature]})
