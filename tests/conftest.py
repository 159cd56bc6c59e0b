"""Shared helpers: tiny inline scenarios, so a test can describe a board in a few lines."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from tobruk.datafile import Table
from tobruk.scenario import Scenario, read_scenario

BASE = """
format = "tobruk-scenario"
version = 1
title = "Test"
system = "gazala-gallop"
turns = {turns}

[map]
name = "test"
grid = {{ rows = {rows}, columns = {columns} }}
{map_extra}

{units}
"""


def unit_toml(uid: str, side: str, hex_: str | None, *, echelon: str = "division", type_: str = "armour",
              factors: str = "4-3-4", extra: str = "") -> str:
    where = f'hex = "{hex_}"' if hex_ else "off_map = true"
    return (f'[[unit]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\nnationality = "test"\n'
            f'echelon = "{echelon}"\ntype = "{type_}"\nfactors = "{factors}"\n{where}\n{extra}\n')


def make_scenario(units: str = "", *, rows: int = 5, columns: int = 5, map_extra: str = "", turns: int = 14,
                  tail: str = "") -> Scenario:
    text = BASE.format(turns=turns, rows=rows, columns=columns, map_extra=map_extra, units=units) + tail
    data: dict[str, Any] = tomllib.loads(text)
    return read_scenario(Table(data, "inline.toml"), "inline")


@pytest.fixture(scope="session")
def gazala() -> Scenario:
    from tobruk.scenario import load_scenario

    return load_scenario("gazala-gallop")
