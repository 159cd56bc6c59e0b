"""Zones of control that stop a moving unit (CA-Z.1, CA-F.3, CA-F.7, CA-F.8), proven on small worked boards.

Each kind of unit the rule names is tried on both sides of its threshold: one lower-level unit against two, an
undisrupted unit against a disrupted one, a lone armour unit before and after an attack is allocated against it.
The expected zones are the six neighbours of the exerting hex as the rule text describes them.
"""

from __future__ import annotations

import pytest

from tests.systems.campaign.boards import H, board, ix, labels, position
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.systems.campaign.movement import reach, walk
from tobruk.systems.campaign.zoc import enemy_zoc

AROUND_C3 = {"B2", "B3", "C2", "C4", "D2", "D3"}  # C3's neighbours (row C unshifted, rows B and D half a hex east)


def zone(*placed: str, side: Side = Side.ALLIED) -> set[str]:
    m = board(5, 5)
    p = position(m, *placed)
    return labels(p, enemy_zoc(p, side).sources)


@pytest.mark.rule("CA-Z.1")
@pytest.mark.parametrize("flags", ["", ":d"])
def test_a_division_or_corps_stops_movement_disrupted_or_not(flags: str) -> None:
    assert zone(f"90Lt@C3{flags}") == AROUND_C3
    assert zone(f"XXICorps@C3{flags}") == AROUND_C3
    assert zone(f"15Pz@C3{flags}") == AROUND_C3  # XX-: still a division


@pytest.mark.rule("CA-Z.1")
def test_the_recce_gruppe_stops_movement_unless_disrupted() -> None:
    assert zone("RecceGp@C3") == AROUND_C3
    assert zone("RecceGp@C3:d") == set()


@pytest.mark.rule("CA-Z.1")
def test_two_undisrupted_lower_level_units_stop_movement_one_does_not() -> None:
    assert zone("15MotBde@C3") == set()
    assert zone("15MotBde@C3", "Ramcke@C3") == AROUND_C3
    assert zone("15MotBde@C3", "Ramcke@C3:d") == set()
    assert zone("GdsBde@C3", "1PolBde@C3", side=Side.AXIS) == AROUND_C3
    assert zone("GdsBde@C3", "1PolBde@C4", side=Side.AXIS) == set()  # two hexes, one unit each


@pytest.mark.rule("CA-Z.1")
def test_a_lone_armour_unit_stops_movement_until_an_attack_is_allocated_against_it() -> None:
    assert zone("7ArmBde@C3", side=Side.AXIS) == AROUND_C3
    assert zone("7ArmBde@C3:a", side=Side.AXIS) == set()
    assert zone("7ArmBde@C3:d", side=Side.AXIS) == set()
    assert zone("5PzRgt@C3") == AROUND_C3
    assert zone("5PzRgt@C3:a") == set()


@pytest.mark.rule("CA-Z.1")
def test_zones_are_the_enemys_only() -> None:
    assert zone("NZDiv@C3") == set()  # the Allied mover is not stopped by Allied units
    assert zone("NZDiv@C3", side=Side.AXIS) == AROUND_C3


@pytest.mark.rule("CA-F.3")
def test_an_empty_enemy_fort_is_a_zone_of_its_own_hex_until_a_friendly_unit_stands_on_it() -> None:
    m = board(5, 5)
    empty = position(m, forts={"C3": Side.AXIS})
    assert labels(empty, enemy_zoc(empty, Side.ALLIED).sources) == {"C3"}
    assert labels(empty, enemy_zoc(empty, Side.AXIS).sources) == set()  # one's own fort is no zone to oneself
    taken = position(m, "GdsBde@C3", forts={"C3": Side.AXIS})
    assert labels(taken, enemy_zoc(taken, Side.ALLIED).sources) == set()


@pytest.mark.rule("CA-F.3")
def test_a_unit_entering_an_empty_enemy_fort_stops_there() -> None:
    m = board(1, 6)
    p = position(m, "GdsBde@A1", forts={"A3": Side.AXIS})
    r = reach(p, "GdsBde")
    assert labels(p, r.destinations()) == {"A2", "A3"}
    with pytest.raises(IllegalOrderError) as err:
        walk(p, "GdsBde", [ix(p, x) for x in ("A1", "A2", "A3", "A4")])
    assert err.value.clause == "CA-Z.1"


@pytest.mark.rule("CA-F.7")
def test_a_zone_extends_down_an_escarpment_but_not_up() -> None:
    # C3|C4: C4 is on top. A division at the foot (C3) does not reach C4; one on top (C4) reaches C3.
    m = board(5, 5, escarpments=[("C3", "C4", "C4")])
    below = position(m, "90Lt@C3")
    assert labels(below, enemy_zoc(below, Side.ALLIED).sources) == AROUND_C3 - {"C4"}
    above = position(m, "90Lt@C4")
    assert "C3" in labels(above, enemy_zoc(above, Side.ALLIED).sources)


@pytest.mark.rule("CA-F.8")
def test_an_impassable_escarpment_limits_zones_as_a_passable_one() -> None:
    m = board(5, 5, escarpments=[("C3", "C4", "!C4")])
    below = position(m, "90Lt@C3")
    assert labels(below, enemy_zoc(below, Side.ALLIED).sources) == AROUND_C3 - {"C4"}
    above = position(m, "90Lt@C4")
    assert "C3" in labels(above, enemy_zoc(above, Side.ALLIED).sources)


@pytest.mark.rule("CA-F.8")
def test_no_zone_over_the_sea_or_impassable_ground() -> None:
    m = board(5, 5, terrain={"B2": "sea", "D3": "depression"})
    p = position(m, "90Lt@C3")
    assert labels(p, enemy_zoc(p, Side.ALLIED).sources) == AROUND_C3 - {"B2", "D3"}


@pytest.mark.rule("CA-Z.1")
def test_a_unit_entering_a_zone_stops_and_goes_no_farther() -> None:
    # A1 ... A8 in a row: the Axis division in A6 puts A5 under its zone; the British brigade coming from A1 can
    # enter A5 and no more (A6 is the enemy's own hex, and the rows above and below are not on the board).
    m = board(1, 8)
    p = position(m, "GdsBde@A1", "XXICorps@A6")
    assert labels(p, reach(p, "GdsBde").destinations()) == {"A2", "A3", "A4"}  # A5 costs 4 MF: no bonus (CA-M.3)
    p2 = position(m, "GdsBde@A1", "15MotBde@A6", "Ramcke@A6")  # two brigades: a zone that keeps the bonus
    assert labels(p2, reach(p2, "GdsBde").destinations()) == {"A2", "A3", "A4", "A5"}
    with pytest.raises(IllegalOrderError) as err:
        walk(p2, "GdsBde", [ix(p2, x) for x in ("A1", "A2", "A3", "A4", "A5", "A4")])
    assert err.value.clause == "CA-Z.1"


@pytest.mark.rule("CA-Z.1")
def test_a_unit_may_leave_the_zone_it_starts_in() -> None:
    m = board(1, 8)
    p = position(m, "GdsBde@A5", "15MotBde@A6", "Ramcke@A6")
    assert H("A5") in {p.hex(i) for i in enemy_zoc(p, Side.ALLIED).sources}
    assert labels(p, reach(p, "GdsBde").destinations()) == {"A1", "A2", "A3", "A4"}
