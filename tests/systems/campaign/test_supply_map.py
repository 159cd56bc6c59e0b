"""Campaign supply on the campaign map itself: the road ends and towns the rules name, the sections a subgame is
played on, historical start positions, and the ground no line crosses (CA-P.1, CA-F.3, CA-F.6, CA-F.8)."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from tests.systems.campaign.maps import campaign
from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.systems.campaign.scenario import CampaignSetup
from tobruk.systems.campaign.supply import SupplyGround, SupplyLines, supply_ground, trace
from tobruk.systems.campaign.terrain import IMPASSABLE, enterable

H = Hex.parse


@cache
def scenario(name: str) -> Scenario:
    return load_scenario(name)


def section(s: Scenario) -> frozenset[Hex] | None:
    setup = s.extra
    assert isinstance(setup, CampaignSetup)
    return None if setup.area is None else s.zones[setup.area]


def start_lines(s: Scenario, side: Side, ground: SupplyGround) -> tuple[SupplyLines, dict[str, int]]:
    """``side``'s lines at the scenario's start, with its units on the map by id, the enemy's listed forts closing."""
    m, ix = s.map, s.map.index
    setup = s.extra
    assert isinstance(setup, CampaignSetup)
    sides = {u.id: u.side for u in s.units}
    own = {u: ix[h] for u, h in s.start.items() if h is not None and sides[u] is side}
    enemy = [ix[h] for u, h in s.start.items() if h is not None and sides[u] is not side]
    forts = [ix[h] for f in setup.fortifications if f.side is not side for h in f.hexes]
    assert ground.map is m
    return trace(ground, side, set(own.values()), enemy, forts), own


def out_of_supply(s: Scenario, side: Side, whole_map: bool = True) -> set[str]:
    ground = supply_ground(s.map, None if whole_map else section(s))
    found, own = start_lines(s, side, ground)
    return {u for u, st in found.status(own).items() if not st.supplied}


@pytest.mark.rule("CA-P.1")
def test_the_coastal_road_runs_from_the_axis_source_on_the_west_edge_to_the_allied_one_on_the_east() -> None:
    m = campaign()
    g = supply_ground(m)
    assert m.hexes[g.west_end] == H("AA1") and m.hexes[g.west_end] in m.edge("west")
    assert m.hexes[g.east_end] == H("V79") and m.hexes[g.east_end] in m.edge("east")
    assert (m.hexes[g.west_end],) == m.supply_sources[Side.AXIS] and (m.hexes[g.east_end],) == m.supply_sources[Side.ALLIED]
    road = [m.hexes[i] for i in g.road]
    assert set(road) == m.zone("coastal-road") and len(road) == len(set(road)) == 110
    assert all(a.is_adjacent(b) and m.route(a, b) is not None for a, b in itertools.pairwise(road))


@pytest.mark.rule("CA-F.6")
def test_the_towns_and_oases_are_the_places_the_map_gives_supply() -> None:
    m = campaign()
    g = supply_ground(m)
    names = {p.name for i in g.towns for p in m.places_in(m.hexes[i])}
    assert len(g.towns) == 34
    assert {"Siwa", "Giarabub", "Jalo", "Augila", "Marada", "El Agheila", "Tobruk", "El Alamein"} <= names


@pytest.mark.rule("CA-P.1")
@pytest.mark.parametrize(("name", "west", "east"), [("na-el-agheila-1", 1, 27), ("na-gazala", 27, 53), ("na-alamein", 53, 79)])
def test_a_subgame_draws_supply_from_the_road_at_its_own_sections_edges(name: str, west: int, east: int) -> None:
    s = scenario(name)
    area = section(s)
    assert area is not None
    g = supply_ground(s.map, area)
    w, e = s.map.hexes[g.west_end], s.map.hexes[g.east_end]
    # the road's first and last hexes inside the section's columns (column numbers as printed)
    assert (w.col + 1, e.col + 1) == (west, east)
    assert w in area and e in area and {w, e} <= s.map.zone("coastal-road")
    assert all(s.map.hexes[i] in area for i, o in enumerate(g.open) if o)


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.6")
def test_with_the_axis_alone_on_the_map_its_towns_chain_to_the_road_as_the_reconstruction_reckons() -> None:
    # docs/reconstruction.md, clue 5: at 13 km hexes Msus, the Jebel towns, El Adem and Agedabia chain to the coastal
    # road; Marada (115 km from El Agheila), Augila and Jalo, Giarabub and Siwa do not
    m = campaign()
    found = trace(supply_ground(m), Side.AXIS, [m.index[H("AA1")]], [])
    names = {p.name for i in found.towns for p in m.places_in(m.hexes[i])}
    assert {"Antelat", "Soluch", "Msus", "El Adem", "Barce", "Agedabia", "Maraua", "Derna"} <= names
    assert not {"Marada", "Augila", "Jalo", "Giarabub", "Siwa"} & names
    assert len(found.road) == 110  # no enemy: the whole road leads back


