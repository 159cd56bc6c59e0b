"""The campaign's game-turn sequence (CA-Q.1, CA-Q.2) as the engine's steps, in the rules' order.

Axis player-turn (CA-Q.1):
    1. reinforcements, replacements and fort construction;  2. attacks before operational movement;
    3. operational movement and attack allocation;  4. recovery of the Allied units not being attacked;
    5. combat resolution (the Newly Disrupted markers then come off the Allied units);
    6. the Axis breakthrough: steps 3 and 5 again for the German units that have not moved or attacked;
    7. Allied victory determination;  8. Axis supply determination;
    9. German recovery, then the Newly Disrupted markers come off every Axis unit.
Allied player-turn (CA-Q.2):
    1. reinforcements, replacements and box construction, then rail movement;  2. attacks before movement;
    3. operational movement and attack allocation;  4. recovery of the Italian units not being attacked;
    5. combat resolution (the markers come off the Axis units);  6. the Allied breakthrough (steps 3 and 5 again
    for the Allied units that have not moved or attacked);  7. Allied supply determination;
    8. German victory determination.

A game-turn is the Axis player-turn then the Allied one; a scenario that begins with the Allied player-turn
(Operation Crusader, CA-SC.4) has only that in its first game-turn.  Every step logs itself with the turn's name on
the track ("II Nov 41") and says it in its prompt, so the log, the page and the terminal name the turn as the track
does.  Step 1 brings in the player-turn's one reinforcement or replacement (CA-R) and builds the side's fort or box of the
turn (CA-F.1), or removes one of its own (CA-F.2; :mod:`.start_of_turn`); a side's supply step destroys its forts
held by the enemy's infantry (CA-F.2).  The side's one sea move is made in the same step (CA-S.3, :mod:`.sea`), and
the Allied rail movement follows it (CA-S.2, :mod:`.rail`).  A unit may bug out in the operational movement step in
place of its move (CA-S.4, :mod:`.bugout`).  Combat (CA-G, CA-T,
:mod:`.combat`) is the next work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Step, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign import bugout, combat, recovery, start_of_turn, supply_phase, victory
from tobruk.systems.campaign import moves as mv
from tobruk.systems.campaign.actions import Allocate, Bugout
from tobruk.systems.campaign.rail import RailStep
from tobruk.systems.campaign.sea import FirstStep
from tobruk.systems.campaign.setup import set_up_steps
from tobruk.systems.campaign.state import campaign_vars, counter
from tobruk.systems.campaign.steps import AutomaticStep, CampaignStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game

AXIS, ALLIED = Side.AXIS, Side.ALLIED
CLAUSE = {AXIS: "CA-Q.1", ALLIED: "CA-Q.2"}


class AttackStep(CampaignStep):
    """The attacks before operational movement (step 2): unmoved units allocated against adjacent enemy hexes, the
    attacks resolved at the end of the step in the order allocated through :func:`.combat.resolve_attack` (the
    second part may resolve each as it is made, for the immediate Blitzkrieg); then allocations and targets are
    cleared."""

    kind = "early"
    prompt = "allocate unmoved units against adjacent enemy hexes, or end the phase"
    preview_prompt = "no attack is allocated in this preview (combat, CA-G, is not played yet): end the phase"

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [*mv.allocation_orders(game, decision.side, self.kind), EndPhase()]

    @on(Allocate)
    def allocate(self, game: Game, decision: Decision, order: Allocate) -> None:
        mv.allocate(game, decision.side, order, step=self.kind)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True

    def finish(self, game: Game) -> None:
        assert self.side is not None
        resolve_allocated(game, self.side)


def resolve_allocated(game: Game, side: Side) -> None:
    """Resolve every allocated attack in order, then clear the allocations and the targets' marks."""
    v = campaign_vars(game)
    for target, attackers in v.allocations.items():
        combat.resolve_attack(game, side, target, attackers)
        if side.value not in v.fought:
            v.fought = (*v.fought, side.value)  # no fort or box after combat (CA-F.1)
    v.allocations = {}
    for uid in game.units_of(side.enemy):
        counter(game, uid).targeted = False


class MovementStep(CampaignStep):
    """Operational movement and attack allocation (step 3), or the breakthrough's (step 6): moves and allocations
    in any order, closed by the stacking check (CA-K.1)."""

    breakthrough = False
    prompt = "move units (a unit, then a hex) and allocate attacks, then end the phase"
    preview_prompt = "move units (a unit, then a hex), then end the phase (no attacks in this preview)"

    def enter(self, game: Game) -> None:
        super().enter(game)
        v = campaign_vars(game)
        v.spent = {}
        assert self.side is not None
        v.eligible = mv.breakthrough_eligible(game, self.side) if self.breakthrough else ()

    def action_blocks(self, game: Game, decision: Decision) -> list[Sequence[Action]]:
        kind = "breakthrough" if self.breakthrough else "movement"
        return [
            tuple(mv.move_orders(game, decision.side, self.breakthrough)),
            tuple(mv.allocation_orders(game, decision.side, kind)),
            () if self.breakthrough else tuple(bugout.bugout_orders(game, decision.side)),  # CA-S.4, in place of a move
            (EndPhase(),),
        ]

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [a for block in self.action_blocks(game, decision) for a in block]

    @on(Move)
    def move(self, game: Game, decision: Decision, order: Move) -> None:
        mv.move(game, decision.side, order, breakthrough=self.breakthrough)

    @on(Allocate)
    def allocate(self, game: Game, decision: Decision, order: Allocate) -> None:
        mv.allocate(game, decision.side, order, step="breakthrough" if self.breakthrough else "movement")

    @on(Bugout)
    def bug_out(self, game: Game, decision: Decision, order: Bugout) -> None:
        if self.breakthrough:
            raise IllegalOrderError("CA-S.4", "a bugout is made in the operational movement step, in place of a unit's move")
        bugout.bug_out(game, decision.side, order)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        mv.close_movement(game, decision.side)
        return True

    def finish(self, game: Game) -> None:
        v = campaign_vars(game)
        v.spent = {}
        v.eligible = ()


