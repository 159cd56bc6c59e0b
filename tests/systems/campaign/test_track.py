"""The North-Africa campaign's turn track (CA-R): its dates, force levels, tank and anti-tank steps and railheads
against the rules text, the scenarios' forces against it, and the smallest track the format allows with its refusals.

The expected dates and levels are copied by hand from the rules and the clauses cited, not from the data files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import family
from tests.systems.campaign.campaign_data import CAMPAIGN, LISTINGS, SCENARIOS, edited_copy, forces, setup, track
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.loading.datafile import Table, read_packaged_toml, read_toml
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.counters import AntiTank, Echelon, UnitType
from tobruk.systems.campaign.forces import read_forces
from tobruk.systems.campaign.track import AntiTankStep, Dated, read_track, turn_name, turn_ordinal


@pytest.fixture(scope="module")
def scenarios() -> dict[str, Scenario]:
    return {name: load_scenario(name) for name in (*SCENARIOS, CAMPAIGN)}


@pytest.mark.rule("CA-R.1")
def test_the_track_runs_in_half_months_from_ii_mar_41_to_ii_jan_43() -> None:
    turns = track().turns
    assert turns[0] == "II Mar 41" and turns[-1] == "II Jan 43"
    # March 1941 (second half) .. December 1942 is 1 + 2 * 21 half-months, then January 1943's two
    assert len(turns) == 1 + 2 * 21 + 2
    assert turns[1:4] == ("I Apr 41", "II Apr 41", "I May 41")
    assert all(turn_name(turn_ordinal(t)) == t for t in turns)
    assert track().number("II Jul 42") == turns.index("II Jul 42") + 1


@pytest.mark.rule("CA-R.1")
def test_every_dated_entry_of_the_track_has_a_source() -> None:
    dated = (
        [a.when for a in track().axis_arrivals]
        + [f.when for f in track().force_levels]
        + [t.when for t in track().tank_types]
        + [a.when for a in track().anti_tank]
        + [r.when for r in track().railheads]
    )
    assert len(dated) >= 20
    assert all(d.source.strip() and d.date.strip() for d in dated)


@pytest.mark.rule("CA-T.2")
def test_the_tank_types_are_the_tank_tables_columns_in_the_order_they_came() -> None:
    names = [t.name for t in track().tank_types]
    assert names == ["A13", "Matilda", "Crusader I", "Stuart", "Valentine", "Grant", "Sherman", "Crusader III"]
    dates = [turn_ordinal(t.when.turn) for t in track().tank_types]
    assert dates == sorted(dates)
    # both sides of each threshold: the Grant not before I Mar 42, the Sherman from II Sep 42
    assert not track().tank_available("Grant", "II Feb 42") and track().tank_available("Grant", "I Mar 42")
    assert not track().tank_available("Sherman", "I Sep 42") and track().tank_available("Sherman", "II Sep 42")


@pytest.mark.rule("CA-T.5")
def test_allied_anti_tank_by_date() -> None:
    before, spring, october = track().anti_tank_at("II Mar 42"), track().anti_tank_at("I Apr 42"), track().anti_tank_at("I Oct 42")
    assert (before.support, before.infantry) == (AntiTank.TWO_POUNDER, AntiTank.NONE)  # "until Apr42"
    assert (spring.support, spring.infantry) == (AntiTank.SIX_POUNDER, AntiTank.TWO_POUNDER)
    assert track().anti_tank_at("II Sep 42").infantry is AntiTank.TWO_POUNDER
    assert (october.support, october.infantry) == (AntiTank.SIX_POUNDER, AntiTank.SIX_POUNDER)  # "Starting Oct42"


@pytest.mark.rule("CA-S.2")
def test_the_railhead_moves_west_by_date_and_lies_on_the_map() -> None:
    m = load_scenario(CAMPAIGN).map
    assert track().railhead("II Mar 41") == "Mersa Matruh"
    assert track().railhead("II Oct 41") == "Mersa Matruh" and track().railhead("I Nov 41") == "Misheifa"
    assert track().railhead("II May 42") == "Belhamed"
    for r in track().railheads:
        h = m.place(r.place).hex
        assert m.is_land(h)
    cols = [m.place(r.place).hex.col for r in track().railheads]
    assert cols == sorted(cols, reverse=True)  # each one further west
    # the same railheads as the map's railway, on the same turns (the first one predates the track)
    on_map = {r.name: r for r in m.railheads}
    for r in track().railheads:
        assert on_map[r.place].hex == m.place(r.place).hex and on_map[r.place].hex in m.railway
        if r.when.turn != track().first:
            assert on_map[r.place].turn == r.when.turn


@pytest.mark.rule("CA-R.3")
@pytest.mark.rule("CA-R.5")
def test_the_alamein_force_level() -> None:
    al = track().alamein
    assert (al.place, al.within, al.british_divisions) == ("El Alamein", 5, 1)
    # the Allied Alamein Force Level is the Alamein listing's 18 units (CA-SC.9), in force on any date once activated
    assert al.force_level == 18
    assert track().force_level("I Jul 42", alamein=True) == 18 and track().force_level("II Jan 43") == 14
    assert set(al.axis_additions) == {"Littorio", "Pistoia", "Folgore", "164Div", "Ramcke"}
    assert all(forces().units[u].side is Side.AXIS for u in al.axis_additions)
    assert track().axis_reinforcements_end == "II Oct 42"  # CA-R.4


@pytest.mark.rule("CA-R.1")
def test_every_axis_unit_a_scenario_lists_has_arrived_by_its_start(scenarios: dict[str, Scenario]) -> None:
    """The track's arrival dates agree with the listings: no division fights before it is in Africa."""
    starting = set(LISTINGS["na-el-agheila-1"][5])
    for name in SCENARIOS:
        s = scenarios[name]
        for u in family(s):
            if u.side is not Side.AXIS or u.id in starting or u.id in track().alamein.axis_additions:
                continue
            arrival = track().arrival(u.id)
            assert arrival is not None, (name, u.id)
            assert turn_ordinal(arrival.when.turn) <= turn_ordinal(setup(s).start), (name, u.id, arrival.when.turn)


