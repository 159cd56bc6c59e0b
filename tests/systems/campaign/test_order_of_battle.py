"""The North-Africa campaign's order of battle (CA-F, CA-U, CA-R.2, CA-T.5) against the rules text, and the forces
file's refusals word for word."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.campaign.campaign_data import edited_copy, forces
from tobruk.engine.errors import ScenarioError
from tobruk.loading.datafile import packaged_path, read_toml
from tobruk.mechanics.counters import AntiTank, CombatClass, UnitType
from tobruk.systems.campaign.forces import load_forces, read_forces
from tobruk.systems.campaign.scenario import allied_gun


@pytest.mark.rule("CA-G.13")
@pytest.mark.rule("CA-U.3")
def test_the_factor_rule() -> None:
    """2 to attack and 2 to defend unless printed; the rules print only the 8th Army artillery's 6 and 2."""
    for u in forces().units.values():
        expected = (6, 2) if u.id == "8ArmyArty" else (0, 0) if u.type is UnitType.DUMMY else (2, 2)
        assert (u.attack, u.defence) == expected, u.id


@pytest.mark.rule("CA-U.1")
def test_a_combined_panzer_division_has_its_subunits_factors() -> None:
    assert {b: d.parts for b, d in forces().divisions.items()} == {"15Pz": ("8PzRgt",), "21Pz": ("5PzRgt",)}
    for base in ("15Pz", "21Pz"):
        combined = forces().combined(base)
        assert (combined.attack, combined.defence, combined.movement, combined.size) == (4, 4, 4, "XX+")
        assert forces().units[base].size == "XX-"


@pytest.mark.rule("CA-M.2")
def test_movement_four_for_german_mobile_units_three_for_the_rest() -> None:
    mobile = (UnitType.ARMOUR, UnitType.MOTORIZED, UnitType.RECCE)
    for u in forces().units.values():
        expected = 4 if u.nationality == "german" and u.type in mobile else 0 if u.type is UnitType.DUMMY else 3
        assert u.movement == expected, u.id
    assert forces().units["164Div"].movement == 3 and forces().units["90Lt"].movement == 4


@pytest.mark.rule("CA-G.14")
def test_unit_classes() -> None:
    by_class = {c: {u.id for u in forces().units.values() if u.combat_class is c} for c in CombatClass}
    allied_armour = {
        "3ArmBde",
        "2ArmBde",
        "4LtArmBde",
        "7ArmBde",
        "22ArmBde",
        "1ArmBde",
        "8ArmBde",
        "24ArmBde",
        "1TkBde",
        "32TkBde",
        "23TkBde",
    }
    assert by_class[CombatClass.PURE_ARMOUR] == {"5PzRgt", "8PzRgt", "Ariete", "Littorio"} | allied_armour
    assert by_class[CombatClass.SPECIAL] == {"RecceGp", "8ArmyArty"}
    assert all(forces().units[u].tank for u in allied_armour)


@pytest.mark.rule("CA-R.2")
def test_irreplaceable_nationalities() -> None:
    irreplaceable = {u.id for u in forces().units.values() if u.irreplaceable}
    assert irreplaceable == {"AusDiv", "NZDiv", "1SADiv", "2SADiv", "1PolBde", "1FFBde", "GreekBde"}


@pytest.mark.rule("CA-U.2")
def test_the_starred_units() -> None:
    starred = {u.id for u in forces().units.values() if "starred" in u.flags}
    # CA-U.2 names three; the Alam Halfa and Alamein listings star Folgore and Ramcke
    assert starred == {"RecceGp", "7ArmSpt", "3IndMotBde", "Folgore", "Ramcke"}


@pytest.mark.rule("CA-T.5")
def test_german_units_carry_their_gun_and_italians_have_none() -> None:
    for u in forces().units.values():
        if u.nationality == "italian":
            assert u.anti_tank is AntiTank.NONE, u.id
    assert forces().units["15Pz"].anti_tank is AntiTank.EIGHTY_EIGHT and forces().units["21Pz"].anti_tank is AntiTank.EIGHTY_EIGHT


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ('factors = "6-2-3"', 'factors = "6-2"', "unit[43].factors", "attack-defence-movement"),
        ('nationality = "greek"', 'nationality = "hellenic"', "unit[42].nationality", "expected one of"),
        ('class = "pure-armour"\nfactors = "2-2-4"\ntank = "Pz III"\nformation = "21Pz"', 'factors = "2-2-4"', "unit[0].class", "missing"),
        ('tank = "A13"', 'tank = "Cromwell"', "unit[16].tank", "tank table's types"),
        ('parts = ["8PzRgt"]', 'parts = ["8PzRegt"]', "panzer_division[0].parts[0]", "no unit '8PzRegt'"),
        (
            'factors = "2-2-4"\ntank = "Pz III"\nformation = "21Pz"',
            'factors = 224\ntank = "Pz III"\nformation = "21Pz"',
            "unit[0].factors",
            "expected a string",
        ),
        ('name = "Panzer-Regiment 5"\nside = "axis"\n', 'name = "Panzer-Regiment 5"\n', "unit[0].side", "missing (required)"),
        ('tank = "Pz III"\nformation = "21Pz"', 'tonk = "Pz III"\nformation = "21Pz"', "unit[0].tonk", "unknown field"),
    ],
)
def test_a_malformed_forces_file_names_file_and_field(tmp_path: Path, old: str, new: str, field: str, problem: str) -> None:
    path = edited_copy(tmp_path, "forces", "north-africa", old, new)
    with pytest.raises(ScenarioError) as err:
        read_forces(read_toml(path), "north-africa")
    assert err.value.source == str(path)
    assert err.value.field == field and problem in err.value.problem, str(err.value)


