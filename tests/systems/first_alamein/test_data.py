"""1st Alamein - Beginners' Edition as data: the map rebuilt from the geography and the order of battle of
1-10 July 1942 (docs/reconstruction.md, "1st Alamein - Beginners' Edition"; rulings in docs/rulings.md).

The expected hexes, days and factors come from the sources' words (distances in miles, dates of arrival,
tank and battalion counts), not from the files under test: where a test needs a number, it says where the
number comes from."""

from __future__ import annotations

import datetime
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import family, family_def
from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import Feature, Map, RouteKind, Terrain
from tobruk.cli import main
from tobruk.engine.sides import Side
from tobruk.geography.geo import Geography, Georeference, load_geography
from tobruk.loading.datafile import DATA
from tobruk.loading.mapfile import load_packaged_map
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.counters import UnitType

H = Hex.parse
ROOT = Path(__file__).resolve().parents[3]
GRID = DATA / "grids" / "first-alamein.toml"
SCENARIO = ROOT / "tobruk" / "systems" / "first_alamein" / "scenarios" / "first-alamein.toml"
MILE_KM = 1.609
HEX_KM = 10.0  # the designer's scale: about 6 miles / 10 km a hex


@cache
def fa_map() -> Map:
    return load_packaged_map("first-alamein")


@cache
def geography() -> Geography:
    return load_geography("el-alamein")


@cache
def grid() -> dict[str, Any]:
    return tomllib.loads(GRID.read_text(encoding="utf-8"))


@cache
def scenario() -> Scenario:
    return load_scenario("first-alamein")


@cache
def scenario_data() -> dict[str, Any]:
    return tomllib.loads(SCENARIO.read_text(encoding="utf-8"))


def georef() -> Georeference:
    g = grid()["georeference"]
    return Georeference(g["a1_lat"], g["a1_lon"], g["hex_km"], g["reference_lat"])


def place_hex(name: str) -> Hex:
    """Where the geography puts a place: its latitude and longitude through the grid's georeference."""
    p = geography().place(name)
    return georef().hex_at(p.lat, p.lon)


def zone_hex(name: str) -> Hex:
    (h,) = fa_map().zone(name)
    return h


def hexes_for(miles: float) -> int:
    return round(miles * MILE_KM / HEX_KM)


# --- the map is what the build gives, and every place lands where its coordinates put it -------------------


def test_build_map_reproduces_the_committed_file() -> None:
    pytest.importorskip("global_land_mask")
    from tobruk.geography.build import build, render_toml

    m, spec = build("first-alamein")
    committed = DATA / "maps" / "first-alamein.toml"
    assert render_toml(m, spec, "first-alamein") == committed.read_text(encoding="utf-8")


def test_grid_is_about_10_km_hexes_rows_from_the_north_columns_from_the_west() -> None:
    ref = georef()
    assert ref.hex_km == HEX_KM
    a1_lat, a1_lon = ref.centre(H("A1"))
    j1_lat, _ = ref.centre(H("J1"))
    _, a11_lon = ref.centre(H("A11"))
    assert j1_lat < a1_lat  # row letters run southward
    assert a11_lon > a1_lon  # column numbers run eastward
    m = fa_map()
    assert (m.rows, m.columns) == (10, 11)


SINGLE_PLACE_ZONES = sorted((z, names[0]) for z, names in grid()["place_zones"].items() if len(names) == 1)


@pytest.mark.parametrize(("zone", "place"), SINGLE_PLACE_ZONES)
def test_each_named_place_zone_is_the_hex_its_coordinates_fall_in(zone: str, place: str) -> None:
    assert zone_hex(zone) == place_hex(place)


def test_every_place_of_the_geography_is_on_the_map_in_its_own_hex() -> None:
    m = fa_map()
    for p in geography().places:
        assert m.place(p.name).hex == place_hex(p.name), p.name


def test_el_alamein_and_its_box_share_a_hex_on_the_coast_road_away_from_the_edges() -> None:
    m = fa_map()
    box = zone_hex("el-alamein-box")
    assert box == zone_hex("el-alamein") == m.place("El Alamein box").hex
    assert box in m.zone("coastal-road")
    assert all(box not in m.edge(compass) for compass in ("north", "south", "east", "west"))


