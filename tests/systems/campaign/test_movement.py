"""Operational movement (CA-M.1-5) and the terrain it crosses (CA-F.7, CA-F.8, CA-F.10, CA-F.11, CA-G.15).

Every figure is worked out from the rule text on a strip of hexes in one row (A1, A2, ... each next to the one
before): an infantry-type brigade has 3 MF and a bonus of 4, a German motorized division 4 and 4; one hex of
clear costs 1 MF, of coastal road a third of one.  Costs are in sixtieths of an MF.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.systems.campaign.boards import board, ix, labels, position
from tests.systems.campaign.campaign_data import forces
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.loading.mapfile import load_packaged_map
from tobruk.mechanics.counters import UnitType
from tobruk.systems.campaign.movement import BONUS, MF, basic_mf, mover, reach, walk
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit


def far(p: CampaignPosition, unit: str, **how: bool) -> set[str]:
    return labels(p, reach(p, unit, **how).destinations())


def upto(k: int, first: int = 2) -> set[str]:
    return {f"A{x}" for x in range(first, k + 1)}


def refusal(p: CampaignPosition, unit: str, to: str, **how: bool) -> str:
    why = reach(p, unit, **how).refusal(ix(p, to))
    assert why is not None
    return why


# --------------------------------------------------------------------------- CA-M.2
@pytest.mark.rule("CA-M.2")
def test_the_basic_mf_is_4_for_german_mobile_units_and_3_for_the_rest() -> None:
    mobile = {UnitType.ARMOUR, UnitType.MOTORIZED, UnitType.RECCE}
    for u in forces().units.values():
        if u.type is UnitType.DUMMY:
            continue
        expected = 4 if u.nationality == "german" and u.type in mobile else 3
        assert basic_mf(CampaignUnit(u, 0)) == expected * MF, u.id
    assert basic_mf(CampaignUnit(forces().units["90Lt"], 0)) == 4 * MF
    assert basic_mf(CampaignUnit(forces().units["164Div"], 0)) == 3 * MF  # German, but on foot
    assert basic_mf(CampaignUnit(forces().units["Ariete"], 0)) == 3 * MF  # mobile, but Italian


@pytest.mark.rule("CA-M.2")
def test_a_printed_mf_is_the_units_own() -> None:
    printed = replace(forces().units["GdsBde"], movement=5)
    assert basic_mf(CampaignUnit(printed, 0)) == 5 * MF
    unprinted = replace(forces().units["90Lt"], movement=0)
    assert basic_mf(CampaignUnit(unprinted, 0)) == 4 * MF


@pytest.mark.rule("CA-M.2")
def test_an_unprinted_mf_is_4_only_for_a_german_mobile_unit() -> None:
    def unprinted(uid: str) -> int:
        return basic_mf(CampaignUnit(replace(forces().units[uid], movement=0), 0))

    assert unprinted("21Pz") == 4 * MF  # German armour
    assert unprinted("164Div") == 3 * MF  # German, but on foot
    assert unprinted("Ariete") == 3 * MF  # armour, but Italian
    assert unprinted("GdsBde") == 3 * MF  # neither
    assert basic_mf(CampaignUnit(replace(forces().units["90Lt"], movement=1), 0)) == MF  # a printed 1 is 1


@pytest.mark.rule("CA-M.3")
def test_an_ordinary_move_has_the_basic_mf_and_the_whole_bonus() -> None:
    p = position(board(1, 12), "GdsBde@A1", "90Lt@A12")
    mv = mover(p, "GdsBde")  # neither an attack to follow nor a breakthrough
    assert (mv.budget, mv.bonus, mv.no_bonus, mv.withheld) == (3 * MF, BONUS, "", 0)


# --------------------------------------------------------------------------- CA-M.3
@pytest.mark.rule("CA-M.3")
def test_the_bonus_is_4_mf_and_not_for_a_unit_that_will_attack() -> None:
    m = board(1, 12)
    p = position(m, "GdsBde@A1", "90Lt@A12")  # the Axis division far away: its zone is A11 only
    assert far(p, "GdsBde") == upto(8)  # 3 + 4 MF
    assert far(p, "GdsBde", will_attack=True) == upto(4)  # 3 MF
    assert refusal(p, "GdsBde", "A6", will_attack=True).startswith("[CA-M.3]")
    assert refusal(p, "GdsBde", "A10").startswith("[CA-M.2]")  # 9 MF away: more than 3 + 4


@pytest.mark.rule("CA-M.3")
def test_entering_the_zone_of_an_undisrupted_division_gives_no_bonus() -> None:
    m = board(1, 12)
    near = position(m, "GdsBde@A1", "90Lt@A5")  # A4 in its zone, 3 MF away: reached without the bonus
    assert far(near, "GdsBde") == upto(4)
    farther = position(m, "GdsBde@A1", "90Lt@A6")  # A5 in its zone, 4 MF away: only with the bonus
    assert far(farther, "GdsBde") == upto(4)
    assert refusal(farther, "GdsBde", "A5").startswith("[CA-M.3]")
    with pytest.raises(IllegalOrderError) as err:
        walk(farther, "GdsBde", [ix(farther, f"A{k}") for k in range(1, 6)])
    assert err.value.clause == "CA-M.3"


@pytest.mark.rule("CA-M.3")
def test_other_zones_and_disrupted_divisions_keep_the_bonus() -> None:
    m = board(1, 12)
    pair = position(m, "GdsBde@A1", "15MotBde@A9", "Ramcke@A9")  # A8: 7 MF away, a zone of two brigades
    assert far(pair, "GdsBde") == upto(8)
    disrupted = position(m, "GdsBde@A1", "90Lt@A9:d")  # its zone stops, but denies no bonus
    assert far(disrupted, "GdsBde") == upto(8)
    recce = position(m, "GdsBde@A1", "RecceGp@A9")
    assert far(recce, "GdsBde") == upto(8)


@pytest.mark.rule("CA-M.3")
def test_entering_a_zone_where_a_friendly_unit_or_fortification_stands_keeps_the_bonus() -> None:
    m = board(1, 12)
    friend = position(m, "GdsBde@A1", "1PolBde@A8", "90Lt@A9")
    assert "A8" in far(friend, "GdsBde")
    box = position(m, "GdsBde@A1", "90Lt@A9", forts={"A8": Side.ALLIED})
    assert "A8" in far(box, "GdsBde")
    bare = position(m, "GdsBde@A1", "90Lt@A9")
    assert "A8" not in far(bare, "GdsBde")


@pytest.mark.rule("CA-M.3")
def test_leaving_the_zone_of_an_undisrupted_division_gives_no_bonus_unless_a_friend_stays() -> None:
    m = board(1, 12)
    alone = position(m, "GdsBde@A2", "90Lt@A1")  # A2 in the division's zone
    assert far(alone, "GdsBde") == upto(5, 3)  # 3 MF
    assert refusal(alone, "GdsBde", "A7").startswith("[CA-M.3]")
    assert refusal(alone, "GdsBde", "A7").endswith("more than the 3 MF left")  # no part of the bonus
    stays = position(m, "GdsBde@A2", "1PolBde@A2", "90Lt@A1")
    assert far(stays, "GdsBde") == upto(9, 3)  # 3 + 4 MF
    boxed = position(m, "GdsBde@A2", "90Lt@A1", forts={"A2": Side.ALLIED})
    assert far(boxed, "GdsBde") == upto(9, 3)
    pair = position(m, "GdsBde@A2", "15MotBde@A1", "Ramcke@A1")  # not a division: the bonus stays
    assert far(pair, "GdsBde") == upto(9, 3)


# --------------------------------------------------------------------------- CA-M.4
def coast(n: int) -> list[str]:
    return [f"A{k}" for k in range(1, n + 1)]


@pytest.mark.rule("CA-M.4")
def test_the_coastal_road_triples_the_mf_and_the_bonus() -> None:
    m = board(1, 26, roads=[coast(26)], coastal=True)
    p = position(m, "GdsBde@A1")
    assert far(p, "GdsBde") == upto(22)  # (3 + 4) x 3 = 21 hexes
    assert reach(p, "GdsBde").cost(ix(p, "A22")) == 21 * 20
    assert far(p, "GdsBde", will_attack=True) == upto(10)  # 3 x 3 = 9 hexes
    other = board(1, 26, roads=[coast(26)], coastal=False)  # a road that is not the coastal road
    assert far(position(other, "GdsBde@A1"), "GdsBde") == upto(8)


@pytest.mark.rule("CA-M.4")
def test_not_at_the_road_rate_into_an_enemy_zone() -> None:
    # the Axis pair in B12 puts A12 and A13 under a zone that keeps the bonus (two brigades)
    m = board(2, 26, roads=[coast(26)], coastal=True)
    p = position(m, "GdsBde@A1", "15MotBde@B12", "Ramcke@B12")
    r = reach(p, "GdsBde")
    assert r.cost(ix(p, "A11")) == 10 * 20
    assert r.cost(ix(p, "A12")) == 10 * 20 + MF  # the step into the zone at the clear rate
    assert ix(p, "A13") not in r


@pytest.mark.rule("CA-M.4")
def test_not_at_the_road_rate_out_of_an_enemy_zone() -> None:
    m = board(2, 26, roads=[coast(26)], coastal=True)
    p = position(m, "GdsBde@A12", "15MotBde@B12", "Ramcke@B12")
    r = reach(p, "GdsBde")
    assert r.cost(ix(p, "A11")) == MF  # leaving the zone along the road: the clear rate
    assert r.cost(ix(p, "A10")) == MF + 20  # then the road rate again


# --------------------------------------------------------------------------- CA-M.5
@pytest.mark.rule("CA-M.5")
def test_a_breakthrough_move_has_the_basic_mf_less_2_and_a_bonus_of_3() -> None:
    m = board(1, 12)
    p = position(m, "90Lt@A1")
    assert far(p, "90Lt") == upto(9)  # 4 + 4
    assert far(p, "90Lt", breakthrough=True) == upto(6)  # (4 - 2) + 3
    assert far(p, "90Lt", breakthrough=True, will_attack=True) == upto(3)  # 4 - 2


@pytest.mark.rule("CA-M.5")
@pytest.mark.rule("CA-M.3")
def test_a_breakthrough_move_out_of_a_division_zone_loses_a_bonus_of_3_not_4() -> None:
    p = position(board(1, 12), "GdsBde@A2", "90Lt@A1")  # A2 in the division's zone: no bonus on leaving it
    assert far(p, "GdsBde", breakthrough=True) == {"A3"}  # 3 - 2 MF
    assert refusal(p, "GdsBde", "A6", breakthrough=True).startswith("[CA-M.3]")  # 4 MF: 1 + the bonus of 3
    assert refusal(p, "GdsBde", "A7", breakthrough=True).startswith("[CA-M.2]")  # 5 MF: beyond it too


def test_a_reach_holds_no_hex_beyond_the_board_and_names_a_hex_it_lacks() -> None:
    p = position(board(1, 4), "GdsBde@A1")
    r = reach(p, "GdsBde")
    n = len(p.board.hexes)
    assert n not in r and -1 not in r and ix(p, "A1") not in r
    with pytest.raises(KeyError) as err:
        r.path(ix(p, "A1"))
    assert err.value.args == (ix(p, "A1"),)


# --------------------------------------------------------------------------- CA-M.1
@pytest.mark.rule("CA-M.1")
def test_opposing_units_never_share_or_pass_through_a_hex() -> None:
    m = board(1, 8)
    p = position(m, "GdsBde@A1", "15MotBde@A4")  # a lone brigade: no zone, but a hex no enemy may enter
    assert far(p, "GdsBde") == upto(3)
    assert refusal(p, "GdsBde", "A4").startswith("[CA-M.1]")
    assert refusal(p, "GdsBde", "A6").startswith("[CA-M.1]")
    with pytest.raises(IllegalOrderError) as err:
        walk(p, "GdsBde", [ix(p, f"A{k}") for k in range(1, 6)])
    assert err.value.clause == "CA-M.1"


@pytest.mark.rule("CA-M.1")
def test_friendly_units_may_be_passed_and_joined() -> None:
    m = board(1, 8)
    p = position(m, "GdsBde@A1", "1PolBde@A3")
    assert far(p, "GdsBde") == upto(8)


# --------------------------------------------------------------------------- terrain
@pytest.mark.rule("CA-F.7")
def test_crossing_an_escarpment_costs_3_mf_for_mobile_units_and_2_for_others() -> None:
    up = board(1, 8, escarpments=[("A2", "A3", "A3")])
    p = position(up, "GdsBde@A2", "164Div@A8")
    assert reach(p, "GdsBde").cost(ix(p, "A3")) == 3 * MF  # the Guards brigade is motorized
    assert reach(p, "164Div").cost(ix(p, "A7")) == MF
    q = position(up, "164Div@A2")
    assert reach(q, "164Div").cost(ix(q, "A3")) == 2 * MF  # on foot
    down = position(up, "GdsBde@A3")
    assert reach(down, "GdsBde").cost(ix(down, "A2")) == 3 * MF
    walking = position(up, "164Div@A4")
    assert reach(walking, "164Div").cost(ix(walking, "A2")) == MF + 2 * MF


@pytest.mark.rule("CA-F.7")
def test_a_pass_or_a_road_crosses_an_escarpment_at_the_ordinary_cost() -> None:
    passed = board(1, 8, escarpments=[("A2", "A3", "A3")], passes=[("A2", "A3")])
    p = position(passed, "GdsBde@A2")
    assert reach(p, "GdsBde").cost(ix(p, "A3")) == MF
    road = board(1, 8, escarpments=[("A2", "A3", "A3")], roads=[["A1", "A2", "A3", "A4"]])
    q = position(road, "GdsBde@A2")
    assert reach(q, "GdsBde").cost(ix(q, "A3")) == MF


@pytest.mark.rule("CA-F.8")
def test_an_impassable_escarpment_is_crossed_only_along_a_road() -> None:
    bare = board(1, 8, escarpments=[("A2", "A3", "!A3")])
    p = position(bare, "GdsBde@A1")
    assert far(p, "GdsBde") == {"A2"}
    assert refusal(p, "GdsBde", "A3").startswith("[CA-F.8]")
    with pytest.raises(IllegalOrderError) as err:
        walk(p, "GdsBde", [ix(p, "A1"), ix(p, "A2"), ix(p, "A3")])
    assert err.value.clause == "CA-F.8"
    road = board(1, 8, escarpments=[("A2", "A3", "!A3")], roads=[["A2", "A3"]])
    assert far(position(road, "GdsBde@A1"), "GdsBde") == upto(8)


@pytest.mark.rule("CA-F.8")
@pytest.mark.parametrize("kind", ["depression", "sand-sea", "salt-marsh"])
def test_no_unit_enters_the_qattara_floor_the_sand_sea_or_the_salt_marsh(kind: str) -> None:
    m = board(1, 8, terrain={"A4": kind})
    p = position(m, "90Lt@A1")
    assert far(p, "90Lt") == upto(3)
    assert refusal(p, "90Lt", "A4").startswith("[CA-F.8]")
    assert refusal(p, "90Lt", "A6").startswith("[CA-F.8]")


@pytest.mark.rule("CA-F.11")
def test_no_unit_moves_into_the_sea() -> None:
    m = board(1, 8, terrain={"A4": "sea"})
    p = position(m, "90Lt@A1")
    assert far(p, "90Lt") == upto(3)
    assert refusal(p, "90Lt", "A4").startswith("[CA-F.11]")


@pytest.mark.rule("CA-F.10")
def test_mountains_cost_2_mf_off_the_road_for_a_motorized_corps_and_1_for_divisions_and_brigades() -> None:
    m = board(1, 10, terrain={f"A{k}": "mountain" for k in range(2, 10)}, roads=[["A1", "A2", "A3"]])
    motor_corps = CampaignUnit(replace(forces().units["XXICorps"], type=UnitType.MOTORIZED), ix(position(m), "A1"))
    p = position(m, motor_corps, "90Lt@A10")
    r = reach(p, "XXICorps")
    assert r.cost(ix(p, "A3")) == 2 * MF  # along the road: 1 MF a hex
    assert r.cost(ix(p, "A4")) == 4 * MF  # off it: 2
    q = position(m, "XXICorps@A1", "GdsBde@A5")  # an infantry corps and a brigade pay 1
    assert reach(q, "XXICorps").cost(ix(q, "A4")) == 3 * MF
    assert reach(q, "GdsBde").cost(ix(q, "A8")) == 3 * MF


# --------------------------------------------------------------------------- CA-G.15
@pytest.mark.rule("CA-G.15")
def test_a_disrupted_unit_does_not_move() -> None:
    m = board(1, 8)
    p = position(m, "GdsBde@A1:d")
    with pytest.raises(IllegalOrderError) as err:
        reach(p, "GdsBde")
    assert err.value.clause == "CA-G.15"


# --------------------------------------------------------------------------- the check and the search agree
@pytest.mark.rule("CA-M.1")
def test_every_offered_destinations_way_passes_the_path_check_at_the_same_cost() -> None:
    m = board(4, 10, escarpments=[("B4", "B5", "B5")], roads=[[f"A{k}" for k in range(1, 11)]], coastal=True, terrain={"C6": "depression"})
    p = position(m, "GdsBde@A1", "90Lt@C8", "15MotBde@A7", "Ramcke@A7", "7ArmBde@D3")
    for unit in ("GdsBde", "7ArmBde"):
        r = reach(p, unit)
        assert r.destinations()
        for i in r.destinations():
            assert walk(p, unit, r.path(i)) == r.cost(i)


@pytest.mark.rule("CA-F.6")
def test_towns_and_oases_do_not_affect_movement() -> None:
    m = board(1, 8, terrain={"A2": "town", "A3": "oasis", "A4": "village", "A5": "hill"})  # nor a hill (CA-F.9: defence)
    p = position(m, "GdsBde@A1")
    r = reach(p, "GdsBde")
    assert [r.cost(ix(p, f"A{k}")) for k in range(2, 7)] == [MF, 2 * MF, 3 * MF, 4 * MF, 5 * MF]


@pytest.mark.rule("CA-M.3")
@pytest.mark.rule("CA-M.2")
def test_a_path_too_long_names_the_bonus_only_when_the_bonus_would_have_reached() -> None:
    m = board(1, 14)
    p = position(m, "GdsBde@A1", "90Lt@A14")  # A13 in the division's zone, 12 MF away

    def clause(k: int, **how: bool) -> str:
        with pytest.raises(IllegalOrderError) as err:
            walk(p, "GdsBde", [ix(p, f"A{x}") for x in range(1, k + 1)], **how)
        return err.value.clause

    assert clause(5, will_attack=True) == "CA-M.3"  # 4 MF: within 3 + 4
    assert clause(9, will_attack=True) == "CA-M.3"  # the first hex refused is still A5
    assert clause(9) == "CA-M.2"
    assert clause(13) == "CA-M.2"  # into the zone, but 12 MF: the bonus would not have reached it either
    assert refusal(p, "GdsBde", "A13").startswith("[CA-M.2]")


@pytest.mark.rule("CA-M.4")
def test_on_the_campaign_maps_via_balbia_a_german_motorized_division_covers_24_road_hexes() -> None:
    m = load_packaged_map("north-africa")
    road = next(line for line in m.route_lines if line.name == "Via Balbia")
    p = position(m, f"90Lt@{road.hexes[0].label}")  # at the west edge, alone on the map
    r = reach(p, "90Lt")
    assert r.cost(m.index[road.hexes[24]]) <= (4 + 4) * 3 * 20  # (4 MF + 4 bonus) x 3 road hexes
    assert r.cost(m.index[road.hexes[8]]) == 8 * 20
    assert m.index[road.hexes[40]] not in r
