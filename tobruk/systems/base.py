"""What every game system provides to :class:`tobruk.game.Game`.

A system owns its sequence of play (a list of :class:`Phase`), says for the current phase
who decides and what they may order, applies orders, and runs the phases nobody decides
(victory checks, recovery, die rolls).  Everything it needs from the game is passed in;
it keeps no state of its own, so one system object can serve many games.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.orders import Attack, Order
from tobruk.sides import Side

if TYPE_CHECKING:
    from tobruk.game import Game


@dataclass(frozen=True, slots=True)
class Phase:
    """One step of the sequence of play.  ``side`` is ``None`` where nobody decides."""

    key: str
    title: str
    clause: str
    side: Side | None


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide what now: the side, the phase, and a prompt a person can read."""

    side: Side
    phase: str
    prompt: str
    clause: str

    def __str__(self) -> str:
        return f"{self.side.display}: {self.prompt}"


class System(ABC):
    name: str = ""
    title: str = ""

    @abstractmethod
    def phases(self, game: Game) -> Sequence[Phase]:
        """The phases of the current game-turn, in order."""

    @abstractmethod
    def setup(self, game: Game) -> None:
        """Put the scenario's units in their starting state."""

    @abstractmethod
    def decision(self, game: Game, phase: Phase) -> Decision | None:
        """The decision the phase asks for now, or ``None`` when the phase runs by itself."""

    @abstractmethod
    def legal_orders(self, game: Game, decision: Decision) -> list[Order]:
        """Every order the decider may give now (never empty while a decision is open)."""

    @abstractmethod
    def check(self, game: Game, decision: Decision, order: Order) -> None:
        """Raise :class:`IllegalOrderError` (naming the clause) if ``order`` is not allowed now."""

    @abstractmethod
    def apply(self, game: Game, decision: Decision, order: Order) -> bool:
        """Carry out a checked order; return ``True`` when it ends the current phase."""

    @abstractmethod
    def run_phase(self, game: Game, phase: Phase) -> None:
        """Carry out a phase nobody decides (or the automatic part at a phase's end)."""

    def begin_turn(self, game: Game) -> None:  # noqa: B027  (optional hook)
        """Called when a new game-turn starts (after the first)."""

    def end_game(self, game: Game) -> None:  # noqa: B027  (optional hook)
        """Called once when the last turn is over: score the game."""

    def position_data(self, game: Game) -> Any:
        """The part of ``state.data`` that derived values (ZOC, supply) may depend on, for ``Game.memo``.

        The default is all of it; a system may narrow it to what its rules read, to keep memo keys cheap.
        """
        return repr(sorted(game.state.data.items()))

    def outcomes(self, game: Game, order: Attack, side: Side) -> list[tuple[str, Fraction]]:
        """The probability of each result of an attack declaration before the die; [] if it cannot be known."""
        return []

    def result_lines(self, game: Game) -> list[str]:
        """The result of a finished game as lines of text (winner, level, each side's points)."""
        return []

    def enter_phase(self, game: Game, phase: Phase) -> None:  # noqa: B027  (optional hook)
        """Called once when the game enters a phase, before anyone decides in it (may roll dice)."""
