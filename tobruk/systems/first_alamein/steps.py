"""What 1st Alamein's steps share: the refusal of an order from another step.  The end of a movement or attack
step, where the owner first removes units over the stacking limit (FA-STK.1, with GG-XII.B: the charts give the
limit, Gazala's rules when and how it is enforced), is the family's: :mod:`tobruk.mechanics.phases`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Airstrike, Move
from tobruk.mechanics.phases import PhaseStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class FAStep(PhaseStep):
    """A step that asks its side with a fixed prompt until it is closing.

    ``in_player_turn``: the step belongs to its side's player-turn (not the set-up or a victory determination).
    """

    in_player_turn = True

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        clause = decision.clause
        if isinstance(action, (Move, Airstrike)):  # an operation out of its place in the player-turn's sequence
            clause = "FA-SEQ.2" if decision.side is Side.AXIS else "FA-SEQ.3"
        return IllegalOrderError(
            clause, f"'{action.notation()}' is not an order of the {decision.phase} step; {decision.side.display}: {decision.prompt}"
        )
