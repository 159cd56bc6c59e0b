"""The Gazala Gallop map rebuilt from geography: every hex the rules name lands where they put it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tobruk.board.hexes import Hex
from tobruk.board.maps import Feature, RouteKind
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario

H = Hex.parse


@pytest.mark.rule("GG-XV.A.1")
def test_supply_sources_are_the_hexes_the_rules_name(gazala: Scenario) -> None:
    m = gazala.map
    assert [h.label for h in m.supply_sources[Side.AXIS]] == ["A5", "B1", "G1"]
    assert [h.label for h in m.supply_sources[Side.ALLIED]] == ["C13", "G18", "K18", "N17"]


@pytest.mark.rule("GG-XV.A.2")
def test_axis_sources_and_h4_are_on_the_road_and_track_net(gazala: Scenario) -> None:
    m = gazala.map
    for label in ("A5", "B1", "G1"):
        assert m.on_route(H(label)), label
    # the Axis end sweep round Bir Hakeim can trace supply from H4 (XV.A.2's own example)
    net = m.road_net([H("G1")])
    assert H("H4") in net
    assert H("H4") in gazala.zone("axis-free-setup")  # west of the Gazala Line


def test_allied_east_sources_are_on_the_east_edge_on_tracks(gazala: Scenario) -> None:
    m = gazala.map
    east = m.edge("east")
    for label in ("G18", "K18", "N17"):
        h = H(label)
        assert h in east, label
        kinds = {m.route(h, n) for n in m.neighbours(h)} - {None}
        assert kinds & {RouteKind.MAJOR_TRACK, RouteKind.MINOR_TRACK}, label


def test_tobruk_bir_hakeim_and_the_coast(gazala: Scenario) -> None:
    m = gazala.map
    assert m.place("Tobruk").hex == H("C13")
    assert m.place("Bir Hakeim").hex == H("J7")
    assert m.fortifications[H("C13")] is Side.ALLIED and m.fortifications[H("J7")] is Side.ALLIED
    assert m.is_land(H("C13")) and not m.is_land(H("A10")) and not m.is_land(H("B15"))
    assert H("C13") in m.zone("inside Tobruk perimeter")


def test_gazala_line_runs_unbroken_from_the_coast_to_bir_hakeim(gazala: Scenario) -> None:
    m = gazala.map
    line = m.zone("gazala-line")
    northmost = min(line, key=lambda h: h.row)
    assert northmost.row == 0 or any(not m.is_land(n) for n in northmost.neighbours())  # touches the coast
    assert H("J7") in line
    # connected through adjacent line hexes
    seen, todo = {northmost}, [northmost]
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in line and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(line)
    # column 5 at the coast, column 7 at Bir Hakeim (the grid fit of the research notes)
    assert {h.label for h in line if h.row == 1} == {"B5"}
    assert all(h.col + 1 == 7 for h in line if h.row >= 7)
    # the belt is mined hexside by hexside, and Bir Hakeim all round
    mined = [s for s, fs in m.hexsides.items() if any(f.kind == Feature.MINEFIELD for f in fs)]
    assert len(mined) >= 15
    assert all(m.feature(H("J7"), n, Feature.MINEFIELD) for n in H("J7").neighbours())


def test_routes_are_chains_of_adjacent_land_hexes(gazala: Scenario) -> None:
    m = gazala.map
    names = {r.name for r in m.route_lines}
    for expected in ("Via Balbia", "Trigh Capuzzo", "Trigh el Abd"):
        assert expected in names
    for r in m.route_lines:
        assert all(a.is_adjacent(b) for a, b in zip(r.hexes, r.hexes[1:], strict=False)), r.name
        assert all(m.is_land(h) for h in r.hexes), r.name
    via = next(r for r in m.route_lines if r.name == "Via Balbia")
    assert H("A5") in via.hexes and H("C13") in via.hexes and via.kind == RouteKind.ROAD


# Places of the research table (shared research notes, section 2) and the hex given there.
RESEARCH_PLACES = {
    "Tobruk": "C13",
    "Gazala": "B6",
    "Bir Temrad": "D3",
    "Sidi Breghisc": "D3",
    "Alem Hamza": "D5",
    "Rotonda Segnali": "G3",
    "Rotonda Mteifel": "G6",
    "Bir Habesc": "J4",
    "El Ghebit": "F7",
    "Sidi Muftah": "F8",
    "Got el Ualeb": "G8",
    "Bir Heleisi": "E8",
    "Bir Hakeim": "J7",
    "Point 171": "J8",
    "Knightsbridge": "F9",
    "Acroma": "C10",
    "El Mrassas": "B10",
    "Commonwealth Keep": "C9",
    "Eluet et Tamar": "D8",
    "Rigel Ridge": "E10",
    "Sidra Ridge": "F8",
    "Aslagh Ridge": "G9",
    "The Cauldron": "F8",
    "Bir el Harmat": "G9",
    "El Hamrah": "I9",
    "Hagiag er Raml": "E11",
    "Bir Lefa": "F11",
    "El Adem": "F12",
    "Ras el Medauuar": "D11",
    "Bir Beuid": "J11",
    "Retma": "K11",
    "Bir el Hafad": "H13",
    "Bir el Gubi": "K14",
    "Ed Duda": "F14",
    "Sidi Rezegh": "G15",
    "Belhamed": "F15",
    "Bir el Chleta": "F17",
    "Taieb el Esem": "J16",
}


@pytest.mark.parametrize(("name", "label"), sorted(RESEARCH_PLACES.items()))
def test_every_researched_place_within_one_hex_of_the_research(gazala: Scenario, name: str, label: str) -> None:
    assert gazala.map.place(name).hex.distance(H(label)) <= 1


def test_build_map_reproduces_the_committed_file() -> None:
    pytest.importorskip("global_land_mask")
    from tobruk.geography.build import build, render_toml

    m, spec = build("gazala-gallop")
    committed = Path(__file__).resolve().parents[3] / "tobruk" / "data" / "maps" / "gazala-gallop.toml"
    assert render_toml(m, spec, "gazala-gallop") == committed.read_text(encoding="utf-8")


def test_georeference_puts_a1_at_its_latitude_and_longitude() -> None:
    from tobruk.geography.build import georeference

    ref = georeference("gazala-gallop")
    lat, lon = ref.centre(H("A1"))
    assert (lat, lon) == pytest.approx((32.210, 22.850))
    # research grid formula: lat = 32.210 - 0.06872 r, lon = 22.850 + 0.09302 (c - 1) + 0.04651 (odd r)
    lat, lon = ref.centre(H("N17"))
    assert lat == pytest.approx(32.210 - 0.06872 * 13, abs=0.005)
    assert lon == pytest.approx(22.850 + 0.09302 * 16 + 0.04651, abs=0.005)
    assert ref.hex_at(32.076, 23.961) == H("C13")
    assert ref.hex_at(31.594, 23.480) == H("J7")
