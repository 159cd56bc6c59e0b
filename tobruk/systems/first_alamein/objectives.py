"""1st Alamein's objectives as the faces mark them, and how far an enemy unit could move to one.

The Axis wins holding El Alamein in supply or the north-east coastal road hex with any unit at the end (CA-SC.7's
condition, :mod:`~tobruk.systems.first_alamein.victory`): both are the Allies' to hold.  The Axis's reinforcements
(FA-UNIT.1: the Italian infantry, and at the start every Axis unit, entering from the west edge) may move in the turn
they arrive, so the Allies are warned of them before they enter (:func:`arrivals`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.sides import Side
from tobruk.engine.system import Arrival, Objective
from tobruk.mechanics.counters import family_defs
from tobruk.mechanics.reach import reach
from tobruk.mechanics.reinforcements import scheduled_arrivals
from tobruk.systems.first_alamein import moves as mv
from tobruk.systems.first_alamein import position as pos

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.game import Game
    from tobruk.loading.scenario import Scenario

# the scenario's rule naming each victory zone, and what it is for people
VICTORY_ZONES = (("victory_el_alamein", "El Alamein (Axis wins holding it in supply)"), ("victory_road_hex", "north-east coastal road hex"))


def objectives(scenario: Scenario) -> list[Objective]:
    out = []
    for key, name in VICTORY_ZONES:
        zone = scenario.rules.get(key)
        if isinstance(zone, str):
            out += [Objective(h, name, "CA-SC.7", Side.ALLIED) for h in sorted(scenario.zone(zone))]
    return out


def movement_reach(game: Game, uid: str, start: Hex) -> frozenset[Hex]:
    """Where ``uid`` could end its next move from ``start`` at the most: with its full movement factor (not spent: it
    may recover first, GG-IX.A) and the bonus, against its enemy's ZOC, units and boxes as they stand (FA-TER.2).
    Air units move on no such search."""
    d = family_defs(game)[uid]
    if d.is_air or d.is_dummy:
        return frozenset()
    ctx = mv.context_from(game, uid, start, d.movement)
    return frozenset(h for h in reach(ctx, game) if h != start)


def arrivals(game: Game, side: Side) -> list[Arrival]:
    """FA-UNIT.1 as ruled: a reinforcement enters in its side's reinforcement step, on its turn (or a later one if it
    was kept out), on a hex of its zone free of enemy units and within the stacking limit (FA-STK.1), and may move in the
    movement that follows with its full factor.  So the units due by the side's next reinforcement step count, from
    the hexes of their zone open to them now (ruling R-REINF-WARN)."""
    occupants = game.occupants()
    return scheduled_arrivals(
        game, side, f"{side.value}-reinforcement", lambda uid, h: pos.stacking_problem(game, [*occupants.get(h, []), uid]) is None
    )
