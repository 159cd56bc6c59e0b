"""The Gazala Gallop's sequence of play (2016 charts, GG-VI) as steps: who decides what in each phase.

First turn: the set-up (historical, GG-V.A.1, or nonhistorical face down, GG-V.B), the Siege of Tobruk
(GG-XIV.B.6), then the player-turns; later turns open with the weather (GG-VIII).  Each player-turn:
victory determination, air, operational movement, attacks, recovery and supply determination (GG-VI.B-C,
IX.E) — the Allied player-turn moves before its airstrike and begins with the interception of the Axis
interdiction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex, in_reading_order
from tobruk.engine.actions import Action
from tobruk.engine.caching import BOARD, FIXED, Cache
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics import battle as battles
from tobruk.mechanics.actions import Airstrike, Attack, Cancel, EndPhase, Intercept, Move, Place, Resolve, Target
from tobruk.mechanics.counters import FAMILY_BITS, family_defs, family_unit
from tobruk.mechanics.duties import attack_targets as duty_targets
from tobruk.mechanics.duties import obligations, owed, owed_words, strands_a_duty
from tobruk.mechanics.duties import suggested_attacks as duty_suggestions
from tobruk.mechanics.phases import close_step, stacking
from tobruk.systems.gazala import air
from tobruk.systems.gazala import battle as bt
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala import victory as vp
from tobruk.systems.gazala.actions import Activate, Airlift, Convoy, Gallop
from tobruk.systems.gazala.moving import carry_out_move
from tobruk.systems.gazala.setup import SetupStep, SiegeStep
from tobruk.systems.gazala.state import gazala_vars
from tobruk.systems.gazala.steps import GazalaStep
from tobruk.systems.gazala.weather import WeatherStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game

AXIS, ALLIED = Side.AXIS, Side.ALLIED
ALLIED_CHOICE_PHASES = ("allied-movement", "allied-airstrike", "allied-attacks")  # GG-V.A.2, GG-XIII.E


# --- what several phases offer ------------------------------------------------------------------------
def air_orders(game: Game, phase: str, side: Side) -> list[Action]:
    """The air missions open to ``side`` in this phase (GG-X)."""
    if not air.available(game, side):
        return []
    interdicting = gazala_vars(game).interdiction
    enemy_interdiction = interdicting is not None and interdicting.side != side.value
    out: list[Action] = []
    if phase == "allied-interception" or (phase == "axis-airstrike" and enemy_interdiction):
        out = [Intercept()] if enemy_interdiction else []
        if phase == "allied-interception":
            return out
    if phase in ("axis-airstrike", "allied-airstrike"):
        out.extend(Airstrike(h) for h in air.strike_targets(game, side))
    if phase == "axis-recovery" and side is AXIS:
        out.extend(Airlift(h) for h in air.airlift_targets(game))
    return out


def fly(game: Game, decision: Decision, order: Action) -> None:
    """Send the side's air unit on a mission open to it now (GG-X.A-B)."""
    side = decision.side
    if order not in air_orders(game, decision.phase, side):
        why = air.why_unavailable(game, side)
        raise IllegalOrderError(
            "GG-X.A" if why is None else why.clause, f"'{order.notation()}' is not possible now" + (f": {why.reason}" if why else "")
        )
    if isinstance(order, Intercept):
        air.declare(game, side, "intercept-interdiction", None)
    elif isinstance(order, Airlift):
        air.declare(game, side, "airlift", order.hex)
    elif isinstance(order, Airstrike):
        air.declare(game, side, "strike", order.hex)


def activation_problem(game: Game, uid: str) -> IllegalOrderError | None:
    """Why ``uid`` may not be activated now (GG-V.A.2, A.4), or ``None``."""
    d = family_defs(game).get(uid)
    if d is None or d.side is not ALLIED or d.is_dummy or d.is_air:
        return IllegalOrderError("GG-V.A.2", f"{uid!r} is not an Allied ground unit")
    u = family_unit(game, uid)
    if u.activated:
        return IllegalOrderError("GG-V.A.2", f"{uid} is already active")
    if u.eliminated or u.hex is None:
        return IllegalOrderError("GG-V.A.2", f"{uid} is not on the map")
    if not gazala_vars(game).nonhistorical and mv.activations_left(game) <= 0:
        return IllegalOrderError("GG-V.A.4", "no activations left this turn (2, plus 1 per Allied unit lost in the Axis player-turn)")
    return None