DUMMY = 'type = "dummy"\nfactors = "0-0-0"'


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ('format = "tobruk-forces"', 'format = "tobruk-track"', "format", "expected 'tobruk-forces'"),
        ("version = 1", "version = 2", "version", "this program reads forces format version 1"),
        ('track = "north-africa"', 'track = "south-america"', "track", "no turn track 'south-america' (known: north-africa)"),
        ('id = "4IndDiv"', 'id = "3IndMotBde"', "unit[38].id", "unit id '3IndMotBde' is used twice"),
        (
            'type = "infantry"\nclass = "infantry-type"\nfactors = "2-2-3"\nbasis = "three brigades (5th, 7th, 11th Indian)"',
            'type = "infantry"\nfactors = "2-2-3"\nbasis = "three brigades (5th, 7th, 11th Indian)"',
            "unit[38].class",
            "missing (required in a forces file): pure-armour, special or infantry-type",
        ),
        ('tank = "A13"\n', "", "unit[16].tank", "an Allied armour unit needs its tank type (CA-T.2)"),
        (
            'tank = "A13"',
            'tank = "Cromwell"',
            "unit[16].tank",
            "expected one of the tank table's types (A13, Matilda, Crusader I, Stuart, Valentine, Grant, Sherman, Crusader III), "
            "got 'Cromwell'",
        ),
        ('base = "15Pz"', 'base = "8PzRgt"', "panzer_division[0].base", "'8PzRgt' is not a division of this order of battle"),
        # the Tobruk dummy: no class, factors 0-0-0, each factor alone refused (CA-F.4)
        (
            DUMMY,
            'type = "dummy"\nclass = "infantry-type"\nfactors = "0-0-0"',
            "unit[44].class",
            "a dummy has no class and factors 0-0-0 (CA-F.4)",
        ),
        (DUMMY, 'type = "dummy"\nfactors = "1-0-0"', "unit[44].factors", "a dummy has no class and factors 0-0-0 (CA-F.4)"),
        (DUMMY, 'type = "dummy"\nfactors = "0-1-0"', "unit[44].factors", "a dummy has no class and factors 0-0-0 (CA-F.4)"),
        (DUMMY, 'type = "dummy"\nfactors = "0-0-1"', "unit[44].factors", "a dummy has no class and factors 0-0-0 (CA-F.4)"),
    ],
)
def test_a_forces_files_refusals_word_for_word(tmp_path: Path, old: str, new: str, field: str, problem: str) -> None:
    path = edited_copy(tmp_path, "forces", "north-africa", old, new)
    with pytest.raises(ScenarioError) as err:
        read_forces(read_toml(path), "north-africa")
    assert (err.value.source, err.value.field, err.value.problem) == (str(path), field, problem)


def test_a_forces_file_may_leave_out_its_panzer_divisions_and_its_clause(tmp_path: Path) -> None:
    packaged = packaged_path("forces", "north-africa")
    assert packaged is not None
    text = packaged.read_text(encoding="utf-8")
    start, end = text.index("[[panzer_division]]"), text.index("# ---------------------------------------------------------------- Axis")
    path = tmp_path / "north-africa.toml"
    path.write_text(text[:start].replace('irreplaceable_clause = "CA-R.2"\n', "") + text[end:], encoding="utf-8")
    forces = read_forces(read_toml(path), "north-africa")
    assert forces.divisions == {} and "15Pz" in forces.units and forces.source == str(path)


@pytest.mark.rule("CA-R.2")
def test_each_counter_of_an_irreplaceable_nationality_is_marked_irreplaceable() -> None:
    forces = load_forces("north-africa")
    assert forces.unit("1SADiv").irreplaceable and forces.unit("NZDiv").irreplaceable  # South African, New Zealand
    assert not forces.unit("50Div").irreplaceable and not forces.unit("4IndDiv").irreplaceable  # British, Indian
    assert not forces.unit("15Pz").irreplaceable
    assert all(u.irreplaceable is (u.nationality in forces.irreplaceable) for u in forces.units.values())


@pytest.mark.rule("CA-T.5")
def test_an_allied_units_gun_by_the_scenarios_classes_named_units_first() -> None:
    units = load_forces("north-africa").units
    six, two, none = AntiTank.SIX_POUNDER, AntiTank.TWO_POUNDER, AntiTank.NONE
    classes = {"support": six, "brigades": six, "divisions": none, "infantry": two}
    guns = {uid: allied_gun(units[uid], classes, {}) for uid in ("7ArmSpt", "GdsBde", "3IndMotBde", "50Div", "NZDiv", "1PolBde", "1ArmBde")}
    # support group, British and Indian brigades; two divisions; a Polish brigade: the other infantry; armour: none
    assert guns == {"7ArmSpt": six, "GdsBde": six, "3IndMotBde": six, "50Div": none, "NZDiv": none, "1PolBde": two, "1ArmBde": none}
    # without a brigades or divisions class, brigades and divisions take the infantry's gun; a named unit its own
    plain = {"support": six, "infantry": two}
    assert [allied_gun(units[u], plain, {}) for u in ("GdsBde", "50Div", "7ArmSpt")] == [two, two, six]
    assert allied_gun(units["50Div"], plain, {"50Div": "6pdr"}) is six