@pytest.mark.rule("CA-P.1")
@pytest.mark.parametrize("whole_map", [True, False])
@pytest.mark.parametrize("name", ["na-gazala", "na-alam-halfa", "na-alamein"])
def test_at_the_start_of_a_set_piece_battle_every_unit_of_both_sides_is_in_supply(name: str, whole_map: bool) -> None:
    """Gazala, Alam Halfa and Alamein open with a front from the coast southward (the Gazala line to Bir Hakeim, the
    Alamein line to the Qattara cliff), the Axis west of it and the Allies east: each side's rear, and its end of
    the coastal road, is nearer its own units than the enemy's, and the enemy's forts and boxes stand in his own
    rear.  So every unit traces back, on the whole map and on the scenario's section alike."""
    s = scenario(name)
    assert out_of_supply(s, Side.AXIS, whole_map) == set()
    assert out_of_supply(s, Side.ALLIED, whole_map) == set()


@pytest.mark.rule("CA-P.1")
def test_at_the_start_of_crusader_tobruk_is_cut_off_and_every_other_unit_in_supply() -> None:
    """Operation Crusader opens with Tobruk besieged: the Axis units stand round the perimeter, so every line out
    of the fortress passes hexes nearer them than the garrison, and the Allies win by opening one (CA-SC.4).  The
    Allied units east of the front and all the Axis units are in supply."""
    s = scenario("na-crusader")
    inside = s.map.zone("inside Tobruk perimeter")
    garrison = {u for u, h in s.start.items() if h in inside}
    assert garrison >= {"44Div", "1PolBde", "32TkBde"}
    for whole_map in (True, False):
        assert out_of_supply(s, Side.ALLIED, whole_map) == garrison
        assert out_of_supply(s, Side.AXIS, whole_map) == set()


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.8")
@pytest.mark.parametrize(
    "name",
    [
        *("na-el-agheila-1", "na-el-agheila-2", "na-el-agheila-3", "na-crusader", "na-gazala", "na-mersa-matruh"),
        *("na-1st-alamein", "na-alam-halfa", "na-alamein", "na-campaign"),
    ],
)
def test_no_line_at_any_scenario_start_runs_through_impassable_ground(name: str) -> None:
    s = scenario(name)
    m = s.map
    for side in Side:
        found, _ = start_lines(s, side, supply_ground(m))
        assert not any(found.usable[i] and not enterable(m, h) for i, h in enumerate(m.hexes))
        for i in found.supplied_hexes():
            assert all(m.terrain[m.hexes[k]] not in IMPASSABLE for k in found.route(i))


def alamein_gap(m: Map) -> list[Hex]:
    """The Alamein line: column 76's land hexes from the sea south to the first impassable one."""
    col = sorted((h for h in m.terrain if h.col == H("W76").col and m.is_land(h)), key=lambda h: h.row)
    return list(itertools.takewhile(lambda h: enterable(m, h), col))


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.8")
def test_a_line_from_siwa_must_pass_the_alamein_line_not_the_qattara_floor_or_the_sand_sea() -> None:
    m = campaign()
    g = supply_ground(m)
    siwa, gap = m.index[H("AL50")], alamein_gap(m)
    assert gap[0] == H("V76") and 5 <= len(gap) <= 7
    # alone on the map, an Allied unit at Siwa traces to V79, and its line passes the gap between the sea and the cliff
    found = trace(g, Side.ALLIED, [siwa], [])
    route = [m.hexes[i] for i in found.route(siwa)]
    assert route[0] == H("V79") and route[-1] == H("AL50") and set(route) & set(gap)
    assert not any(m.terrain[h] in IMPASSABLE for h in route)
    # an Axis unit on every hex of the gap closes it: no way round through the floor or the sand sea
    closed = trace(g, Side.ALLIED, [siwa], [m.index[h] for h in gap])
    assert not closed.supplied(siwa)
