"""Operation Compass's charts as the game reads them, against the chart text typed here (the numbers are data): the
combat results table by net DRM and strength column at both ends and in the middle of every band, its red entries
(ruling R-OC-RED), the bombardment table, the ground support and naval support dice, and the step losses by margin
(OC-MC.2) on both sides of every threshold."""

from __future__ import annotations

import re

import pytest

from tobruk.engine.errors import ScenarioError
from tobruk.engine.game import Game
from tobruk.loading.datafile import Table, read_toml
from tobruk.loading.scenario import load_scenario
from tobruk.systems.operation_compass import HERE, OperationCompass
from tobruk.systems.operation_compass.charts import Charts, chart, read_charts

# OC-CRT.5 as the chart prints it: a row per net DRM (the first "<= -2", the last ">= 15"), a column per strength
# band (<= -1, 0-1, 2-4, 5-8, 9-13, 14-19, >= 20), each entry Allied/Italian
CRT_TEXT = """
-2  1/3 0/3 0/3 0/3 0/3 0/4 0/4
-1  1/2 1/3 0/3 0/3 0/3 0/3 0/4
0   1/2 1/2 1/3 0/3 0/3 0/3 0/3
1   1/2 1/2 1/2 1/3 0/3 0/3 0/3
2   2/2 1/2 1/2 1/2 1/3 0/3 0/3
3   2/2 2/2 1/2 1/2 1/2 1/3 0/3
4   2/2 2/2 2/2 1/2 1/2 1/2 1/3
5   2/2 2/2 2/2 2/2 1/2 1/2 1/2
6   2/1 2/2 2/2 2/2 2/2 1/2 1/2
7   2/1 2/1 2/2 2/2 2/2 2/2 1/2
8   2/1 2/1 2/1 2/2 2/2 2/2 2/2
9   2/1 2/1 2/1 2/1 2/2 2/2 2/2
10  3/1 2/1 2/1 2/1 2/1 2/2 2/2
11  3/1 3/1 2/1 2/1 2/1 2/1 2/2
12  3/0 3/1 3/1 2/1 2/1 2/1 2/1
13  3/0 3/0 3/1 3/1 2/1 2/1 2/1
14  4/0 3/0 3/0 3/1 3/1 2/1 2/1
15  4/0 4/0 3/0 3/0 3/1 3/1 2/1
"""
PRINTED = {
    int(row.split()[0]): [tuple(int(n) for n in cell.split("/")) for cell in row.split()[1:]] for row in CRT_TEXT.strip().splitlines()
}
# each column's strengths at its ends and in its middle (the open ends far beyond)
BANDS = [(-40, -7, -1), (0, 0, 1), (2, 3, 4), (5, 6, 8), (9, 11, 13), (14, 16, 19), (20, 25, 60)]


@pytest.fixture
def charts() -> Charts:
    """Read afresh for each test (the mutation run maps each test to what it calls)."""
    return read_charts(read_toml(HERE / "charts.toml"))


@pytest.mark.rule("OC-CRT.5")
@pytest.mark.parametrize("drm", sorted(PRINTED))
def test_every_row_at_both_ends_and_the_middle_of_every_column(charts: Charts, drm: int) -> None:
    for col, strengths in enumerate(BANDS):
        for strength in strengths:
            e = charts.crt.entry(drm, strength)
            assert (e.allied, e.italian) == PRINTED[drm][col], (drm, strength)


@pytest.mark.rule("OC-CRT.5")
@pytest.mark.parametrize(("drm", "row"), [(-3, -2), (-9, -2), (-2, -2), (15, 15), (16, 15), (30, 15)])
def test_the_first_row_reads_every_drm_below_it_and_the_last_every_drm_above(charts: Charts, drm: int, row: int) -> None:
    for col, strengths in enumerate(BANDS):
        e = charts.crt.entry(drm, strengths[1])
        assert (e.allied, e.italian) == PRINTED[row][col]


@pytest.mark.rule("OC-CRT.5")
@pytest.mark.parametrize(
    ("strength", "column"),
    [
        *((-1, "<= -1"), (0, "0-1"), (1, "0-1"), (2, "2-4"), (4, "2-4"), (5, "5-8"), (8, "5-8")),
        *((9, "9-13"), (13, "9-13"), (14, "14-19"), (19, "14-19"), (20, ">= 20")),
    ],
)
def test_each_columns_threshold_from_both_sides(charts: Charts, strength: int, column: str) -> None:
    assert charts.crt.column_names[charts.crt.column(strength)] == column


