"""What every step of The Gazala Gallop shares: the refusal of an order from another phase (the end of a
movement or attack phase, with its stacking check, GG-XII.B, is the family's: :mod:`tobruk.mechanics.phases`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision
from tobruk.mechanics.actions import Move
from tobruk.mechanics.phases import PhaseStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class GazalaStep(PhaseStep):
    """A step of The Gazala Gallop: it asks its side with a fixed prompt until it is closing."""

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        if action.verb in ("airstrike", "airlift", "intercept"):  # an air mission out of its phase (GG-X.A)
            from tobruk.systems.gazala import air

            why = air.why_unavailable(game, decision.side)
            return IllegalOrderError(
                "GG-X.A" if why is None else why.clause, f"'{action.notation()}' is not possible now" + (f": {why.reason}" if why else "")
            )
        clause = "GG-XIII.A.1" if isinstance(action, Move) else decision.clause
        return IllegalOrderError(
            clause, f"'{action.notation()}' is not an order of the {decision.phase} phase; {decision.side.display}: {decision.prompt}"
        )
