"""Zones of control as a function of the position: which enemy units exert ZOC into which hexes.

A unit's ZOC is the six hexes around it.  The box rule of each system decides where ZOCs are
switched off (``exempt``: hexes an enemy ZOC does not extend into, e.g. a box held by the
moving side); the caller computes it.  Movement, combat (retreats) and supply use the same map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map


@dataclass(frozen=True, slots=True)
class ZocMap:
    """For each hex under enemy ZOC: the ids of the enemy units exerting it, and the hexes they stand in.

    ``masks``: the same units as a bitmask per hex index of ``board`` (a bit per enemy unit, in the order
    :func:`zoc_map` was given them), which the compiled reach search reads; a map built by hand may leave them
    out (``board`` ``None``) and the search's tables derive them from ``units``.
    """

    units: dict[Hex, frozenset[str]]
    origins: dict[Hex, frozenset[Hex]]
    board: Map | None = field(default=None, compare=False, repr=False)
    masks: Mapping[int, int] = field(default_factory=dict, compare=False, repr=False)
    # what :func:`zoc_map` made it from (the units with their hexes, the exempt hexes): equal sources, equal maps on
    # one board, so a cache may key on it rather than on the whole map (``None``: built by hand)
    source: tuple[tuple[tuple[str, Hex], ...], frozenset[Hex]] | None = field(default=None, compare=False, repr=False)

    def __contains__(self, h: object) -> bool:
        return h in self.units


def zoc_map(m: Map, enemies: Iterable[tuple[str, Hex]], exempt: Iterable[Hex] = ()) -> ZocMap:
    """The ZOC of the given enemy units (id, hex) over the board, leaving out ``exempt`` hexes."""
    enemies = tuple(enemies)
    skip = frozenset(exempt)
    units: dict[Hex, set[str]] = {}
    origins: dict[Hex, set[Hex]] = {}
    masks: dict[int, int] = {}
    bit_of: dict[str, int] = {}
    index, nb, land, hexes = m.index, m.neighbour_table, m.land_table, m.hexes
    for uid, at in enemies:
        bit = 1 << bit_of.setdefault(uid, len(bit_of))
        i = index.get(at)
        near = (
            [j for j in nb[i * 6 : i * 6 + 6] if j >= 0 and land[j]]
            if i is not None
            else [index[n] for n in at.neighbours() if m.is_land(n)]
        )  # a hex beyond the board's edge
        for j in near:
            n = hexes[j]
            if n not in skip:
                units.setdefault(n, set()).add(uid)
                origins.setdefault(n, set()).add(at)
                masks[j] = masks.get(j, 0) | bit
    return ZocMap({h: frozenset(v) for h, v in units.items()}, {h: frozenset(v) for h, v in origins.items()}, m, masks, (enemies, skip))
