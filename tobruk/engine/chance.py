"""Chance nodes: where the rules roll a die, roll several, or draw a chit, the game stands at a decision that chance
makes (OpenSpiel's chance nodes).

A rule that rolls pushes a :class:`Chance` frame on the decision stack and leaves the rest of its work to the frame's
:meth:`Chance.resolve`, which is given the outcome: the roll is a step of the state machine like any decision, so it
is kept in the state (copied, hashed, saved), it lists its outcomes with their exact probabilities, and the work
after it runs the same whoever chose the outcome.  In play the game resolves a chance node at once from its seeded
dice (a person never sees one); a search sets :attr:`Game.explicit_chance` and chooses outcomes itself
(:meth:`Game.chance_outcomes`, :meth:`Game.play_chance`).  Either way the roll is recorded with its purpose and,
for a roll about face-down counters, the only side that may see it.

Rules never touch the dice: the engine draws (:meth:`Dice.draw`), so no rule can roll outside a chance node and no
face can read a die before it falls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from tobruk.engine.dice import faces_of
from tobruk.engine.flow import Decision, Frame

if TYPE_CHECKING:
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side


@dataclass(frozen=True, slots=True)
class Outcome:
    """One outcome of a chance node: the value the rules are given (a die's face, a sum, a chit's number), its exact
    probability, and what it means for people (the combat result that face gives; empty when the value says it)."""

    value: int
    probability: Fraction
    label: str = ""


@cache
def die(sides: int = 6) -> tuple[Outcome, ...]:
    """One die of ``sides`` faces: each face with probability 1/sides."""
    return tuple(Outcome(face, Fraction(1, sides)) for face in range(1, sides + 1))


@cache
def dice_sum(count: int, sides: int = 6) -> tuple[Outcome, ...]:
    """The sum of ``count`` dice of ``sides`` faces (2d6: 2 to 12, 7 the likeliest)."""
    ways: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    whole = sides**count
    return tuple(Outcome(total, Fraction(n, whole)) for total, n in sorted(ways.items()))


def cup(chits: Sequence[int]) -> tuple[Outcome, ...]:
    """A draw of one chit from a cup holding ``chits`` (their values, repeats allowed): each value with its share."""
    counts: dict[int, int] = {}
    for value in chits:
        counts[value] = counts.get(value, 0) + 1
    return tuple(Outcome(value, Fraction(n, len(chits))) for value, n in sorted(counts.items()))


def labelled(outcomes: Sequence[Outcome], labels: Sequence[str]) -> tuple[Outcome, ...]:
    """The same outcomes, each with its label for people."""
    return tuple(Outcome(o.value, o.probability, label) for o, label in zip(outcomes, labels, strict=True))


def grouped(outcomes: Sequence[Outcome]) -> list[tuple[str, Fraction]]:
    """An outcome table for people and players: each label with the sum of its outcomes' probabilities, likeliest
    first (then by label)."""
    shares: dict[str, Fraction] = {}
    for o in outcomes:
        shares[o.label] = shares.get(o.label, Fraction(0)) + o.probability
    return sorted(shares.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class Chance(Frame):
    """A chance node on the decision stack: the rules roll here.  Subclasses (frozen dataclasses) hold what the roll is
    about and say its :meth:`purpose`, its :meth:`outcomes` (one six-sided die unless they say otherwise) and
    :meth:`resolve`, the rest of the rule's work once the outcome is known; :meth:`seen_only_by` names the one side
    that may see a roll about its face-down counters.  The frame is popped before :meth:`resolve` runs, which may
    push further frames (another roll, a player's choice)."""

    def purpose(self, game: Game) -> str:
        """What the roll is for, as the log and the dice list say it ("combat, attack 2 at 3:1")."""
        raise NotImplementedError

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        """Every outcome with its exact probability (they sum to 1); by default one six-sided die."""
        return die(6)

    def seen_only_by(self, game: Game) -> Side | None:
        """The only side shown the roll (a roll about its face-down counters), or ``None``: both."""
        return None

    def resolve(self, game: Game, value: int) -> None:
        """The rule's work after the roll, given the outcome's value."""
        raise NotImplementedError

    def decision(self, game: Game) -> Decision | None:
        return None  # chance decides: the game draws, or a search chooses (never a player)


def check(outcomes: Sequence[Outcome], purpose: str) -> None:
    """A chance node's outcomes must be distinct, positive and sum to exactly 1."""
    if not outcomes:
        raise ValueError(f"the outcomes of {purpose!r} are not a distribution")
    faces, counts = faces_of(outcomes)  # (integers: their probabilities as shares of a die's faces)
    if sum(counts) != faces or any(c <= 0 for c in counts):
        raise ValueError(f"the outcomes of {purpose!r} are not a distribution")
    if len({o.value for o in outcomes}) != len(outcomes):
        raise ValueError(f"the outcomes of {purpose!r} repeat a value")