def activatable(game: Game) -> list[str]:
    """The Allied units that may be activated now, in order of battle: those :func:`activation_problem` finds no
    problem with, found without a message for each of the others (the listing asks at every Allied decision)."""
    if not gazala_vars(game).nonhistorical and mv.activations_left(game) <= 0:
        return []
    defs, flags, row, activated = family_defs(game), game.state.units.flags, game.row_of, FAMILY_BITS["activated"]
    return [
        uid for uid, _ in game.placed(ALLIED) if not (d := defs[uid]).is_dummy and not d.is_air and not flags[row(uid) or 0] & activated
    ]


def gallop_problem(game: Game) -> IllegalOrderError | None:
    """Why the Gazala Gallop may not be called now (GG-XIII.E), or ``None``."""
    if gazala_vars(game).gallop_called:
        return IllegalOrderError("GG-XIII.E", "the Gazala Gallop has already been called")
    if not mv.gallop_candidates(game):
        return IllegalOrderError("GG-XIII.E", "no Allied units are on or within 1 hex of the Gazala Line")
    return None


def gallop_words(game: Game, phase: str) -> str:
    """GG-XIII.E (ruling R-GALLOP) for the Allied player's button: optional and once a game; the units on or within 1 hex
    of the Gazala Line, activated; from then on their moves go only NE, E or SE at twice the MF and the bonus, ending
    east of column 13 when they can; when they may flee (a unit moves once a game-turn, in the movement phase,
    GG-XIII.A.1); what it gives up (the line, and the call itself)."""
    units = mv.gallop_candidates(game)
    fleeing = [u for u in units if not mv.gazala_east(game, u)]
    if phase == "allied-movement":
        moved = [u for u in fleeing if family_unit(game, u).moved]
        when = "in this movement phase" + (
            f" ({', '.join(moved)} already moved this game-turn: in the next one's, GG-XIII.A.1)" if moved else ""
        )
    else:
        when = "in your next movement phase, next game-turn (units move only in the movement phase, once a game-turn, GG-XIII.A.1)"
    return (
        f"Optional, once a game: call the Gazala Gallop (GG-XIII.E). {', '.join(units)} (every Allied unit on or within 1 hex "
        f"of the Gazala Line) are activated and abandon the line: from then on each of their moves goes only NE, E or SE, "
        f"at twice its MF and movement bonus, and must end east of column {mv.GALLOP_BEYOND_COLUMN} when it can (none is "
        f"forced to move); they may flee {when}. It cannot be called back or called again"
    )


def arrivals(game: Game, side: Side) -> list[tuple[str, Hex]]:
    """GG-VII.B: reinforcements due and the hexes where they may enter."""
    out = []
    for uid, r in sorted(game.scenario.reinforcements.items()):
        u = family_unit(game, uid)
        if family_defs(game)[uid].side is side and r.turn <= game.turn and u.hex is None and not u.eliminated:
            for h in in_reading_order(game.scenario.zone(r.zone)):
                if not game.units_at(h, side.enemy):
                    out.append((uid, h))
    return out


