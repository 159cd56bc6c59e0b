"""1st Alamein's charts file: read once per system instance, checked field by field (a malformed chart gets one
error naming the field), and equal to the printed charts where a test can compare them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tobruk.datafile import Table
from tobruk.engine.errors import ScenarioError
from tobruk.engine.system import system_for
from tobruk.systems.first_alamein.charts import Charts, read_charts

CHARTS = Path(__file__).resolve().parents[1] / "tobruk" / "systems" / "first_alamein" / "charts.toml"


def data() -> dict[str, Any]:
    return tomllib.loads(CHARTS.read_text(encoding="utf-8"))


def read(d: dict[str, Any]) -> Charts:
    return read_charts(Table(d, "charts.toml"))


@pytest.mark.rule("FA-AIR.1")
def test_the_air_table_is_the_charts() -> None:
    c = system_for("first-alamein").charts  # type: ignore[attr-defined]
    assert c.air.columns == ("british-in-box", "outside-box", "british-air", "german-air")
    printed = {
        6: ("S", "S", "EAX", "EAX"),
        5: ("S", "S", "EAX", "Int"),
        4: ("-", "S", "Int", "Int"),
        3: ("-", "-", "Int", "-"),
        2: ("-", "-", "-", "AA"),
        1: ("AA", "AAg", "AA", "AA"),
    }
    for die, row in printed.items():
        assert tuple(c.air.result(die, col) for col in c.air.columns) == row


@pytest.mark.rule("FA-CRT.2")
def test_each_result_splits_into_the_defenders_and_the_attackers_codes() -> None:
    c = system_for("first-alamein").charts  # type: ignore[attr-defined]
    assert {r: c.split(r) for r in ("DE", "R2", "R1", "S", "-", "AR", "SAR", "SAE", "AE")} == {
        "DE": ("DE", "-"),
        "R2": ("R2", "-"),
        "R1": ("R1", "-"),
        "S": ("S", "-"),
        "-": ("-", "-"),
        "AR": ("-", "AR"),
        "SAR": ("S", "AR"),
        "SAE": ("S", "AE"),
        "AE": ("-", "AE"),
    }
    assert c.no_retreat == {"R1": "S", "R2": "DE"} and c.survivable == {"DE": "R2"}


def test_a_result_the_charts_do_not_define_is_refused() -> None:
    d = data()
    d["gcrt"]["rows"][0][3] = "XX"
    with pytest.raises(ScenarioError) as exc:
        read(d)
    assert exc.value.field == "gcrt.rows[0][3]" and "unknown result 'XX'" in exc.value.problem


def test_an_effect_with_a_bad_blocked_value_is_refused() -> None:
    d = data()
    d["effects"]["R1"]["blocked"] = "vanishes"
    with pytest.raises(ScenarioError) as exc:
        read(d)
    assert exc.value.field == "effects.R1.blocked"


def test_a_misspelt_field_is_refused() -> None:
    d = data()
    d["terrain"]["box_bonuss"] = 2
    with pytest.raises(ScenarioError) as exc:
        read(d)
    assert exc.value.field == "terrain.box_bonuss" and "unknown field" in exc.value.problem


def test_an_air_result_the_rules_do_not_know_is_refused() -> None:
    d = data()
    d["air"]["rows"][5][0] = "D"
    with pytest.raises(ScenarioError) as exc:
        read(d)
    assert exc.value.field == "air.rows[5][0]"
