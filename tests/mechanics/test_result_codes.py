"""The result codes and tables the page explains: every code a system's combat and air tables hold has a meaning, and
a system is sent only the codes of its own charts (a system whose charts are not the family's codes, none)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tobruk.engine.system import find_system, system_for, system_names
from tobruk.mechanics.results import MEANINGS, charts_of, meanings_of, tables_of


@pytest.fixture(autouse=True)
def _read_afresh() -> Iterator[None]:
    """A system's tables and meanings are read once per process (``functools.cache``): each test here reads them
    afresh, so that it checks the reading itself and not what an earlier test of the process left in the cache."""
    tables_of.cache_clear()
    meanings_of.cache_clear()
    yield


def result_codes(name: str) -> dict[str, str]:
    """What the page is sent for the system's codes (the system's hook)."""
    return dict(system_for(name).result_meanings())


@pytest.mark.parametrize("name", system_names())
def test_every_code_of_a_results_table_is_explained(name: str) -> None:
    charts = charts_of(find_system(name)) or {}
    codes = result_codes(name)
    for table in ("gcrt", "air"):
        for row in charts.get(table, {}).get("rows", []):
            for code in row:
                assert code in codes, f"{name}: {table} code {code!r} has no meaning"
    assert all(meaning.strip() for meaning in codes.values())
    if charts.get("gcrt"):  # a system of the family: its codes are the family's
        assert set(codes) <= set(MEANINGS) | {"R1 (compulsory)", "R2 (compulsory)"}


def test_each_system_is_sent_its_own_codes() -> None:
    assert {"D", "DAE", "EAX", "Int", "4thAA/Flak"} <= set(result_codes("gazala-gallop"))
    assert "S" not in result_codes("gazala-gallop")
    assert {"S", "SAE", "SAR"} <= set(result_codes("first-alamein"))
    assert "D" not in result_codes("first-alamein")
    assert not set(result_codes("operation-compass")) & set(MEANINGS)  # its entries are morale modifiers, not the family's codes


@pytest.mark.parametrize(
    ("name", "typed"),
    [("gazala-gallop", "tests.systems.gazala.test_combat"), ("first-alamein", "tests.systems.first_alamein.test_combat")],
)
def test_the_combat_results_table_shown_is_the_charts_as_typed_in(name: str, typed: str) -> None:
    """The page's CRT panel (``System.result_tables``) is the charts' table: a row a die, each column as printed, checked
    against the table typed in from the charts for each system's combat tests."""
    import importlib

    module = importlib.import_module(typed)
    crt = next(t for t in system_for(name).result_tables() if t.key == "gcrt")
    assert (crt.title, crt.corner) == ("Combat results table (one die)", "die")
    assert crt.columns == tuple(module.COLUMNS)
    assert crt.rows == tuple((str(die), tuple(module.GCRT[die])) for die in range(1, 7))


def test_the_air_table_shown_is_the_gazala_charts_as_typed_in() -> None:
    from tests.systems.gazala.test_air import AIR

    air = next(t for t in system_for("gazala-gallop").result_tables() if t.key == "air")
    assert air.title == "Air results table (one die)" and set(air.columns) == set(AIR)
    for k, column in enumerate(air.columns):
        assert [row[k] for _, row in air.rows] == AIR[column]
    assert [label for label, _ in air.rows] == ["1", "2", "3", "4", "5", "6"]


def test_a_box_s_compulsory_retreats_are_explained_as_the_log_writes_them() -> None:
    codes = result_codes("gazala-gallop")
    assert codes["R1 (compulsory)"] == "in a box: the defenders must retreat exactly 1 hex"
    assert codes["R2 (compulsory)"] == "in a box: the defenders must retreat exactly 2 hexes"
    assert {"R1 (compulsory)", "R2 (compulsory)"} <= set(result_codes("first-alamein"))  # (its charts use R1 and R2 too)
    assert not {"R1 (compulsory)", "R2 (compulsory)"} & set(result_codes("operation-compass"))
