"""The game's only source of chance: one seeded, counter-based generator; every roll recorded.

The k-th roll of a game is a keyed hash of ``k`` under the seed, so the dice have no hidden state
beyond how many rolls were made: copying a game for search or undoing an order is a matter of the
roll count, and a replay of the same seed and orders reproduces every roll.  A record keeps the
rolls too, for people to read and to detect tampering.  Without the seed the rolls cannot be
predicted, which is why a server game's seed stays on the server until the game is over.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tobruk.engine.chance import Outcome


@dataclass(frozen=True, slots=True)
class DieRoll:
    purpose: str
    value: int
    sides: int = 6


_FACES: dict[int, tuple[Sequence[Outcome], int, tuple[int, ...]]] = {}  # by the outcomes' identity (kept alive here)


def faces_of(outcomes: Sequence[Outcome]) -> tuple[int, tuple[int, ...]]:
    """The die a distribution is drawn with: as many faces as its probabilities' common denominator, and how many of
    them each outcome has (integers, no fraction arithmetic in a roll; kept per distribution object, as the rules'
    dice are the same few tuples rolled hundreds of times a game)."""
    kept = _FACES.get(id(outcomes))
    if kept is not None and kept[0] is outcomes:
        return kept[1], kept[2]
    shares = [(o.probability.numerator, o.probability.denominator) for o in outcomes]
    faces = math.lcm(*(d for _, d in shares))
    counts = tuple(n * (faces // d) for n, d in shares)
    if len(_FACES) >= 256:
        _FACES.clear()
    _FACES[id(outcomes)] = (outcomes, faces, counts)
    return faces, counts


def _plain(outcomes: Sequence[Outcome], faces: int, counts: tuple[int, ...]) -> bool:
    """One plain die: faces 1 to n, one each."""
    return faces == len(outcomes) and all(c == 1 for c in counts) and all(o.value == i for i, o in enumerate(outcomes, 1))


def _key(seed: int) -> bytes:
    return hashlib.sha256(f"tobruk-dice:{seed}".encode()).digest()[:32]


class Dice:
    __slots__ = ("_key", "log", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._key = _key(seed)
        self.log: list[DieRoll] = []

    def value(self, k: int, sides: int) -> int:
        """The ``k``-th roll of these dice on a die of ``sides`` faces (64 bits reduced: no visible bias)."""
        digest = hashlib.blake2b(k.to_bytes(8, "little"), key=self._key, digest_size=8).digest()
        return 1 + int.from_bytes(digest, "little") % sides

    def roll(self, purpose: str, sides: int = 6) -> int:
        value = self.value(len(self.log), sides)
        self.log.append(DieRoll(purpose, value, sides))
        return value

    def draw(self, purpose: str, outcomes: Sequence[Outcome]) -> int:
        """Draw one of a chance node's outcomes and record the roll.  One plain die (faces 1 to n, equally likely)
        is rolled face for face; any other distribution by a die of as many faces as its probabilities' common
        denominator, each face standing for the outcome whose share of the faces it falls in."""
        faces, counts = faces_of(outcomes)
        if _plain(outcomes, faces, counts):
            return self.roll(purpose, faces)
        k = self.value(len(self.log), faces)
        upto = 0
        for o, count in zip(outcomes, counts, strict=True):
            upto += count
            if k <= upto:
                self.log.append(DieRoll(purpose, o.value, faces))
                return o.value
        raise ValueError(f"the outcomes of {purpose!r} do not sum to 1")

    def record(self, purpose: str, value: int, sides: int) -> None:
        """Record an outcome chosen rather than rolled (a search playing a chance node): the dice move on as if rolled."""
        self.log.append(DieRoll(purpose, value, sides))

    def snapshot(self) -> int:
        return len(self.log)

    def restore(self, count: int) -> None:
        del self.log[count:]

    def copy(self) -> Dice:
        other = object.__new__(type(self))
        other.seed, other._key, other.log = self.seed, self._key, list(self.log)
        return other

    def fingerprint(self) -> str:
        """The generator's position for state hashes: which dice (a digest of the key, so a record with another
        seed differs from the start), the rolls made so far and the last values (forced or edited dice never
        hash like the real game)."""
        return f"{self._key[:4].hex()}:{len(self.log)}:{''.join(str(r.value) for r in self.log[-8:])}"


class ForcedDice(Dice):
    """Dice that return given values in order: for tests that must force a die roll."""

    __slots__ = ("_values",)

    def __init__(self, values: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self._values = list(values)

    def roll(self, purpose: str, sides: int = 6) -> int:
        if not self._values:
            raise AssertionError(f"ForcedDice ran out of values at a roll for {purpose!r}")
        value = self._values.pop(0)
        self.log.append(DieRoll(purpose, value, sides))
        return value

    def draw(self, purpose: str, outcomes: Sequence[Outcome]) -> int:
        """The next forced value, which must be one of the outcomes."""
        faces, counts = faces_of(outcomes)
        if _plain(outcomes, faces, counts):
            return self.roll(purpose, faces)
        if not self._values:
            raise AssertionError(f"ForcedDice ran out of values at a roll for {purpose!r}")
        value = self._values.pop(0)
        if value not in [o.value for o in outcomes]:
            raise AssertionError(f"ForcedDice: {value} is not an outcome of {purpose!r}")
        self.log.append(DieRoll(purpose, value, 0))
        return value

    def copy(self) -> Dice:
        other = super().copy()
        assert isinstance(other, ForcedDice)
        other._values = list(self._values)
        return other
