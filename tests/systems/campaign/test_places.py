"""Places of the campaign map checked against the real geography where they share a hex or sit beside a road.

The distances are the sources' (docs/reconstruction.md): Alam el Halfa ridge "some 12 miles behind" Alam Nayil
(the New Zealand official history); Miteiriya Ridge and Ruweisat Ridge 7-8 km apart north to south; Buq Buq on
the coast road between Sollum and Sidi Barrani.  A hex is 13 km across its flats, its rows 11.3 km apart.
"""

from __future__ import annotations

import math
import tomllib

import pytest

from tests.systems.campaign.maps import campaign, geography
from tobruk.board.hexes import Direction, Hex
from tobruk.board.maps import Terrain
from tobruk.geography.geo import Georeference
from tobruk.loading.datafile import DATA

HEX_KM = 13.0
ROW_KM = HEX_KM * math.sqrt(3) / 2  # the distance between the centres of two rows
MILE_KM = 1.609


def georef() -> Georeference:
    g = tomllib.loads((DATA / "grids" / "north-africa.toml").read_text(encoding="utf-8"))["georeference"]
    return Georeference(g["a1_lat"], g["a1_lon"], g["hex_km"], g["reference_lat"])


def km_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    ref = georef()
    (ax, ay), (bx, by) = ref.to_km(*a), ref.to_km(*b)
    return math.hypot(ax - bx, ay - by)


@pytest.mark.rule("CA-SC.8")
@pytest.mark.rule("CA-F.9")
def test_alam_halfa_ridge_lies_twelve_miles_behind_alam_nayil_not_on_its_hex() -> None:
    m, ref = campaign(), georef()
    nayil = geography().place("Alam Nayil")
    ridge = m.zone("Alam Halfa Ridge")
    assert m.place("Alam Nayil").hex not in ridge
    west_end = min(ridge, key=lambda h: h.col)
    # its west end is 12 miles from Alam Nayil, give or take half a hex
    assert abs(km_between(ref.centre(west_end), (nayil.lat, nayil.lon)) - 12 * MILE_KM) <= HEX_KM / 2
    # about ten miles from the coast road at El Alamein, parallel to it: one row, two hexes or more (CA-SC.8 counts a second)
    assert len(ridge) >= 2 and len({h.row for h in ridge}) == 1 and all(m.terrain[h] == Terrain.HILL for h in ridge)
    second = sorted(ridge, key=lambda h: h.col)[1]
    assert m.zone("alam-halfa-ridge-second") == {second} and second != m.place("Alam Nayil").hex


@pytest.mark.rule("CA-SC.8")
@pytest.mark.rule("CA-F.9")
def test_miteiriya_and_ruweisat_share_a_hex_because_they_are_nearer_than_a_row() -> None:
    """Ruled, not fixed: 7-8 km apart north to south, under the 11.3 km between rows, so both fall in row W."""
    m, ref, geo = campaign(), georef(), geography()
    miteiriya = geo.place("Miteiriya Ridge")
    crest = next(a for a in geo.areas if a.name == "Ruweisat Ridge")
    crest_lat = sum(p[0] for p in crest.points) / len(crest.points)
    apart = (miteiriya.lat - crest_lat) * ref.km_per_deg_lat
    assert 0 < apart < ROW_KM
    w75 = m.place("Miteiriya Ridge").hex
    assert w75 in m.zone("Ruweisat Ridge") and m.terrain[w75] == Terrain.HILL
    # the box hex south-east of Tel el Eisa is the same hex: its east neighbour is El Alamein (docs/rulings.md)
    tel = m.place("Tel el Eisa").hex
    assert tel.neighbour(Direction.E) == m.place("El Alamein").hex and tel.neighbour(Direction.SE) == w75
    assert m.zone("tel-el-eisa-ese") == {w75}
    # the three places that give a hex its name stand in three different hexes
    assert len({m.place(n).hex for n in ("Tel el Eisa", "Miteiriya Ridge", "El Alamein")}) == 3


@pytest.mark.rule("CA-M.4")
def test_buq_buq_is_on_the_coast_road_line_and_its_hex_touches_the_road_chain() -> None:
    """Ruled: the road's line passes through Buq Buq's coordinate, but the chain of hexes only clips the corner of
    its hex; the village has no part in the rules (no town or oasis of the supply chains, no port)."""
    m, geo = campaign(), geography()
    buq = geo.place("Buq Buq")
    road_line = next(r for r in geo.routes if r.name == "Egyptian coast road")
    assert (buq.lat, buq.lon) in road_line.points
    h = m.place("Buq Buq").hex
    road = set(m.zone("coastal-road"))
    assert h not in road and sum(n in road for n in h.neighbours()) >= 2  # a corner clipped: two road hexes beside it
    assert h not in m.zone("towns-oases") and h not in m.zone("ports")
    assert Hex.parse("P50") == h