def test_the_boxes_of_1_july_are_the_maps_allied_fortifications_none_on_the_west_edge() -> None:
    # the El Alamein box (1st SA Division), Deir el Shein (18th Indian Brigade), Bab el Qattara (6th NZ Brigade)
    # and Naqb Abu Dweis (9th Indian Brigade): the four boxes of the line on 1 July 1942
    m = fa_map()
    boxes = {zone_hex(z) for z in ("el-alamein-box", "deir-el-shein-box", "bab-el-qattara-box", "naqb-abu-dweis-box")}
    assert len(boxes) == 4
    assert dict(m.fortifications) == dict.fromkeys(boxes, Side.ALLIED)
    assert not boxes & m.edge("west")


def test_the_distances_the_sources_give_are_kept_in_hexes() -> None:
    alamein = zone_hex("el-alamein")
    naqb = zone_hex("naqb-abu-dweis-box")
    kaponga = zone_hex("bab-el-qattara-box")
    # the Naqb Abu Dweis box 34 miles from the coast at Alamein; the Kaponga box 18 miles south-west of Alamein
    assert alamein.distance(naqb) in (hexes_for(34), hexes_for(34) + 1)
    assert alamein.distance(kaponga) == hexes_for(18)
    assert kaponga.row > alamein.row and kaponga.col < alamein.col
    # Naqb Abu Dweis about 15 miles from Himeimat
    assert naqb.distance(fa_map().place("Qaret el Himeimat").hex) in (hexes_for(15), hexes_for(15) + 1)
    # Bab el Qattara 8 miles south-west of Ruweisat Ridge: next to the ridge's western hex
    ruweisat_west = min(fa_map().zone("Ruweisat Ridge"), key=lambda h: h.col)
    assert kaponga.distance(ruweisat_west) == hexes_for(8)
    assert kaponga.row > ruweisat_west.row


def test_tel_el_eisa_lies_west_and_north_west_of_el_alamein() -> None:
    m = fa_map()
    alamein = zone_hex("el-alamein")
    assert zone_hex("tel-el-eisa") == alamein.neighbour(Direction.W)
    assert m.place("Tel el Eisa station").hex == alamein.neighbour(Direction.NW)


def test_deir_el_shein_box_is_at_the_western_end_of_ruweisat_ridge() -> None:
    ruweisat = fa_map().zone("Ruweisat Ridge")
    shein = zone_hex("deir-el-shein-box")
    assert shein == min(ruweisat, key=lambda h: h.col)
    # Ruweisat lies between the El Alamein box and the New Zealand positions at Alam Nayil and Deir el Munassib
    assert {h.row for h in ruweisat} == {zone_hex("el-alamein").row + 1}
    m = fa_map()
    assert m.place("Alam Nayil").hex.row > max(h.row for h in ruweisat)
    assert m.place("Deir el Munassib").hex.row > m.place("Alam Nayil").hex.row


def test_ridges_hills_and_tels_are_hill_hexes() -> None:
    m = fa_map()
    for name in (
        "Tel el Eisa",
        "Miteiriya Ridge",
        "Tel el Makh Khad",
        "Alam Nayil",
        "Alam el Halfa",
        "Qaret el Abd",
        "Gebel Kalakh",
        "Taqa plateau",
        "Qaret el Himeimat",
        "Gebel Bein Gabir",
    ):
        assert m.terrain[m.place(name).hex] == Terrain.HILL, name
    assert all(m.terrain[h] == Terrain.HILL for h in m.zone("Alam Halfa Ridge"))
    # Ruweisat's crest runs from the Deir el Shein box (a deir, the grid's word) east along the ridge
    shein = zone_hex("deir-el-shein-box")
    assert all(m.terrain[h] == Terrain.HILL for h in m.zone("Ruweisat Ridge") - {shein})
    assert m.terrain[shein] == "deir"


