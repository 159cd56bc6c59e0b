"""Operation Compass's sequence of play, reconstructed (ruling R-OC-SEQ; the charts give phases, not their order):

each game-turn (a day, 9 to 12 December 1940) opens with the Italian Retreat Phase (turns 3 on, OC-RET), then the
Western Desert Force bombards (OC-BMB.1), moves (OC-TER.1) and assaults (OC-CRT), and determines its supply at the
end.  The Italians do nothing else: the charts give them only their morale and their retreats, which the rules play
in a solitaire game (:meth:`OperationCompass.rules_choice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Step, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move, Target
from tobruk.systems.operation_compass import bombardment as bmb
from tobruk.systems.operation_compass import moves as mv
from tobruk.systems.operation_compass import retreat as rt
from tobruk.systems.operation_compass.actions import Bombard
from tobruk.systems.operation_compass.assault import Declaring, candidates

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED, ITALIAN = Side.ALLIED, Side.AXIS
END = (EndPhase(),)  # (one block object, so its id is worked out once)


class CompassStep(Step):
    """A step in which its side decides with a fixed prompt, ended by ``end-phase``."""

    prompt = ""

    def __init__(self, key: str, title: str, clause: str, side: Side, prompt: str = "") -> None:
        super().__init__(key, title, clause, side)
        self.prompt = prompt

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        return Decision(self.side, self.key, self.prompt, self.clause)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, action: EndPhase) -> bool:
        return True

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(decision.clause, f"'{action.notation()}' is not an order of the {self.title}; {decision}")


class RetreatStep(Step):
    """OC-RET: the Italian Retreat Phase (from turn 3): its checks and retreats are frames (:mod:`.retreat`)."""

    decides = False

    def enter(self, game: Game) -> None:
        rt.begin(game)


class BombardmentStep(CompassStep):
    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [*(Bombard(h) for h in bmb.targets(game)), EndPhase()]

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """A bombardment names the support units that fire (OC-BMB.1)."""
        return bmb.words(game, action.hex) if isinstance(action, Bombard) else action.says()

    @on(Bombard)
    def bombard(self, game: Game, decision: Decision, action: Bombard) -> None:
        bmb.bombard(game, action.hex)


class MovementStep(CompassStep):
    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [a for block in self.action_blocks(game, decision) for a in block]

    def action_blocks(self, game: Game, decision: Decision) -> tuple[Sequence[Action], ...]:
        """Each unit's moves as a block kept while nothing it reads changes (:func:`.moves.moves`), then the end."""
        blocks = [mv.moves(game, uid) for uid, _ in mv.on_map(game, ALLIED)]
        return (*(b for b in blocks if b), END)

    @on(Move)
    def move(self, game: Game, decision: Decision, action: Move) -> None:
        mv.move(game, mv.check_move(game, action, decision.side))


class AssaultStep(CompassStep):
    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [*(Target(h) for h in assault_targets(game)), EndPhase()]

    @on(Target)
    def target(self, game: Game, decision: Decision, action: Target) -> None:
        if action.hex not in game.occupants(ITALIAN):
            raise IllegalOrderError("OC-CRT.5", f"{action.hex} holds no Italian unit to assault")
        if not candidates(game, action.hex, ()):
            raise IllegalOrderError("OC-CRT.6", f"no Allied unit may assault {action.hex} now")
        game.push_frame(Declaring(action.hex))


def assault_targets(game: Game) -> list[Hex]:
    """The Italian-held hexes some Allied unit may assault now."""
    return [h for h in sorted(game.occupants(ITALIAN)) if candidates(game, h, ())]


class SupplyStep(Step):
    """The Allied supply determination at the end of the Allied player-turn (ruling R-OC-SUPPLY)."""

    decides = False

    def finish(self, game: Game) -> None:
        mv.determine_supply(game)


GAME_TURN: Sequence[Step] = (
    RetreatStep("italian-retreat", "Italian Retreat Phase", "OC-RET.1", ITALIAN),
    BombardmentStep(
        "allied-bombardment",
        "Allied bombardment",
        "OC-BMB.1",
        ALLIED,
        "bombard Italian-held hexes with the support units next to them, then end the phase",
    ),
    MovementStep("allied-movement", "Allied movement", "OC-TER.1", ALLIED, "move your units, then end the phase"),
    AssaultStep(
        "allied-assaults",
        "Allied assaults",
        "OC-CRT.6",
        ALLIED,
        "assault Italian-held hexes (target a hex, then make the assault), then end the phase",
    ),
    SupplyStep("allied-supply", "Allied supply determination", "OC-MC.1", ALLIED),
)
