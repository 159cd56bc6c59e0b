"""Counters from data files: the fields of one ``[[unit]]`` table, checked.

A scenario may list its counters itself (``[[unit]]``); a game system may instead keep an order of battle
shared by several scenarios in a file of its own.  Both read a counter here, so a counter means the same
wherever it is written.  Where it stands is the caller's business.
"""

from __future__ import annotations

import re

from tobruk.board.units import AACapability, AntiTank, CombatClass, Echelon, UnitDef, UnitType
from tobruk.engine.sides import SIDES
from tobruk.loading.datafile import Table

FACTORS = re.compile(r"^([0-9]+)-([0-9]+)(?:-([0-9]+))?$")  # attack-defence-movement, or combat-movement
UNIT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9.'_]*")
UNIT_TYPES = {t.value: t for t in UnitType}
ECHELONS = {e.value: e for e in Echelon}
AA = {a.value: a for a in AACapability}
CLASSES = {c.value: c for c in CombatClass}
ANTI_TANK = {a.value: a for a in AntiTank}
SIZES = {s: s for s in ("XXX", "XX", "XX-", "X", "III")}


def read_unit_def(
    ut: Table, *, nationalities: frozenset[str] | None = None, irreplaceable: frozenset[str] = frozenset(), one_combat_factor: bool = False
) -> UnitDef:
    """The counter fields of a ``[[unit]]`` table; ``nationalities`` (if given) are the only ones allowed,
    and a unit of an ``irreplaceable`` nationality is marked so.  With ``one_combat_factor`` (a system whose
    counters print one factor for attack and defence) the factors may also be written combat-movement."""
    uid = ut.str("id")
    if not UNIT_ID.fullmatch(uid):
        raise ut.error("id", f"a unit id is letters, digits, '.', \"'\" and '_' with no spaces, got {uid!r}")
    fm = FACTORS.match(ut.str("factors"))
    if not fm or (fm.group(3) is None and not one_combat_factor):
        forms = "attack-defence-movement, e.g. '4-3-2'" + (", or combat-movement, e.g. '3-4'" if one_combat_factor else "")
        raise ut.error("factors", f"expected {forms}")
    one = fm.group(3) is None  # one combat factor for attack and defence, then the movement
    attack = int(fm.group(1))
    defence = attack if one else int(fm.group(2))
    movement = int(fm.group(2) if one else fm.group(3))
    nationality = ut.str("nationality")
    if nationalities is not None and nationality not in nationalities:
        raise ut.error("nationality", f"expected one of {', '.join(sorted(nationalities))}, got {nationality!r}")
    unit = UnitDef(
        id=uid,
        name=ut.str("name"),
        side=ut.choice("side", SIDES),
        nationality=nationality,
        echelon=ut.choice("echelon", ECHELONS),
        type=ut.choice("type", UNIT_TYPES),
        attack=attack,
        defence=defence,
        movement=movement,
        tank=ut.str("tank", None),
        aa=ut.choice("aa", AA, AACapability.NONE),
        flags=frozenset(ut.strings("flags", None)),
        formation=ut.str("formation", None),
        combat_class=ut.choice("class", CLASSES, None),
        anti_tank=ut.choice("anti_tank", ANTI_TANK, AntiTank.NONE),
        irreplaceable=nationality in irreplaceable,
        size=ut.choice("size", SIZES, None),
        one_combat_factor=one,
    )
    ut.str("basis", "")  # the strength a factor was derived from: documentation only
    ut.str("source", "")  # where that strength and the unit's dates come from: documentation only
    return unit