def test_the_deirs_are_deir_hexes_where_no_ridge_or_hill_shares_them() -> None:
    # FA-TER.4's Depression/Deir; a hex with a deir and a ridge or hill shows one of them (the same effect)
    m = fa_map()
    deirs = {p.hex for p in m.places if p.kind == "deir"}
    assert deirs == set(m.zone("deirs"))
    for name in ("Deir el Shein box", "Deir el Abyad", "El Mreir", "Deir el Munassib", "Deir Alinda", "Deir el Ragil"):
        assert m.place(name).kind == "deir"
        assert m.terrain[m.place(name).hex] == "deir", name
    # Deir el Hima shares its hex with Alam Nayil and the western end of Alam Halfa ridge
    hima = m.place("Deir el Hima").hex
    assert hima == m.place("Alam Nayil").hex and m.terrain[hima] == Terrain.HILL


def test_roads_and_tracks_are_the_charts_two_kinds() -> None:
    # FA-TER.1 knows road-to-road and track-to-track
    m = fa_map()
    assert m.route_kinds == ("road", "track")
    assert {r.kind for r in m.route_lines} == {"road", "track"}


def test_the_qattara_depression_is_impassable_below_its_northern_edge() -> None:
    m = fa_map()
    floor = m.zone("Qattara Depression (Alamein sector)")
    assert floor and all(m.terrain[h] == Terrain.DEPRESSION for h in floor)
    assert {h.row for h in floor} == {m.rows - 1}  # the south edge of the map, below Naqb Abu Dweis
    naqb = zone_hex("naqb-abu-dweis-box")
    edge = [(s, f) for s, fs in m.hexsides.items() for f in fs if f.kind == Feature.IMPASSABLE_ESCARPMENT]
    assert edge
    for side, f in edge:
        a, b = side.hexes
        low = b if f.high == a else a
        assert low in floor and f.high not in floor
    assert any(Hexside.between(naqb, h) in dict(edge) for h in floor if h.is_adjacent(naqb))
    assert m.place("Qaret el Himeimat").hex not in floor


def test_the_coast_road_railway_and_tracks_run_where_the_sources_put_them() -> None:
    m = fa_map()
    road = next(r for r in m.route_lines if r.name == "Egyptian coast road")
    assert road.kind == RouteKind.ROAD
    for name in ("El Daba", "Sidi Abd el Rahman", "El Alamein", "El Hammam"):
        assert m.place(name).hex in road.hexes, name
    # the railway runs beside the road through the stations from El Daba to El Hammam
    for name in ("El Daba", "Ghazal", "Sidi Abd el Rahman", "Tel el Eisa station", "El Alamein", "El Imayid", "El Hammam"):
        assert m.place(name).hex in m.railway, name
    # the Barrel track from Fuka to the Cairo - Alexandria road runs through the Qattara (Kaponga) box
    barrel = next(r for r in m.route_lines if r.name == "Barrel track")
    assert zone_hex("bab-el-qattara-box") in barrel.hexes
    assert barrel.hexes[0] in m.edge("west") and barrel.hexes[-1] in m.edge("east")
    lateral = next(r for r in m.route_lines if r.name.startswith("El Alamein - Bab el Qattara"))
    assert [lateral.hexes[0], lateral.hexes[-1]] == [zone_hex("el-alamein-box"), zone_hex("naqb-abu-dweis-box")]
    assert zone_hex("bab-el-qattara-box") in lateral.hexes
    # no track the sources date after the first days of July: Rahman track, Springbok road, the Sun/Moon/Hat tracks
    assert not [r.name for r in m.route_lines if any(w in r.name for w in ("Rahman", "Springbok", "Sun", "Moon", "Hat"))]


def test_ne_coast_road_hex_is_where_the_coast_road_leaves_the_east_edge() -> None:
    m = fa_map()
    road_on_east_edge = set(m.zone("coastal-road")) & set(m.edge("east"))
    assert set(m.zone("ne-coast-road-hex")) == road_on_east_edge
    ne = zone_hex("ne-coast-road-hex")
    alamein = zone_hex("el-alamein")
    assert ne.col > alamein.col and ne.row <= alamein.row


