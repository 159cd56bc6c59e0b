"""What 1st Alamein's steps share: a fixed prompt for their side, the refusal of an order from another step,
and the end of a movement or attack step, where the owner first removes units over the stacking limit
(FA-STK.1, with GG-XII.B: the charts give the limit, Gazala's rules when and how it is enforced)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, Step, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Airstrike, Eliminate, Move
from tobruk.systems.first_alamein import position as pos

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class FAStep(Step):
    """A step that asks its side with a fixed prompt until it is closing (see :func:`close_step`).

    ``in_player_turn``: the step belongs to its side's player-turn (not the set-up or a victory determination).
    """

    prompt = ""
    in_player_turn = True

    def __init__(self, key: str, title: str, clause: str, side: Side, prompt: str = "") -> None:
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
        clause = decision.clause
        if isinstance(action, (Move, Airstrike)):  # an operation out of its place in the player-turn's sequence
            clause = "FA-SEQ.2" if decision.side is Side.AXIS else "FA-SEQ.3"
        return IllegalOrderError(clause, f"'{action.notation()}' is not an order of the {decision.phase} step; "
                                         f"{decision.side.display}: {decision.prompt}")


def close_step(game: Game, side: Side) -> None:
    """The current movement or attack step may end: first the owner eliminates units over the stacking limit."""
    if pos.overstacked(game, side):
        game.push_frame(Overstacked(game.step.key, side.value))
    else:
        game.vars.closing = game.step.key


@dataclass(frozen=True)
class Overstacked(Frame):
    """GG-XII.B: at the end of his movement or attack step the owner eliminates units over the limit (FA-STK.1)."""

    step: str
    side: str
    clause = "FA-STK.1"

    def decision(self, game: Game) -> Decision | None:
        over = pos.overstacked(game, Side(self.side))
        if not over:
            return None
        hexes = " ".join(h.label for h in sorted(over))
        return Decision(Side(self.side), self.step, f"eliminate units over the stacking limit in {hexes}", self.clause)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Eliminate(uid) for ids in pos.overstacked(game, decision.side).values() for uid in ids]

    @on(Eliminate)
    def eliminate(self, game: Game, decision: Decision, order: Eliminate) -> None:
        if not any(order.unit in ids for ids in pos.overstacked(game, decision.side).values()):
            raise self.refuse(game, decision, order)
        pos.eliminate(game, order.unit, "over the stacking limit")

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(self.clause, f"first eliminate units over the stacking limit; "
                                              f"'{action.notation()}' does not")

    def settle(self, game: Game) -> None:
        game.pop_frame()
        game.vars.closing = self.step
