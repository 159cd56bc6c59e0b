"""The charts file (``charts.toml`` of the Gazala system's package): what it holds, and a malformed one refused naming the field.

The expected cells are typed in from the 2016 charts (GG-XIV.C.3, GG-X.C, the terrain effects table).
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tobruk.engine.errors import ScenarioError
from tobruk.engine.system import system_for
from tobruk.loading.datafile import Table
from tobruk.systems.gazala import GazalaGallop
from tobruk.systems.gazala import combat as cb

CHARTS = Path(cb.__file__).with_name("charts.toml")

# The 2016 air attack table: die 1..6 by target column.
AIR = {
    1: ["4thAA/Flak", "4thAA", "AAg", "AA", "AA"],
    2: ["-", "-", "Flak", "-", "AA"],
    3: ["-", "D", "-", "Int", "-"],
    4: ["-", "D", "D", "Int", "Int"],
    5: ["D", "D", "D", "EAX", "Int"],
    6: ["D", "D", "D", "EAX", "EAX"],
}


def packaged() -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(CHARTS.read_text(encoding="utf-8"))
    return data


def read(data: dict[str, Any]) -> cb.Charts:
    return cb.read_charts(Table(data, "charts.toml"))


@pytest.mark.rule("GG-X.C")
def test_the_air_table_is_the_2016_one() -> None:
    c = read(packaged())
    assert c.air.columns == ("allied-box", "allied", "axis", "british-air", "german-air")
    for die, row in AIR.items():
        assert [c.air_result(die, col) for col in c.air.columns] == row


@pytest.mark.rule("GG-XI.A.1")
@pytest.mark.rule("GG-XI.B")
@pytest.mark.rule("GG-XI.C")
def test_the_terrain_bonuses_are_the_charts() -> None:
    c = read(packaged())
    # box/fort +3, escarpment +2 defence and +1 attack, hill/ridge +1
    assert (c.box_bonus, c.escarpment_defence, c.escarpment_attack, c.hill_ridge_defence) == (3, 2, 1, 1)
    assert c.gcrt.ratios == ((1, 4), (1, 3), (1, 2), (1, 1), (3, 2), (2, 1), (3, 1), (4, 1), (5, 1), (7, 1), (10, 1))


def test_the_systems_charts_are_the_packaged_file() -> None:
    system = system_for("gazala-gallop")
    assert isinstance(system, GazalaGallop) and system.charts == read(packaged())


def change(path: str, value: Any) -> dict[str, Any]:
    """The packaged data with one field replaced (``a.b.c``; a final ``[i]`` indexes a list), or removed."""
    data = copy.deepcopy(packaged())
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[key]
    if last.endswith("]"):
        name, index = last[:-1].split("[")
        node[name][int(index)] = value
    elif value is None:
        del node[last]
    else:
        node[last] = value
    return data


GCRT_CODES = "-, AE, AR, D, DAE, DAR, DE, R1, R2"
AIR_CODES = "-, 4thAA, 4thAA/Flak, AA, AAg, D, EAX, Flak, Int"
UNKNOWN = "unknown field (misspelt?)"


@pytest.mark.parametrize(
    ("path", "value", "field", "says"),
    [
        ("format", "tobruk-scenario", "format", 'expected "tobruk-charts"'),
        ("version", 2, "version", "expected 1"),
        ("gcrt.columns[3]", "one to one", "gcrt.columns[3]", "expected an odds ratio like 3:2, got 'one to one'"),
        ("gcrt.columns[3]", "one:1", "gcrt.columns[3]", "expected an odds ratio like 3:2, got 'one:1'"),
        ("gcrt.columns[3]", "1:one", "gcrt.columns[3]", "expected an odds ratio like 3:2, got '1:one'"),
        ("gcrt.columns[3]", "1:3", "gcrt.columns[3]", "odds must rise from column to column: 1:3 after 1:2"),
        ("gcrt.columns[0]", "1:3", "gcrt.columns[1]", "odds must rise from column to column: 1:3 after 1:3"),
        ("gcrt.rows[5]", ["D"] * 10, "gcrt.rows", "expected 6 rows of 11 results"),
        ("gcrt.rows[2]", "D", "gcrt.rows", "expected 6 rows of 11 results"),
        ("gcrt.rows", [["D"] * 11] * 5, "gcrt.rows", "expected 6 rows of 11 results"),
        ("gcrt.rows", [["D"] * 11] * 7, "gcrt.rows", "expected 6 rows of 11 results"),
        ("gcrt.rows[1]", ["R3"] + ["D"] * 10, "gcrt.rows[1][0]", f"unknown result 'R3'; expected one of {GCRT_CODES}"),
        ("air.rows[0]", ["D", "D", "D", "D", "X"], "air.rows[0][4]", f"unknown result 'X'; expected one of {AIR_CODES}"),
        ("air.rows[4]", ["D"] * 4, "air.rows", "expected 6 rows of 5 results"),
        (
            "air.columns",
            ["allied-box", "allied", "axis", "british-air", "italian-air"],
            "air.columns",
            "expected the columns allied-box, allied, axis, british-air, german-air",
        ),
        ("terrain.box_bonus", "3", "terrain.box_bonus", "expected an integer, got '3'"),
        ("terrain.hill_ridge_defence", None, "terrain.hill_ridge_defence", "missing (required)"),
        ("terrain.minefield", 1, "terrain.minefield", UNKNOWN),
        ("gcrt.extra", 1, "gcrt.extra", UNKNOWN),
        ("air.extra", 1, "air.extra", UNKNOWN),
        ("extra", 1, "extra", UNKNOWN),
    ],
)
def test_a_malformed_charts_file_is_refused_naming_the_field(path: str, value: Any, field: str, says: str) -> None:
    with pytest.raises(ScenarioError) as err:
        read(change(path, value))
    assert (err.value.source, err.value.field, err.value.problem) == ("charts.toml", field, says)