@pytest.mark.rule("CA-R.1")
def test_the_campaign_game_brings_the_axis_on_the_tracks_dates(scenarios: dict[str, Scenario]) -> None:
    s = scenarios[CAMPAIGN]
    assert (setup(s).start, setup(s).end, s.turns) == ("II Mar 41", "II Jan 43", 45)
    for a in track().axis_arrivals:
        assert setup(s).arrivals[a.unit] == a.when.turn
    for uid in LISTINGS["na-el-agheila-1"][5]:
        assert setup(s).arrivals[uid] == "II Mar 41"
    for uid in track().alamein.axis_additions:
        assert s.start[uid] is None and uid not in setup(s).arrivals
    assert {u.id for u in family(s)} == set(forces().units)


@pytest.mark.rule("CA-R.1")
def test_the_force_level_covers_every_scenarios_allied_forces(scenarios: dict[str, Scenario]) -> None:
    for name in SCENARIOS:
        s = scenarios[name]
        allied = [u for u in family(s) if u.side is Side.ALLIED and u.type is not UnitType.DUMMY]
        assert len(allied) <= track().force_level(setup(s).start, alamein=setup(s).alamein_active), name
    # the levels taken from the listings themselves
    assert track().force_level("II Nov 41") == len(LISTINGS["na-crusader"][4])
    assert track().force_level("II May 42") == len(LISTINGS["na-gazala"][4])
    # Alamein's 18 is the Allied Alamein Force Level, brought by the Axis approach, not by a date (CA-R.3)
    assert track().force_level("II Oct 42", alamein=True) == len(LISTINGS["na-alamein"][4])
    assert track().force_level("II Oct 42") == track().force_level("I Oct 42") == len(LISTINGS["na-gazala"][4])


@pytest.mark.rule("CA-R.1")
def test_the_june_1941_force_level_counts_the_formations_its_entry_names() -> None:
    """Battleaxe: 4th Indian Division, 7th Armoured Division's 4th and 7th Armoured Brigades and Support Group, the
    22nd Guards Brigade, and in Tobruk the 9th Australian Division and the 3rd Armoured Brigade: seven counters."""
    named = {"4IndDiv", "4LtArmBde", "7ArmBde", "7ArmSpt", "GdsBde", "AusDiv", "3ArmBde"}
    assert all(forces().units[u].side is Side.ALLIED for u in named)
    assert track().force_level("II May 41") == 4 and track().force_level("I Jun 41") == len(named)


