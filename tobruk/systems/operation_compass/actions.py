"""The actions Operation Compass adds to the family's (move, target, add, declare, abandon, attack, end-phase): naming
an assault's leader, calling the Inshore Squadron, taking an assault's excess step losses, advancing into a hex
the assault emptied or staying, bombarding a hex, and an Italian unit's step of retreat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tobruk.engine.actions import Action, HexAction, UnitAction, UnitHexAction, Vocabulary
from tobruk.mechanics.actions import Abandon, Add, Attack, Declare, EndPhase, Move, Target


@dataclass(frozen=True, slots=True)
class Lead(UnitAction):
    """The unit that leads the assault being made (OC-CRT.6: its morale check is the Allied one)."""

    verb: ClassVar[str] = "lead"
    says_text: ClassVar[str] = "{unit} leads the assault (its morale check is the Allied one)"


@dataclass(frozen=True, slots=True)
class Naval(Action):
    """Call the Inshore Squadron's support for the assault being made (OC-CRT.3)."""

    verb: ClassVar[str] = "naval"
    says_text: ClassVar[str] = "Call the Inshore Squadron's fire in support of the assault"


@dataclass(frozen=True, slots=True)
class Lose(UnitAction):
    """One of an assault's excess step losses, taken by this unit of the stack (OC-CRT.6)."""

    verb: ClassVar[str] = "lose"
    says_text: ClassVar[str] = "{unit} takes one of the assault's step losses"


@dataclass(frozen=True, slots=True)
class Advance(Action):
    """The assaulting stack moves into the hex its assault emptied."""

    verb: ClassVar[str] = "advance"
    says_text: ClassVar[str] = "Advance into the hex the assault emptied"


@dataclass(frozen=True, slots=True)
class Stay(Action):
    """The assaulting stack stays where it is."""

    verb: ClassVar[str] = "stay"
    says_text: ClassVar[str] = "Stay in place (do not advance)"


@dataclass(frozen=True, slots=True)
class Bombard(HexAction):
    """The support units next to a hex the Italians hold bombard it (OC-BMB.1)."""

    verb: ClassVar[str] = "bombard"
    says_text: ClassVar[str] = "Bombard {hex} (the support units next to it fire on it)"


@dataclass(frozen=True, slots=True)
class Withdraw(UnitHexAction):
    """An Italian unit retreating (OC-RET) steps into the next hex of its way back to its supply source."""

    verb: ClassVar[str] = "withdraw"
    says_text: ClassVar[str] = "{unit} steps back to {hex}"


VOCABULARY = Vocabulary((EndPhase, Move, Target, Add, Declare, Abandon, Attack, Lead, Naval, Lose, Advance, Stay, Bombard, Withdraw))
