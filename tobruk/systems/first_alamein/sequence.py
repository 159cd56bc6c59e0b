"""1st Alamein's game-turn sequence (FA-SEQ.2-3) as steps: who decides what, in the charts' order.

    Axis player-turn: reinforcement; airstrike (the Allies may intercept); operational movement; attacks;
        recovery from Spent; supply status determination.
    Allied victory determination.
    Allied player-turn: reinforcement; operational movement; airstrike (the Axis may intercept); attacks;
        recovery; supply status determination.
    Axis victory determination.

The first game-turn opens with the Allied set-up (CA-SC.7: one unit to a hex, off the west edge).  A unit
moves and attacks at most once a game-turn (FA-SEQ.1); the movement and attack steps end with the stacking
check (FA-STK.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex, in_reading_order
from tobruk.engine.actions import Action
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics import battle as battles
from tobruk.mechanics.actions import Airstrike, Cancel, EndPhase, Move, Place, Resolve, Target
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.duties import obligations, owed, owed_words
from tobruk.mechanics.phases import close_step, stacking
from tobruk.systems.first_alamein import air
from tobruk.systems.first_alamein import combat as cb
from tobruk.systems.first_alamein import moves as mv
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein import supply as sp
from tobruk.systems.first_alamein import victory as vp
from tobruk.systems.first_alamein.battle import DUTIES, end_of_attacks, suggestions
from tobruk.systems.first_alamein.battle import ending_costs as battle_ending_costs
from tobruk.systems.first_alamein.state import alamein_vars
from tobruk.systems.first_alamein.steps import FAStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game

AXIS, ALLIED = Side.AXIS, Side.ALLIED


class SetupStep(FAStep):
    """CA-SC.7: the Allied player may set his units up anywhere in the set-up zone, one to a hex; each starts
    in its historical hex."""

    in_player_turn = False

    def ask(self, game: Game, side: Side) -> Decision | None:
        if not any(family_defs(game)[u].side is side for u in game.scenario.setup_zone):
            return None  # nothing to set up: every unit has a fixed position
        return super().ask(game, side)

    def placements(self, game: Game, uid: str, occupants: dict[Hex, list[str]]) -> list[Place]:
        zone = game.scenario.setup_zone.get(uid)
        if zone is None or uid in alamein_vars(game).placed:
            return []
        here = family_unit(game, uid).hex
        return [Place(uid, h) for h in in_reading_order(game.scenario.zone(zone)) if h != here and not occupants.get(h)]

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        occupants = game.occupants()
        out: list[Action] = [p for uid in game.units_of(decision.side) for p in self.placements(game, uid, occupants)]
        out.append(EndPhase())
        return out

    @on(Place)
    def place(self, game: Game, decision: Decision, order: Place) -> None:
        d = family_defs(game).get(order.unit)
        if d is None or d.side is not decision.side:
            raise IllegalOrderError("CA-SC.7", f"{order.unit!r} is not one of your units")
        if order not in self.placements(game, order.unit, game.occupants()):
            zone = game.scenario.setup_zone.get(order.unit)
            why = (
                "it has a fixed position"
                if zone is None
                else "it has been placed already"
                if order.unit in alamein_vars(game).placed
                else f"{order.hex} is not a free hex of its set-up zone {zone!r} (one unit a hex)"
            )
            raise IllegalOrderError("CA-SC.7", f"{order.unit} cannot be set up in {order.hex}: {why}")
        family_unit(game, order.unit).hex = order.hex
        alamein_vars(game).placed = (*alamein_vars(game).placed, order.unit)
        game.log(f"{decision.side.display} sets up {order.unit} in {order.hex}.")

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True

    def finish(self, game: Game) -> None:
        super().finish(game)
        alamein_vars(game).placed = ()
        game.log("Allied set-up complete.")


class ReinforcementStep(FAStep):
    """FA-UNIT.1: the side's units due this turn ("R5": turn 5) enter in their zone; a unit that cannot enter
    now (every entry hex held by the enemy or full) waits for the next turn."""

    def ask(self, game: Game, side: Side) -> Decision | None:
        if not mv.arrivals(game, side):
            return None
        return Decision(side, self.key, f"bring in the reinforcements due ({', '.join(mv.due(game, side))})", "FA-UNIT.1")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Place(uid, h) for uid, h in mv.arrivals(game, decision.side)]

    @on(Place)
    def arrive(self, game: Game, decision: Decision, order: Place) -> None:
        d = family_defs(game).get(order.unit)
        if d is None or d.side is not decision.side:
            raise IllegalOrderError("FA-UNIT.1", f"{order.unit!r} is not one of your units")
        problem = mv.entry_problem(game, order.unit, order.hex)
        if problem is not None:
            raise problem
        family_unit(game, order.unit).hex = order.hex
        game.log(f"{decision.side.display}: {order.unit} arrives in {order.hex}.", kind="event")

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> None:
        raise IllegalOrderError("FA-UNIT.1", f"the reinforcements due must enter first: {', '.join(mv.due(game, decision.side))}")


class AirStep(FAStep):
    """An airstrike step (FA-AIR.1): each ready air unit may attack a hex; the enemy may intercept."""

    def ask(self, game: Game, side: Side) -> Decision | None:
        if air.why_no_strike(game, side) is not None or not air.strike_targets(game, side):
            return None
        return Decision(side, self.key, self.prompt, "FA-AIR.1")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [*(Airstrike(h) for h in air.strike_targets(game, decision.side)), EndPhase()]

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """An air strike names the air unit that flies and what it risks (FA-AIR.1-2)."""
        return air.strike_words(game, decision.side, action.hex) if isinstance(action, Airstrike) else action.says()

    @on(Airstrike)
    def strike(self, game: Game, decision: Decision, order: Airstrike) -> None:
        air.strike(game, decision.side, order.hex)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True


class MovementStep(FAStep):
    """Operational movement (FA-TER.1-3, with GG-XIII)."""

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [a for block in self.action_blocks(game, decision) for a in block]

    def action_blocks(self, game: Game, decision: Decision) -> list[Sequence[Action]]:
        """Each unit's moves as the tuple kept with its search, then the end of the phase."""
        side = decision.side
        out: list[Sequence[Action]] = [*mv.move_blocks(game, side), (EndPhase(),)]
        return out

    @on(Move)
    def move(self, game: Game, decision: Decision, order: Move) -> None:
        mv.carry_out_move(game, order, mv.resolve_move(game, order, decision.side))

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> None:
        close_step(game, decision.side)

    def warns(self, game: Game, decision: Decision, action: Action) -> str:
        """A move that would put its hex over the stacking limit says so (the units over it are eliminated as the phase
        ends, GG-XII.B)."""
        return stacking(game).move_warning(game, decision.side, action.unit, action.path[-1]) if isinstance(action, Move) else ""

    def ending_costs(self, game: Game, side: Side) -> str:
        """The hexes over the stacking limit, whose excess units are eliminated as the phase ends (GG-XII.B)."""
        return stacking(game).ending_costs(game, side)