@pytest.mark.rule("CA-R.3")
def test_at_most_one_british_division_before_the_alamein_force_level(scenarios: dict[str, Scenario]) -> None:
    for name in ("na-el-agheila-1", "na-el-agheila-2", "na-crusader", "na-gazala", "na-mersa-matruh", "na-1st-alamein"):
        british = [u.id for u in family(scenarios[name]) if u.nationality == "british" and u.echelon is Echelon.DIVISION]
        assert len(british) <= 1, (name, british)
    assert len([u for u in family(scenarios["na-alamein"]) if u.nationality == "british" and u.is_division]) == 3


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ('source = "rules; playfair3; wp:Battle_of_Gazala"', 'source = " "', "allied_force_level[4].source", "source"),
        ('turn = "I Aug 41"\ndate = "1 August', 'turn = "I Aug 44"\ndate = "1 August', "axis_arrival[2].turn", "not on the track"),
        ('turn = "I Aug 41"\ndate = "1 August', 'turn = "Aug 41"\ndate = "1 August', "axis_arrival[2].turn", "expected a turn"),
        ('name = "Grant"', 'name = "Matilda"', "tank_type[5].name", "listed twice"),
        ("within = 5", "within = 0", "alamein.within", "1 hex or more"),
        ("within = 5", 'within = "five"', "alamein.within", "expected an integer"),
        ('source = "lexikon; wp:21st_Panzer_Division"\n', "", "axis_arrival[2].source", "missing (required)"),
        (
            'axis_reinforcements_end = "II Oct 42"',
            'axis_reinforcements_end = "II Okt 42"',
            "axis_reinforcements_end",
            "expected a turn like 'II Mar 41'",
        ),
        ('unit = "21Pz"', 'unit = "Ramcke"', "axis_arrival[2].unit", "only with the Alamein force level (CA-R.5)"),
        # the Alamein force level may not fall below a dated one: the approach raises it (CA-R.3)
        ("force_level = 18", "force_level = 13", "alamein.force_level", "below the dated level 14"),
    ],
)
def test_a_malformed_track_names_file_and_field(tmp_path: Path, old: str, new: str, field: str, problem: str) -> None:
    path = edited_copy(tmp_path, "tracks", "north-africa", old, new)
    with pytest.raises(ScenarioError) as err:
        read_track(read_toml(path), "north-africa")
    assert err.value.source == str(path)
    assert err.value.field == field and problem in err.value.problem, str(err.value)


def test_a_track_arrival_of_a_unit_the_order_of_battle_lacks_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The track does not know the counters; the order of battle that reads it names the entry."""
    import tobruk.systems.campaign.forces as forces_module

    track = read_track(read_toml(edited_copy(tmp_path, "tracks", "north-africa", 'unit = "21Pz"', 'unit = "16Pz"')), "north-africa")
    monkeypatch.setattr(forces_module, "load_track", lambda name: track)
    with pytest.raises(ScenarioError) as err:
        read_forces(read_packaged_toml("forces", "north-africa"), "north-africa")
    assert err.value.source.endswith("forces/north-africa.toml") and err.value.field == "track"
    assert "axis_arrival names '16Pz'" in err.value.problem


def test_a_campaign_scenarios_turns_are_named_as_on_the_track() -> None:
    crusader = load_scenario("na-crusader")  # II Nov 41 to I Jan 42 (its file)
    assert [crusader.turn_name(n) for n in range(1, crusader.turns + 1)] == ["II Nov 41", "I Dec 41", "II Dec 41", "I Jan 42"]
    assert load_scenario("gazala-gallop").turn_name(3) == "Turn 3"  # a system without a dated track


ONE_TURN_TRACK = """\
format = "tobruk-track"
version = 1
title = "One turn"
first = "I Jun 42"
last = "I Jun 42"
axis_reinforcements_end = "I Jun 42"

[[allied_force_level]]
from = "I Jun 42"
units = 0
source = "a test"