class AlliedChoices(GazalaStep):
    """A phase of the Allied player-turn, in which he may also activate units and call the Gallop (GG-V.A.2,
    GG-XIII.E): at any of his decisions in his movement, airstrike and attack phases (ruling R-ACT)."""

    def choices(self, game: Game, side: Side) -> list[Action]:
        """The activations and the Gallop open now: what the handlers below accept is what is listed."""
        return list(self.choice_block(game, side))

    def choice_block(self, game: Game, side: Side) -> tuple[Action, ...]:
        """:meth:`choices` as a block of the listing, the same tuple for the same choices (its ids are kept with it)."""
        if side is not ALLIED or self.key not in ALLIED_CHOICE_PHASES:
            return ()
        units, gallop = tuple(activatable(game)), gallop_problem(game) is None
        return _CHOICES.get(game, (units, gallop), lambda: (*(Activate(uid) for uid in units), *((Gallop(),) if gallop else ())))

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """The Gazala Gallop in words: optional, once a game, which units flee, how, when, and what it gives up."""
        if isinstance(action, Gallop):
            return gallop_words(game, self.key)
        return super().says(game, decision, action)

    @on(Activate)
    def activate(self, game: Game, decision: Decision, order: Activate) -> None:
        if decision.side is not ALLIED or self.key not in ALLIED_CHOICE_PHASES:
            raise self.refuse(game, decision, order)
        problem = activation_problem(game, order.unit)
        if problem is not None:
            raise problem
        mv.activate(game, order.unit, counted=not gazala_vars(game).nonhistorical)
        hd.reveal(game, order.unit, "activated")
        game.log(f"Allied: {order.unit} activated.")

    @on(Gallop)
    def gallop(self, game: Game, decision: Decision, order: Gallop) -> None:
        if decision.side is not ALLIED or self.key not in ALLIED_CHOICE_PHASES:
            raise self.refuse(game, decision, order)
        problem = gallop_problem(game)
        if problem is not None:
            raise problem
        units = mv.gallop_candidates(game)
        for uid in units:
            mv.activate(game, uid, counted=False)
            hd.reveal(game, uid, "the Gazala Gallop")
        gazala_vars(game).gallop_called = True
        gazala_vars(game).gallop = tuple(sorted(u for u in units if not mv.gazala_east(game, u)))
        game.log(f"Allied: the Gazala Gallop! {', '.join(units)} flee east.", kind="event")


# --- the steps ------------------------------------------------------------------------------------------
class VictoryStep(GazalaStep):
    """A side's victory determination: enemy boxes fall (GG-XI.A.5), the Allied sudden victory (GG-IV.A.1)."""

    decides = False

    def enter(self, game: Game) -> None:
        air.start_of_player_turn(game)

    def decision(self, game: Game) -> Decision | None:
        return None

    def finish(self, game: Game) -> None:
        super().finish(game)
        assert self.side is not None
        vp.eliminate_boxes(game, self.side)
        if self.side is ALLIED and vp.sudden_victory(game):
            return
        mv.record_boxes_held(game, self.side)


class AirStep(AlliedChoices):
    """An airstrike phase, or the Allied interception of the Axis interdiction (GG-X.A-B)."""

    def ask(self, game: Game, side: Side) -> Decision | None:
        if not air_orders(game, self.key, side):
            return None
        return Decision(side, self.key, self.prompt, "GG-X.A")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [*air_orders(game, self.key, decision.side), *self.choices(game, decision.side), EndPhase()]

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """An air strike names the air unit that flies and what it risks (GG-X.B.1, X.C); an interception of the enemy's
        interdiction, the air units and its chances (GG-X.B.3)."""
        if isinstance(action, Airstrike):
            return air.strike_words(game, decision.side, action.hex)
        return air.interdiction_words(game, decision.side) if isinstance(action, Intercept) else super().says(game, decision, action)

    @on(Airstrike, Airlift, Intercept)
    def fly(self, game: Game, decision: Decision, order: Action) -> None:
        fly(game, decision, order)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True


