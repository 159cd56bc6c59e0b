"""The map model and map files: validation, frozen tables, edges, malformed input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import make_scenario
from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import Feature, MovementRates, RouteKind, Terrain
from tobruk.engine.errors import ScenarioError
from tobruk.loading.scenario import Scenario

H = Hex.parse

TRACKS = """
[[map.route]]
kind = "road"
hexes = ["A1", "A2", "A3"]
[[map.route]]
kind = "minor-track"
hexes = ["A3", "B3", "C3"]
[map.terrain]
sea = ["A5"]
hill = ["C2"]
[map.hexsides]
escarpment = [{ side = "B1|C1", high = "C1" }]
minefield = [{ side = "B2|B3", owner = "allied" }]
[map.supply]
axis = ["A1"]
allied = ["E5"]
[map.fortifications]
allied = ["D4"]
"""


def test_inline_map_builds_and_answers_questions() -> None:
    m = make_scenario(map_extra=TRACKS).map
    assert len(m.hexes) == 25 and m.rows == 5 and m.columns == 5
    assert m.route(H("A1"), H("A2")) == RouteKind.ROAD
    assert m.route(H("B3"), H("A3")) == RouteKind.MINOR_TRACK
    assert m.route(H("A1"), H("B1")) is None
    assert m.terrain[H("C2")] == Terrain.HILL and not m.is_land(H("A5"))
    esc = m.feature(H("C1"), H("B1"), Feature.ESCARPMENT)
    assert esc is not None and esc.high == H("C1")
    mine = m.feature(H("B2"), H("B3"), Feature.MINEFIELD)
    assert mine is not None and mine.owner is not None and mine.owner.value == "allied"
    assert [h.label for h in m.supply_sources[next(iter(m.supply_sources))]] == ["A1"]


def test_map_is_frozen() -> None:
    m: Any = make_scenario(map_extra=TRACKS).map  # the writes below are what its types forbid: refused at run time too
    with pytest.raises(TypeError):
        m.terrain[H("A1")] = Terrain.SEA
    with pytest.raises(AttributeError):
        m.name = "other"


def test_integer_tables_agree_with_the_map() -> None:
    m = make_scenario(map_extra=TRACKS).map
    i = m.index[H("A2")]
    assert m.neighbour_table[i * 6 + Direction.E] == m.index[H("A3")]
    assert m.neighbour_table[i * 6 + Direction.NE] == -1  # off the north edge
    assert m.route_kinds[m.route_table[i * 6 + Direction.E]] == RouteKind.ROAD
    rates = MovementRates.of(road=15, major_track=20, minor_track=30)
    costs = m.edge_costs(rates)
    assert costs[i * 6 + Direction.E] == 15  # along the road: 1/4 MF in sixtieths
    assert costs[i * 6 + Direction.SE] == 60  # off-road
    j = m.index[H("A4")]
    assert costs[j * 6 + Direction.E] == -1  # into the sea


def test_map_edges() -> None:
    m = make_scenario(rows=3, columns=4).map
    assert m.edge("east") == {H("A4"), H("B4"), H("C4")}
    assert m.edge("west") == {H("A1"), H("B1"), H("C1")}
    assert m.edge("north") == {H("A1"), H("A2"), H("A3"), H("A4")}


def test_shifted_rows_may_be_one_hex_shorter() -> None:
    from tobruk.loading.mapfile import grid_hexes

    short = grid_hexes(3, 4, 3)
    assert H("B4") not in short and H("A4") in short and H("B3") in short and H("C4") in short


@pytest.mark.parametrize(
    ("extra", "field", "words"),
    [
        ('[[map.route]]\nkind = "road"\nhexes = ["A1", "A3"]', "route[0]", "not adjacent"),
        ('[[map.route]]\nkind = "highway"\nhexes = ["A1", "A2"]', "map.route[0].kind", "expected one of"),
        ('[[map.route]]\nkind = "road"\nhexes = ["A1", "Z9"]', "map.route[0].hexes", "not on the"),
        ('[map.terrain]\nswamp = ["A1"]', "map.terrain.swamp", "unknown terrain"),
        ('[map.hexsides]\nescarpment = [{ side = "B1|C1", high = "A1" }]', "hexsides", "high side"),
        ('[map.hexsides]\nescarpment = [{ side = "B1|D1", high = "B1" }]', "side", "not adjacent"),
        ('[map.supply]\nitalian = ["A1"]', "map.supply.italian", "axis or allied"),
        ("colour = 3", "map.colour", "unknown field"),
    ],
)
def test_malformed_maps_name_the_file_and_field(extra: str, field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        make_scenario(map_extra=extra)
    assert err.value.source == "inline.toml"
    assert field in err.value.field
    assert words in err.value.problem


def test_route_into_sea_is_refused() -> None:
    with pytest.raises(ScenarioError, match="sea"):
        make_scenario(map_extra='[map.terrain]\nsea = ["A2"]\n[[map.route]]\nkind = "road"\nhexes = ["A1", "A2"]')


def test_map_file_round_trip(gazala: Scenario) -> None:
    import tomllib

    import tomli_w

    from tobruk.loading.datafile import Table
    from tobruk.loading.mapfile import map_to_data, read_map

    m = gazala.map
    again = read_map(Table(tomllib.loads(tomli_w.dumps(map_to_data(m, shifted_row_columns=17))), "rt.toml"))
    assert dict(again.terrain) == dict(m.terrain)
    assert dict(again.routes) == dict(m.routes)
    assert dict(again.hexsides) == dict(m.hexsides)
    assert dict(again.fortifications) == dict(m.fortifications)
    assert again.places == m.places
    assert {k: set(v) for k, v in again.zones.items()} == {k: set(v) for k, v in m.zones.items()}
    assert Hexside.parse("B5|C5") in again.hexsides
