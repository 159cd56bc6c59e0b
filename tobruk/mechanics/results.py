"""What the family's result codes mean, for people: the page's log and odds table explain each code with it.

The systems of the family keep their charts as data (``charts.toml`` in the system's package: the combat results
table, the air table ...), numbers and codes only; what each code does is their rules and docs/rulings.md.  The
family shares its codes (DE, R1, AR, EAX, Int ...), so their meanings are written once here, in the project's own
words, and a system of the family gives the meanings of the codes its own charts use (:meth:`FamilySystem.result_meanings`).
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

from tobruk.engine.system import ResultTable

# the family's result codes: the combat results table, then the air tables
MEANINGS: dict[str, str] = {
    "DE": "defender eliminated: every defending unit is removed",
    "R2": "defender retreats: the attacker names a distance of up to 2 hexes",
    "R1": "defender retreats: the attacker names a distance of up to 1 hex",
    "D": "defender disrupted",
    "S": "defender spent",
    "-": "no effect",
    "AR": "attacker retreats 1 hex",
    "AE": "attacker eliminated: every attacking unit is removed",
    "DAR": "defender disrupted and attacker retreats 1 hex",
    "DAE": "defender disrupted and attacker eliminated",
    "SAR": "defender spent and attacker retreats 1 hex",
    "SAE": "defender spent and attacker eliminated",
    "EAX": "the air unit is shot down: out of the game",
    "Int": "intercepted: the mission is turned back",
    "AA": "anti-aircraft fire: the attacking air unit is knocked out for the turn",
    "AAg": "ground anti-aircraft fire: the attacking air unit is knocked out for the turn",
    "Flak": "the Flak's anti-aircraft fire: the attacking air unit is knocked out for the turn",
    "4thAA": "the anti-aircraft brigade's fire: the attacking air unit is knocked out for the turn",
    "4thAA/Flak": "anti-aircraft fire (the anti-aircraft brigade's or the Flak's): the attacking air unit is knocked out for the turn",
}
# results as the log writes them once a rule has converted them (a box's compulsory retreat)
WRITTEN: dict[str, tuple[str, str]] = {
    "R1 (compulsory)": ("R1", "in a box: the defenders must retreat exactly 1 hex"),
    "R2 (compulsory)": ("R2", "in a box: the defenders must retreat exactly 2 hexes"),
}


def _strings(value: Any) -> Iterator[str]:
    """Every string in a TOML document: its keys and its values, at every depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def charts_of(system: type) -> dict[str, Any] | None:
    """A system's charts (``charts.toml`` in the package its class is defined in), ``None`` if it has none."""
    return _charts_in(system.__module__)


def _charts_in(module_name: str) -> dict[str, Any] | None:
    module = sys.modules.get(module_name)
    package = module.__package__ if module is not None else None
    if not package:
        return None
    try:
        text = resources.files(package).joinpath("charts.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return None
    return tomllib.loads(text)


# the family's tables the page shows, each with its title (their rows are read by one die)
TABLES = (("gcrt", "Combat results table"), ("air", "Air results table"))


def tables_for(charts: dict[str, Any] | None) -> tuple[ResultTable, ...]:
    """The family's results tables in these charts, as printed: a row a die roll (none without charts)."""
    out = []
    for key, title in TABLES:
        table = (charts or {}).get(key)
        if table:
            rows = tuple((str(die), tuple(str(c) for c in row)) for die, row in enumerate(table["rows"], start=1))
            out.append(ResultTable(key, f"{title} (one die)", "die", tuple(table["columns"]), rows))
    return tuple(out)


@cache
def tables_of(module_name: str) -> tuple[ResultTable, ...]:
    """:func:`tables_for` the charts of the system defined in that module, read once."""
    return tables_for(_charts_in(module_name))


def meanings_for(charts: dict[str, Any] | None) -> dict[str, str]:
    """The meanings of the family's codes these charts use, by code as the log writes it (none without charts)."""
    if charts is None:
        return {}
    used = set(_strings(charts))
    out = {code: meaning for code, meaning in MEANINGS.items() if code in used}
    out.update({written: meaning for written, (code, meaning) in WRITTEN.items() if code in used})
    return out


@cache
def meanings_of(module_name: str) -> dict[str, str]:
    """:func:`meanings_for` the charts of the system defined in that module, read once."""
    return meanings_for(_charts_in(module_name))