class MovementStep(AlliedChoices):
    """Operational movement (GG-XIII), with reinforcements entering (GG-VII.B)."""

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [a for block in self.action_blocks(game, decision) for a in block]

    def action_blocks(self, game: Game, decision: Decision) -> list[Sequence[Action]]:
        """The choices and arrivals, then each unit's moves as the tuple kept with its search, then the end."""
        side = decision.side
        due = arrivals(game, side)
        first = self.choice_block(game, side)
        out: list[Sequence[Action]] = [(*first, *(Place(uid, h) for uid, h in due)) if due else first]
        out.extend(mv.move_blocks(game, side))
        out.append((EndPhase(),))
        return out

    def heading(self, game: Game, decision: Decision, action: Action) -> str:
        """A unit's forms of move in words: a plain move (a galloping unit's says how it must go, GG-XIII.E), or a move
        by trucks with what it costs and the convoys the side has left this game-turn (GG-XIII.A.2c, XV.A.4)."""
        if not isinstance(action, Move):
            return super().heading(game, decision, action)
        return move_heading(game, decision.side, action.unit, action.trucks)

    @on(Move)
    def move(self, game: Game, decision: Decision, order: Move) -> None:
        carry_out_move(game, order, mv.resolve_move(game, order, decision.side))

    @on(Place)
    def arrive(self, game: Game, decision: Decision, order: Place) -> None:
        side = decision.side
        if (order.unit, order.hex) not in arrivals(game, side):
            r = game.scenario.reinforcements.get(order.unit)
            where = f"on turn {r.turn} in {r.zone}" if r else "never (it is not a reinforcement)"
            raise IllegalOrderError("GG-VII.B", f"{order.unit} cannot enter in {order.hex}; it arrives {where}")
        u = family_unit(game, order.unit)
        u.hex = order.hex
        u.activated = True  # ruling R-REINF: a reinforcement arrives active
        game.log(f"{side.display}: {order.unit} arrives in {order.hex}.", kind="event")

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> None:
        close_step(game, decision.side)

    def warns(self, game: Game, decision: Decision, action: Action) -> str:
        """A move, or a reinforcement's arrival, that would put its hex over the stacking limit says so (the units over
        it are eliminated as the phase ends, GG-XII.B)."""
        if isinstance(action, Place):
            return stacking(game).move_warning(game, decision.side, action.unit, action.hex, entering=True)
        return stacking(game).move_warning(game, decision.side, action.unit, action.path[-1]) if isinstance(action, Move) else ""

    def ending_costs(self, game: Game, side: Side) -> str:
        """The hexes over the stacking limit, whose excess units are eliminated as the phase ends (GG-XII.B)."""
        return stacking(game).ending_costs(game, side)


def move_heading(game: Game, side: Side, uid: str, trucks: bool) -> str:
    """The heading of a form of ``uid``'s move, in words (see :meth:`MovementStep.heading`)."""
    if not trucks:
        if uid in mv.galloping(game):
            return (
                f"Move (galloping: NE, E or SE only, twice the MF and bonus, to end east of column {mv.GALLOP_BEYOND_COLUMN} "
                "if it can, GG-XIII.E)"
            )
        return "Move"
    need = family_defs(game)[uid].attack
    left = mv.convoys_left(game, side)
    return (
        f"Move by trucks: {mv.CONVOY_MF} MF at the motorized rate, one truck convoy per attack factor ({need} for {uid}); "
        f"{left} of the {side.display} side's {mv.CONVOYS[side]} convoys left this game-turn, shared with supply "
        "(GG-XIII.A.2c, XV.A.4)"
    )


def end_of_battles(game: Game) -> None:
    """A fresh start for the next attack phase's battles (no battle happens in any other phase)."""
    gazala_vars(game).attacks = ()
    gazala_vars(game).attacked_units = ()