class RecoveryStep(AutomaticStep):
    """Step 4: the enemy's unattacked units recover (the Allied in the Axis player-turn, the Italian in the Allied;
    CA-G.17)."""

    def run(self, game: Game) -> None:
        assert self.side is not None
        recovery.recover_unattacked(game, self.side)


class CombatStep(AutomaticStep):
    """Step 5 (and its repetition in the breakthrough): every allocated attack resolved; then the Newly Disrupted
    markers come off the enemy's units, which stay disrupted (CA-Q.1-3)."""

    def run(self, game: Game) -> None:
        assert self.side is not None
        resolve_allocated(game, self.side)
        recovery.remove_markers(game, self.side.enemy)


class SupplyStep(AutomaticStep):
    """The side's supply phase: its forts or boxes an undisrupted enemy infantry-type unit stands on are destroyed
    (CA-F.2), then its supply status determination (CA-P.3)."""

    def run(self, game: Game) -> None:
        assert self.side is not None
        start_of_turn.destroy_forts(game, self.side)
        supply_phase.determination(game, self.side)


class GermanRecoveryStep(AutomaticStep):
    """CA-Q.1 step 9: German recovery, then the markers off every Axis unit (CA-G.17)."""

    def run(self, game: Game) -> None:
        recovery.german_recovery(game)


class VictoryStep(AutomaticStep):
    """A victory determination: the scenario's condition judged (:mod:`.victory`); the German one closing the last
    game-turn judges the conditions of the end."""

    def run(self, game: Game) -> None:
        last = game.turn == game.scenario.turns and game.state.step == len(game.steps) - 1
        victory.determination(game, last)


def player_turn(side: Side) -> list[CampaignStep]:
    """A player-turn's steps, in the rules' order for the side (CA-Q.1 or CA-Q.2)."""
    s, n = side.value, side.display
    q = CLAUSE[side]
    build = "fort" if side is AXIS else "box"
    steps: list[CampaignStep] = [FirstStep(f"{s}-reinforcements", f"{n} reinforcements, replacements and {build} construction", q, side)]
    if side is ALLIED:
        steps.append(RailStep("allied-rail", "Allied rail movement", "CA-S.2", side))
    early = AttackStep(f"{s}-early-attacks", f"{n} attacks before operational movement", q, side)
    movement = MovementStep(f"{s}-movement", f"{n} operational movement and attack allocation", q, side)
    unattacked = "Allied" if side is AXIS else "Italian"
    steps += [
        early,
        movement,
        RecoveryStep(f"{s}-recovery", f"recovery of the {unattacked} units not being attacked", "CA-G.17", side),
        CombatStep(f"{s}-combat", f"{n} combat resolution", q, side),
        Breakthrough(f"{s}-breakthrough", f"{n} operational breakthrough", "CA-M.5", side),
        CombatStep(f"{s}-breakthrough-combat", f"{n} breakthrough combat resolution", q, side),
    ]
    if side is AXIS:
        steps += [
            VictoryStep("allied-victory", "Allied victory determination", q, side),
            SupplyStep("axis-supply", "Axis supply status determination", "CA-P.3", side),
            GermanRecoveryStep("german-recovery", f"German recovery; Newly Disrupted markers off the {n} units", "CA-G.17", side),
        ]
    else:
        steps += [
            SupplyStep("allied-supply", "Allied supply status determination", "CA-P.3", side),
            VictoryStep("axis-victory", "German victory determination", q, side),
        ]
    return steps


class Breakthrough(MovementStep):
    """Step 6: the breakthrough's movement and allocation, for the units that have not moved or attacked (CA-M.5)."""

    breakthrough = True
    prompt = "move the units that have not yet moved or attacked (basic MF -2, bonus 3) and allocate attacks, then end the phase"
    preview_prompt = "move the units that have not yet moved (basic MF -2, bonus 3), then end the phase (no attacks in this preview)"

    def decision(self, game: Game) -> Decision | None:
        if not campaign_vars(game).eligible:
            return None  # no unit may break through: the step passes
        return super().decision(game)


AXIS_TURN = tuple(player_turn(AXIS))
ALLIED_TURN = tuple(player_turn(ALLIED))
GAME_TURN = (*AXIS_TURN, *ALLIED_TURN)


FIRST_TURN = {AXIS: (*set_up_steps(AXIS), *GAME_TURN), ALLIED: (*set_up_steps(ALLIED), *ALLIED_TURN)}


def steps_of(game: Game, first: Side) -> Sequence[Step]:
    """The steps of the current game-turn: the Allied player-turn alone in the first game-turn of a scenario that
    begins with it (CA-SC.4), else the Axis player-turn and the Allied; the first game-turn opens with the two sides'
    set-up (:mod:`.setup`)."""
    return FIRST_TURN[first] if game.turn == 1 else GAME_TURN
