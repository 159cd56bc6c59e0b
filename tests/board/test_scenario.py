"""Scenario files and the Gazala order of battle and set-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import family, family_def, make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.counters import AACapability, Echelon, UnitType

H = Hex.parse

NAMED_BY_THE_RULES = {
    Side.AXIS: [
        "15Pz",
        "21Pz",
        "90Lt",
        "Ariete",
        "Trieste",
        "RecceGp",
        "FlakGp",
        "15MotBde",
        "KGHecker",
        "Brescia",
        "Pavia",
        "Trento",
        "Sabratha",
        "Luftwaffe",
    ],
    Side.ALLIED: [
        "1SA",
        "2SA",
        "50Div",
        "2ArmdBde",
        "22ArmdBde",
        "201Gds",
        "4ArmdBde",
        "7MotBde",
        "3IndMotBde",
        "29IndBde",
        "1FF",
        "1ATB",
        "32ATB",
        "4AABde",
        "1ArmdBde",
        "DAF",
        "Dummy1",
        "Dummy2",
    ],
}


def test_every_unit_the_rules_name_is_in_the_order_of_battle(gazala: Scenario) -> None:
    for side, ids in NAMED_BY_THE_RULES.items():
        assert sorted(u.id for u in family(gazala) if u.side is side) == sorted(ids)


@pytest.mark.rule("GG-XII.A.2")
def test_subdivisional_units_are_those_the_charts_name(gazala: Scenario) -> None:
    sub = {u.id for u in family(gazala) if u.echelon is Echelon.SUBDIVISIONAL and not u.is_dummy}
    assert {"RecceGp", "FlakGp", "15MotBde", "KGHecker"} <= sub
    # Allied brigades of the armoured divisions are subdivisional; independent brigades are not
    assert {"2ArmdBde", "22ArmdBde", "201Gds", "4ArmdBde", "7MotBde"} <= sub
    assert family_def(gazala, "1FF").echelon is Echelon.DIVISION
    assert family_def(gazala, "15Pz").echelon is Echelon.DIVISION


def test_unit_attributes_follow_the_rules_hints(gazala: Scenario) -> None:
    assert {u.id for u in family(gazala) if "crusader" in u.flags} == {"2ArmdBde", "22ArmdBde"}  # GG-XIII.D
    assert {u.id for u in family(gazala) if "survivable" in u.flags} == {"RecceGp", "7MotBde"}  # GG-XIV.D.5
    assert {u.id for u in family(gazala) if u.type is UnitType.AIR} == {"Luftwaffe", "DAF"}
    # GG-X.B.1b: German divisions and the AA units anywhere, British divisions in boxes, Italians never
    assert family_def(gazala, "15Pz").aa is AACapability.ANYWHERE and family_def(gazala, "FlakGp").aa is AACapability.ANYWHERE
    assert family_def(gazala, "4AABde").aa is AACapability.ANYWHERE and family_def(gazala, "1SA").aa is AACapability.IN_BOX
    assert family_def(gazala, "Ariete").aa is AACapability.NONE
    # GG-XIII.A.2c: infantry units have an MF of 2; GG-XIV.B.7: the AA units count as motorized (MF 3)
    assert all(u.movement == 2 for u in family(gazala) if u.type is UnitType.INFANTRY)
    assert family_def(gazala, "FlakGp").movement == family_def(gazala, "4AABde").movement == 3


@pytest.mark.rule("GG-VII.B")
def test_first_armoured_brigade_arrives_on_turn_7_at_an_east_edge_source(gazala: Scenario) -> None:
    r = gazala.reinforcements["1ArmdBde"]
    assert r.turn == 7
    assert gazala.zone(r.zone) == {H("G18"), H("K18"), H("N17")}


@pytest.mark.rule("GG-VII.A")
def test_fourteen_turns(gazala: Scenario) -> None:
    assert gazala.turns == 14


@pytest.mark.rule("GG-V.A.1")
def test_free_set_up_zone_is_the_axis_side_and_columns_1_to_6_south(gazala: Scenario) -> None:
    zone = gazala.zone("axis-free-setup")
    line = gazala.map.zone("gazala-line")
    assert not zone & line
    for h in zone:  # every hex is west of the line in its row, or south of it in columns 1-6
        row_line = [x.col for x in line if x.row == h.row]
        assert (row_line and h.col < min(row_line)) or (h.row > max(x.row for x in line) and h.col < 6)
    assert {H("G3"), H("H4"), H("K1"), H("N6")} <= zone
    assert not {H("N7"), H("F9"), H("J8")} & zone
    free = set(gazala.setup_zone)
    assert free == {"15Pz", "21Pz", "90Lt", "Ariete", "Trieste", "RecceGp"}
    for uid in free:
        assert gazala.start[uid] in zone


def test_historical_positions_are_on_the_map_and_allied_in_the_east(gazala: Scenario) -> None:
    west = gazala.zone("axis-free-setup")
    for u in family(gazala):
        h = gazala.start[u.id]
        if h is None:
            continue
        assert gazala.map.is_land(h)
        assert (h in west) == (u.side is Side.AXIS), u.id
    assert gazala.start["1FF"] == H("J7") and gazala.start["2SA"] == H("C13")


def test_malformed_scenario_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'format = "tobruk-scenario"\nversion = 1\ntitle = "x"\nsystem = "gazala-gallop"\n'
        'turns = 3\n[map]\ngrid = { rows = 2, columns = 2 }\n[[unit]]\nid = "A"\nname = "A"\n'
        'side = "axis"\nnationality = "x"\nechelon = "division"\ntype = "armour"\nfactors = "four"\n'
        'hex = "A1"\n',
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert err.value.source == str(bad) and err.value.field == "unit[0].factors"
    assert "attack-defence-movement" in err.value.problem


def one_unit_scenario(tmp_path: Path, factors: str, system: str = "first-alamein") -> Path:
    path = tmp_path / "one.toml"
    path.write_text(
        f'format = "tobruk-scenario"\nversion = 1\ntitle = "x"\nsystem = "{system}"\n'
        'turns = 3\n[map]\ngrid = { rows = 2, columns = 2 }\n[[unit]]\nid = "A"\nname = "A"\n'
        f'side = "axis"\nnationality = "x"\nechelon = "division"\ntype = "armour"\nfactors = "{factors}"\n'
        'hex = "A1"\n',
        encoding="utf-8",
    )
    return path


def test_a_counter_with_one_combat_factor_reads_it_for_attack_and_defence(tmp_path: Path) -> None:
    """1st Alamein's unit legend: a counter "3-4" attacks and defends with 3 and moves 4."""
    (unit,) = family(load_scenario(one_unit_scenario(tmp_path, "3-4")))
    assert (unit.attack, unit.defence, unit.movement) == (3, 3, 4)
    assert unit.factors == "3-4"  # shown as printed
    (unit,) = family(load_scenario(one_unit_scenario(tmp_path, "4-3-2")))
    assert (unit.attack, unit.defence, unit.movement, unit.factors) == (4, 3, 2, "4-3-2")


