"""The campaign's nine scenarios against their listings in the rules (CA-SC.1-9): dates, forces, boxes, entries,
guns and victory conditions.

The expected forces and dates are the listings copied by hand from the rules (campaign_data.LISTINGS), not from the
data files, so a drift in either shows here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import family, family_def
from tests.systems.campaign.campaign_data import CAMPAIGN, LISTINGS, SCENARIOS, edited_copy, entering, forces, setup, track
from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.counters import AntiTank, CombatClass, Echelon, UnitType


@pytest.fixture(scope="module")
def scenarios() -> dict[str, Scenario]:
    return {name: load_scenario(name) for name in (*SCENARIOS, CAMPAIGN)}


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_scenario_has_the_listings_dates_and_forces(name: str, scenarios: dict[str, Scenario]) -> None:
    clause, start, end, turns, allied, axis = LISTINGS[name]
    s = scenarios[name]
    assert (setup(s).clause, setup(s).start, setup(s).end, s.turns) == (clause, start, end, turns)
    # the Tobruk dummy (CA-F.4) is no unit of the listings: it stands with a garrison inside the perimeter
    assert {u.id for u in family(s) if u.side is Side.ALLIED and u.type is not UnitType.DUMMY} == allied
    assert {u.id for u in family(s) if u.side is Side.AXIS} == axis
    assert setup(s).victory.clause == clause


@pytest.mark.rule("CA-SC.7")
def test_1st_alamein_entries_and_disrupted_start(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-1st-alamein"]
    assert entering(s, "2ArmBde") == "II Jul 42" and s.reinforcements["2ArmBde"].turn == 2
    assert entering(s, "AusDiv") == "I Aug 42" and s.reinforcements["AusDiv"].turn == 3
    assert family_def(s, "2ArmBde").tank == "Crusader I"
    on_map = {u.id for u in family(s) if u.side is Side.ALLIED and s.start[u.id] is not None}
    assert setup(s).disrupted == on_map - {"1SADiv"}
    hexes = [s.start[u] for u in on_map]
    assert len(hexes) == len(set(hexes)) and setup(s).alone is Side.ALLIED
    west = {h for h in s.zone("east-sheet") if h.col == 52}
    assert not set(hexes) & west  # "not on westernmost mapboard edge hexes"
    assert all(s.reinforcements[u].zone == "sheet-west-edge" for u in LISTINGS["na-1st-alamein"][5] - {"8PzRgt"})


@pytest.mark.rule("CA-SC.3")
def test_el_agheila_iii_8th_armoured_brigade_enters_ii_dec_42(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-el-agheila-3"]
    assert entering(s, "8ArmBde") == "II Dec 42" and s.reinforcements["8ArmBde"].turn == 2
    assert family_def(s, "22ArmBde").tank == "Crusader III"
    assert setup(s).forms == {"15Pz": "XX-", "21Pz": "XX-"}
    assert setup(s).victory.side is Side.AXIS


@pytest.mark.rule("CA-SC.5")
def test_gazala_1st_armoured_brigade_on_the_third_turn_and_its_options(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-gazala"]
    assert s.reinforcements["1ArmBde"].turn == 3 and entering(s, "1ArmBde") == "II Jun 42"
    assert setup(s).tobruk_multiplier == 2 and setup(s).first is Side.AXIS
    boxes = [f for f in setup(s).fortifications if f.side is Side.ALLIED]
    forts = [f for f in setup(s).fortifications if f.side is Side.AXIS]
    assert sum(f.count for f in boxes) == 4 and sum(f.count for f in forts) == 3
    assert family_def(s, "2ArmBde").tank == "Grant" and family_def(s, "4LtArmBde").tank == "Grant"
    guns = {u.id: u.anti_tank for u in family(s) if u.side is Side.ALLIED}
    assert guns["7ArmSpt"] is AntiTank.SIX_POUNDER and guns["GdsBde"] is AntiTank.SIX_POUNDER
    assert guns["3IndMotBde"] is AntiTank.SIX_POUNDER  # British and Indian brigades
    assert guns["1FFBde"] is AntiTank.TWO_POUNDER and guns["50Div"] is AntiTank.TWO_POUNDER
    assert guns["1TkBde"] is AntiTank.NONE
    assert setup(s).victory.strategic is not None


@pytest.mark.rule("CA-SC.4")
def test_crusader_opens_with_the_allied_player_turn_and_tobruk_triples(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-crusader"]
    assert setup(s).first is Side.ALLIED and setup(s).tobruk_multiplier == 3
    tobruk = s.zone("tobruk")
    assert {u for u in ("44Div", "1PolBde", "32TkBde") if s.start[u] in tobruk} == {"44Div", "1PolBde", "32TkBde"}
    assert not any(s.start[u.id] in tobruk for u in family(s) if u.side is Side.AXIS)
    guns = {u.id: u.anti_tank for u in family(s) if u.side is Side.ALLIED}
    assert guns["7ArmSpt"] is AntiTank.TWO_POUNDER and guns["GdsBde"] is AntiTank.TWO_POUNDER
    assert guns["44Div"] is AntiTank.NONE and guns["NZDiv"] is AntiTank.NONE
    assert setup(s).victory.test.test == "supply-line"


@pytest.mark.rule("CA-SC.8")
def test_alam_halfa_and_alamein_boxes_on_the_named_hexes(scenarios: dict[str, Scenario]) -> None:
    m = scenarios["na-alam-halfa"].map
    named = {"tel-el-eisa", "tel-el-eisa-ese", "el-alamein", "ruweisat-ridge-east", "alam-nayil", "alam-halfa-ridge-second"}
    expected = {h for z in named for h in m.zones[z]}
    for name, forts in (("na-alam-halfa", 3), ("na-alamein", 6)):
        s = scenarios[name]
        boxes = {h for f in setup(s).fortifications if f.side is Side.ALLIED for h in f.hexes}
        assert boxes == expected and len(boxes) == 6
        assert sum(f.count for f in setup(s).fortifications if f.side is Side.AXIS) == forts


@pytest.mark.rule("CA-SC.9")
def test_alamein_every_allied_infantry_type_unit_has_the_6pdr(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-alamein"]
    for u in family(s):
        if u.side is Side.ALLIED and u.combat_class is CombatClass.INFANTRY_TYPE:
            assert u.anti_tank is AntiTank.SIX_POUNDER, u.id
    assert family_def(s, "2ArmBde").tank == "Crusader III" and family_def(s, "22ArmBde").tank == "Crusader III"
    road = s.zone("westernmost-coast-road-hex")
    assert len(road) == 1 and road <= s.map.zones["coastal-road"]


@pytest.mark.rule("CA-SC.6")
def test_mersa_matruh_boxes_and_the_alamein_box(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-mersa-matruh"]
    m = s.map
    boxes = {h for f in setup(s).fortifications for h in f.hexes}
    assert boxes == set(m.zones["mersa-matruh"] | m.zones["mersa-matruh-south-box"] | m.zones["el-alamein"])
    assert s.start["1SADiv"] in m.zones["el-alamein"] and "1SADiv" not in setup(s).disrupted
    assert setup(s).forms == {"15Pz": "XX+", "21Pz": "XX-"}


@pytest.mark.rule("CA-R.1")
def test_no_allied_tank_fights_before_its_date(scenarios: dict[str, Scenario]) -> None:
    for name in SCENARIOS:
        s = scenarios[name]
        for u in family(s):
            if u.side is Side.ALLIED and u.combat_class is CombatClass.PURE_ARMOUR:
                assert u.tank is not None and track().tank_available(u.tank, entering(s, u.id)), (name, u.id, u.tank)


@pytest.mark.rule("CA-K.1")
def test_the_default_set_ups_respect_stacking(scenarios: dict[str, Scenario]) -> None:
    """At most 3 counters (a combined panzer division is one), 1 corps, 2 divisions, 2 pure armour a hex."""
    for name in SCENARIOS:
        s = scenarios[name]
        parts = {p for b, f in setup(s).forms.items() if f == "XX+" for p in forces().divisions[b].parts}
        stacks: dict[object, list[str]] = {}
        for u in family(s):
            if s.start[u.id] is not None and u.id not in setup(s).arrivals and u.id != "8ArmyArty":
                stacks.setdefault((u.side, s.start[u.id]), []).append(u.id)
        for where, ids in stacks.items():
            units = [family_def(s, i) for i in ids]
            assert len([i for i in ids if i not in parts]) <= 3, (name, where, ids)
            kinds = Counter(u.echelon for u in units)
            assert kinds[Echelon.CORPS] <= 1 and kinds[Echelon.CORPS] + kinds[Echelon.DIVISION] <= 2, (name, ids)
            assert sum(u.combat_class is CombatClass.PURE_ARMOUR for u in units) <= 2, (name, ids)


def test_every_scenario_keeps_its_units_in_its_area(scenarios: dict[str, Scenario]) -> None:
    for name in SCENARIOS:
        s = scenarios[name]
        area = setup(s).area
        assert area is not None
        hexes = s.zone(area)
        assert all(h in hexes for h in s.start.values() if h is not None), name


@pytest.mark.rule("CA-SC.1")
def test_el_agheila_i_axis_enters_on_the_west_edge_and_the_british_hold_agedabia(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-el-agheila-1"]
    for uid in LISTINGS["na-el-agheila-1"][5]:
        assert s.reinforcements[uid].turn == 1 and s.start[uid] is None
        entry = s.zone(s.reinforcements[uid].zone)
        assert entry and all(h.col == 0 for h in entry)
    boxes = [f for f in setup(s).fortifications if f.side is Side.ALLIED]
    assert sum(f.count for f in boxes) == 1 and not [f for f in setup(s).fortifications if f.side is Side.AXIS]
    (agheila,) = s.map.zones["el-agheila"]

    def east(h: Hex) -> float:  # a hex centre's distance east in hex widths (odd rows sit half a hex east)
        return h.col + 0.5 * (h.row % 2)

    zone = [h for f in boxes if f.zone for h in s.zone(f.zone)]
    assert zone and all(east(h) > east(agheila) for h in zone)  # "anywhere east of el Agheila"
    v = setup(s).victory
    assert (v.side, v.test.test, v.test.zone) == (Side.ALLIED, "hold", "agedabia")


@pytest.mark.rule("CA-SC.2")
def test_el_agheila_ii_no_forts_and_the_axis_on_the_coastal_road(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-el-agheila-2"]
    assert not [f for f in setup(s).fortifications if f.side is Side.AXIS]  # "No forts"
    assert sum(f.count for f in setup(s).fortifications if f.side is Side.ALLIED) == 1
    assert setup(s).forms == {"15Pz": "XX+", "21Pz": "XX+"}
    road = s.map.zones["coastal-road"]
    assert all(h in road for h in s.zone("axis-setup"))
    assert family_def(s, "2ArmBde").tank == "Crusader I"
    v = setup(s).victory
    assert (v.side, v.test.test, v.test.zone) == (Side.ALLIED, "hold", "agedabia")


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-T.5")
def test_gazalas_6pdr_for_support_groups_and_british_and_indian_brigades_2pdr_for_other_infantry_types(
    scenarios: dict[str, Scenario],
) -> None:
    s = scenarios["na-gazala"]
    guns = {uid: family_def(s, uid).anti_tank for uid in ("7ArmSpt", "GdsBde", "3IndMotBde", "1FFBde", "50Div", "5IndDiv", "1ArmBde")}
    six, two = AntiTank.SIX_POUNDER, AntiTank.TWO_POUNDER
    # a support group, a British and an Indian brigade; a Free French brigade and two divisions; armour has none
    assert guns == {"7ArmSpt": six, "GdsBde": six, "3IndMotBde": six, "1FFBde": two, "50Div": two, "5IndDiv": two, "1ArmBde": AntiTank.NONE}


@pytest.mark.rule("CA-SC.4")
def test_crusaders_2pdr_for_the_7th_support_group_and_the_guards_brigade_none_for_the_divisions(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-crusader"]
    guns = {uid: family_def(s, uid).anti_tank for uid in ("7ArmSpt", "GdsBde", "4IndDiv", "NZDiv", "1PolBde")}
    two, none = AntiTank.TWO_POUNDER, AntiTank.NONE
    assert guns == {"7ArmSpt": two, "GdsBde": two, "4IndDiv": none, "NZDiv": none, "1PolBde": none}


@pytest.mark.rule("CA-SC.6")
def test_a_scenario_may_end_on_its_first_turn_and_the_axis_moves_first_unless_it_says_otherwise(tmp_path: Path) -> None:
    path = edited_copy(tmp_path, "scenarios", "na-mersa-matruh", 'end = "I Jul 42"\nfirst = "axis"\n', 'end = "II Jun 42"\n')
    s = load_scenario(path)
    assert (s.turns, setup(s).turn_names, setup(s).first) == (1, ("II Jun 42",), Side.AXIS)


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-SC.7")
def test_a_scenarios_turns_and_its_arrivals_turn_numbers_are_the_tracks(scenarios: dict[str, Scenario]) -> None:
    gazala = setup(scenarios["na-gazala"])
    assert gazala.turn_names == ("II May 42", "I Jun 42", "II Jun 42", "I Jul 42", "II Jul 42")  # 5 game-turns
    s = scenarios["na-1st-alamein"]  # I Jul 42 to I Aug 42: the 2nd Armoured Brigade on II Jul 42, the Australians I Aug 42
    assert (s.reinforcements["2ArmBde"].turn, s.reinforcements["AusDiv"].turn, s.reinforcements["15Pz"].turn) == (2, 3, 1)


@pytest.mark.rule("CA-U.1")
@pytest.mark.rule("CA-SC.5")
def test_a_combined_divisions_regiment_stands_with_it_and_shares_its_undisrupted_start(scenarios: dict[str, Scenario]) -> None:
    s = scenarios["na-gazala"]  # both panzer divisions XX+ on N33 and N34, nobody disrupted
    assert (s.start["15Pz"], s.start["8PzRgt"], s.start["21Pz"], s.start["5PzRgt"]) == (
        Hex.parse("N33"),
        Hex.parse("N33"),
        Hex.parse("N34"),
        Hex.parse("N34"),
    )
    assert setup(s).disrupted == frozenset()
    assert (setup(s).area, setup(s).alone) == ("centre-sheet", None)  # played on the centre sheet
    # 1st Alamein: all the Allied units but the 1st South African Division start disrupted, one to a hex
    alamein = setup(scenarios["na-1st-alamein"])
    assert alamein.alone is Side.ALLIED and "1SADiv" not in alamein.disrupted and "NZDiv" in alamein.disrupted
