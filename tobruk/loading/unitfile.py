"""Counters from data files: the fields of one ``[[unit]]`` table, checked.

A scenario may list its counters itself (``[[unit]]``); a game system may instead keep an order of battle
shared by several scenarios in a file of its own.  Both read a counter here, so a counter means the same
wherever it is written.  The fields every counter has are read here; the rest by the counter reader of its game
system (``System.read_counter``), which makes the system's own counter.  Where it stands is the caller's business.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from tobruk.board.units import UnitDef
from tobruk.engine.sides import SIDES
from tobruk.loading.datafile import Table

UNIT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9.'_]*")

CounterReader = Callable[[Table, Mapping[str, Any]], UnitDef]


def common_fields(ut: Table, *, nationalities: frozenset[str] | None = None) -> dict[str, Any]:
    """The fields every counter has (id, name, side, nationality, steps, flags, formation), checked; ``nationalities``
    (if given) are the only ones allowed."""
    uid = ut.str("id")
    if not UNIT_ID.fullmatch(uid):
        raise ut.error("id", f"a unit id is letters, digits, '.', \"'\" and '_' with no spaces, got {uid!r}")
    nationality = ut.str("nationality")
    if nationalities is not None and nationality not in nationalities:
        raise ut.error("nationality", f"expected one of {', '.join(sorted(nationalities))}, got {nationality!r}")
    steps = ut.int("steps", 0)
    if steps < 0:
        raise ut.error("steps", f"expected a number of steps, 0 or more, got {steps}")
    return {
        "id": uid,
        "name": ut.str("name"),
        "side": ut.choice("side", SIDES),
        "nationality": nationality,
        "steps": steps,
        "flags": frozenset(ut.strings("flags", None)),
        "formation": ut.str("formation", None),
    }


def plain_counter(ut: Table, common: Mapping[str, Any]) -> UnitDef:
    """A counter with nothing of a system's own: its kind, as the ``kind`` field names it."""
    return UnitDef(**common, kind=ut.str("kind"))


def read_unit_def(ut: Table, reader: CounterReader = plain_counter, *, nationalities: frozenset[str] | None = None) -> UnitDef:
    """A counter from its ``[[unit]]`` table: the common fields, then the system's own by ``reader``."""
    unit = reader(ut, common_fields(ut, nationalities=nationalities))
    ut.str("basis", "")  # the strength a factor was derived from: documentation only
    ut.str("source", "")  # where that strength and the unit's dates come from: documentation only
    return unit
