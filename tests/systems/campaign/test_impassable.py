"""The campaign map's impassable ground: the Qattara floor, the Great Sand Sea, the El Agheila salt marshes.

The walks here are their own breadth-first search over the map's land hexes, not the game's reach code, and
they ignore escarpments and zones of control (so a path they miss, no unit could find).  The claims come from
the geography (docs/reconstruction.md): the Alamein line, from the sea to the Qattara cliff, is the only way
east; the sand sea lies south of Giarabub and Siwa and leaves their track open; the marsh is in front of the
Mersa Brega line and a long cast to the south still turns the position.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from tests.systems.campaign.maps import campaign
from tobruk.board.hexes import Direction, Hex
from tobruk.board.maps import Map
from tobruk.engine.errors import ScenarioError
from tobruk.loading.datafile import packaged_path
from tobruk.loading.scenario import load_scenario
from tobruk.systems.campaign.scenario import CampaignSetup
from tobruk.systems.campaign.terrain import IMPASSABLE, TERRAIN_KINDS, enterable

H = Hex.parse
PACKAGED = (
    *("na-el-agheila-1", "na-el-agheila-2", "na-el-agheila-3", "na-crusader", "na-gazala", "na-mersa-matruh"),
    *("na-1st-alamein", "na-alam-halfa", "na-alamein", "na-campaign"),
)
RULED_IMPASSABLE = {"depression", "sand-sea", "salt-marsh"}  # docs/rulings.md, CA-F.8


def walk(m: Map, start: Hex, passable: Callable[[Hex], bool]) -> set[Hex]:
    """Every hex reachable from ``start`` through hexes ``passable`` allows (an oracle of its own)."""
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n in m and n not in seen and passable(n):
                seen.add(n)
                todo.append(n)
    return seen


def land(m: Map, closed: Iterable[Hex] = (), impassable: Iterable[str] = RULED_IMPASSABLE) -> Callable[[Hex], bool]:
    shut, kinds = set(closed), set(impassable)
    return lambda h: m.terrain[h] != "sea" and m.terrain[h] not in kinds and h not in shut


def alamein_gap(m: Map) -> list[Hex]:
    """The Alamein line: column 76's passable hexes from the sea south to the first impassable one."""
    col = [h for h in sorted(m.terrain, key=lambda h: h.row) if h.col == H("W76").col and m.terrain[h] != "sea"]
    gap: list[Hex] = []
    for h in col:
        if m.terrain[h] in RULED_IMPASSABLE:
            break
        gap.append(h)
    return gap


@pytest.mark.rule("CA-F.8")
def test_the_ruled_kinds_are_impassable_and_known_to_the_system() -> None:
    assert IMPASSABLE == RULED_IMPASSABLE
    m = campaign()
    assert set(m.terrain.values()) <= TERRAIN_KINDS
    for zone, kind in (("Qattara Depression", "depression"), ("Great Sand Sea", "sand-sea"), ("El Agheila salt marshes", "salt-marsh")):
        hexes = m.zone(zone)
        assert hexes and all(m.terrain[h] == kind and not enterable(m, h) for h in hexes), zone
    assert enterable(m, H("V75")) and enterable(m, H("AL50")) and not enterable(m, H("A1"))  # El Alamein, Siwa; sea


@pytest.mark.rule("CA-F.8")
def test_the_only_way_east_is_the_alamein_line_between_the_sea_and_the_qattara_cliff() -> None:
    m = campaign()
    gap = alamein_gap(m)
    # the line runs from the coast road at El Alamein's column down to the depression's cliff (Himeimat's rows)
    below = [n for n in (gap[-1].neighbour(Direction.SE), gap[-1].neighbour(Direction.SW)) if n in m]
    assert gap[0].label == "V76" and 5 <= len(gap) <= 7 and any(m.terrain[n] in RULED_IMPASSABLE for n in below)
    siwa, behind = H("AL50"), H("X78")  # Siwa; behind the line, east of Alam Halfa
    assert behind in walk(m, siwa, land(m))  # open: the way through the line
    assert behind not in walk(m, siwa, land(m, closed=gap))  # shut: no way round the south
    for start in (H("AO40"), H("AO56"), H("AG43"), H("AA1")):  # the south edge, Giarabub, the west edge
        assert behind not in walk(m, start, land(m, closed=gap)), start.label
    # with the floor passable (as the map was read before), Siwa walks across it behind the line
    assert behind in walk(m, siwa, land(m, closed=gap, impassable=RULED_IMPASSABLE - {"depression"}))


@pytest.mark.rule("CA-F.8")
def test_the_floor_reaches_the_south_edge_so_nothing_passes_below_it() -> None:
    m = campaign()
    bottom = max(h.row for h in m.terrain)
    floor = m.zone("Qattara Depression")
    assert any(h.row == bottom for h in floor)
    # the depression's published southern limit (28 deg 35 min N) lies south of the map's edge (28.93 N)
    west_of_floor = {h for h in m.terrain if h.row == bottom and h.col < min(x.col for x in floor if x.row == bottom)}
    east_of_floor = {h for h in m.terrain if h.row == bottom and h.col > max(x.col for x in floor if x.row == bottom)}
    reach = walk(m, min(west_of_floor), land(m, closed=alamein_gap(m)))
    assert not reach & east_of_floor


