"""Orders: small frozen values with a text notation that round-trips.

``format_order(parse_order(text)) == text`` for every canonical text, e.g.::

    end-phase
    place 15Pz G3
    activate 1SA
    move 21Pz H4-H5-I6          (the whole path; "move 21Pz I6" names only the destination)
    move Brescia F4-G5 by-trucks  (infantry carried by truck convoys)
    eliminate 15Pz              (the owner removes a unit, e.g. over the stacking limit)
    gallop                      (the Allied player sets off the Gazala Gallop)
    convoy 21Pz                 (a truck convoy extends one unit's supply line)
    airstrike G8 / airlift F7   (an air mission: attack a hex, or supply Axis units in it)
    intercept / no-intercept    (answer an enemy air mission)
    attack G8 with 15Pz,21Pz:3  (declare; several defending hexes: "attack G8,G9 with ..."; 21Pz at 3 factors)
    resolve 1 / cancel 1        (roll for, or withdraw, declared attack number 1)
    no-retreat 1SA / no-retreat none   (the defender's No Retreat! answer)
    retreat-distance 2          (the winner sets how far the losers retreat)
    retreat 150Bde F8-F9-G10    (the loser's route for one unit, its hex first)
    end-retreat                 (no more voluntary retreats)
    weather 2 5                 (the British player's sandstorm and rainstorm numbers)

A text that does not follow the notation raises :class:`InvalidOrderError`; whether an
order is allowed is the rules' question, answered by ``Game.play``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tobruk.errors import InvalidOrderError
from tobruk.hexes import Hex

UNIT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.'_]*$")


@dataclass(frozen=True, slots=True)
class Order:
    """Base of every order."""


@dataclass(frozen=True, slots=True)
class EndPhase(Order):
    pass


@dataclass(frozen=True, slots=True)
class Place(Order):
    unit: str
    hex: Hex


@dataclass(frozen=True, slots=True)
class Activate(Order):
    unit: str


@dataclass(frozen=True, slots=True)
class Move(Order):
    """A move along ``path``; a one-hex path names only the destination (resolved by the rules).

    ``trucks``: carried by truck convoys (infantry moving at the motorized rate).
    """

    unit: str
    path: tuple[Hex, ...]
    trucks: bool = False


@dataclass(frozen=True, slots=True)
class Eliminate(Order):
    """The owner removes one of his units (e.g. over the stacking limit at the end of a phase)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    """Send a truck convoy to extend the supply line of one unit (GG-XV.A.4)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Airstrike(Order):
    """The phasing player's air unit attacks the enemy units in a hex (GG-X.B.1)."""

    hex: Hex


@dataclass(frozen=True, slots=True)
class Airlift(Order):
    """The Luftwaffe tries to supply the Axis units in a hex from the air (GG-X.B.2)."""

    hex: Hex


@dataclass(frozen=True, slots=True)
class Intercept(Order):
    """Send the air unit up against the enemy air mission in progress (GG-X.B.3)."""


@dataclass(frozen=True, slots=True)
class NoIntercept(Order):
    """Let the enemy air mission go unopposed."""


@dataclass(frozen=True, slots=True)
class Gallop(Order):
    """The Allied player sets off the Gazala Gallop (GG-XIII.E)."""


@dataclass(frozen=True, slots=True)
class Attack(Order):
    """Declare an attack; ``partial`` lists attackers using less than their full factor."""

    defenders: tuple[Hex, ...]
    attackers: tuple[str, ...]
    partial: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Resolve(Order):
    """Roll the die for declared attack number ``attack``."""

    attack: int


@dataclass(frozen=True, slots=True)
class Cancel(Order):
    """Withdraw declared attack number ``attack`` before it is resolved."""

    attack: int


@dataclass(frozen=True, slots=True)
class NoRetreat(Order):
    """The defender's answer: the units given No Retreat! orders (none is an answer too)."""

    units: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RetreatDistance(Order):
    """The winner of a battle sets how far the losing units must retreat."""

    hexes: int


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    """The loser retreats one unit along ``path`` (its hex first)."""

    unit: str
    path: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class EndRetreat(Order):
    """The loser has no more (voluntary) retreats to make."""


@dataclass(frozen=True, slots=True)
class Weather(Order):
    sandstorm: int
    rainstorm: int


