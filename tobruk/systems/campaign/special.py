"""The campaign's special units as the combat rules will read them (CA-U.2, CA-U.3).

Combat (CA-T, CA-G) is still to come; when it reads a result for a defending unit or a unit's factors, it asks
here, so the exceptions the special units make are stated once:

* CA-U.2: the Recce Gruppe, the 7th Armoured Support Group and the 3rd Indian Motor Brigade are hard to pin down:
  a DE against them, defending, is read as a D2.  The order of battle marks them (and the listings' starred Folgore
  and Ramcke, docs/rulings.md) with the flag ``starred``.
* CA-U.3: the 8th Army artillery is disrupted at the end of any movement; defending, it is destroyed by a D1, D2,
  DE or Bltz (not only by the results that eliminate other units); it always defends with 2 and attacks with 6
  (the saturation bombardment of CA-G.11 is combat's own).

:func:`defender_reading` turns a result code of the ground combat table into what it does to one defending unit,
:func:`defence_factor` and :func:`attack_factor` give the factors combat adds up, and :func:`after_movement` is
the status a unit ends a move with.  Each says its clause; docs/rulings.md ("North-Africa campaign:
reinforcements, strategic movement, fortifications, special units") gives the readings of the words.
"""

from __future__ import annotations

from dataclasses import replace

from tobruk.mechanics.counters import FamilyUnitDef, UnitType
from tobruk.systems.campaign.position import CampaignUnit

# CA-G.2: the ground combat results table's codes
GCRT_CODES = frozenset({"Bltz", "DE", "D2", "D1", "D", "X", "AD", "AE", "D/AE"})
STARRED = "starred"  # the order of battle's flag for CA-U.2's units
ELIMINATED = "DE"  # the reading of a result that removes the defending unit
ARTILLERY_DESTROYED_BY = frozenset({"D1", "D2", "DE", "Bltz"})  # CA-U.3
ARTILLERY_DEFENCE = 2  # CA-U.3: always
ARTILLERY_ATTACK = 6  # CA-U.3


def hard_to_pin(u: FamilyUnitDef) -> bool:
    """A unit of CA-U.2 (the order of battle's starred units): a DE against it reads D2."""
    return STARRED in u.flags


def army_artillery(u: FamilyUnitDef) -> bool:
    """The 8th Army artillery (CA-U.3, a special unit of CA-G.14)."""
    return u.type is UnitType.ARTILLERY


def defender_reading(u: FamilyUnitDef, code: str) -> str:
    """What the table's ``code`` does to the defending unit ``u``, as a code of the same table.

    CA-U.3: the 8th Army artillery reads D1, D2, DE and Bltz as its destruction (``DE``).  CA-U.2: a starred unit
    reads DE as D2; a Bltz still eliminates it (the clause names DE alone, and Bltz is the stronger result).  The
    conversions for a defender that cannot or will not retreat (CA-G.18: D2 to DE ...) come after this reading, so
    a starred unit that may not retreat is eliminated all the same; the Allies' Bltz is read as DE (CA-G.3) before
    it, so a starred Axis unit reads it as D2 (docs/rulings.md).  Every other code, and every other unit, reads as
    printed."""
    if code not in GCRT_CODES:
        raise ValueError(f"{code!r} is not a result of the ground combat table (CA-G.2: {', '.join(sorted(GCRT_CODES))})")
    if army_artillery(u) and code in ARTILLERY_DESTROYED_BY:
        return ELIMINATED
    if hard_to_pin(u) and code == "DE":
        return "D2"
    return code


def defence_factor(u: FamilyUnitDef) -> int:
    """The unit's defence factor before terrain and fortifications: the 8th Army artillery always 2 (CA-U.3), any
    other unit as printed (CA-G.13)."""
    return ARTILLERY_DEFENCE if army_artillery(u) else u.defence


def attack_factor(u: FamilyUnitDef) -> int:
    """The unit's attack factor: the 8th Army artillery 6 (CA-U.3), any other unit as printed (CA-G.13)."""
    return ARTILLERY_ATTACK if army_artillery(u) else u.attack


def always_two(u: FamilyUnitDef) -> bool:
    """Whether no terrain, fortress or fortification changes the unit's defence: the 8th Army artillery "always
    defends with a factor of 2" (CA-U.3)."""
    return army_artillery(u)


def after_movement(u: CampaignUnit) -> CampaignUnit:
    """The unit as it ends any movement (operational, breakthrough, strategic, a retreat or an advance): the 8th Army
    artillery disrupted (CA-U.3), any other unit unchanged.  Entering as a reinforcement is no movement."""
    if army_artillery(u.unit) and not u.disrupted:
        return replace(u, disrupted=True)
    return u
