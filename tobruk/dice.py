"""The game's only source of chance: one seeded generator, every roll recorded with its purpose.

Replaying the same seed and orders reproduces every roll, so a record need only keep the
seed and the orders; the rolls are kept too, for people to read and to detect tampering.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DieRoll:
    purpose: str
    value: int
    sides: int = 6


class Dice:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.log: list[DieRoll] = []
        self._fingerprint: str | None = None  # the generator only moves by roll() and restore()

    def roll(self, purpose: str, sides: int = 6) -> int:
        self._fingerprint = None
        value = self._rng.randint(1, sides)
        self.log.append(DieRoll(purpose, value, sides))
        return value

    def snapshot(self) -> tuple[Any, int]:
        return self._rng.getstate(), len(self.log)

    def restore(self, snap: tuple[Any, int]) -> None:
        state, count = snap
        self._fingerprint = None
        self._rng.setstate(state)
        del self.log[count:]

    def copy(self) -> Dice:
        other = Dice(self.seed)
        other._rng.setstate(self._rng.getstate())
        other.log = list(self.log)
        return other

    def fingerprint(self) -> str:
        """A short, stable description of the generator's position (for state hashes)."""
        if self._fingerprint is None:
            self._fingerprint = hashlib.sha256(repr(self._rng.getstate()).encode()).hexdigest()[:16]
        return f"{self._fingerprint}:{len(self.log)}"


class ForcedDice(Dice):
    """Dice that return given values in order: for tests that must force a die roll."""

    def __init__(self, values: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self._values = list(values)

    def roll(self, purpose: str, sides: int = 6) -> int:
        if not self._values:
            raise AssertionError(f"ForcedDice ran out of values at a roll for {purpose!r}")
        value = self._values.pop(0)
        self._fingerprint = None
        self.log.append(DieRoll(purpose, value, sides))
        return value