[alamein]
place = "El Alamein"
within = 1
british_divisions = 1
axis_additions = []
force_level = 0
"""


def one_turn_track(tmp_path: Path, old: str = "", new: str = "") -> tuple[Path, Table]:
    assert old in ONE_TURN_TRACK
    path = tmp_path / "one-turn.toml"
    path.write_text(ONE_TURN_TRACK.replace(old, new, 1), encoding="utf-8")
    return path, read_toml(path)


def test_a_one_turn_track_with_only_the_required_fields_reads_with_their_defaults(tmp_path: Path) -> None:
    """A track may be one turn long, list a force level of 0 on its last turn and an Alamein level equal to the
    highest dated one, 1 hex away; every list but the force levels, each date's words and estimate, a level's note
    and the documentation fields may be left out."""
    path, table = one_turn_track(tmp_path)
    track = read_track(table, "one-turn")
    assert (track.first, track.last, track.turns, track.axis_reinforcements_end) == ("I Jun 42", "I Jun 42", ("I Jun 42",), "I Jun 42")
    assert track.source == str(path)
    (level,) = track.force_levels
    assert (level.units, level.note, level.when.turn) == (0, "", "I Jun 42")
    assert (level.when.date, level.when.source, level.when.estimate) == ("", "a test", False)
    assert (track.axis_arrivals, track.tank_types, track.anti_tank, track.railheads) == ((), (), (), ())
    assert (track.alamein.within, track.alamein.force_level, track.alamein.axis_additions) == (1, 0, ())
    # before any dated anti-tank step or railhead: no gun, no railhead
    assert track.anti_tank_at("I Jun 42") == AntiTankStep(AntiTank.NONE, AntiTank.NONE, Dated("I Jun 42", "", "", False))
    assert track.railhead("I Jun 42") == ""
    # no dated force level at all: the Alamein level may be 0
    _, table = one_turn_track(tmp_path, '[[allied_force_level]]\nfrom = "I Jun 42"\nunits = 0\nsource = "a test"\n', "")
    assert read_track(table, "one-turn").force_levels == ()
    # an anti-tank step needs no clause (documentation only)
    gun = '[[anti_tank]]\nfrom = "I Jun 42"\nsupport = "6pdr"\ninfantry = "2pdr"\nsource = "a test"\n\n[alamein]'
    _, table = one_turn_track(tmp_path, "[alamein]", gun)
    (step,) = read_track(table, "one-turn").anti_tank
    assert (step.support, step.infantry, step.when.turn) == (AntiTank.SIX_POUNDER, AntiTank.TWO_POUNDER, "I Jun 42")


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ('format = "tobruk-track"', 'format = "tobruk-scenario"', "format", "expected 'tobruk-track'"),
        ("version = 1", "version = 2", "version", "this program reads track format version 1"),
        ('last = "I Jun 42"', 'last = "II May 42"', "last", "'II May 42' comes before the first turn 'I Jun 42'"),
        ("units = 0", "units = -1", "allied_force_level[0].units", "expected a count of 0 or more"),
        ('source = "a test"', 'source = "  "', "allied_force_level[0].source", "every date needs its historical source"),
        ('from = "I Jun 42"', 'from = "II Jun 42"', "allied_force_level[0].from", "'II Jun 42' is not on the track (I Jun 42 to I Jun 42)"),
        ("within = 1", "within = 0", "alamein.within", "expected a distance of 1 hex or more"),
        ("units = 0", "units = 1", "alamein.force_level", "0 is below the dated level 1: the approach raises it (CA-R.3)"),
    ],
)
def test_a_one_turn_tracks_refusals_word_for_word(tmp_path: Path, old: str, new: str, field: str, problem: str) -> None:
    path, table = one_turn_track(tmp_path, old, new)
    with pytest.raises(ScenarioError) as err:
        read_track(table, "one-turn")
    assert (err.value.source, err.value.field, err.value.problem) == (str(path), field, problem)


def test_a_turn_is_on_the_track_only_between_its_first_and_last_and_only_if_it_is_a_turn() -> None:
    assert track().has("II Mar 41") and track().has("II Jan 43")
    assert not track().has("I Mar 41") and not track().has("I Feb 43")
    assert not track().has("II Okt 42") and not track().has("Mar 41")  # not turns at all


def test_a_track_alamein_addition_the_order_of_battle_lacks_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tobruk.systems.campaign.forces as forces_module

    track = read_track(read_toml(edited_copy(tmp_path, "tracks", "north-africa", '"Ramcke"]', '"Ramcke", "16Pz"]')), "north-africa")
    monkeypatch.setattr(forces_module, "load_track", lambda name: track)
    with pytest.raises(ScenarioError) as err:
        read_forces(read_packaged_toml("forces", "north-africa"), "north-africa")
    assert (err.value.field, err.value.problem) == (
        "track",
        "the track's alamein.axis_additions names '16Pz', not an Axis unit of this order of battle",
    )
