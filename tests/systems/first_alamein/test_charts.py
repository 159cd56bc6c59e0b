"""1st Alamein's charts file: read once per system instance, checked field by field (a malformed chart gets one
error naming the field), and equal to the printed charts where a test can compare them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tobruk.engine.errors import ScenarioError
from tobruk.engine.system import system_for
from tobruk.loading.datafile import Table
from tobruk.systems.first_alamein import FirstAlamein
from tobruk.systems.first_alamein.charts import Charts, Effect, read_charts

CHARTS = Path(__file__).resolve().parents[3] / "tobruk" / "systems" / "first_alamein" / "charts.toml"


def data() -> dict[str, Any]:
    return tomllib.loads(CHARTS.read_text(encoding="utf-8"))


def packaged_charts() -> Charts:
    """The charts the system plays with (read once, with the system)."""
    system = system_for("first-alamein")
    assert isinstance(system, FirstAlamein)
    return system.charts


def read(d: dict[str, Any]) -> Charts:
    return read_charts(Table(d, "charts.toml"))


@pytest.mark.rule("FA-AIR.1")
def test_the_air_table_is_the_charts() -> None:
    c = packaged_charts()
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
    c = packaged_charts()
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


@pytest.mark.rule("FA-CRT.2")
def test_a_new_system_instance_reads_what_each_code_does_from_the_charts_file() -> None:
    c = FirstAlamein().charts  # a fresh instance reads charts.toml anew
    # the charts' definitions: R2 retreated 0-2 by the attacker and spent, eliminated if unable (FA-CRT.3); R1
    # 0-1 and spent, 1 more of the defender's accord, S if unable (FA-CRT.4, 7); S spent, 1 or 2 of his accord
    # (FA-CRT.5); AR 0-1 by the defender, 1 more of the attacker's accord, eliminated if unable (FA-CRT.6, with
    # GG-IX.B by ruling)
    assert c.effects == {
        "DE": Effect(eliminated=True),
        "R2": Effect(spent=True, distance=2, blocked="eliminated"),
        "R1": Effect(spent=True, distance=1, voluntary=1, blocked="stays"),
        "S": Effect(spent=True, voluntary=2),
        "-": Effect(),
        "AR": Effect(distance=1, voluntary=1, blocked="eliminated"),
        "AE": Effect(eliminated=True),
    }
    assert not c.effect("DE").spent and not c.effect("AE").spent and not c.effect("-").moves
    assert c.split("SAR") == ("S", "AR") and c.split("AR") == ("-", "AR")
    assert (c.stack_units, c.stack_divisions) == (3, 2)  # FA-STK.1


def refused(d: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(ScenarioError) as exc:
        read(d)
    return exc.value.field, exc.value.problem


def test_a_file_that_is_not_a_charts_file_is_refused() -> None:
    d = data()
    d["format"] = "tobruk-scenario"
    assert refused(d) == ("format", "expected 'tobruk-charts'")
    d = data()
    d["version"] = 2
    assert refused(d) == ("version", "this program reads charts version 1")


@pytest.mark.rule("FA-CRT.2")
def test_a_result_must_split_into_two_known_codes() -> None:
    why = "expected [the defenders' code, the attackers' code], both codes of [effects]"
    d = data()
    d["results"]["SAR"] = ["S", "XR"]
    assert refused(d) == ("results.SAR", why)
    d = data()
    d["results"]["SAR"] = ["S", "AR", "-"]
    assert refused(d) == ("results.SAR", why)


@pytest.mark.rule("FA-CRT.7")
def test_a_conversion_to_an_unknown_code_is_refused() -> None:
    d = data()
    d["conversions"]["no_retreat"]["R1"] = "SS"
    assert refused(d) == ("conversions.no_retreat.R1", "R1 -> SS: both must be codes of [effects]")
    d = data()
    d["conversions"]["survivable"] = {"DX": "R2"}
    assert refused(d) == ("conversions.survivable.DX", "DX -> R2: both must be codes of [effects]")


def test_an_effect_with_negative_hexes_is_refused_naming_its_field() -> None:
    d = data()
    d["effects"]["S"]["voluntary"] = -1
    assert refused(d) == ("effects.S.voluntary", "expected hexes from 0, got -1")
    d = data()
    d["effects"]["R2"]["distance"] = -2
    assert refused(d) == ("effects.R2.distance", "expected hexes from 0, got -2")


def test_an_unknown_blocked_value_is_refused_with_the_choices() -> None:
    d = data()
    d["effects"]["R1"]["blocked"] = "vanishes"
    assert refused(d) == ("effects.R1.blocked", "expected one of eliminated, stays, got 'vanishes'")