def test_supply_sources_are_the_roads_and_tracks_leaving_each_sides_edge() -> None:
    m = fa_map()
    ways = {h for r in m.route_lines for h in r.hexes}
    assert set(m.supply_sources[Side.AXIS]) <= set(m.edge("west")) & ways
    assert set(m.supply_sources[Side.ALLIED]) <= set(m.edge("east")) & ways
    assert zone_hex("ne-coast-road-hex") in m.supply_sources[Side.ALLIED]
    assert m.place("El Daba").hex in m.supply_sources[Side.AXIS]


def test_every_zone_is_land_and_on_the_map() -> None:
    m = fa_map()
    for name, hexes in m.zones.items():
        assert hexes, name
        assert all(h in m.terrain and m.is_land(h) for h in hexes), name


# --- the order of battle ---------------------------------------------------------------------------------


def unit_table(uid: str) -> dict[str, Any]:
    return next(u for u in scenario_data()["unit"] if u["id"] == uid)


def test_ten_one_day_turns_from_1_july_1942() -> None:
    s = scenario()
    assert s.system == "first-alamein"
    assert s.turns == 10
    assert s.rules["first_day"] == "1942-07-01"


# The day each reinforcement reached the front, from the sources the scenario cites.
ARRIVALS = {
    "15Pz": datetime.date(1942, 7, 1),  # the Afrika Korps before the line on 30 June, attacking on 1 July
    "21Pz": datetime.date(1942, 7, 1),
    "90Lt": datetime.date(1942, 7, 1),  # 90th Light's attack at 03.00 on 1 July
    "RecceGp": datetime.date(1942, 7, 1),
    "Ariete": datetime.date(1942, 7, 1),  # XX Corps on the southern flank from 1 July (destroyed on 3 July)
    "Littorio": datetime.date(1942, 7, 1),  # its tanks against the line on 30 June
    "Trieste": datetime.date(1942, 7, 1),
    "Brescia": datetime.date(1942, 7, 2),  # X Corps to hold El Mreir on 3 July
    "Pavia": datetime.date(1942, 7, 3),
    "Trento": datetime.date(1942, 7, 4),  # Rommel regrouping from 4 July
    "Sabratha": datetime.date(1942, 7, 5),  # holding the coast road when overrun on 10 July
    "24AusBde": datetime.date(1942, 7, 4),  # 24th Brigade moving forward under XXX Corps on 4 July
    "9AusDiv": datetime.date(1942, 7, 7),  # 7 July: 26th Brigade to the coast, the division's HQ near El Imayid
}


@pytest.mark.parametrize(("uid", "day"), sorted(ARRIVALS.items()))
def test_each_reinforcement_arrives_on_the_turn_its_date_gives(uid: str, day: datetime.date) -> None:
    s = scenario()
    first = datetime.date.fromisoformat(s.rules["first_day"])
    assert s.reinforcements[uid].turn == (day - first).days + 1  # "R5" arrives on turn 5: 5 July


def test_every_reinforcement_has_its_date_here() -> None:
    assert set(scenario().reinforcements) == set(ARRIVALS)


def test_the_australians_arrive_from_the_east_and_everything_axis_from_the_west() -> None:
    s = scenario()
    m = s.map
    west = set(m.edge("west")) - set(m.zone("Qattara Depression (Alamein sector)"))
    for u in family(s):
        if u.is_air:
            continue
        if u.side is Side.AXIS:
            assert s.start[u.id] is None and s.zone(s.reinforcements[u.id].zone) == west, u.id
        elif u.id in s.reinforcements:
            entry = s.zone(s.reinforcements[u.id].zone)
            assert entry == set(m.supply_sources[Side.ALLIED]) and entry <= set(m.edge("east")), u.id


def test_allies_start_alone_and_spent_except_the_1st_south_african_division_in_the_alamein_box() -> None:
    # CA-SC.7: "all units start stacked alone and (except 1SA Div) Disrupted ... not on westernmost edge hexes"
    s = scenario()
    on_map = {u.id: s.start[u.id] for u in family(s) if u.side is Side.ALLIED and s.start.get(u.id) is not None}
    assert len(set(on_map.values())) == len(on_map)
    assert s.rules["alone"] == "allied"
    assert set(s.rules["spent_at_start"]) == set(on_map) - {"1SADiv"}
    assert "1SADiv" not in s.rules["spent_at_start"]
    assert on_map["1SADiv"] == zone_hex("el-alamein-box")
    west = set(s.map.edge("west"))
    assert not set(on_map.values()) & west
    for uid in on_map:
        assert not s.zone(s.setup_zone[uid]) & west, uid