class AttackStep(AlliedChoices):
    """Ground combat (GG-XIV, with IX and XI): declare, resolve or cancel, then end the phase when every
    compulsory attack is made (GG-XIV.A.2) and the disrupted units' AR is done (GG-IX.B)."""

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        """Kept per board: an attack being made and abandoned comes back to the same board."""
        return list(_ATTACK_STEP.get(game, decision.side, lambda: tuple(self._actions(game, decision.side))))

    def _actions(self, game: Game, side: Side) -> list[Action]:
        out = self.choices(game, side)
        out.extend(attack_orders(game, side))
        if battles.pending(game) or obligations(game, side, bt.DUTIES):
            return out  # GG-XIV.A.2, C.1: the phase cannot end yet
        out.append(EndPhase())
        return out

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """A declared attack's resolve and cancel name its hexes, its units and its odds; an attack whose defending hexes
        are empty now (the earlier attacks destroyed or drove off every enemy unit there) says it can only be withdrawn
        (GG-XIV.A.6)."""
        if isinstance(action, Resolve | Cancel):
            return attack_words(game, decision.side, action)
        return super().says(game, decision, action)

    @on(Target)
    def target(self, game: Game, decision: Decision, order: Target) -> None:
        side = decision.side
        if not cb.units_in(game, order.hex, side.enemy):
            raise IllegalOrderError("GG-XIV.A.2", f"{order.hex} holds no enemy units")
        if not any(h.is_adjacent(order.hex) for _, h in mv.on_map(game, side)):
            raise IllegalOrderError("GG-XIV.A.4", f"{order.hex} is next to none of your units")
        game.push_frame(battles.Declaring(decision.side.value, (order.hex,)))

    @on(Resolve)
    def resolve(self, game: Game, decision: Decision, order: Resolve) -> None:
        side = decision.side
        target = battles.find(game, order.attack).order
        if not hd.hidden_in(game, target.defenders, side.enemy) and cb.odds(game, target, side, order.attack).column is None:
            raise IllegalOrderError("GG-XIV.B.4", "this attack is now below 1:4: cancel it")
        battles.begin(game, order.attack, side)

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
        due = obligations(game, side, bt.DUTIES)
        if due:
            raise IllegalOrderError(
                "GG-XIV.A.2",
                "these hexes hold undisrupted (or face-down) enemy units next to "
                f"yours and must be attacked: {' '.join(h.label for h in due)}",
            )
        if not bt.end_of_attacks(game, side):  # else GG-IX.B: the disrupted units' AR comes first
            close_step(game, side)

    def ending_costs(self, game: Game, side: Side) -> str:
        """The AR due (GG-IX.B), then the hexes over the stacking limit (GG-XII.B)."""
        return "; ".join(c for c in (bt.ending_costs(game, side), stacking(game).ending_costs(game, side)) if c)

    def unended(self, game: Game, side: Side) -> IllegalOrderError | None:
        if battles.pending(game):
            ids = ", ".join(str(a.id) for a in battles.pending(game))
            return IllegalOrderError("GG-XIV.C.1", f"the declared attacks ({ids}) are still to be resolved or cancelled")
        owing = owed(game, side, bt.DUTIES)
        if owing:
            return IllegalOrderError(
                "GG-XIV.A.2",
                f"attacks still owed: {owed_words(owing)} (every hex of undisrupted, or face-down, enemy units next to yours must be "
                "attacked)",
            )
        return None

    def finish(self, game: Game) -> None:
        super().finish(game)
        end_of_battles(game)


def check_declaration(game: Game, order: Attack, side: Side) -> None:
    """Whether ``order`` may be declared now (its units and hexes, odds of 1:4 or better, no due hex stranded); kept
    per board: the listing, each step of the declaration being made and the declaration itself ask it."""
    _DECLARATION.check(game, (order, side), lambda: _check_declaration(game, order, side))


def _check_declaration(game: Game, order: Attack, side: Side) -> None:
    a = cb.odds(game, order, side)
    if a.column is None and not hd.hidden_in(game, order.defenders, side.enemy):  # (odds unknown if face down)
        raise IllegalOrderError("GG-XIV.B.4", f"attacks below 1:4 are not allowed ({a.attack2 / 2:g} to {a.defence2 / 2:g})")
    stranded = strands_a_duty(game, order, side, bt.DUTIES)
    if stranded is not None:
        raise IllegalOrderError(
            "GG-XIV.A.2",
            f"this would leave {stranded}, which must be attacked, with no unit able to attack it: include it or keep units for it",
        )


