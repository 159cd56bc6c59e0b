"""A unit's move context on a small hand-made board, for the reach search's known-answer tests: an Axis vehicle in A1
with no bonus, climbing at 1 MF, and no unit, ZOC or fort of the enemy unless the test gives them."""

from __future__ import annotations

from typing import Any

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map, MovementRates
from tobruk.engine.sides import Side
from tobruk.mechanics.reach import MF, MoveContext
from tobruk.mechanics.zoc import zoc_map


def vehicle_in_a1(board: Map, budget: int, rates: MovementRates, **given: Any) -> MoveContext:
    """The context of a vehicle in A1 of ``board`` with ``budget`` MF to spend at ``rates``; ``given`` replaces any other
    field (``bonus``, ``zoc``, ``enemy_units``, ``enemy_forts``, ``free_steps`` ...)."""
    fields: dict[str, Any] = {
        "map": board,
        "side": Side.AXIS,
        "start": Hex.parse("A1"),
        "rates": rates,
        "budget": budget,
        "bonus": 0,
        "ascent": MF,
        "vehicle": True,
        "zoc": zoc_map(board, []),
        "enemy_units": frozenset(),
        "friendly_units": frozenset(),
        "enemy_forts": frozenset(),
    }
    return MoveContext(**(fields | given))
