"""No step straight from one enemy zone into another of the same enemy (CA-Z.2), proven on a 3 x 8 board.

Rows A, B, C; row B sits half a hex east, so an enemy in B3 has A3 and A4 (and B2, B4, C3, C4) under its zone,
one in B5 has A5 and A6.  A British brigade in A3 or A4 tries the step along row A.
"""

from __future__ import annotations

import pytest

from tests.systems.campaign.boards import board, ix, labels, position
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.systems.campaign.movement import reach, walk
from tobruk.systems.campaign.position import CampaignPosition
from tobruk.systems.campaign.zoc import enemy_zoc


def step(p: CampaignPosition, a: str, b: str, unit: str = "GdsBde") -> int:
    return walk(p, unit, [ix(p, a), ix(p, b)])


def refused(p: CampaignPosition, a: str, b: str, unit: str = "GdsBde") -> str:
    with pytest.raises(IllegalOrderError) as err:
        step(p, a, b, unit)
    return err.value.clause


M = board(3, 8)


@pytest.mark.rule("CA-Z.2")
def test_no_step_between_two_hexes_of_the_same_units_zone() -> None:
    p = position(M, "GdsBde@A3", "90Lt@B3")
    assert refused(p, "A3", "A4") == "CA-Z.2"
    assert step(p, "A3", "A2") == 60  # out of the zone: allowed
    r = reach(p, "GdsBde")
    assert "A4" not in labels(p, r.destinations())
    assert r.refusal(ix(p, "A4")) is not None and r.refusal(ix(p, "A4")).startswith("[CA-Z.2]")  # type: ignore[union-attr]


@pytest.mark.rule("CA-Z.2")
def test_the_same_hex_is_the_same_source_when_two_lower_level_units_exert_the_zone() -> None:
    p = position(M, "GdsBde@A3", "15MotBde@B3", "Ramcke@B3")
    assert refused(p, "A3", "A4") == "CA-Z.2"


@pytest.mark.rule("CA-Z.2")
def test_a_step_into_a_different_units_zone_is_allowed() -> None:
    p = position(M, "GdsBde@A4", "90Lt@B3", "164Div@B5")
    assert step(p, "A4", "A5") == 60
    assert "A5" in labels(p, reach(p, "GdsBde").destinations())


@pytest.mark.rule("CA-Z.2")
def test_not_between_the_zones_of_two_fortified_infantry_type_units() -> None:
    both = position(M, "GdsBde@A4", "90Lt@B3", "164Div@B5", forts={"B3": Side.AXIS, "B5": Side.AXIS})
    assert refused(both, "A4", "A5") == "CA-Z.2"
    one = position(M, "GdsBde@A4", "90Lt@B3", "164Div@B5", forts={"B5": Side.AXIS})
    assert step(one, "A4", "A5") == 60  # only the zone entered is fortified (docs/rulings.md, CA-Z.2)
    other = position(M, "GdsBde@A4", "90Lt@B3", "164Div@B5", forts={"B3": Side.AXIS})
    assert step(other, "A4", "A5") == 60


@pytest.mark.rule("CA-Z.2")
def test_a_special_one_hex_move_onto_a_friendly_occupied_hex_is_always_allowed() -> None:
    p = position(M, "GdsBde@A3", "1PolBde@A4", "90Lt@B3")
    assert step(p, "A3", "A4") == 60
    # a hex the friend entered earlier in the same phase counts as well
    later = position(M, "GdsBde@A3", "1PolBde@A1", "90Lt@B3").moved("1PolBde", ix(p, "A4"))
    assert step(later, "A3", "A4") == 60
    fortified = position(M, "GdsBde@A4", "1PolBde@A5", "90Lt@B3", "164Div@B5", forts={"B3": Side.AXIS, "B5": Side.AXIS})
    assert step(fortified, "A4", "A5") == 60


@pytest.mark.rule("CA-Z.2")
def test_a_step_into_or_out_of_a_zone_from_or_to_a_hex_under_none_is_no_zoc_to_zoc_step() -> None:
    p = position(M, "GdsBde@A2", "90Lt@B3")  # A3 under 90th Light's zone, A2 and A1 under none
    z = enemy_zoc(p, Side.ALLIED)
    assert z.of(ix(p, "A3")) and not z.of(ix(p, "A2")) and not z.of(ix(p, "A1"))
    assert not z.zoc_to_zoc(ix(p, "A2"), ix(p, "A3"))  # into the zone
    assert not z.zoc_to_zoc(ix(p, "A3"), ix(p, "A2"))  # out of it
    assert not z.zoc_to_zoc(ix(p, "A1"), ix(p, "A2"))  # under no zone at all
    assert z.zoc_to_zoc(ix(p, "A3"), ix(p, "A4"))  # within the one unit's zone: forbidden
