"""The meanings of the result codes the page explains: every code a system's combat and air tables hold has one, and
a system is sent only the codes of its own charts (a system whose charts are not the family's codes, none)."""

from __future__ import annotations

import pytest

from tobruk.engine.system import find_system, system_for, system_names
from tobruk.mechanics.results import MEANINGS, charts_of


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
