"""The start of a packaged campaign scenario as a position (what the movement, ZOC and stacking rules read)."""

from __future__ import annotations

import pytest

from tests.systems.campaign.boards import H, board, position
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.systems.campaign.position import CampaignUnit, position_from_scenario


@pytest.mark.rule("CA-U.1")
def test_a_combined_panzer_division_is_one_counter_carrying_its_regiment() -> None:
    p = position_from_scenario(load_scenario("na-gazala"))
    pz = p.unit("15Pz")
    assert pz.unit.size == "XX+" and [x.id for x in pz.parts] == ["8PzRgt"]
    assert "8PzRgt" not in p.by_id  # not a counter of its own while combined
    assert pz.division_level and pz.pure_armour and pz.mobile


@pytest.mark.rule("CA-SC.7")
def test_the_start_status_and_hexes_come_from_the_listing() -> None:
    p = position_from_scenario(load_scenario("na-1st-alamein"))
    assert not p.unit("1SADiv").disrupted  # the one Allied unit of 1st Alamein that starts undisrupted
    assert all(u.disrupted for u in p.units if u.id != "1SADiv")
    assert p.hex(p.unit("1SADiv").hex) == H("V75")
    assert p.forts == {p.index(H("V75")): Side.ALLIED}  # the El Alamein box


def test_a_position_refuses_a_unit_twice_or_off_the_map() -> None:
    m = board(1, 3)
    p = position(m, "GdsBde@A1")
    with pytest.raises(ValueError, match="twice"):
        position(m, "GdsBde@A1", p.unit("GdsBde"))
    with pytest.raises(ValueError, match="not on the map"):
        position(m, CampaignUnit(p.unit("GdsBde").unit, 99))
    moved = p.moved("GdsBde", 2)
    assert moved.hex(moved.unit("GdsBde").hex) == H("A3") and p.unit("GdsBde").hex == 0


def test_a_newly_disrupted_marker_stands_only_on_a_disrupted_unit() -> None:
    m = board(1, 3)
    gds = position(m, "GdsBde@A1:n").unit("GdsBde")
    assert gds.disrupted and gds.newly_disrupted
    with pytest.raises(ValueError, match="Newly Disrupted"):
        CampaignUnit(gds.unit, 0, newly_disrupted=True)


@pytest.mark.rule("CA-U.1")
def test_a_combined_panzer_division_starts_on_its_listed_hex_with_its_status_and_the_divisions_subunits() -> None:
    s = load_scenario("na-gazala")
    p = position_from_scenario(s)
    for base in ("15Pz", "21Pz"):  # both listed XX+, neither disrupted at the start
        pz = p.unit(base)
        assert p.hex(pz.hex) == s.start[base] and not pz.disrupted
    assert (p.hex(p.unit("15Pz").hex), p.hex(p.unit("21Pz").hex)) == (H("N33"), H("N34"))
    # the order of battle's panzer divisions, whichever form each takes in the scenario
    assert dict(p.subunits) == {"15Pz": ("8PzRgt",), "21Pz": ("5PzRgt",)}


def test_only_a_campaign_scenario_has_a_campaign_position() -> None:
    with pytest.raises(TypeError) as e:
        position_from_scenario(load_scenario("gazala-gallop"))
    assert str(e.value).endswith("is not a campaign scenario") and load_scenario("gazala-gallop").name in str(e.value)


def test_a_position_refuses_the_first_index_past_the_map_and_names_a_unit_not_on_it() -> None:
    m = board(1, 3)
    gds = position(m, "GdsBde@A1").unit("GdsBde").unit
    with pytest.raises(ValueError, match="hex index 3 is not on the map"):
        position(m, CampaignUnit(gds, 3))  # three hexes: indices 0 to 2
    with pytest.raises(KeyError) as err:
        position(m).unit("GdsBde")
    assert err.value.args == ("no unit 'GdsBde' on the map",)