class AttackStep(FAStep):
    """Attacks (FA-CRT, with GG-XIV): pick a target and the attackers and declare (the battle mechanics'
    :class:`~tobruk.mechanics.battle.Declaring`), resolve or cancel; the step ends when every compulsory attack is
    made (GG-XIV.A.2) and the spent units' AR is done (GG-IX.B)."""

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        """Kept per board: an attack being made and abandoned comes back to the same board."""
        return list(_ATTACK_STEP.get(game, decision.side, lambda: tuple(self._actions(game, decision.side))))

    def _actions(self, game: Game, side: Side) -> list[Action]:
        out: list[Action] = []
        for entry in battles.pending(game):
            try:
                if cb.odds(game, entry.order, side, entry.id).column is not None:
                    out.append(Resolve(entry.id))
            except IllegalOrderError:
                pass  # its defenders have gone: it can only be cancelled
            out.append(Cancel(entry.id))
        out.extend(Target(h) for h in sorted({a.defenders[0] for a in suggestions(game, side)}))
        if not battles.pending(game) and not obligations(game, side, DUTIES):
            out.append(EndPhase())
        return out

    @on(Target)
    def target(self, game: Game, decision: Decision, order: Target) -> None:
        side = decision.side
        if not pos.ground_units(game, order.hex, side.enemy):
            raise IllegalOrderError("GG-XIV.A.2", f"{order.hex} holds no enemy units")
        if not any(h.is_adjacent(order.hex) for _, h in pos.on_map(game, side)):
            raise IllegalOrderError("GG-XIV.A.4", f"{order.hex} is next to none of your units")
        game.push_frame(battles.Declaring(side.value, (order.hex,)))

    @on(Resolve)
    def resolve(self, game: Game, decision: Decision, order: Resolve) -> None:
        battles.begin(game, order.attack, decision.side)

    @on(Cancel)
    def cancel(self, game: Game, decision: Decision, order: Cancel) -> None:
        battles.cancel(game, order.attack)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> None:
        side = decision.side
        if battles.pending(game):
            raise IllegalOrderError(
                "GG-XIV.C.1", f"resolve or cancel the declared attacks ({', '.join(str(a.id) for a in battles.pending(game))}) first"
            )
        due = obligations(game, side, DUTIES)
        if due:
            raise IllegalOrderError(
                "GG-XIV.A.2", f"these hexes hold unspent enemy units next to yours and must be attacked: {' '.join(h.label for h in due)}"
            )
        if not end_of_attacks(game, side):  # else GG-IX.B: the spent units' AR comes first
            close_step(game, side)

    def ending_costs(self, game: Game, side: Side) -> str:
        """The AR due (GG-IX.B), then the hexes over the stacking limit (GG-XII.B)."""
        return "; ".join(c for c in (battle_ending_costs(game, side), stacking(game).ending_costs(game, side)) if c)

    def unended(self, game: Game, side: Side) -> IllegalOrderError | None:
        if battles.pending(game):
            ids = ", ".join(str(a.id) for a in battles.pending(game))
            return IllegalOrderError("GG-XIV.C.1", f"the declared attacks ({ids}) are still to be resolved or cancelled")
        owing = owed(game, side, DUTIES)
        if owing:
            return IllegalOrderError(
                "GG-XIV.A.2", f"attacks still owed: {owed_words(owing)} (every hex of unspent enemy units next to yours must be attacked)"
            )
        return None

    def finish(self, game: Game) -> None:
        super().finish(game)
        alamein_vars(game).attacks = ()
        alamein_vars(game).attacked_units = ()
        alamein_vars(game).closing_retreats = None


