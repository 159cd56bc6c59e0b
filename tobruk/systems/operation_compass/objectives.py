"""Operation Compass's objectives as the faces mark them, and how far a unit could move to one.

The WDF scores each place it holds at the end (Sidi Barrani, the camps, the towns: ruling R-OC-VICTORY), a place
being held by the last side to enter it; the Italians hold them all at the start, so they are the Italians' to keep
the WDF out of; one they stand in is taken by an assault and its advance.  The Italians move only in retreat (ruling
R-OC-POLICY), never in a movement phase, so only the WDF's reach threatens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.sides import Side
from tobruk.engine.system import Objective
from tobruk.mechanics.paths import cheapest
from tobruk.mechanics.reach import MF
from tobruk.systems.operation_compass.charts import Charts, chart
from tobruk.systems.operation_compass.counters import compass_defs
from tobruk.systems.operation_compass.state import compass_vars
from tobruk.systems.operation_compass.terrain import closed, impassable, step_table

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.game import Game
    from tobruk.loading.scenario import Scenario


def objectives(charts: Charts, scenario: Scenario) -> list[Objective]:
    """Every place the charts' victory points name, by the kind of place (its points held by the WDF)."""
    zones = scenario.map.zones
    return [
        Objective(h, f"{name.replace('-', ' ')} ({points} points to the WDF holding it)", "R-OC-VICTORY", Side.AXIS)
        for name, points in charts.place_points.items()
        for h in sorted(zones.get(name, frozenset()))
    ]


def movement_reach(game: Game, uid: str, start: Hex) -> frozenset[Hex]:
    """What a WDF unit could take from ``start`` in its player-turn: the hexes it could end its move in (within its
    movement allowance, into no Italian hex: the search its moves are listed by,
    :func:`~tobruk.systems.operation_compass.moves.reach`), and, since the Allied assault phase follows the movement,
    the Italian hexes next to one of those that no escarpment parts from it (OC-TER.1: no attacking across), which an
    assault and its advance could take.  Support units do not assault alone, but a combat unit may join them, so they
    count too; a place the WDF holds already is no longer to be taken.  Nothing for the Italians."""
    d = compass_defs(game)[uid]
    if d.side is Side.AXIS:
        return frozenset()
    m, terrain = game.scenario.map, chart(game).terrain
    italians = game.occupants(d.side.enemy)
    steps = closed(m, step_table(m, terrain, supply=False), italians)
    ends = cheapest(m, [(start, 0)], steps, d.movement * MF).reached()
    assaulted = {h for h in italians for e in ends if h.is_adjacent(e) and not impassable(m, terrain, e, h)}
    held = compass_vars(game).held  # (a place the WDF holds already is not to be taken again)
    return frozenset(h for h in (*ends, *assaulted) if h != start and held.get(h.label) != d.side.value)
