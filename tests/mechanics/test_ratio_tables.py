"""The combat tables' reader (mechanics/odds.py) on small hand-made tables: a table that reads, and each refusal word
for word, naming the file and the field (a system's charts file is data a user may edit)."""

from __future__ import annotations

from typing import Any

import pytest

from tobruk.engine.errors import ScenarioError
from tobruk.loading.datafile import Table
from tobruk.mechanics.odds import read_column_table, read_ratio_table

SOURCE = "charts.toml"


def ratio_table(columns: list[Any], rows: list[Any], codes: frozenset[str] | None = None, faces: int = 2) -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        read_ratio_table(Table({"columns": columns, "rows": rows}, SOURCE, "gcrt"), faces, codes)
    assert err.value.source == SOURCE
    return err.value


def test_a_two_column_table_reads_and_finds_its_columns() -> None:
    table = read_ratio_table(Table({"columns": ["1:2", "3:2"], "rows": [["AE", "D"], ["-", "DE"]]}, SOURCE), 2)
    assert table.ratios == ((1, 2), (3, 2)) and table.result(2, 1) == "DE" and table.result(1, 0) == "AE"
    # 3:4 is above 1:2 and below 3:2; 3:2 exactly is its column; below 1:2 no column; no defence the last
    assert [table.column_for(3, 4), table.column_for(3, 2), table.column_for(1, 3), table.column_for(1, 0)] == [0, 1, None, 1]


def test_a_column_that_is_no_ratio_is_refused() -> None:
    err = ratio_table(["1:2", "3-2"], [["D", "D"], ["D", "D"]])
    assert (err.field, err.problem) == ("gcrt.columns[1]", "expected an odds ratio like 3:2, got '3-2'")


@pytest.mark.parametrize("second", ["1:2", "2:4", "1:3"])
def test_odds_that_do_not_rise_are_refused(second: str) -> None:
    # 2:4 is the same odds as 1:2 written otherwise: equal odds do not rise either
    err = ratio_table(["1:2", second], [["D", "D"], ["D", "D"]])
    assert (err.field, err.problem) == ("gcrt.columns[1]", f"odds must rise from column to column: {second} after 1:2")


@pytest.mark.parametrize(
    "rows",
    [[["D", "D"]], [["D", "D"], ["D", "D"], ["D", "D"]], [["D", "D"], ["D"]], [["D", "D"], "DD"]],
    ids=["a row short", "a row over", "a result short", "a row not a list"],
)
def test_a_table_needs_a_row_per_die_face_of_a_result_per_column(rows: list[Any]) -> None:
    err = ratio_table(["1:2", "3:2"], rows)
    assert (err.field, err.problem) == ("gcrt.rows", "expected 2 rows of 2 results")


def test_an_unknown_result_is_refused_naming_the_codes_the_rules_define() -> None:
    err = ratio_table(["1:2", "3:2"], [["D", "D"], ["D", "R3"]], codes=frozenset({"D", "DE"}))
    assert (err.field, err.problem) == ("gcrt.rows[1][1]", "unknown result 'R3'; expected one of D, DE")


def test_without_codes_any_word_is_a_result_but_not_a_number() -> None:
    err = ratio_table(["1:2", "3:2"], [["D", 5], ["D", "D"]])
    assert (err.field, err.problem) == ("gcrt.rows[0][1]", "unknown result 5")
    columns = read_column_table(Table({"columns": ["x"], "rows": [["anything"], ["-"]]}, SOURCE), 2)
    assert columns.result(1, "x") == "anything"