class AutomaticStep(FAStep):
    """A step nobody decides: it runs by itself in :meth:`finish`."""

    decides = False

    def decision(self, game: Game) -> Decision | None:
        return None

    def finish(self, game: Game) -> None:
        super().finish(game)
        assert self.side is not None
        self.run(game, self.side)

    def run(self, game: Game, side: Side) -> None:
        raise NotImplementedError


class RecoveryStep(AutomaticStep):
    """Step 3 of a player-turn: recovery from Spent, by the last supply determination (GG-IX.E)."""

    def run(self, game: Game, side: Side) -> None:
        sp.recover(game, side)


class SupplyStep(AutomaticStep):
    """Step 4 of a player-turn: the supply status determination (GG-XV.A)."""

    def run(self, game: Game, side: Side) -> None:
        sp.determine(game, side)


class VictoryStep(AutomaticStep):
    """A side's victory determination (FA-SEQ.2-3; docs/rulings.md): the enemy boxes its unspent divisions stand
    in are eliminated (GG-XI.A.5); the Allies' one notes the boxes held at the start of their player-turn
    (GG-XI.A.3); the Axis one notes what it holds of the victory hexes (the last one decides the game)."""

    in_player_turn = False

    def run(self, game: Game, side: Side) -> None:
        vp.eliminate_boxes(game, side)
        pos.record_boxes_held(game, side)
        if side is AXIS:
            vp.note_holding(game)


def player_turn(side: Side, clause: str) -> list[FAStep]:
    """The four steps of a player-turn, its operations in the side's order (FA-SEQ.2-3)."""
    name = side.display
    enemy = side.enemy.display
    air_step = AirStep(
        f"{side.value}-airstrike",
        f"{name} airstrike",
        clause,
        side,
        f"send an air unit against a hex ({enemy} interception possible), or end the phase",
    )
    movement = MovementStep(f"{side.value}-movement", f"{name} operational movement", clause, side)
    operations: list[FAStep] = [air_step, movement] if side is AXIS else [movement, air_step]
    return [
        ReinforcementStep(f"{side.value}-reinforcement", f"{name} reinforcement", clause, side),
        *operations,
        AttackStep(f"{side.value}-attacks", f"{name} attacks", clause, side),
        RecoveryStep(f"{side.value}-recovery", f"{name} recovery from Spent", clause, side),
        SupplyStep(f"{side.value}-supply", f"{name} supply status determination", clause, side),
    ]


SETUP = SetupStep(
    "allied-setup",
    "Allied set-up",
    "CA-SC.7",
    ALLIED,
    "set up the units, one to a hex, off the west edge (or keep their positions), then end the phase",
)
GAME_TURN = (
    *player_turn(AXIS, "FA-SEQ.2"),
    VictoryStep("allied-victory", "Allied victory determination", "FA-SEQ.2", ALLIED),
    *player_turn(ALLIED, "FA-SEQ.3"),
    VictoryStep("axis-victory", "Axis victory determination", "FA-SEQ.3", AXIS),
)
FIRST_TURN = (SETUP, *GAME_TURN)


_ATTACK_STEP: Cache[tuple[Action, ...]] = Cache("first-alamein.attack-step", BOARD)  # an abandoned attack comes back to it
