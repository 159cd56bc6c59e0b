"""The campaign's actions: the family's end-phase and move, the allocation of a unit to an attack, and the entry of a
reinforcement or replacement.

An operational move is a unit then a hex (``move 21Pz K40``, the family's :class:`Move` with the destination; the
rules find the way, :mod:`.moves`).  An attack is allocated unit by unit (``allocate 21Pz K41``: this unit will attack
that hex), as a player puts his counters against a hex at the table: CA-M.3 (no movement bonus for a unit that will
attack) and CA-G.17 (no recovery for units being attacked) read the allocations, and combat resolution (CA-G, the
second part of the campaign's rules) takes them in order.  A reinforcement or replacement enters on its side's entry
hex (``enter 1ArmBde O53``; an Allied armour brigade names the tank type it enters with, ``enter 1ArmBde O53 Grant``,
CA-R.4, :mod:`.start_of_turn`); in the same step a fort or box is built (``build V30``, CA-F.1) or the owner's
removed (``remove V30``, CA-F.2), and a unit moved by sea to a port (``sea 9AusDiv J39``, CA-S.3, :mod:`.sea`).  In
the operational movement step a unit may bug out instead of moving (``bugout 21Pz N30``; off the map through its
side's edge hex, ``bugout 21Pz AA1 off-map``; CA-S.4, :mod:`.bugout`).  Before the first player-turn a unit is set up
in its zone (the family's ``place 5IndDiv W74``, CA-SC.1-9, :mod:`.setup`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tobruk.engine.actions import FLAG, HEX, INT, UNIT, Dim, HexAction, UnitHexAction, Vocabulary, hex_word, unit_word
from tobruk.engine.errors import InvalidOrderError
from tobruk.mechanics.actions import EndPhase, Move, Place
from tobruk.systems.campaign.track import load_track

# the Allied tank types of the turn track, in its order: an entry's ``tank`` is 1 + the index (0: as printed)
TANKS = tuple(t.name for t in load_track("north-africa").tank_types)


def tank_word(tank: int) -> str:
    """A tank type as the notation writes it (no blanks: ``Crusader-III``)."""
    return TANKS[tank - 1].replace(" ", "-")


@dataclass(frozen=True, slots=True)
class Allocate(UnitHexAction):
    """A unit is allocated to attack the enemy units in an adjacent hex (CA-Q.1-2 steps 2, 3 and 6)."""

    verb: ClassVar[str] = "allocate"
    says_text: ClassVar[str] = "Allocate {unit} to the attack on {hex}"


@dataclass(frozen=True, slots=True)
class Enter(UnitHexAction):
    """A reinforcement or replacement enters on a hex (CA-R.4), an Allied armour unit with tank type ``tank`` (1 + its
    index in :data:`TANKS`; 0 for a unit that enters as printed)."""

    tank: int = 0
    verb: ClassVar[str] = "enter"
    says_text: ClassVar[str] = "Bring {unit} on at {hex}"
    form: ClassVar[str] = "enter UNIT HEX [TANK-TYPE]"
    shape: ClassVar[tuple[Dim, ...]] = (UNIT, HEX, INT(0, len(TANKS)))

    def key(self) -> tuple[Any, ...]:
        return self.unit, self.hex, self.tank

    def notation(self) -> str:
        return f"enter {self.unit} {self.hex.label}" + (f" {tank_word(self.tank)}" if self.tank else "")

    def says(self) -> str:
        return f"Bring {self.unit} on at {self.hex.label}" + (f" with {tank_word(self.tank)} tanks" if self.tank else "")

    @classmethod
    def parse(cls, args: list[str], text: str) -> Enter:
        if len(args) not in (2, 3):
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        tank = 0
        if len(args) == 3:
            names = [tank_word(i) for i in range(1, len(TANKS) + 1)]
            words = [w.lower() for w in names]
            if args[2].lower() not in words:
                raise InvalidOrderError(f"{text!r}: {args[2]!r} is not a tank type (the types: {', '.join(names)})")
            tank = words.index(args[2].lower()) + 1
        return cls(unit_word(args[0], text), hex_word(args[1], text), tank)


@dataclass(frozen=True, slots=True)
class Build(HexAction):
    """The side builds its fort (Axis) or box (Allied) on a hex (CA-F.1)."""

    verb: ClassVar[str] = "build"
    says_text: ClassVar[str] = "Build your side's fort or box on {hex}"


@dataclass(frozen=True, slots=True)
class Remove(HexAction):
    """The owner removes his own fort or box from a hex (CA-F.2)."""

    verb: ClassVar[str] = "remove"
    says_text: ClassVar[str] = "Remove your side's fort or box from {hex}"


@dataclass(frozen=True, slots=True)
class Sea(UnitHexAction):
    """The player-turn's one unit moved by sea from its coastal hex to a port its side controls (CA-S.3)."""

    verb: ClassVar[str] = "sea"
    says_text: ClassVar[str] = "Move {unit} by sea to {hex}"


@dataclass(frozen=True, slots=True)
class Bugout(UnitHexAction):
    """A unit's bugout, in place of its operational move: back to ``hex`` (CA-S.4); with ``off`` set, ``hex`` is its
    side's edge hex and the unit leaves the map through it."""

    off: bool = False
    verb: ClassVar[str] = "bugout"
    says_text: ClassVar[str] = "{unit} bugs out back to {hex}"
    form: ClassVar[str] = "bugout UNIT HEX [off-map]"
    shape: ClassVar[tuple[Dim, ...]] = (UNIT, HEX, FLAG)

    def key(self) -> tuple[Any, ...]:
        return self.unit, self.hex, self.off

    def notation(self) -> str:
        return f"bugout {self.unit} {self.hex.label}" + (" off-map" if self.off else "")

    def says(self) -> str:
        return f"{self.unit} bugs out " + (f"off the map at {self.hex.label}" if self.off else f"back to {self.hex.label}")

    def group(self) -> str:
        """Leaving the map is a bugout of its own kind, listed under a heading of its own."""
        return "bugout off-map" if self.off else "bugout"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Bugout:
        if len(args) == 2 or (len(args) == 3 and args[2].lower() == "off-map"):
            return cls(unit_word(args[0], text), hex_word(args[1], text), len(args) == 3)
        raise InvalidOrderError(f"{text!r}: the form is {cls.form}")


VOCABULARY = Vocabulary((EndPhase, Move, Allocate, Enter, Build, Remove, Sea, Bugout, Place))
