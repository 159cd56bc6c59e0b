"""The campaign map's terrain kinds, and those no unit and no supply line may enter.

The rules give terrain effects for escarpments, mountains, hills, ridges and the fortress towns (CA-F.4-10)
but say nothing of the Qattara Depression's floor, the Great Sand Sea or the salt marshes of the El Agheila
position.  Their Alamein listings (CA-SC.6-9) assume what history shows: the line from the sea to the
depression could not be turned, and the Agheila position was approached only along the coast road or by a
long cast round the marshes.  So the three are impassable to every unit and to supply (docs/rulings.md,
CA-F.8); the rule code asks :func:`enterable`, the map data only names the kind.
"""

from __future__ import annotations

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map, Terrain

IMPASSABLE = frozenset({Terrain.DEPRESSION, Terrain.SAND_SEA, Terrain.SALT_MARSH})
# the terrain the campaign's rules know (a map naming another kind is refused when a scenario loads it)
TERRAIN_KINDS = (
    frozenset({Terrain.CLEAR, Terrain.SEA, Terrain.TOWN, Terrain.VILLAGE, Terrain.HILL, Terrain.MOUNTAIN, Terrain.OASIS}) | IMPASSABLE
)


def enterable(m: Map, h: Hex) -> bool:
    """Whether a unit may enter ``h`` or a supply line run through it: a land hex of the map not impassable."""
    return h in m and m.is_land(h) and m.terrain[h] not in IMPASSABLE