def attack_orders(game: Game, side: Side) -> list[Action]:
    """Declarations worth listing (full factors: the strongest group, each hex's stack, each unit), and
    resolve/cancel for the declared ones.  Any other legal declaration is accepted by ``play`` too."""
    out: list[Action] = []
    for entry in battles.pending(game):
        order = entry.order
        try:
            if hd.hidden_in(game, order.defenders, side.enemy) or cb.odds(game, order, side, entry.id).column is not None:
                out.append(Resolve(entry.id))
        except IllegalOrderError:
            pass  # its defenders have gone, or it no longer adds up: it can only be cancelled
        out.append(Cancel(entry.id))
    out.extend(Target(h) for h in attack_targets(game, side))
    return out


def attack_words(game: Game, side: Side, action: Resolve | Cancel) -> str:
    """The die or the withdrawal of a declared attack in words (GG-XIV.C.1, A.6), as ``side`` knows the position: a
    hex with counters of the enemy's in it (face down or not) is never called empty."""
    entry = battles.find(game, action.attack)
    order = entry.order
    where = f"attack {entry.id} on {' '.join(h.label for h in order.defenders)} by {', '.join(order.attackers)}"
    empty = [h.label for h in order.defenders if not cb.units_in(game, h, side.enemy)]
    if isinstance(action, Cancel):
        if len(empty) == len(order.defenders):
            return (
                f"Cancel {where}: no enemy unit is left in {' '.join(empty)} (destroyed or retreated since it was declared), "
                f"so it cannot be rolled; its units are free again (GG-XIV.A.6)"
            )
        if empty:
            return (
                f"Cancel {where}: {' '.join(empty)} is empty now, so it cannot be rolled as declared; its units are free "
                "to attack the rest again (GG-XIV.A.6)"
            )
        return f"Cancel {where}: withdraw it before it is rolled; its units are free again (GG-XIV.A.6)"
    try:
        odds = bt.BATTLE.odds_label(game, order, side, entry.id)
    except IllegalOrderError:
        return action.says()
    return f"Roll the die for {where} ({odds}) (GG-XIV.C.2)"


def suggested_attacks(game: Game, side: Side) -> list[Action]:
    """The strongest group against each enemy hex, each hex's stack and each unit alone, widened to take in the due
    hexes they would otherwise strand (R-DUTY); only legal declarations."""
    return list(duty_suggestions(game, side, bt.DUTIES, lambda order: check_declaration(game, order, side)))


def attack_targets(game: Game, side: Side) -> list[Hex]:
    """The enemy hexes a legal declaration may be aimed at now (the listing's targets)."""
    return duty_targets(game, side, bt.DUTIES, lambda order: check_declaration(game, order, side))


class RecoveryStep(GazalaStep):
    """Recovery and supply determination (GG-IX.E, XV): truck convoys first (GG-XV.A.4), and for the Axis
    the Luftwaffe's aerial resupply (GG-X.B.2); then supply is marked and units in supply recover."""

    def enter(self, game: Game) -> None:
        assert self.side is not None
        sp.begin_determination(game, self.side)

    def ask(self, game: Game, side: Side) -> Decision | None:
        # a side with face-down counters is always asked while it has convoys: whether one of them is
        # out of supply (a dummy never is) must not show in whether the game stops here
        secret = mv.convoys_left(game, side) > 0 and bool(hd.face_down_on_map(game, side))
        if not secret and not sp.convoy_candidates(game, side) and not air_orders(game, self.key, side):
            return None
        return Decision(side, self.key, "send truck convoys to units out of supply, then end the phase", "GG-XV.A.4")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        side = decision.side
        return [*(Convoy(u) for u in sp.convoy_candidates(game, side)), *air_orders(game, self.key, side), EndPhase()]

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """The Luftwaffe's aerial resupply names the units it supplies and what an interception may do (GG-X.B.2-3)."""
        return air.airlift_words(game, decision.side, action.hex) if isinstance(action, Airlift) else super().says(game, decision, action)

    @on(Convoy)
    def convoy(self, game: Game, decision: Decision, order: Convoy) -> None:
        side = decision.side
        if order.unit not in sp.convoy_candidates(game, side):
            raise IllegalOrderError(
                "GG-XV.A.4",
                f"no truck convoy can go to {order.unit} now (convoys left: "
                f"{mv.convoys_left(game, side)}; only units out of supply that "
                "are divisions, independent brigades or their brigades)",
            )
        gazala_vars(game).convoy_tried = gazala_vars(game).convoy_tried | {
            side.value: (*gazala_vars(game).convoy_tried.get(side.value, ()), order.unit)
        }
        sp.convoy(game, order.unit, side)

    @on(Airstrike, Airlift, Intercept)
    def fly(self, game: Game, decision: Decision, order: Action) -> None:
        fly(game, decision, order)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True

    def finish(self, game: Game) -> None:
        super().finish(game)
        assert self.side is not None
        sp.finish_determination(game, self.side)
        gazala_vars(game).convoy_tried = {}
        air.end_of_enemy_player_turn(game, self.side)