def test_the_allied_units_start_where_they_stood_on_1_july() -> None:
    s = scenario()
    m = s.map
    assert s.start["18IndBde"] == zone_hex("deir-el-shein-box")
    assert s.start["6NZBde"] == zone_hex("bab-el-qattara-box")
    assert s.start["9IndBde"] == zone_hex("naqb-abu-dweis-box")
    assert s.start["NZDiv"] == m.place("Deir el Munassib").hex
    assert s.start["22ArmdBde"] in m.zone("Ruweisat Ridge")  # "astride the Ruweisat Ridge"


def test_the_campaign_listing_of_1st_alamein_is_covered() -> None:
    # CA-SC.7's forces, as the units of this edition that stand for them
    listing = {
        "15. (XX+) PzDiv": "15Pz",
        "21. (XX-) PzDiv": "21Pz",
        "90. Lt Div": "90Lt",
        "Recce Gruppe": "RecceGp",
        "Ariete Arm Div": "Ariete",
        "Trieste Mot Div": "Trieste",
        "XXI Italian Infantry Corps": "Trento",
        "5 Ind Div": "9IndBde",
        "1 SA Div": "1SADiv",
        "NZ Div": "NZDiv",
        "1 Arm Bd": "22ArmdBde",
        "4 Lt Arm Bd": "4ArmdBde",
        "7 Arm Spt": "7ArmdDiv",
        "Aus Div": "9AusDiv",
    }
    ids = {u.id for u in family(scenario())}
    assert set(listing.values()) <= ids
    assert scenario().unit("9IndBde").formation == "5th Indian Division"
    assert scenario().unit("Sabratha").id in ids  # XXI Corps' other division
    assert {scenario().unit(u).formation for u in ("4ArmdBde", "22ArmdBde")} == {"1st Armoured Division"}


def test_no_unit_of_the_later_july_battles_is_in_the_ten_days() -> None:
    # 2nd Armoured Brigade (CA-SC.7: II Jul, the 16th-31st), 23rd Armoured Brigade, 161st Indian Motor Brigade
    # and 164th Light Division all reached the front after 10 July
    names = " | ".join(u.name for u in family(scenario()))
    for later in (r"\b2nd Armoured", r"\b23rd Armoured", r"\b161st", r"\b164"):
        assert not re.search(later, names), later


def test_survivability_is_the_recce_gruppe_and_7th_armoured_division_only() -> None:
    # FA-CRT.8
    survivable = {u.id for u in family(scenario()) if "survivable" in u.flags}
    assert survivable == {"RecceGp", "7ArmdDiv"}


def test_air_units_two_british_one_german() -> None:
    # ruling FA-AIR.1 (docs/rulings.md): the air table's British and German air units
    air = [u for u in family(scenario()) if u.is_air]
    assert sorted((u.side.value, u.nationality) for u in air) == [("allied", "british"), ("allied", "british"), ("axis", "german")]
    assert all(scenario().start[u.id] is None and u.id not in scenario().reinforcements for u in air)


def test_every_unit_has_its_basis_and_source_and_every_source_is_explained() -> None:
    doc = (ROOT / "docs" / "reconstruction.md").read_text(encoding="utf-8")
    section = doc[doc.index("## 1st Alamein — Beginners' Edition") :]
    for u in scenario_data()["unit"]:
        assert u.get("basis") and u.get("source"), u["id"]
        codes = [part.strip().split(" ")[0] for part in u["source"].split(";")]
        for code in codes:
            if code not in ("ruling",):
                assert f"*{code}*" in section, (u["id"], code)


# --- the factor rule, worked by hand ----------------------------------------------------------------------


def round_half_down(x: float) -> int:
    """The nearest whole number, halves down (the Gazala rule's rounding)."""
    whole = int(x)
    return whole + 1 if x - whole > 0.5 else whole