@pytest.mark.rule("OC-CRT.5")
def test_red_entries_are_those_with_an_allied_number_of_three_or_more(charts: Charts) -> None:
    """Ruling R-OC-RED: the text lost the colour; red is read as the entries where the assault went wrong, the Allied
    number 3 or 4 (the rows 10 to 15 of the low columns); every other entry is black."""
    for drm, row in PRINTED.items():
        for col, (allied, _) in enumerate(row):
            assert charts.crt.entry(drm, BANDS[col][1]).red == (allied >= 3), (drm, col)
    assert charts.crt.entry(10, -1).red and not charts.crt.entry(10, 0).red and not charts.crt.entry(9, -1).red
    assert charts.crt.entry(15, 19).red and not charts.crt.entry(15, 20).red


@pytest.mark.rule("OC-BMB.1")
@pytest.mark.rule("OC-CRT.5")
def test_every_entry_of_the_table_is_explained_with_its_own_numbers_and_the_red_ones_with_the_support_checks() -> None:
    meanings = OperationCompass().result_meanings()
    written = {entry for line in CRT_TEXT.strip().splitlines() for entry in line.split()[1:]}
    assert set(meanings) == {entry.rstrip("*") for entry in written}
    two_one = meanings["2/1"]
    assert "leader checks morale with +2" in two_one and "defender with +1" in two_one and "red" not in two_one
    assert "each Allied support unit in the stack also checks morale" in meanings["3/1"]  # printed red: 3/1*
    assert "support unit" not in meanings["0/4"]


def test_the_bombardment_table_cell_by_cell(charts: Charts) -> None:
    """The chart: by die 1-6, the BS 2, BS 3 and WDF Turn 1 columns; None is "no MC"."""
    printed = [(2, 2, 3), (1, 2, 2), (1, 1, 2), (0, 1, 2), (None, 0, 1), (None, None, 1)]
    assert charts.bombardment_columns == ("BS 2", "BS 3", "WDF turn 1")
    assert [tuple(row) for row in charts.bombardment] == printed


@pytest.mark.rule("OC-CRT.1")
def test_the_ground_support_die(charts: Charts) -> None:
    """1-2: 2 Allied / 0 Italian chits, 3: 1/0, 4-5: 1/1, 6: 0/2."""
    assert list(charts.chits) == [(2, 0), (2, 0), (1, 0), (1, 1), (1, 1), (0, 2)]


@pytest.mark.rule("OC-CRT.3")
def test_the_naval_die(charts: Charts) -> None:
    """A modified roll of 1-3 gives -1, 4-7 -2 (7: a 6 with the +1 against Sidi Barrani or Sollum)."""
    assert list(charts.naval_drm) == [1, 1, 1, 2, 2, 2, 2]
    assert charts.naval_zones == ("sidi-barrani", "sollum")


@pytest.mark.rule("OC-MC.2")
@pytest.mark.parametrize(("failed_by", "steps"), [(0, 0), (1, 1), (4, 1), (5, 2), (7, 2), (8, 3), (12, 3)])
def test_steps_lost_by_margin_on_both_sides_of_each_threshold(charts: Charts, failed_by: int, steps: int) -> None:
    assert charts.steps_lost(failed_by) == steps


def test_the_charts_are_read_once_per_system_and_found_through_the_game() -> None:
    game = Game(load_scenario("operation-compass"))
    assert chart(game) is game.system.charts  # type: ignore[attr-defined]
    assert chart(game).supply_range == 32 * 60 and chart(game).allied_stack == 4


def test_a_game_of_another_system_has_no_compass_charts() -> None:
    game = Game(load_scenario("first-alamein"))
    with pytest.raises(TypeError, match="has no Operation Compass charts"):
        chart(game)