SETUP = SetupStep(
    "axis-setup",
    "Axis set-up",
    "GG-V.A.1",
    AXIS,
    "place the units on the Axis side of the Gazala Line (or south of it in columns 1-6), then end the phase",
)
ALLIED_SETUP = SetupStep(
    "allied-setup",
    "Allied set-up, face down",
    "GG-V.B.1",
    ALLIED,
    "place every unit and the 2 dummies face down on the Allied side of the Gazala Line (or south of it in columns 8-18), "
    "then end the phase",
)
AXIS_FREE_SETUP = SetupStep("axis-setup", "Axis set-up", "GG-V.B.3", AXIS, SETUP.prompt)
WEATHER = WeatherStep(
    "weather",
    "Weather determination",
    "GG-VIII.0",
    ALLIED,
    "name two different numbers, then the Axis player rolls a die: your sandstorm number followed by a 4-6 brings a sandstorm, "
    "your rainstorm number twice running brings rain, anything else is clear (any pair gives the same chances: "
    "a sandstorm 1 in 12, rain 1 in 36)",
)
SIEGE = SiegeStep("allied-siege", "Siege of Tobruk", "GG-XIV.B.6", ALLIED)
PLAYER_TURNS = (
    VictoryStep("axis-victory", "Axis victory determination", "GG-VI.B", AXIS),
    AirStep(
        "axis-airstrike",
        "Axis airstrike",
        "GG-VI.B",
        AXIS,
        "send the air unit against a hex (or intercept the enemy's interdiction), or end the phase",
    ),
    MovementStep("axis-movement", "Axis operational movement", "GG-VI.B", AXIS),
    AttackStep("axis-attacks", "Axis attacks", "GG-VI.B", AXIS),
    RecoveryStep("axis-recovery", "Axis recovery and supply determination", "GG-IX.E", AXIS),
    VictoryStep("allied-victory", "Allied victory determination", "GG-VI.C", ALLIED),
    AirStep("allied-interception", "Allied interception of Axis interdiction", "GG-VI.C", ALLIED, "intercept the enemy's interdiction"),
    MovementStep("allied-movement", "Allied operational movement", "GG-VI.C", ALLIED),
    AirStep(
        "allied-airstrike",
        "Allied airstrike",
        "GG-VI.C",
        ALLIED,
        "send the air unit against a hex (or intercept the enemy's interdiction), or end the phase",
    ),
    AttackStep("allied-attacks", "Allied attacks", "GG-VI.C", ALLIED),
    RecoveryStep("allied-recovery", "Allied recovery and supply determination", "GG-IX.E", ALLIED),
)
FIRST_TURN = (SETUP, SIEGE, *PLAYER_TURNS)
NONHISTORICAL_FIRST_TURN = (ALLIED_SETUP, AXIS_FREE_SETUP, SIEGE, *PLAYER_TURNS)
LATER_TURNS = (WEATHER, SIEGE, *PLAYER_TURNS)


_CHOICES: Cache[tuple[Action, ...]] = Cache("gazala.allied-choices", FIXED)  # the same block for the same choices
_ATTACK_STEP: Cache[tuple[Action, ...]] = Cache("gazala.attack-step", BOARD)  # an abandoned attack comes back to it
_DECLARATION: Cache[None] = Cache("gazala.declaration", BOARD)
