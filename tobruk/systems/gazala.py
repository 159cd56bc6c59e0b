"""The Gazala Gallop: its sequence of play (2016 charts, GG-VI) and the rules implemented so far.

Implemented: the game-turn sequence (GG-VI.A-D) over 14 turns (GG-VII.A); the historical
set-up with the Axis free placement (GG-V.A.1); weather determination (GG-VIII.0, A, B);
operational movement with zones of control, boxes and forts, escarpments, disruption and
weather caps (GG-XIII, XI.A.2-4, XI.C-D, IX.A, VIII.A.2/4, VIII.B.2); Allied activation (GG-V.A.2-4);
the Crusader breakdown (GG-XIII.D); the Gazala Gallop (GG-XIII.E); truck convoys carrying
infantry (GG-XV.A.4); the turn 7 reinforcement (GG-VII.B); stacking (GG-XII).  The air, combat,
supply and victory rules fill their phases as they arrive; until then those phases end on
``end-phase``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.errors import IllegalOrderError
from tobruk.hexes import Hex
from tobruk.orders import (
    Activate,
    Airlift,
    Airstrike,
    Attack,
    Cancel,
    Convoy,
    Eliminate,
    EndPhase,
    EndRetreat,
    Gallop,
    Intercept,
    Move,
    NoIntercept,
    NoRetreat,
    Order,
    Place,
    Resolve,
    Retreat,
    RetreatDistance,
    Weather,
    format_order,
)
from tobruk.sides import Side
from tobruk.systems import gazala_air as air
from tobruk.systems import gazala_battle as battle
from tobruk.systems import gazala_combat as cb
from tobruk.systems import gazala_hidden as hd
from tobruk.systems import gazala_moves as mv
from tobruk.systems import gazala_supply as sp
from tobruk.systems import gazala_victory as vp
from tobruk.systems import register
from tobruk.systems.base import Decision, Phase, System
from tobruk.systems.gazala_control import set_initial_control

if TYPE_CHECKING:
    from tobruk.game import Game

AXIS, ALLIED = Side.AXIS, Side.ALLIED

SETUP = Phase("axis-setup", "Axis set-up", "GG-V.A.1", AXIS)
ALLIED_SETUP = Phase("allied-setup", "Allied set-up, face down", "GG-V.B.1", ALLIED)
AXIS_FREE_SETUP = Phase("axis-setup", "Axis set-up", "GG-V.B.3", AXIS)
WEATHER = Phase("weather", "Weather determination", "GG-VIII.0", ALLIED)
SIEGE = Phase("allied-siege", "Siege of Tobruk", "GG-XIV.B.6", ALLIED)
PLAYER_TURNS: tuple[Phase, ...] = (
    Phase("axis-victory", "Axis victory determination", "GG-VI.B", None),
    Phase("axis-airstrike", "Axis airstrike", "GG-VI.B", AXIS),
    Phase("axis-movement", "Axis operational movement", "GG-VI.B", AXIS),
    Phase("axis-attacks", "Axis attacks", "GG-VI.B", AXIS),
    Phase("axis-recovery", "Axis recovery and supply determination", "GG-IX.E", AXIS),
    Phase("allied-victory", "Allied victory determination", "GG-VI.C", None),
    Phase("allied-interception", "Allied interception of Axis interdiction", "GG-VI.C", ALLIED),
    Phase("allied-movement", "Allied operational movement", "GG-VI.C", ALLIED),
    Phase("allied-airstrike", "Allied airstrike", "GG-VI.C", ALLIED),
    Phase("allied-attacks", "Allied attacks", "GG-VI.C", ALLIED),
    Phase("allied-recovery", "Allied recovery and supply determination", "GG-IX.E", ALLIED),
)
FIRST_TURN = (SETUP, SIEGE, *PLAYER_TURNS)
NONHISTORICAL_FIRST_TURN = (ALLIED_SETUP, AXIS_FREE_SETUP, SIEGE, *PLAYER_TURNS)
LATER_TURNS = (WEATHER, SIEGE, *PLAYER_TURNS)
SETUP_PHASES = ("axis-setup", "allied-setup")
ALLIED_CHOICE_PHASES = ("allied-movement", "allied-airstrike", "allied-attacks")
RECOVERY_PHASES = ("axis-recovery", "allied-recovery")
AIRSTRIKE_PHASES = ("axis-airstrike", "allied-airstrike")
AIR_PHASES = ("axis-airstrike", "allied-airstrike", "allied-interception", "axis-recovery")
STACKING_PHASES = ("axis-movement", "axis-attacks", "allied-movement", "allied-attacks")
ATTACK_PHASES = ("axis-attacks", "allied-attacks")
BATTLE_ORDERS = (NoRetreat, RetreatDistance, Retreat, EndRetreat)


def stacking_problem(game: Game, uids: Sequence[str]) -> str | None:
    """Why these units may not share a hex (GG-XII.A.1-3), or ``None``; dummies do not count."""
    defs = [game.defs[u] for u in uids]
    if len({d.side for d in defs}) > 1:
        return "only one side's units may be in a hex [GG-XII.A.1]"
    real = [d for d in defs if not d.is_dummy]
    if len(real) > mv.STACK_UNITS:
        return f"at most {mv.STACK_UNITS} units in a hex [GG-XII.A.2]"
    if sum(d.is_division for d in real) > mv.STACK_DIVISIONS:
        return f"at most {mv.STACK_DIVISIONS} division-level units in a hex [GG-XII.A.2]"
    return None


def _illegal(problem: str) -> IllegalOrderError:
    reason, _, clause = problem.rpartition(" [")
    return IllegalOrderError(clause.rstrip("]"), reason)


@register
class GazalaGallop(System):
    name = "gazala-gallop"
    title = "The Gazala Gallop"

    def phases(self, game: Game) -> Sequence[Phase]:
        if game.state.turn > 1:
            return LATER_TURNS
        return NONHISTORICAL_FIRST_TURN if game.state.data.get("nonhistorical") else FIRST_TURN

    def setup(self, game: Game) -> None:
        nonhistorical = "nonhistorical" in game.options
        for uid, d in game.defs.items():
            if d.side is ALLIED:  # GG-V.A.2: Allied units start inactive
                game.unit(uid).activated = False
        game.state.data["nonhistorical"] = nonhistorical
        if nonhistorical:
            hd.hide_allied_units(game)
        set_initial_control(game)
        game.log(f"Turn 1. {game.scenario.title}: {'nonhistorical' if nonhistorical else 'historical'} set-up.")

    def begin_turn(self, game: Game) -> None:
        for u in game.state.units.values():
            u.moved = False
            u.attacked = False
        game.state.data["convoys_used"] = {}
        game.log(f"Turn {game.state.turn}.")

    # --- decisions ------------------------------------------------------------------------------
    def decision(self, game: Game, phase: Phase) -> Decision | None:
        if phase.side is None:
            return None
        mission = air.pending(game)
        if phase.key in AIR_PHASES and mission is not None:
            enemy = Side(mission["side"]).enemy
            return Decision(enemy, phase.key, f"intercept {mission['air']}'s mission over {mission['hex']}, or not",
                            "GG-X.B.3")
        if phase.key in AIRSTRIKE_PHASES or phase.key == "allied-interception":
            if not self._air_orders(game, phase.key, phase.side):
                return None
            what = "intercept the enemy's interdiction" if phase.key == "allied-interception" else \
                "send the air unit against a hex (or intercept the enemy's interdiction), or end-phase"
            return Decision(phase.side, phase.key, what, "GG-X.A")
        if phase.key in RECOVERY_PHASES:
            # a side with face-down counters is always asked while it has convoys: whether one of them is
            # out of supply (a dummy never is) must not show in whether the game stops here
            secret = mv.convoys_left(game, phase.side) > 0 and bool(hd.face_down_on_map(game, phase.side))
            if not secret and not self._convoy_candidates(game, phase.side) \
                    and not self._air_orders(game, phase.key, phase.side):
                return None
            return Decision(phase.side, phase.key, "send truck convoys to units out of supply, then end-phase",
                            "GG-XV.A.4")
        if phase.key in ATTACK_PHASES:
            asked = battle.decision(game)
            if asked is not None:
                side, prompt = asked
                return Decision(side, phase.key, prompt, "GG-XIV.D.1" if "retreat" in prompt else "GG-XIV.B.5")
        if phase.key in STACKING_PHASES and game.state.data.get("stacking") == phase.key:
            hexes = " ".join(h.label for h in sorted(mv.overstacked(game, phase.side)))
            return Decision(phase.side, phase.key, f"eliminate units over the stacking limit in {hexes}", "GG-XII.B")
        if phase.key == "allied-siege":
            if not (hd.siege_available(game) and hd.siege_threatened(game)):
                return None
            return Decision(ALLIED, phase.key, "turn the Tobruk garrison face down and redeploy it with the 2 dummies "
                                               "inside the perimeter, or end-phase", "GG-XIV.B.6")
        prompts = {
            "allied-setup": "place every unit and the 2 dummies face down on the Allied side of the Gazala Line "
                            "(or south of it in columns 8-18), then end-phase",
            "axis-setup": "place the units on the Axis side of the Gazala Line (or south of it in columns 1-6), "
                          "then end-phase",
            "weather": "name the sandstorm and the rainstorm numbers (the Axis player then rolls)",
        }
        return Decision(phase.side, phase.key, prompts.get(phase.key, phase.title.split(" ", 1)[1]), phase.clause)

    def legal_orders(self, game: Game, decision: Decision) -> list[Order]:
        phase, side = decision.phase, decision.side
        if phase == "weather":
            return [Weather(s, r) for s in range(1, 7) for r in range(1, 7) if s != r]
        if decision.clause == "GG-X.B.3":
            return [Intercept(), NoIntercept()]
        if phase in AIRSTRIKE_PHASES or phase == "allied-interception":
            choices = self._allied_choices(game) if side is ALLIED and phase in ALLIED_CHOICE_PHASES else []
            return [*self._air_orders(game, phase, side), *choices, EndPhase()]
        if phase in RECOVERY_PHASES:
            return [*(Convoy(u) for u in self._convoy_candidates(game, side)), *self._air_orders(game, phase, side),
                    EndPhase()]
        if decision.clause == "GG-XII.B":
            return [Eliminate(uid) for ids in mv.overstacked(game, side).values() for uid in ids]
        if phase in ATTACK_PHASES and game.state.data.get("combat"):
            return battle.legal(game)
        orders: list[Order] = []
        if phase in SETUP_PHASES:
            zones, occupants = self._setup_zones(game, side), game.occupants()
            in_order = {name: sorted(game.scenario.zone(name)) for name in set(zones.values())}
            for uid, zone_name in zones.items():
                here = game.unit(uid).hex
                for h in in_order[zone_name]:
                    if h != here and self._placement_problem(game, uid, h, zones, occupants) is None:
                        orders.append(Place(uid, h))
            if phase == "allied-setup" and hd.dummy_problem(game) is not None:
                return orders  # GG-V.B.1: the dummies first
        if phase == "allied-siege":
            zone = sorted(hd.siege_zone(game))
            for uid in hd.siege_units(game):
                if uid in game.state.data.get("placed", []):
                    continue  # each counter is redeployed once (undo to change it)
                for h in zone:
                    if h != game.unit(uid).hex and stacking_problem(game, [*[u for u in game.units_at(h) if u != uid],
                                                                           uid]) is None:
                        orders.append(Place(uid, h))
        if side is ALLIED and phase in ALLIED_CHOICE_PHASES:
            orders.extend(self._allied_choices(game))
        if phase in ("axis-movement", "allied-movement"):
            for uid, h in self._arrivals(game, side):
                orders.append(Place(uid, h))
            parts = mv.side_parts(game, side)
            for uid in game.units_of(side):
                for trucks in (False, True):
                    orders.extend(mv.move_orders(game, uid, trucks, parts))
        if phase in ATTACK_PHASES:
            orders.extend(self._attack_orders(game, side))
            if battle.pending(game) or battle.obligations(game, side):
                return orders  # GG-XIV.A.2, C.1: the phase cannot end yet
        orders.append(EndPhase())
        return orders

    def _allied_choices(self, game: Game) -> list[Order]:
        """Activations and the Gallop: the Allied player's at any of his decisions in his operations (ruling R-ACT)."""
        orders: list[Order] = [Activate(uid) for uid in game.units_of(ALLIED) if self._activation_problem(game, uid) is None]
        if self._gallop_problem(game) is None:
            orders.append(Gallop())
        return orders

    def _attack_orders(self, game: Game, side: Side) -> list[Order]:
        """Declarations worth listing (full factors: the strongest group, each hex's stack, each unit), and
        resolve/cancel for the declared ones.  Any other legal declaration is accepted by ``play`` too."""
        out: list[Order] = []
        for entry in battle.pending(game):
            order = battle.order_of(entry)
            try:
                if hd.hidden_in(game, order.defenders, side.enemy) or \
                        cb.assess(game, order, side, entry["id"]).column is not None:
                    out.append(Resolve(entry["id"]))
            except IllegalOrderError:
                pass  # its defenders have gone, or it no longer adds up: it can only be cancelled
            out.append(Cancel(entry["id"]))
        able = battle.able_attackers(game, side, include_held=True)
        targets = sorted({n for h in able for n in h.neighbours() if cb.units_in(game, n, side.enemy)})
        for target in targets:
            groups = {battle.attack_group(game, target, able)} - {()}
            groups |= {tuple(able[h]) for h in able if h.is_adjacent(target)}
            groups |= {(u,) for h in able if h.is_adjacent(target) for u in able[h]}
            for group in sorted(groups):
                order = Attack((target,), group)
                for _ in range(6):  # widen to take in the due hexes it would otherwise strand (R-DUTY)
                    try:
                        self._check_declaration(game, order, side)
                    except IllegalOrderError:
                        stranded = battle.strands_a_duty(game, order, side)
                        if stranded is None:
                            break
                        order = Attack((*order.defenders, stranded), order.attackers)
                        continue
                    if order not in out:
                        out.append(order)
                    break
        return out

    def _check_declaration(self, game: Game, order: Attack, side: Side) -> None:
        a = cb.assess(game, order, side)
        if a.column is None and not hd.hidden_in(game, order.defenders, side.enemy):  # (odds unknown if face down)
            raise IllegalOrderError("GG-XIV.B.4", f"attacks below 1:4 are not allowed "
                                                  f"({a.attack2 / 2:g} to {a.defence2 / 2:g})")
        stranded = battle.strands_a_duty(game, order, side)
        if stranded is not None:
            raise IllegalOrderError("GG-XIV.A.2", f"this would leave {stranded}, which must be attacked, with no unit "
                                                  "able to attack it: include it or keep units for it")

    # --- checks ------------------------------------------------------------------------------------
    def _setup_zones(self, game: Game, side: Side) -> dict[str, str]:
        """Which units may be placed in the set-up, and where (GG-V.A.1; GG-V.B.1 and B.3 nonhistorical)."""
        if not hd.nonhistorical(game):
            return {u: z for u, z in game.scenario.setup_zone.items() if game.defs[u].side is side}
        zone = "allied-nonhistorical-setup" if side is ALLIED else "axis-free-setup"
        return {u: zone for u in hd.pool_units(game, side)}

    def _placement_problem(self, game: Game, uid: str, h: Hex, zones: dict[str, str] | None = None,
                           occupants: dict[Hex, list[str]] | None = None) -> str | None:
        """Why ``uid`` may not be set up in ``h``, or ``None``.  A listing passes its side's ``zones`` and the
        ``occupants`` of the position, worked out once for all its units and hexes."""
        d = game.defs.get(uid)
        clause = "GG-V.A.1"
        if hd.nonhistorical(game):
            clause = "GG-V.B.1" if d is not None and d.side is ALLIED else "GG-V.B.3"
        if d is not None and zones is None:
            zones = self._setup_zones(game, d.side)
        zone_name = zones.get(uid) if d is not None and zones is not None else None
        if zone_name is None:
            return f"{uid} has a fixed historical set-up position [{clause}]"
        if h not in game.scenario.zone(zone_name):
            return f"{h} is outside the set-up zone {zone_name!r} [{clause}]"
        if uid in game.state.data.get("placed", []):
            return f"{uid} has been placed already; undo to place it elsewhere [{clause}]"
        if d is not None and d.is_dummy:
            boxes = {b for b, s in game.scenario.map.fortifications.items() if s is d.side}
            here = game.units_at(h) if occupants is None else occupants.get(h, [])
            fixed = [u for u in here if game.defs[u].side is d.side and u in game.state.data.get("placed", [])
                     and not game.defs[u].is_dummy]
            if h not in boxes and not fixed:
                return f"a dummy goes with a real unit already set up there, or into a box [{clause}]"
        others = [u for u in (game.units_at(h) if occupants is None else occupants.get(h, [])) if u != uid]
        return stacking_problem(game, [*others, uid])

    def _pool_problem(self, game: Game) -> str | None:
        """Units still in the pool at the end of the Allied set-up go to their printed positions (ruling
        R-POOL): refused while one of those hexes would then be over the stacking limit."""
        waiting = [u for u in hd.pool_units(game, ALLIED) if game.unit(u).hex is None and not game.defs[u].is_dummy]
        stacks = game.occupants(ALLIED)
        for uid in waiting:
            h = game.scenario.start.get(uid)
            if h is None:
                return f"place {uid}: it has no printed position [GG-V.B.1]"
            stacks.setdefault(h, []).append(uid)
            problem = stacking_problem(game, stacks[h])
            if problem is not None:
                return f"place {uid}: its printed position {h} is taken ({problem.rpartition(' [')[0]}) [GG-XII.A.2]"
        return None

    def _set_up_the_pool(self, game: Game) -> None:
        """The end of the Allied face-down set-up: the pool's units to their printed positions, then every
        counter gets its anonymous id and the Axis sees the stacks."""
        waiting = [u for u in hd.pool_units(game, ALLIED) if game.unit(u).hex is None and not game.defs[u].is_dummy]
        for uid in waiting:
            hd.keep_unseen(game, uid)
            game.unit(uid).hex = game.scenario.start[uid]
        if waiting:
            hd.log_secret(game, ALLIED, "Allied: the units not placed set up in their printed positions: "
                          + ", ".join(f"{u} {game.unit(u).hex}" for u in waiting) + ".")
        hd.assign_anonymous_ids(game, hd.face_down_on_map(game, ALLIED))
        hd.end_unseen_phase(game)
        game.log("Allied has set up, face down.")

    def _air_orders(self, game: Game, phase: str, side: Side) -> list[Order]:
        """The air missions open to ``side`` in this phase (GG-X)."""
        if not air.available(game, side):
            return []
        interdicting = game.state.data.get("interdiction")
        enemy_interdiction = interdicting is not None and interdicting["side"] != side.value
        if phase == "allied-interception" or (phase == "axis-airstrike" and enemy_interdiction):
            out: list[Order] = [Intercept()] if enemy_interdiction else []
            if phase == "allied-interception":
                return out
        else:
            out = []
        if phase in AIRSTRIKE_PHASES:
            out.extend(Airstrike(h) for h in air.strike_targets(game, side))
        if phase == "axis-recovery" and side is AXIS:
            out.extend(Airlift(h) for h in air.airlift_targets(game))
        return out

    def _convoy_candidates(self, game: Game, side: Side) -> list[str]:
        """GG-XV.A.4: units out of supply that a truck convoy may still be sent to this determination."""
        if mv.convoys_left(game, side) <= 0:
            return []
        supplied = sp.status(game, side)
        tried = game.state.data.get("convoy_tried", {}).get(side.value, [])
        return [u for u, e in supplied.items()
                if not e["supplied"] and u not in tried and sp.convoy_eligible(game, u, side)]

    def _arrivals(self, game: Game, side: Side) -> list[tuple[str, Hex]]:
        """GG-VII.B: reinforcements due and the hexes where they may enter."""
        out = []
        for uid, r in sorted(game.scenario.reinforcements.items()):
            u = game.unit(uid)
            if game.defs[uid].side is side and r.turn <= game.turn and u.hex is None and not u.eliminated:
                for h in sorted(game.scenario.zone(r.zone)):
                    if not game.units_at(h, side.enemy):
                        out.append((uid, h))
        return out

    def _activation_problem(self, game: Game, uid: str) -> str | None:
        d = game.defs.get(uid)
        if d is None or d.side is not ALLIED or d.is_dummy or d.is_air:
            return f"{uid!r} is not an Allied ground unit [GG-V.A.2]"
        u = game.unit(uid)
        if u.activated:
            return f"{uid} is already active [GG-V.A.2]"
        if u.eliminated or u.hex is None:
            return f"{uid} is not on the map [GG-V.A.2]"
        if not game.state.data.get("nonhistorical") and mv.activations_left(game) <= 0:
            return "no activations left this turn (2, plus 1 per Allied unit lost in the Axis player-turn) [GG-V.A.4]"
        return None

    def _gallop_problem(self, game: Game) -> str | None:
        if game.state.data.get("gallop_called"):
            return "the Gazala Gallop has already been called [GG-XIII.E]"
        if not mv.gallop_candidates(game):
            return "no Allied units are on or within 1 hex of the Gazala Line [GG-XIII.E]"
        return None

    def check(self, game: Game, decision: Decision, order: Order) -> None:
        phase, side = decision.phase, decision.side
        if phase in ATTACK_PHASES and game.state.data.get("combat"):
            battle.check(game, order)
            return
        if decision.clause == "GG-XII.B":
            if isinstance(order, Eliminate) and any(order.unit in ids for ids in mv.overstacked(game, side).values()):
                return
            raise IllegalOrderError("GG-XII.B", f"first eliminate units over the stacking limit; "
                                                f"'{format_order(order)}' does not")
        if isinstance(order, EndPhase) and phase == "allied-setup":
            problem = hd.dummy_problem(game) or self._pool_problem(game)
            if problem is not None:
                raise _illegal(problem)
            return
        if isinstance(order, EndPhase) and phase in ATTACK_PHASES:
            if battle.pending(game):
                raise IllegalOrderError("GG-XIV.C.1", "resolve or cancel the declared attacks "
                                        f"({', '.join(str(a['id']) for a in battle.pending(game))}) first")
            due = battle.obligations(game, side)
            if due:
                raise IllegalOrderError("GG-XIV.A.2", "these hexes hold undisrupted (or face-down) enemy units next to "
                                        f"yours and must be attacked: {' '.join(h.label for h in due)}")
            return
        if decision.clause == "GG-X.B.3":
            if isinstance(order, (Intercept, NoIntercept)):
                return
            raise IllegalOrderError("GG-X.B.3", f"answer the air mission first: intercept or no-intercept, not "
                                                f"'{format_order(order)}'")
        if isinstance(order, (Airstrike, Airlift, Intercept)):
            if order not in self._air_orders(game, phase, side):
                why = air.why_unavailable(game, side)
                raise IllegalOrderError("GG-X.A" if why is None else why.rpartition("[")[2].rstrip("]"),
                                        f"'{format_order(order)}' is not possible now"
                                        + (f": {why.rpartition(' [')[0]}" if why else ""))
            return
        if isinstance(order, EndPhase) and phase != "weather":
            return
        if isinstance(order, Convoy) and phase in RECOVERY_PHASES:
            if order.unit not in self._convoy_candidates(game, side):
                raise IllegalOrderError("GG-XV.A.4", f"no truck convoy can go to {order.unit} now (convoys left: "
                                                     f"{mv.convoys_left(game, side)}; only units out of supply that "
                                                     "are divisions, independent brigades or their brigades)")
            return
        if isinstance(order, Attack) and phase in ATTACK_PHASES:
            self._check_declaration(game, order, side)
            return
        if isinstance(order, (Resolve, Cancel)) and phase in ATTACK_PHASES:
            entry = battle.find(game, order.attack)
            target = battle.order_of(entry)
            if isinstance(order, Resolve) and not hd.hidden_in(game, target.defenders, side.enemy) \
                    and cb.assess(game, target, side, order.attack).column is None:
                raise IllegalOrderError("GG-XIV.B.4", "this attack is now below 1:4: cancel it")
            return
        if isinstance(order, Weather) and phase == "weather":
            if order.sandstorm == order.rainstorm:
                raise IllegalOrderError("GG-VIII.0", "the sandstorm and rainstorm numbers must differ")
            return
        if isinstance(order, Place) and phase in SETUP_PHASES:
            if order.unit not in game.defs or game.defs[order.unit].side is not side:
                raise IllegalOrderError(decision.clause, f"{order.unit!r} is not one of your units")
            problem = self._placement_problem(game, order.unit, order.hex)
            if problem is not None:
                raise _illegal(problem)
            return
        if isinstance(order, Place) and phase == "allied-siege":
            if order not in self.legal_orders(game, decision):
                raise IllegalOrderError("GG-XIV.B.6", f"{order.unit} cannot be redeployed to {order.hex}: only the "
                                                      "fortress's units and the dummies, inside the perimeter")
            return
        if isinstance(order, Place) and phase in ("axis-movement", "allied-movement"):
            if (order.unit, order.hex) not in self._arrivals(game, side):
                r = game.scenario.reinforcements.get(order.unit)
                where = f"on turn {r.turn} in {r.zone}" if r else "never (it is not a reinforcement)"
                raise IllegalOrderError("GG-VII.B", f"{order.unit} cannot enter in {order.hex}; it arrives {where}")
            return
        if isinstance(order, Activate) and side is ALLIED and phase in ALLIED_CHOICE_PHASES:
            problem = self._activation_problem(game, order.unit)
            if problem is not None:
                raise _illegal(problem)
            return
        if isinstance(order, Gallop) and side is ALLIED and phase in ALLIED_CHOICE_PHASES:
            problem = self._gallop_problem(game)
            if problem is not None:
                raise _illegal(problem)
            return
        if isinstance(order, Move) and phase in ("axis-movement", "allied-movement"):
            mv.resolve_move(game, order, side)
            return
        clause = "GG-XIII.A.1" if isinstance(order, Move) else decision.clause
        raise IllegalOrderError(clause, f"'{format_order(order)}' is not an order of the {decision.phase} phase; "
                                        f"{decision.side.display}: {decision.prompt}")

    # --- effects -----------------------------------------------------------------------------------
    def apply(self, game: Game, decision: Decision, order: Order) -> bool:
        side = decision.side
        if decision.phase in ATTACK_PHASES and isinstance(order, BATTLE_ORDERS):
            battle.apply(game, order)
            if game.state.data.pop("phase_over", False):
                return self._finish_phase(game, decision.phase, Side(game.phase.side or side))
            return False
        if isinstance(order, Attack):
            for uid in order.attackers:
                hd.reveal(game, uid, "it attacks")
            battle.declare(game, order, side)
            return False
        if isinstance(order, Intercept) and decision.clause == "GG-X.B.3":
            air.finish(game, air.air_unit(game, side))
            return False
        if isinstance(order, NoIntercept):
            air.finish(game, None)
            return False
        if isinstance(order, Intercept):
            air.declare(game, side, "intercept-interdiction", None)
            return False
        if isinstance(order, Airstrike):
            air.declare(game, side, "strike", order.hex)
            return False
        if isinstance(order, Airlift):
            air.declare(game, side, "airlift", order.hex)
            return False
        if isinstance(order, Convoy):
            game.state.data.setdefault("convoy_tried", {}).setdefault(side.value, []).append(order.unit)
            sp.convoy(game, order.unit, side)
            return False
        if isinstance(order, Cancel):
            battle.cancel(game, order.attack)
            return False
        if isinstance(order, Resolve):
            battle.begin(game, order.attack, side)
            return False
        if isinstance(order, Place) and decision.phase in SETUP_PHASES:
            u = game.unit(order.unit)
            if u.hidden:
                hd.keep_unseen(game, order.unit)  # the enemy sees the set-up when it is over
            u.hex = order.hex
            game.state.data.setdefault("placed", []).append(order.unit)
            text = f"{side.display} sets up {order.unit} in {order.hex}."
            if u.hidden:
                hd.log_secret(game, side, text)
            else:
                game.log(text)
            return False
        if isinstance(order, Place) and decision.phase == "allied-siege":
            hd.redeploy(game, order.unit, order.hex)
            return False
        if isinstance(order, Place):
            u = game.unit(order.unit)
            u.hex = order.hex
            u.activated = True  # ruling R-REINF: a reinforcement arrives active
            game.log(f"{side.display}: {order.unit} arrives in {order.hex}.")
            return False
        if isinstance(order, Weather):
            game.state.weather = self._roll_weather(game, order)
            air.weather_turn(game)
            return True
        if isinstance(order, Activate):
            mv.activate(game, order.unit, counted=not game.state.data.get("nonhistorical"))
            hd.reveal(game, order.unit, "activated")
            game.log(f"Allied: {order.unit} activated.")
            return False
        if isinstance(order, Gallop):
            units = mv.gallop_candidates(game)
            for uid in units:
                mv.activate(game, uid, counted=False)
                hd.reveal(game, uid, "the Gazala Gallop")
            game.state.data["gallop_called"] = True
            game.state.data["gallop"] = sorted(u for u in units if not mv.gazala_east(game, u))
            game.log(f"Allied: the Gazala Gallop! {', '.join(units)} flee east.")
            return False
        if isinstance(order, Move):
            mv.carry_out_move(game, order, mv.resolve_move(game, order, side))
            return False
        if isinstance(order, Eliminate):
            mv.eliminate(game, order.unit, "over the stacking limit")
            if mv.overstacked(game, side):
                return False
            game.state.data.pop("stacking", None)
            return True
        if isinstance(order, EndPhase) and decision.phase in ATTACK_PHASES and battle.end_of_attacks(game, side):
            if game.state.data.pop("phase_over", False):
                return self._finish_phase(game, decision.phase, side)
            return False  # GG-IX.B: the disrupted units' AR comes first
        if isinstance(order, EndPhase) and decision.phase in STACKING_PHASES:
            return self._finish_phase(game, decision.phase, side)
        return True

    def _finish_phase(self, game: Game, phase: str, side: Side) -> bool:
        """GG-XII.B: at the end of a movement or attack phase the owner removes units over the limit."""
        if mv.overstacked(game, side):
            game.state.data["stacking"] = phase
            return False
        return True

    def end_game(self, game: Game) -> None:
        game.state.data["result"] = vp.score(game)
        for line in vp.describe(game.state.data["result"]):
            game.log(line)

    # the data the ZOC, movement and supply searches read (see System.position_data)
    POSITION_KEYS = ("boxes_held", "boxes_eliminated", "villages", "gallop", "attacks", "supply_help",
                     "supply_die", "convoys_used")

    def position_data(self, game: Game) -> Any:
        data = game.state.data
        return tuple(repr(data.get(k)) for k in self.POSITION_KEYS)

    def outcomes(self, game: Game, order: Attack, side: Side) -> list[tuple[str, Fraction]]:
        try:
            return cb.outcomes(game, order, side)
        except IllegalOrderError:
            return []

    def result_lines(self, game: Game) -> list[str]:
        result = game.state.data.get("result")
        return vp.describe(result) if result else []

    def enter_phase(self, game: Game, phase: Phase) -> None:
        if phase.key in RECOVERY_PHASES and phase.side is not None:
            sp.begin_determination(game, phase.side)
        if phase.key in ("axis-victory", "allied-victory"):
            air.start_of_player_turn(game)

    def _roll_weather(self, game: Game, order: Weather) -> str:
        """GG-VIII.A and B: the Axis rolls against the British player's two numbers."""
        first = game.dice.roll("weather")
        weather = "clear"
        if first == order.sandstorm:
            if game.dice.roll("sandstorm confirmation (4-6)") >= 4:
                weather = "sandstorm"
        elif first == order.rainstorm and game.dice.roll("rainstorm confirmation (same number)") == first:
            weather = "rainstorm"
        game.log(f"Weather: the British name {order.sandstorm} (sandstorm) and {order.rainstorm} (rainstorm); "
                 f"the Axis rolls {first}: {weather}.")
        return weather

    def run_phase(self, game: Game, phase: Phase) -> None:
        if phase.key == "allied-setup":
            self._set_up_the_pool(game)
        if phase.key == "allied-siege":
            hd.end_siege(game)
        if phase.key in (*SETUP_PHASES, "allied-siege"):
            game.state.data.pop("placed", None)
        if phase.key == "axis-setup":
            game.log("Axis set-up complete.")
        elif phase.key in ("axis-victory", "allied-victory"):
            side = AXIS if phase.key.startswith("axis") else ALLIED
            vp.eliminate_boxes(game, side)  # GG-XI.A.5
            if side is ALLIED and vp.sudden_victory(game):  # GG-IV.A.1
                return
            mv.record_boxes_held(game, side)
        elif phase.key in RECOVERY_PHASES:
            sp.finish_determination(game, phase.side or AXIS)
            game.state.data.pop("convoy_tried", None)
            air.end_of_enemy_player_turn(game, phase.side or AXIS)
        elif phase.key in ATTACK_PHASES:
            for key in ("attacks", "attacked_units", "combat"):  # a fresh start for the next attack phase
                game.state.data.pop(key, None)
