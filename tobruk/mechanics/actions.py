"""The family's actions: what a player of any of these games can order, in a notation that round-trips.

    end-phase
    place 15Pz G3
    move 21Pz H4-H5-I6          (the whole path; "move 21Pz I6" names only the destination)
    move Brescia F4-G5 by-trucks  (infantry carried by truck convoys)
    eliminate 15Pz              (the owner removes a unit, e.g. over the stacking limit)
    airstrike G8                (the air unit attacks the enemy units in a hex)
    intercept / no-intercept    (answer an enemy air mission)
    target G8                   (start an attack declaration on a hex; again to add a defending hex)
    add 15Pz / add 21Pz:3       (an attacker for the declaration being made; 21Pz at 3 of its factors)
    declare / abandon           (declare the attack so made, or drop it)
    attack G8 with 15Pz,21Pz:3  (all of it at once: target G8, add 15Pz, add 21Pz:3, declare)
    resolve 1 / cancel 1        (roll for, or withdraw, declared attack number 1)
    hold 1SA                    (the defender gives a unit No Retreat! orders)
    no-retreat                  (the defender's answer: the units given orders so far, or none)
    no-retreat 1SA,2SA / none   (all of it at once: hold 1SA, hold 2SA, no-retreat)
    retreat-distance 2          (the winner sets how far the losers retreat)
    retreat 150Bde F8-F9-G10    (the loser's route for one unit, its hex first)
    end-retreat                 (no more voluntary retreats)

A system adds its own (see its ``actions`` module) and lists its vocabulary.  Whether an action is
allowed is the rules' question, answered by ``Game.play``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tobruk.board.hexes import Hex
from tobruk.engine.actions import (
    FLAG,
    HEX,
    INT,
    UNIT,
    Action,
    Dim,
    Gesture,
    HexAction,
    UnitAction,
    UnitHexAction,
    hex_word,
    number_word,
    path_text,
    path_word,
    unit_word,
)
from tobruk.engine.errors import InvalidOrderError

MAX_ATTACKS = 128  # declared attacks a phase can number (each needs a unit of its own)


@dataclass(frozen=True, slots=True)
class EndPhase(Action):
    verb: ClassVar[str] = "end-phase"
    says_text: ClassVar[str] = "End this phase"
    ends_step: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Place(UnitHexAction):
    """A unit set up (or entering) in a hex."""

    verb: ClassVar[str] = "place"
    says_text: ClassVar[str] = "Place {unit} in {hex}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A move along ``path``; a one-hex path names only the destination (resolved by the rules).

    ``trucks``: carried by truck convoys (infantry moving at the motorized rate).  Moves to the same
    destination by different paths share one id: the listing offers one path per destination.
    """

    unit: str
    path: tuple[Hex, ...]
    trucks: bool = False
    verb: ClassVar[str] = "move"
    says_text: ClassVar[str] = "Move {unit} to its hex"
    form: ClassVar[str] = "move UNIT HEX-HEX-... [by-trucks]"
    shape: ClassVar[tuple[Dim, ...]] = (UNIT, HEX, FLAG)

    def key(self) -> tuple[Any, ...]:
        return self.unit, self.path[-1], self.trucks

    def notation(self) -> str:
        return f"move {self.unit} {path_text(self.path)}{' by-trucks' if self.trucks else ''}"

    def group(self) -> str:
        """A move by trucks is another form of move, listed (and offered on the map) under a heading of its own."""
        return "move by-trucks" if self.trucks else "move"

    def route(self) -> tuple[Hex, ...]:
        return self.path

    def says(self) -> str:
        return f"Move {self.unit} to {self.path[-1].label}" + (" by trucks" if self.trucks else "")

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) == 2 or (len(args) == 3 and args[2].lower() == "by-trucks"):
            return cls(unit_word(args[0], text), path_word(args[1], text), len(args) == 3)
        raise InvalidOrderError(f"{text!r}: the form is {cls.form}")


@dataclass(frozen=True, slots=True)
class Eliminate(UnitAction):
    """The owner removes one of his units (e.g. over the stacking limit at the end of a phase)."""

    verb: ClassVar[str] = "eliminate"
    says_text: ClassVar[str] = "Eliminate {unit} (remove it from the game)"


@dataclass(frozen=True, slots=True)
class Airstrike(HexAction):
    """The phasing player's air unit attacks the enemy units in a hex."""

    verb: ClassVar[str] = "airstrike"
    says_text: ClassVar[str] = "Air strike on {hex} (your air unit attacks the enemy units there)"


@dataclass(frozen=True, slots=True)
class Intercept(Action):
    """Send the air unit up against the enemy air mission in progress."""

    verb: ClassVar[str] = "intercept"
    says_text: ClassVar[str] = "Intercept (send your air unit up against the enemy air mission)"


