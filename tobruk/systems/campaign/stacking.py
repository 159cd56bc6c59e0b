"""Stacking in the campaign (CA-K.1-3): how many counters of a side a hex may hold, and what over-stacking costs.

CA-K.1: three units a hex, markers apart; one corps at most; at most two division-level units (a division or a
corps); at most two pure armour units.  Fort and box markers and the 8th Army artillery do not count.  A combined
panzer division (XX+) is one counter: one unit, of division level, and pure armour, for it carries its panzer
regiment (docs/rulings.md, CA-K.1).  The Tobruk dummy counts as a unit: face down it must pass for one.

CA-K.2: retreating units that over-stack a hex their side holds disrupt every unit there (:func:`retreat_disruptions`).
CA-K.3: a combined panzer division broken down because its regiment was disrupted may over-stack until the Axis can
move: while the position names it in ``broken_down``, its base and regiment count as the one counter they were.

The limits are stated once, in :func:`over_limits`, which the movement phase's check and a retreat read through
:func:`stack_refusal` and the scenario loader's start check (``checks.py``) reads directly, so all count alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import FamilyUnitDef, UnitType

if TYPE_CHECKING:  # (the scenario loader's check imports this module, and the position imports the loader)
    from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit

STACK_UNITS = 3  # CA-K.1: units a hex may hold, markers apart
STACK_DIVISIONS = 2  # division level or higher
STACK_CORPS = 1
STACK_ARMOUR = 2  # "pure" panzer or armour units


@dataclass(frozen=True, slots=True)
class StackCounter:
    """One counter as CA-K.1 counts it."""

    id: str
    division_level: bool
    corps: bool
    pure_armour: bool


def free_of_stacking(u: FamilyUnitDef) -> bool:
    """The 8th Army artillery does not count against the limits (markers are not units at all)."""
    return u.type is UnitType.ARTILLERY


def over_limits(counters: Sequence[StackCounter]) -> tuple[int, str] | None:
    """The first CA-K.1 limit one side's ``counters`` (those that count) break in a hex: the index of the first
    counter over it and the reason, or None."""
    tests = (
        ("units", STACK_UNITS, lambda c: True),
        ("corps", STACK_CORPS, lambda c: c.corps),
        ("division-level units", STACK_DIVISIONS, lambda c: c.division_level),
        ("pure armour units", STACK_ARMOUR, lambda c: c.pure_armour),
    )
    for what, most, counts in tests:
        counted = [k for k, c in enumerate(counters) if counts(c)]
        if len(counted) > most:
            names = ", ".join(counters[k].id for k in counted)
            return counted[most], f"{len(counted)} {what} ({names}), over the limit of {most}"
    return None


def stack_refusal(stack: Sequence[CampaignUnit], broken_down: Iterable[str] = ()) -> str | None:
    """Why one side's ``stack`` breaks CA-K.1, or None.  Each id of ``broken_down`` (a panzer division's base) counts
    with the subunits its counter says it carries as one XX+ counter (CA-K.3)."""
    exempt = set(broken_down)
    counted = [u for u in stack if not free_of_stacking(u.unit)]
    regiments = {p.id for u in counted if u.id in exempt for p in u.parts}
    found = over_limits([StackCounter(u.id, u.division_level, u.corps, u.pure_armour) for u in counted if u.id not in regiments])
    return None if found is None else found[1]


def _with_breakdowns(position: CampaignPosition, stack: Sequence[CampaignUnit]) -> tuple[list[CampaignUnit], set[str]]:
    """The stack with each broken-down division of CA-K.3 given back its regiment as ``parts`` (so that
    :func:`stack_refusal` counts the two as one), and the divisions' ids."""
    by_id = {u.id: u for u in stack}
    out: list[CampaignUnit] = []
    exempt: set[str] = set()
    for u in stack:
        parts = position.subunits.get(u.id, ())
        if u.id in position.broken_down and parts and all(p in by_id for p in parts):
            out.append(replace(u, parts=tuple(by_id[p].unit for p in parts)))
            exempt.add(u.id)
        else:
            out.append(u)
    return out, exempt


def hex_refusal(position: CampaignPosition, i: int, side: Side, arriving: Iterable[CampaignUnit] = ()) -> str | None:
    """Why ``side``'s counters in hex ``i`` (with ``arriving`` added) break CA-K.1, or None."""
    here = [u for u in position.at(i) if u.side is side]
    ids = {u.id for u in here}
    stack = here + [u for u in arriving if u.id not in ids]
    merged, exempt = _with_breakdowns(position, stack)
    return stack_refusal(merged, exempt)


def check_stacking(position: CampaignPosition, side: Side) -> None:
    """Raise :class:`IllegalOrderError` (CA-K.1) naming the first hex where ``side``'s counters are over-stacked."""
    for i in sorted(position.occupants):
        why = hex_refusal(position, i, side)
        if why is not None:
            raise IllegalOrderError("CA-K.1", f"{position.hex(i)} would hold {why}")


def retreat_disruptions(position: CampaignPosition, i: int, retreating: Sequence[CampaignUnit]) -> frozenset[str]:
    """The units disrupted when ``retreating`` (one side's) end their retreat in hex ``i`` (CA-K.2): every unit of
    theirs there, the retreating ones included, if they over-stack a hex their side already holds; else none."""
    if not retreating:
        return frozenset()
    side = retreating[0].side
    already = [u for u in position.at(i) if u.side is side and u.id not in {r.id for r in retreating}]
    if not already or hex_refusal(position, i, side, retreating) is None:
        return frozenset()
    return frozenset(u.id for u in (*already, *retreating))