@pytest.mark.rule("CA-F.8")
def test_the_great_sand_sea_lies_south_of_giarabub_and_siwa_and_meets_the_depression() -> None:
    m = campaign()
    sand = m.zone("Great Sand Sea")
    giarabub, siwa = m.place("Giarabub").hex, m.place("Siwa").hex
    assert giarabub not in sand and siwa not in sand
    assert any(h.col == giarabub.col and h.row > giarabub.row for h in sand)  # due south of each
    assert any(h.col == siwa.col and h.row > siwa.row for h in sand)
    assert all(h.row > giarabub.row for h in sand)  # none north of Giarabub
    # the sand sea and the floor touch: a closed barrier along the south of the map
    floor = m.zone("Qattara Depression")
    assert any(n in floor for h in sand for n in h.neighbours())
    # the oases and their track stay open: Giarabub and Siwa reach each other and the coast
    track = next(r for r in m.route_lines if r.name == "Giarabub - Siwa track")
    assert not set(track.hexes) & sand
    assert siwa in walk(m, giarabub, land(m)) and H("Q63") in walk(m, siwa, land(m))  # Mersa Matruh


@pytest.mark.rule("CA-F.8")
def test_the_salt_marsh_fronts_the_mersa_brega_line_and_the_position_can_still_be_turned() -> None:
    m = campaign()
    marsh = m.zone("El Agheila salt marshes")
    brega, agheila, agedabia = m.place("Mersa Brega").hex, m.place("El Agheila").hex, m.place("Agedabia").hex
    road = set(m.zone("coastal-road"))
    assert not marsh & road and brega not in marsh and agheila not in marsh
    # south-east of Mersa Brega, within a few hexes: in front of the line that ran south-west from there
    assert all(h.col >= brega.col and h.row >= brega.row and h.distance(brega) <= 3 for h in marsh)
    # the coast road stays open from El Agheila to Agedabia, and the long cast to the south still turns the position
    assert agedabia in walk(m, agheila, land(m))
    far_from_road = {h for h in m.terrain if all(h.distance(r) >= 4 for r in road if r.col <= agedabia.col)}
    cast = walk(m, agheila, lambda h: land(m)(h) and (h in far_from_road or h.distance(agheila) <= 4 or h.distance(agedabia) <= 4))
    assert agedabia in cast


@pytest.mark.rule("CA-F.8")
def test_no_scenario_puts_a_unit_a_fortification_or_an_entry_on_impassable_ground() -> None:
    for name in PACKAGED:
        s = load_scenario(name)
        assert isinstance(s.extra, CampaignSetup)
        for uid, h in s.start.items():
            assert h is None or enterable(s.map, h), (name, uid)
        for f in s.extra.fortifications:
            assert all(enterable(s.map, h) for h in f.hexes), name
        for r in s.reinforcements.values():  # an entry zone has ground to enter on
            assert any(enterable(s.map, h) for h in s.zone(r.zone)), (name, r.zone)


def _copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    packaged = packaged_path("scenarios", name)
    assert packaged is not None
    text = packaged.read_text(encoding="utf-8")
    assert text.count(old) == 1
    out = tmp_path / f"{name}.toml"
    out.write_text(text.replace(old, new), encoding="utf-8")
    return out


@pytest.mark.rule("CA-F.8")
@pytest.mark.parametrize(
    ("name", "old", "new", "field"),
    [
        # a unit set on the Qattara floor (AC75, below Alam Nayil), in the sand sea, in the salt marsh
        ("na-alamein", 'unit = "4IndDiv"\nhex = "W77"\nsetup_zone = "allied-setup"', 'unit = "4IndDiv"\nhex = "AC75"', "force[5].hex"),
        ("na-crusader", 'unit = "90Lt"\nplace = "Belhamed"\nsetup_zone = "axis-setup"', 'unit = "90Lt"\nhex = "AO45"', "force[15].hex"),
        ("na-el-agheila-2", 'unit = "1ArmSpt"\nhex = "Y10"\nsetup_zone = "allied-setup"', 'unit = "1ArmSpt"\nhex = "AB8"', "force[1].hex"),
        # a box on the floor
        ("na-alam-halfa", 'places = ["tel-el-eisa"', 'hexes = ["AC75"]\nplaces = ["tel-el-eisa"', "fortification[0].hexes[0]"),
    ],
)
def test_a_unit_or_box_on_impassable_ground_is_refused(tmp_path: Path, name: str, old: str, new: str, field: str) -> None:
    path = _copy(tmp_path, name, old, new)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.source == str(path) and err.value.field == field and "(CA-F.8)" in err.value.problem, str(err.value)