def combat(tanks: float = 0.0, battalions: float = 0.0, support: bool = False) -> int:
    """The stated rule: effective tanks / 25 + effective battalions / 3, rounded; +1 for strong artillery or
    anti-tank; at least 1."""
    return max(1, round_half_down(tanks / 25 + battalions / 3) + (1 if support else 0))


def test_factor_rule_worked_by_hand() -> None:
    s = scenario()
    # 15. Panzer: about 27 of the Afrika Korps' 55 tanks (mostly Pz III, 1.0); Schuetzen-Rgt 115's two weak
    # battalions; the 88s: 1.08 + 0.67 = 1.75 -> 2, + 1 = 3
    assert combat(tanks=27, battalions=2, support=True) == 3 == family_def(s, "15Pz").attack
    # 4th Armoured Brigade: 63 tanks on 3 July in Playfair's mix 18 Grant, 22 Stuart, 12 Valentine
    mix = (18 * 1.0 + 22 * 0.5 + 12 * 0.7) / (18 + 22 + 12)
    assert round(63 * mix, 1) == 45.3
    assert combat(tanks=63 * mix) == 2 == family_def(s, "4ArmdBde").attack
    # 1st South African Division: 9 battalions and three field regiments: 3 + 1
    assert combat(battalions=9, support=True) == 4 == family_def(s, "1SADiv").attack
    # 2nd New Zealand Division (4th and 5th Brigades): 6 battalions and three field regiments: 2 + 1
    assert combat(battalions=6, support=True) == 3 == family_def(s, "NZDiv").attack
    # Ariete: about 15 M13/M14 (0.5) and two weak Bersaglieri battalions (Italian, 0.75), its artillery:
    # 0.3 + 0.5 = 0.8 -> 1, + 1 = 2
    assert combat(tanks=15 * 0.5, battalions=2 * 0.75, support=True) == 2 == family_def(s, "Ariete").attack
    # an Italian infantry division: four battalions in the line x 0.75 = 3 -> 1
    assert combat(battalions=4 * 0.75) == 1 == family_def(s, "Sabratha").attack
    # Recce Gruppe: three worn battalions, about 1.5 effective: 0.5 rounds down to 0, the minimum is 1
    assert combat(battalions=1.5) == 1 == family_def(s, "RecceGp").attack
    # 24th Australian Brigade without the 2/28th: two battalions: 0.67 -> 1
    assert combat(battalions=2) == 1 == family_def(s, "24AusBde").attack


MOVEMENT = {UnitType.ARMOUR: 4, UnitType.MOTORIZED: 3, UnitType.INFANTRY: 2, UnitType.RECCE: 5, UnitType.AIR: 0}


def test_one_combat_factor_and_movement_by_kind() -> None:
    # FA-UNIT.1: "3-4" is a combat (attack and defence) factor of 3 and a movement factor of 4
    for u in family(scenario()):
        assert u.attack == u.defence, u.id
        assert u.movement == MOVEMENT[u.type], u.id
        assert (u.attack == 0) == u.is_air, u.id


# --- the faces show a scenario whose system is not played yet ---------------------------------------------


def test_show_prints_the_scenario_from_its_data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["show", "first-alamein"]) == 0
    out = capsys.readouterr().out
    assert "system first-alamein, 10 turns" in out and "1SADiv" in out and "arrives turn 7" in out
    svg = tmp_path / "fa.svg"
    assert main(["show", "first-alamein", "--svg", str(svg)]) == 0
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    assert main(["show", "first-alamein", "--json"]) == 0
    assert '"scenario": "first-alamein"' in capsys.readouterr().out


def test_play_replay_and_form_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert main(["play", "first-alamein", "--axis", "greedy", "--allied", "random", "--seed", "2", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Turn 10/10  date: 10 July 1942" in out and " victory" in out
    assert main(["replay", str(record)]) == 0
    assert "every state hash verified" in capsys.readouterr().out
    form = tmp_path / "game.md"
    assert main(["form", str(record), "--out", str(form)]) == 0
    text = form.read_text(encoding="utf-8")
    assert "## Boxes" in text and "### Turn 10 (date: 10 July 1942)" in text