@pytest.mark.parametrize(
    ("section", "key", "value", "message"),
    [
        ("crt", "rows", [["1/3"] * 6], "crt.rows: expected rows of 7 entries"),
        ("crt", "rows", ["1/3"], "crt.rows: expected rows of 7 entries"),
        ("crt", "column_from", [0, -99, 2, 5, 9, 14, 20], "crt.column_from: expected one ascending lowest strength per column"),
        ("crt", "column_from", [-99, 0, 2, 5, 9, 14], "crt.column_from: expected one ascending lowest strength per column"),
        ("bombardment", "rows", [[2, 2, 3]] * 5, "bombardment.rows: expected 6 rows (die 1-6) of 3 entries"),
        ("bombardment", "rows", [[2, 2]] * 6, "bombardment.rows: expected 6 rows (die 1-6) of 3 entries"),
        ("bombardment", "rows", [3] * 6, "bombardment.rows: expected 6 rows (die 1-6) of 3 entries"),
        ("ground_support", "chits", [[2, 0]] * 5, "ground_support.chits: expected 6 pairs (die 1-6)"),
        ("ground_support", "chits", [[2, 0, 1]] * 6, "ground_support.chits: expected pairs of whole numbers"),
        ("ground_support", "chits", [[2, "0"]] * 6, "ground_support.chits: expected pairs of whole numbers"),
        ("naval", "drm_by_roll", [1, 1, 1, 2, 2, 2], "naval.drm_by_roll: expected 7 DRMs (modified rolls 1-7)"),
        ("terrain", "move", {"clear": -1}, "terrain.move.clear: expected a cost of 0 or more in sixtieths, got -1"),
        ("terrain", "move", {"clear": 0.3}, "terrain.move.clear: expected a cost of 0 or more in sixtieths, got 0.3"),
        ("terrain", "move", {"clear": True}, "terrain.move.clear: expected a cost of 0 or more in sixtieths, got True"),
        ("terrain", "move", {"clear": "1"}, "terrain.move.clear: expected a cost of 0 or more in sixtieths, got '1'"),
        ("ground_support", "allied_cup", [0, 1.5], "ground_support.allied_cup: expected whole numbers"),
    ],
)
def test_a_mistake_in_the_charts_is_named(section: str, key: str, value: object, message: str) -> None:
    data = dict(read_toml(HERE / "charts.toml").data)
    data[section] = {**data[section], key: value}
    with pytest.raises(ScenarioError) as e:
        read_charts(Table(data, "charts.toml"))
    assert str(e.value) == f"charts.toml: {message}"


def test_a_cost_of_nothing_and_of_a_quarter_are_read() -> None:
    data = dict(read_toml(HERE / "charts.toml").data)
    data["terrain"] = {**data["terrain"], "move": {"clear": 0, "rough": 0.25, "hill": 2}}
    t = read_charts(Table(data, "charts.toml")).terrain
    assert t.move == {"clear": 0, "rough": 15, "hill": 120}


def test_the_numbers_as_read_from_the_charts(charts: Charts) -> None:
    """Every number of charts.toml as the game reads it, against the charts' text (costs in sixtieths) and the
    rulings (R-OC-SUPPLY, R-OC-STACK, R-OC-VICTORY, R-OC-NAVAL, R-OC-CHITS, R-OC-BS)."""
    t = charts.terrain
    assert (t.move, t.supply) == ({"clear": 60, "rough": 120, "hill": 120}, {"clear": 120, "rough": 180, "hill": 240})
    assert (t.hexside_move, t.hexside_supply) == ({"ridge": 120, "wadi": 60}, {"ridge": 240, "wadi": 120})
    assert (t.route_move, t.route_supply) == ({"road": 30, "minor-road": 60}, {"road": 30, "minor-road": 60})
    assert t.impassable == ("impassable-escarpment", "escarpment")
    assert (t.combat_drm, t.fort_drm, t.fortified_side) == ({"rough": 1, "hill": 2}, 3, "fortified")
    assert (t.sidi_barrani_drm, t.sidi_barrani_zone, t.halve_down, t.halve_up) == (4, "sidi-barrani", ("ridge",), ("wadi",))
    assert charts.least_bombardment == 2
    assert (charts.allied_cup, charts.italian_cup) == ((0, 1, 1, 1, 2, 2), (0, 0, 1, 1, 1, 2))
    assert charts.naval_per_turn == 2
    assert (charts.support_unit_drm, charts.retreating_drm, charts.surprise_drm, charts.surprise_turns) == (1, 1, 1, (1,))
    assert (charts.armour_kinds, charts.infantry_kinds) == (("armour",), ("infantry", "motorized-infantry"))
    assert charts.losses == ((1, 1), (5, 2), (8, 3))
    assert (charts.retreat_from_turn, charts.retreat_cut_off, charts.strongholds) == (3, 1, ("sidi-barrani", "sollum"))
    assert (charts.stronghold_drm, charts.fort_unthreatened_drm, charts.per_allied_unit_eliminated) == (-1, -1, -1)
    assert charts.threat_kinds == ("armour", "motorized-infantry")
    assert (charts.supply_range, charts.allied_stack) == (32 * 60, 4)
    assert (charts.italian_step_points, charts.allied_step_points) == (1, 3)
    assert charts.place_points == {"sidi-barrani": 5, "camps": 2, "towns": 2}
    assert charts.levels == (
        (40, "Allied decisive victory"),
        (25, "Allied victory"),
        (12, "Allied marginal victory"),
        (0, "Italian marginal victory"),
        (-999, "Italian victory"),
    )
    assert charts.crt.column_names == ("<= -1", "0-1", "2-4", "5-8", "9-13", "14-19", ">= 20")
    assert (charts.crt.column_from, charts.crt.row_from) == ((-99, 0, 2, 5, 9, 14, 20), -2)


