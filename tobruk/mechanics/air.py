"""An air mission waiting for the enemy's answer: intercept it or let it go.

In the family's air rules a mission flown over a hex may be intercepted by the enemy's air unit before it is
resolved (GG-X.B.3, FA-AIR.1).  The question belongs to the enemy, not to the side flying, so it is a frame
on the decision stack: the step that launched the mission is suspended until the enemy answers.  What an
interception does and which air unit makes it are the system's (:meth:`AirMission.interceptor`,
:meth:`AirMission.resolve`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Intercept, NoIntercept

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True)
class AirMission(Frame):
    """``side``'s air unit ``air`` on a mission over ``hex`` (a hex label), the enemy to answer."""

    side: str
    air: str
    hex: str | None
    clause = ""

    def decision(self, game: Game) -> Decision | None:
        return Decision(Side(self.side).enemy, game.step.key, f"intercept {self.air}'s mission over {self.hex}, or not", self.clause)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Intercept(), NoIntercept()]

    @on(Intercept)
    def intercept(self, game: Game, decision: Decision, action: Action) -> None:
        game.pop_frame()
        self.resolve(game, self.interceptor(game, decision.side))

    @on(NoIntercept)
    def let_it_go(self, game: Game, decision: Decision, action: Action) -> None:
        game.pop_frame()
        self.resolve(game, None)

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(self.clause, f"answer the air mission first: intercept or no-intercept, not '{action.notation()}'")

    def interceptor(self, game: Game, side: Side) -> str | None:
        """The air unit that intercepts for ``side`` (it is offered only when there is one)."""
        raise NotImplementedError

    def resolve(self, game: Game, interceptor: str | None) -> None:
        """The mission after the enemy's answer (``None``: not intercepted)."""
        raise NotImplementedError
