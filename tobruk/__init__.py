"""tobruk: Lou Coatney's North-Africa wargames on a computer, with every rule enforced.

The engine (hexes, maps, units, scenarios, systems, the game state machine) is pure Python
with no I/O beyond reading its own packaged data; the faces (CLI, renderers) sit on top.
"""

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.engine.errors import (
    IllegalOrderError,
    InvalidOrderError,
    ScenarioError,
    UndoError,
)

__all__ = [
    "Direction",
    "Hex",
    "Hexside",
    "IllegalOrderError",
    "InvalidOrderError",
    "ScenarioError",
    "UndoError",
]
__version__ = "0.1.0"