@dataclass(frozen=True, slots=True)
class NoIntercept(Action):
    """Let the enemy air mission go unopposed."""

    verb: ClassVar[str] = "no-intercept"
    says_text: ClassVar[str] = "Do not intercept (let the enemy air mission go unopposed)"


@dataclass(frozen=True, slots=True)
class Target(HexAction):
    """Start an attack declaration on a hex, or add a defending hex to the one being made."""

    verb: ClassVar[str] = "target"
    says_text: ClassVar[str] = "Aim the attack at {hex}"


@dataclass(frozen=True, slots=True)
class Add(Action):
    """An attacker for the declaration being made; ``factors`` when it attacks with fewer than all of its own
    (a refinement of the unit's choice: the same id)."""

    unit: str
    factors: int | None = None
    verb: ClassVar[str] = "add"
    says_text: ClassVar[str] = "Add {unit} to the attack"
    form: ClassVar[str] = "add UNIT[:N]"
    shape: ClassVar[tuple[Dim, ...]] = (UNIT,)

    def key(self) -> tuple[Any, ...]:
        return (self.unit,)

    def notation(self) -> str:
        return f"add {self.unit}" + ("" if self.factors is None else f":{self.factors}")

    def says(self) -> str:
        return f"Add {self.unit} to the attack" + ("" if self.factors is None else f" with {self.factors} of its factors")

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        name, _, used = args[0].partition(":")
        return cls(unit_word(name, text), _factors(used, args[0], text) if used else None)


