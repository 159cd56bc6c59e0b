"""The Gazala Gallop: its sequence of play (2016 charts, GG-VI) and the rules implemented so far.

Implemented here: the game-turn sequence (GG-VI.A-C) over 14 turns (GG-VII.A), the historical
set-up with the Axis free placement (GG-V.A.1) under the stacking limits (GG-XII.A.1-2), and
the weather determination (GG-VIII.0, A, B).  The movement, combat, air, supply and victory
rules fill the phases named here as they arrive; until then their phases end on ``end-phase``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.errors import IllegalOrderError
from tobruk.hexes import Hex
from tobruk.orders import EndPhase, Order, Place, Weather, format_order
from tobruk.sides import Side
from tobruk.systems import register
from tobruk.systems.base import Decision, Phase, System

if TYPE_CHECKING:
    from tobruk.game import Game

AXIS, ALLIED = Side.AXIS, Side.ALLIED

SETUP = Phase("axis-setup", "Axis set-up", "GG-V.A.1", AXIS)
WEATHER = Phase("weather", "Weather determination", "GG-VIII.0", ALLIED)
PLAYER_TURNS: tuple[Phase, ...] = (
    Phase("axis-victory", "Axis victory determination", "GG-VI.B", None),
    Phase("axis-airstrike", "Axis airstrike", "GG-VI.B", AXIS),
    Phase("axis-movement", "Axis operational movement", "GG-VI.B", AXIS),
    Phase("axis-attacks", "Axis attacks", "GG-VI.B", AXIS),
    Phase("axis-recovery", "Axis recovery and supply determination", "GG-VI.B", None),
    Phase("allied-victory", "Allied victory determination", "GG-VI.C", None),
    Phase("allied-interception", "Allied interception of Axis interdiction", "GG-VI.C", None),
    Phase("allied-movement", "Allied operational movement", "GG-VI.C", ALLIED),
    Phase("allied-airstrike", "Allied airstrike", "GG-VI.C", ALLIED),
    Phase("allied-attacks", "Allied attacks", "GG-VI.C", ALLIED),
    Phase("allied-recovery", "Allied recovery and supply determination", "GG-VI.C", None),
)
FIRST_TURN = (SETUP, *PLAYER_TURNS)
LATER_TURNS = (WEATHER, *PLAYER_TURNS)

STACK_UNITS = 3
STACK_DIVISIONS = 2


def stacking_problem(game: Game, uids: Sequence[str]) -> str | None:
    """Why these units may not share a hex (GG-XII.A.1-3), or ``None``; dummies do not count."""
    defs = [game.defs[u] for u in uids]
    if len({d.side for d in defs}) > 1:
        return "only one side's units may be in a hex [GG-XII.A.1]"
    real = [d for d in defs if not d.is_dummy]
    if len(real) > STACK_UNITS:
        return f"at most {STACK_UNITS} units in a hex [GG-XII.A.2]"
    if sum(d.is_division for d in real) > STACK_DIVISIONS:
        return f"at most {STACK_DIVISIONS} division-level units in a hex [GG-XII.A.2]"
    return None


@register
class GazalaGallop(System):
    name = "gazala-gallop"
    title = "The Gazala Gallop"

    def phases(self, game: Game) -> Sequence[Phase]:
        return FIRST_TURN if game.state.turn == 1 else LATER_TURNS

    def setup(self, game: Game) -> None:
        for uid, d in game.defs.items():
            if d.side is ALLIED:
                # GG-V.A.2: Allied units start inactive (the nonhistorical option activates at will)
                game.unit(uid).activated = False
        game.log(f"Turn 1. {game.scenario.title}: historical set-up.")

    def begin_turn(self, game: Game) -> None:
        for u in game.state.units.values():
            u.moved = False
            u.attacked = False
        game.log(f"Turn {game.state.turn}.")

    # --- decisions ------------------------------------------------------------------------------
    def decision(self, game: Game, phase: Phase) -> Decision | None:
        if phase.side is None:
            return None
        prompts = {
            "axis-setup": "place the mobile units on the Axis side of the Gazala Line, then end-phase",
            "weather": "name the sandstorm and the rainstorm numbers (the Axis player then rolls)",
        }
        return Decision(phase.side, phase.key, prompts.get(phase.key, phase.title.split(" ", 1)[1]), phase.clause)

    def legal_orders(self, game: Game, decision: Decision) -> list[Order]:
        if decision.phase == "weather":
            return [Weather(s, r) for s in range(1, 7) for r in range(1, 7) if s != r]
        orders: list[Order] = []
        if decision.phase == "axis-setup":
            for uid, zone_name in game.scenario.setup_zone.items():
                here = game.unit(uid).hex
                for h in sorted(game.scenario.zone(zone_name)):
                    if h != here and self._placement_problem(game, uid, h) is None:
                        orders.append(Place(uid, h))
        orders.append(EndPhase())
        return orders

    def _placement_problem(self, game: Game, uid: str, h: Hex) -> str | None:
        zone_name = game.scenario.setup_zone.get(uid)
        if zone_name is None:
            return f"{uid} has a fixed historical set-up position [GG-V.A.1]"
        if h not in game.scenario.zone(zone_name):
            return f"{h} is outside the set-up zone {zone_name!r} [GG-V.A.1]"
        others = [u for u in game.units_at(h) if u != uid]
        return stacking_problem(game, [*others, uid])

    def check(self, game: Game, decision: Decision, order: Order) -> None:
        phase = decision.phase
        if isinstance(order, EndPhase) and phase != "weather":
            return
        if isinstance(order, Weather) and phase == "weather":
            if order.sandstorm == order.rainstorm:
                raise IllegalOrderError("GG-VIII.0", "the sandstorm and rainstorm numbers must differ")
            return
        if isinstance(order, Place) and phase == "axis-setup":
            if order.unit not in game.defs:
                raise IllegalOrderError("GG-V.A.1", f"there is no unit {order.unit!r}")
            problem = self._placement_problem(game, order.unit, order.hex)
            if problem is not None:
                reason, _, clause = problem.rpartition(" [")
                raise IllegalOrderError(clause.rstrip("]"), reason)
            return
        raise IllegalOrderError(decision.clause, f"'{format_order(order)}' is not an order of the "
                                                 f"{decision.phase} phase; {decision.side.display}: {decision.prompt}")

    def apply(self, game: Game, decision: Decision, order: Order) -> bool:
        if isinstance(order, Place):
            game.unit(order.unit).hex = order.hex
            game.log(f"Axis sets up {order.unit} in {order.hex}.")
            return False
        if isinstance(order, Weather):
            game.state.weather = self._roll_weather(game, order)
            return True
        return True

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
        if phase.key == "axis-setup":
            game.log("Axis set-up complete.")