@pytest.mark.parametrize("entry", ["1-3", "x/3", 4, "1/3/"])
def test_a_crt_entry_must_read_allied_slash_italian(entry: object) -> None:
    data = dict(read_toml(HERE / "charts.toml").data)
    rows = [list(r) for r in data["crt"]["rows"]]
    rows[3][2] = entry
    data["crt"] = {**data["crt"], "rows": rows}
    with pytest.raises(ScenarioError) as e:
        read_charts(Table(data, "charts.toml"))
    assert str(e.value) == f"charts.toml: crt.rows[3][2]: expected an entry such as '1/3' or '3/1*', got {entry!r}"


@pytest.mark.parametrize(("key", "value"), [("version", 2), ("format", "tobruk-scenario")])
def test_the_format_is_checked(key: str, value: object) -> None:
    data = {**read_toml(HERE / "charts.toml").data, key: value}
    with pytest.raises(ScenarioError) as e:
        read_charts(Table(data, "charts.toml"))
    assert str(e.value) == "charts.toml: format: expected format 'tobruk-charts', version 1"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("kind", '"cavalry"', "expected one of armour, motorized-infantry, infantry, recce, support, got 'cavalry'"),
        ("steps", "0", "a unit has 1 to 3 steps (ruling R-OC-MC8), got 0"),
        ("steps", "4", "a unit has 1 to 3 steps (ruling R-OC-MC8), got 4"),
        ("morale", "0", "a morale rating is 1 to 6, got 0"),
        ("morale", "7", "a morale rating is 1 to 6, got 7"),
        ("attack", "-1", "expected 0 or more, got -1"),
        ("defence", "-1", "expected 0 or more, got -1"),
        ("movement", "-1", "expected 0 or more, got -1"),
        ("support", "-1", "expected 0 or more, got -1"),
    ],
)
def test_a_counter_out_of_its_bounds_is_refused(field: str, value: str, message: str) -> None:
    from tests.systems.operation_compass.kit import allied, scenario

    text = allied("U", "A1", steps=2, morale=4, attack=1, defence=1, movement=1, support=1)
    text = re.sub(rf"^{field} = .*$", f"{field} = {value}", text, flags=re.M)
    with pytest.raises(ScenarioError) as e:
        scenario(text)
    assert e.value.field == f"unit[0].{field}" and e.value.problem == message


@pytest.mark.parametrize(("steps", "morale"), [(1, 1), (3, 6)])
def test_a_counter_at_its_bounds_is_read(steps: int, morale: int) -> None:
    from tests.systems.operation_compass.kit import allied, scenario

    s = scenario(allied("U", "A1", steps=steps, morale=morale, attack=0, defence=0, movement=0))
    (u,) = s.units
    assert (u.steps, u.printed()["morale"], u.printed()["full_steps"]) == (steps, morale, steps)
    assert u.printed() == {
        "type": "infantry",
        "echelon": "brigade",
        "full_steps": steps,
        "morale": morale,
        "attack": 0,
        "defence": 0,
        "movement": 0,
        "support": 0,
    }
