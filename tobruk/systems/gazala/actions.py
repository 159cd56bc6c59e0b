"""The Gazala Gallop's own actions, beside the family's (``tobruk.mechanics.actions``):

activate 1SA                (an Allied unit is activated, GG-V.A)
gallop                      (the Allied player sets off the Gazala Gallop, GG-XIII.E)
convoy 21Pz                 (a truck convoy extends one unit's supply line, GG-XV.A.4)
airlift F7                  (the Luftwaffe supplies the Axis units in a hex, GG-X.B.2)
weather 2 5                 (the British player's sandstorm and rainstorm numbers, GG-VIII.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tobruk.engine.actions import INT, Action, Dim, HexAction, UnitAction, Vocabulary, number_word
from tobruk.engine.errors import InvalidOrderError
from tobruk.mechanics.actions import FAMILY


@dataclass(frozen=True, slots=True)
class Activate(UnitAction):
    verb: ClassVar[str] = "activate"
    says_text: ClassVar[str] = "Activate {unit} (it may move and attack this turn)"


@dataclass(frozen=True, slots=True)
class Convoy(UnitAction):
    """Send a truck convoy to extend the supply line of one unit (GG-XV.A.4)."""

    verb: ClassVar[str] = "convoy"
    says_text: ClassVar[str] = "Send a truck convoy to {unit} (it extends the unit's supply line)"


@dataclass(frozen=True, slots=True)
class Gallop(Action):
    """The Allied player sets off the Gazala Gallop (GG-XIII.E)."""

    verb: ClassVar[str] = "gallop"
    says_text: ClassVar[str] = "Set off the Gazala Gallop"


@dataclass(frozen=True, slots=True)
class Airlift(HexAction):
    """The Luftwaffe tries to supply the Axis units in a hex from the air (GG-X.B.2)."""

    verb: ClassVar[str] = "airlift"
    says_text: ClassVar[str] = "Airlift supplies to {hex} (the Luftwaffe supplies the Axis units there)"


@dataclass(frozen=True, slots=True)
class Weather(Action):
    """The British player's numbers for the weather roll (GG-VIII.0)."""

    sandstorm: int
    rainstorm: int
    verb: ClassVar[str] = "weather"
    says_text: ClassVar[str] = "Sandstorm on a {sandstorm}, rainstorm on a {rainstorm}"
    form: ClassVar[str] = "weather N N"
    shape: ClassVar[tuple[Dim, ...]] = (INT(1, 6), INT(1, 6))

    def key(self) -> tuple[Any, ...]:
        return self.sandstorm, self.rainstorm

    def notation(self) -> str:
        return f"weather {self.sandstorm} {self.rainstorm}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 2:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(*(number_word(a, text, 1, 6) for a in args))


VOCABULARY = Vocabulary((*FAMILY, Activate, Gallop, Convoy, Airlift, Weather))
