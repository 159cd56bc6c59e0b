"""The campaign's actions: the family's end-phase and move, and the allocation of a unit to an attack.

An operational move is a unit then a hex (``move 21Pz K40``, the family's :class:`Move` with the destination; the
rules find the way, :mod:`.moves`).  An attack is allocated unit by unit (``allocate 21Pz K41``: this unit will attack
that hex), as a player puts his counters against a hex at the table: CA-M.3 (no movement bonus for a unit that will
attack) and CA-G.17 (no recovery for units being attacked) read the allocations, and combat resolution (CA-G, the
second part of the campaign's rules) takes them in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tobruk.engine.actions import UnitHexAction, Vocabulary
from tobruk.mechanics.actions import EndPhase, Move


@dataclass(frozen=True, slots=True)
class Allocate(UnitHexAction):
    """A unit is allocated to attack the enemy units in an adjacent hex (CA-Q.1-2 steps 2, 3 and 6)."""

    verb: ClassVar[str] = "allocate"


VOCABULARY = Vocabulary((EndPhase, Move, Allocate))