def _factors(used: str, item: str, text: str) -> int:
    if not (used.isascii() and used.isdigit()) or int(used) < 1:
        raise InvalidOrderError(f"{text!r}: {item!r} should be UNIT or UNIT:FACTORS (a whole number from 1)")
    return int(used)


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Declare the attack being made."""

    verb: ClassVar[str] = "declare"
    says_text: ClassVar[str] = "Declare the attack being made"


@dataclass(frozen=True, slots=True)
class Abandon(Action):
    """Drop the attack being made (nothing is declared)."""

    verb: ClassVar[str] = "abandon"
    says_text: ClassVar[str] = "Drop the attack being made (nothing is declared)"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """A whole declaration: the defending hexes and the attackers (``partial``: those using fewer than all of
    their factors).  Played as its small steps (:meth:`expand`); it is also the declaration's value once made.
    A person makes it by gathering the attackers and clicking the target (the group-target gesture): the target
    is the ``target`` that opens it, each attacker an ``add``, then ``declare``."""

    defenders: tuple[Hex, ...]
    attackers: tuple[str, ...]
    partial: tuple[tuple[str, int], ...] = ()
    verb: ClassVar[str] = "attack"
    says_text: ClassVar[str] = "Attack {defenders} with {attackers}"
    form: ClassVar[str] = "attack HEX[,HEX] with UNIT[:N][,UNIT]"
    composite: ClassVar[bool] = True
    gesture: ClassVar[Gesture] = Gesture.GROUP_TARGET
    parts: ClassVar[tuple[type[Action], ...]] = (Target, Add, Declare)
    gathers: ClassVar[tuple[str, str]] = ("attackers", "defenders")
    dropped_by: ClassVar[tuple[type[Action], ...]] = (Abandon,)

    def expand(self) -> tuple[Action, ...]:
        used = dict(self.partial)
        return (*(Target(h) for h in self.defenders), *(Add(u, used.get(u)) for u in self.attackers), Declare())

    def notation(self) -> str:
        used = dict(self.partial)
        names = [f"{a}:{used[a]}" if a in used else a for a in self.attackers]
        return f"attack {','.join(h.label for h in self.defenders)} with {','.join(names)}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 3 or args[1].lower() != "with":
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        defenders = tuple(hex_word(p, text) for p in args[0].split(","))
        attackers: list[str] = []
        partial: list[tuple[str, int]] = []
        for item in args[2].split(","):
            name, _, used = item.partition(":")
            attackers.append(unit_word(name, text))
            if used:
                partial.append((name, _factors(used, item, text)))
        return cls(defenders, tuple(attackers), tuple(partial))


@dataclass(frozen=True, slots=True)
class Resolve(Action):
    """Roll the die for declared attack number ``attack``."""

    attack: int
    verb: ClassVar[str] = "resolve"
    says_text: ClassVar[str] = "Roll the die for attack {attack}"
    form: ClassVar[str] = "resolve N"
    shape: ClassVar[tuple[Dim, ...]] = (INT(1, MAX_ATTACKS),)

    def key(self) -> tuple[Any, ...]:
        return (self.attack,)

    def notation(self) -> str:
        return f"{self.verb} {self.attack}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(number_word(args[0], text, 1, MAX_ATTACKS))


@dataclass(frozen=True, slots=True)
class Cancel(Action):
    """Withdraw declared attack number ``attack`` before it is resolved."""

    attack: int
    verb: ClassVar[str] = "cancel"
    says_text: ClassVar[str] = "Cancel attack {attack} (withdraw it before it is rolled)"
    form: ClassVar[str] = "cancel N"
    shape: ClassVar[tuple[Dim, ...]] = (INT(1, MAX_ATTACKS),)

    def key(self) -> tuple[Any, ...]:
        return (self.attack,)

    def notation(self) -> str:
        return f"{self.verb} {self.attack}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(number_word(args[0], text, 1, MAX_ATTACKS))


@dataclass(frozen=True, slots=True)
class Hold(UnitAction):
    """The defender gives one defending unit No Retreat! orders."""

    verb: ClassVar[str] = "hold"
    says_text: ClassVar[str] = "Give {unit} No Retreat! orders (it stands instead of retreating)"


@dataclass(frozen=True, slots=True)
class NoRetreat(Action):
    """The defender's answer.  ``NoRetreat()`` answers with the units held so far (none, if none); with units it is
    the whole answer at once (:meth:`expand`: a hold for each, then the answer)."""

    units: tuple[str, ...] = ()
    verb: ClassVar[str] = "no-retreat"
    says_text: ClassVar[str] = "Give no (more) No Retreat! orders"
    form: ClassVar[str] = "no-retreat [UNIT,...|none]"

    def expand(self) -> tuple[Action, ...]:
        return (*(Hold(u) for u in self.units), NoRetreat()) if self.units else (self,)

    def notation(self) -> str:
        return f"no-retreat {','.join(self.units)}" if self.units else "no-retreat"

    def says(self) -> str:
        """Alone, the answer closes the orders given so far (each :class:`Hold` a unit clicked on the map): none more."""
        return f"Give No Retreat! orders to {', '.join(self.units)}" if self.units else "Give no (more) No Retreat! orders"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) > 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        if not args or args[0].lower() == "none":
            return cls()
        return cls(tuple(unit_word(u, text) for u in args[0].split(",")))


@dataclass(frozen=True, slots=True)
class RetreatDistance(Action):
    """The winner of a battle sets how far the losing units must retreat."""

    hexes: int
    verb: ClassVar[str] = "retreat-distance"
    says_text: ClassVar[str] = "The losers retreat {hexes} hexes"
    form: ClassVar[str] = "retreat-distance N"
    shape: ClassVar[tuple[Dim, ...]] = (INT(0, 9),)

    def key(self) -> tuple[Any, ...]:
        return (self.hexes,)

    def notation(self) -> str:
        return f"{self.verb} {self.hexes}"

    def says(self) -> str:
        if self.hexes == 0:
            return "The losers retreat 0 hexes (they stay where they are)"
        return f"The losers retreat {self.hexes} hex{'' if self.hexes == 1 else 'es'}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(number_word(args[0], text, 0, 9))


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """The loser retreats one unit along ``path`` (its hex first)."""

    unit: str
    path: tuple[Hex, ...]
    verb: ClassVar[str] = "retreat"
    says_text: ClassVar[str] = "Retreat {unit} along {path}"
    form: ClassVar[str] = "retreat UNIT HEX-HEX"
    stepwise: ClassVar[bool] = True  # its route is chosen on the map hex by hex, drawn as it grows
    shape: ClassVar[tuple[Dim, ...]] = (UNIT, HEX)

    def key(self) -> tuple[Any, ...]:
        return self.unit, self.path[-1]

    def notation(self) -> str:
        return f"retreat {self.unit} {path_text(self.path)}"

    def route(self) -> tuple[Hex, ...]:
        return self.path

    def says(self) -> str:
        return f"Retreat {self.unit} to {self.path[-1].label} (by {path_text(self.path)})"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 2:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(unit_word(args[0], text), path_word(args[1], text))


@dataclass(frozen=True, slots=True)
class EndRetreat(Action):
    """The loser has no more (voluntary) retreats to make."""

    verb: ClassVar[str] = "end-retreat"
    says_text: ClassVar[str] = "End the retreats (no more voluntary retreats)"


FAMILY = (
    EndPhase,
    Place,
    Move,
    Eliminate,
    Airstrike,
    Intercept,
    NoIntercept,
    Target,
    Add,
    Declare,
    Abandon,
    Attack,
    Resolve,
    Cancel,
    Hold,
    NoRetreat,
    RetreatDistance,
    Retreat,
    EndRetreat,
)
