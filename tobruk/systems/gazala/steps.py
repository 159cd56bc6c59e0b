"""What every step of The Gazala Gallop shares: the refusal of an order from another phase, and the end of
a movement or attack phase, where the owner first removes units over the stacking limit (GG-XII.B)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, Step, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Eliminate, Move
from tobruk.systems.gazala import moves as mv

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class GazalaStep(Step):
    """A step that asks its side with a fixed prompt, until the step is closing (see :func:`close_step`)."""

    prompt = ""

    def __init__(self, key: str, title: str, clause: str, side: Side | None, prompt: str = "") -> None:
        super().__init__(key, title, clause, side)
        self.prompt = prompt or title.split(" ", 1)[-1]

    def decision(self, game: Game) -> Decision | None:
        if self.side is None or game.vars.closing == self.key:
            return None
        return self.ask(game, self.side)

    def ask(self, game: Game, side: Side) -> Decision | None:
        return Decision(side, self.key, self.prompt, self.clause)

    def finish(self, game: Game) -> None:
        game.vars.closing = None

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        if action.verb in ("airstrike", "airlift", "intercept"):  # an air mission out of its phase (GG-X.A)
            from tobruk.systems.gazala import air

            why = air.why_unavailable(game, decision.side)
            return IllegalOrderError("GG-X.A" if why is None else why.rpartition("[")[2].rstrip("]"),
                                     f"'{action.notation()}' is not possible now" + (f": {why.rpartition(' [')[0]}" if why else ""))
        clause = "GG-XIII.A.1" if isinstance(action, Move) else decision.clause
        return IllegalOrderError(clause, f"'{action.notation()}' is not an order of the {decision.phase} phase; "
                                         f"{decision.side.display}: {decision.prompt}")


def close_step(game: Game, side: Side) -> None:
    """The current movement or attack phase may end: first the owner eliminates units over the stacking limit."""
    if mv.overstacked(game, side):
        game.push_frame(Overstacked(game.step.key, side.value))
    else:
        game.vars.closing = game.step.key


@dataclass(frozen=True)
class Overstacked(Frame):
    """GG-XII.B: at the end of his movement or attack phase the owner eliminates units over the limit."""

    step: str
    side: str
    clause = "GG-XII.B"

    def decision(self, game: Game) -> Decision | None:
        over = mv.overstacked(game, Side(self.side))
        if not over:
            return None
        hexes = " ".join(h.label for h in sorted(over))
        return Decision(Side(self.side), self.step, f"eliminate units over the stacking limit in {hexes}", self.clause)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Eliminate(uid) for ids in mv.overstacked(game, decision.side).values() for uid in ids]

    @on(Eliminate)
    def eliminate(self, game: Game, decision: Decision, order: Eliminate) -> None:
        if not any(order.unit in ids for ids in mv.overstacked(game, decision.side).values()):
            raise self.refuse(game, decision, order)
        mv.eliminate(game, order.unit, "over the stacking limit")

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(self.clause, f"first eliminate units over the stacking limit; "
                                              f"'{action.notation()}' does not")

    def settle(self, game: Game) -> None:
        game.pop_frame()
        game.vars.closing = self.step