def test_only_a_system_whose_counters_print_one_combat_factor_reads_two_numbers(tmp_path: Path) -> None:
    """The Gazala Gallop's counters are attack-defence-movement (the rules' "4-3-2"): "3-4" is no counter there."""
    with pytest.raises(ScenarioError) as err:
        load_scenario(one_unit_scenario(tmp_path, "3-4", system="gazala-gallop"))
    assert err.value.field == "unit[0].factors" and err.value.problem == "expected attack-defence-movement, e.g. '4-3-2'"


@pytest.mark.parametrize("factors", ["3", "3-4-5-6", "\u00b3-4", "\u0663-\u0664", "3-4-", "-3-4"])
def test_factors_in_neither_form_are_refused_naming_the_field(tmp_path: Path, factors: str) -> None:
    path = one_unit_scenario(tmp_path, factors)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.field == "unit[0].factors" and "combat-movement" in err.value.problem


@pytest.mark.parametrize(
    ("units", "field"),
    [
        (unit_toml("X", "axis", "Z99"), "unit[0].hex"),
        (unit_toml("X", "axis", "A1") + unit_toml("X", "allied", "A2"), "unit[1].id"),
        (unit_toml("X", "germany", "A1"), "unit[0].side"),
        (unit_toml("X", "axis", None).replace("off_map = true", ""), "unit[0].hex"),
        (unit_toml("X", "axis", "A1", extra='arrives = { turn = 99, zone = "nowhere" }'), "unit[0].arrives.zone"),
    ],
)
def test_malformed_units(units: str, field: str) -> None:
    with pytest.raises(ScenarioError) as err:
        make_scenario(units)
    assert err.value.field == field


def test_toml_syntax_error_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("title = \n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"broken\.toml"):
        load_scenario(bad)


def test_zone_grammar() -> None:
    s = make_scenario(tail='[zones.box]\nany = [{ rows = "A-B", columns = "1-2" }, { hexes = ["E5"] }]\n')
    assert s.zone("box") == {H("A1"), H("A2"), H("B1"), H("B2"), H("E5")}
    with pytest.raises(ScenarioError) as err:
        make_scenario(tail='[zones.box]\nrows = "A-Z"\n')
    assert err.value.field == "zones.box.rows"


def test_digest_changes_with_the_content() -> None:
    a = make_scenario(unit_toml("X", "axis", "A1"))
    b = make_scenario(unit_toml("X", "axis", "A2"))
    assert a.digest != b.digest and len(a.digest) == 64