def format_order(order: Order) -> str:
    match order:
        case EndPhase():
            return "end-phase"
        case Place(unit, h):
            return f"place {unit} {h.label}"
        case Activate(unit):
            return f"activate {unit}"
        case Move(unit, path, trucks):
            return f"move {unit} {'-'.join(h.label for h in path)}{' by-trucks' if trucks else ''}"
        case Eliminate(unit):
            return f"eliminate {unit}"
        case Gallop():
            return "gallop"
        case Convoy(unit):
            return f"convoy {unit}"
        case Airstrike(h):
            return f"airstrike {h.label}"
        case Airlift(h):
            return f"airlift {h.label}"
        case Intercept():
            return "intercept"
        case NoIntercept():
            return "no-intercept"
        case Attack(defenders, attackers, partial):
            used = dict(partial)
            names = [f"{a}:{used[a]}" if a in used else a for a in attackers]
            return f"attack {','.join(h.label for h in defenders)} with {','.join(names)}"
        case Resolve(n):
            return f"resolve {n}"
        case Cancel(n):
            return f"cancel {n}"
        case NoRetreat(units):
            return f"no-retreat {','.join(units)}" if units else "no-retreat none"
        case RetreatDistance(n):
            return f"retreat-distance {n}"
        case Retreat(unit, path):
            return f"retreat {unit} {'-'.join(h.label for h in path)}"
        case EndRetreat():
            return "end-retreat"
        case Weather(sand, rain):
            return f"weather {sand} {rain}"
    raise TypeError(f"not an order: {order!r}")


def _unit(text: str, whole: str) -> str:
    if not UNIT_ID.match(text):
        raise InvalidOrderError(f"{whole!r}: {text!r} is not a unit id")
    return text


def _hex(text: str, whole: str) -> Hex:
    try:
        return Hex.parse(text)
    except ValueError:
        raise InvalidOrderError(f"{whole!r}: {text!r} is not a hex label such as C13") from None


def _die(text: str, whole: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 6:
        raise InvalidOrderError(f"{whole!r}: {text!r} is not a die number from 1 to 6")
    return int(text)


def parse_order(text: str) -> Order:
    """Parse the notation above (keywords are case-insensitive; extra blanks are ignored)."""
    words = text.split()
    if not words:
        raise InvalidOrderError("an empty order")
    verb, args = words[0].lower(), words[1:]
    if verb == "end-phase" and not args:
        return EndPhase()
    if verb == "place" and len(args) == 2:
        return Place(_unit(args[0], text), _hex(args[1], text))
    if verb == "activate" and len(args) == 1:
        return Activate(_unit(args[0], text))
    if verb == "move" and (len(args) == 2 or (len(args) == 3 and args[2].lower() == "by-trucks")):
        return Move(_unit(args[0], text), tuple(_hex(p, text) for p in args[1].split("-")), len(args) == 3)
    if verb == "eliminate" and len(args) == 1:
        return Eliminate(_unit(args[0], text))
    if verb == "gallop" and not args:
        return Gallop()
    if verb == "convoy" and len(args) == 1:
        return Convoy(_unit(args[0], text))
    if verb in ("airstrike", "airlift") and len(args) == 1:
        return Airstrike(_hex(args[0], text)) if verb == "airstrike" else Airlift(_hex(args[0], text))
    if verb == "intercept" and not args:
        return Intercept()
    if verb == "no-intercept" and not args:
        return NoIntercept()
    if verb == "attack" and len(args) == 3 and args[1].lower() == "with":
        defenders = tuple(_hex(p, text) for p in args[0].split(","))
        attackers: list[str] = []
        partial: list[tuple[str, int]] = []
        for item in args[2].split(","):
            name, _, used = item.partition(":")
            attackers.append(_unit(name, text))
            if used:
                if not used.isdigit() or int(used) < 1:
                    raise InvalidOrderError(f"{text!r}: {item!r} should be UNIT or UNIT:FACTORS (a whole number from 1)")
                partial.append((name, int(used)))
        return Attack(defenders, tuple(attackers), tuple(partial))
    if verb in ("resolve", "cancel") and len(args) == 1 and args[0].isdigit():
        return Resolve(int(args[0])) if verb == "resolve" else Cancel(int(args[0]))
    if verb == "no-retreat" and len(args) == 1:
        return NoRetreat(() if args[0].lower() == "none" else tuple(_unit(u, text) for u in args[0].split(",")))
    if verb == "retreat-distance" and len(args) == 1 and args[0].isdigit():
        return RetreatDistance(int(args[0]))
    if verb == "retreat" and len(args) == 2:
        return Retreat(_unit(args[0], text), tuple(_hex(p, text) for p in args[1].split("-")))
    if verb == "end-retreat" and not args:
        return EndRetreat()
    if verb == "weather" and len(args) == 2:
        return Weather(_die(args[0], text), _die(args[1], text))
    raise InvalidOrderError(
        f"{text!r} is not an order; the forms are: end-phase | place UNIT HEX | activate UNIT | "
        "move UNIT HEX-HEX-... [by-trucks] | attack HEX[,HEX] with UNIT[:N][,UNIT] | resolve N | cancel N | "
        "no-retreat UNIT,...|none | retreat-distance N | retreat UNIT HEX-HEX | end-retreat | weather N N | "
        "eliminate UNIT | gallop | convoy UNIT | airstrike HEX | airlift HEX | intercept | no-intercept"
    )
