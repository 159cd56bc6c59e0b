"""Zones of control as a function of the position: which enemy units exert ZOC into which hexes.

A unit's ZOC is the six hexes around it.  The box rule of each system decides where ZOCs are
switched off (``exempt``: hexes an enemy ZOC does not extend into, e.g. a box held by the
moving side); the caller computes it.  Movement, combat (retreats) and supply use the same map.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from tobruk.hexes import Hex
from tobruk.maps import Map


@dataclass(frozen=True, slots=True)
class ZocMap:
    """For each hex under enemy ZOC: the ids of the enemy units exerting it, and the hexes they stand in."""

    units: dict[Hex, frozenset[str]]
    origins: dict[Hex, frozenset[Hex]]

    def __contains__(self, h: object) -> bool:
        return h in self.units


def zoc_map(m: Map, enemies: Iterable[tuple[str, Hex]], exempt: Iterable[Hex] = ()) -> ZocMap:
    """The ZOC of the given enemy units (id, hex) over the board, leaving out ``exempt`` hexes."""
    skip = set(exempt)
    units: dict[Hex, set[str]] = {}
    origins: dict[Hex, set[Hex]] = {}
    index, nb, land, hexes = m.index, m.neighbour_table, m.land_table, m.hexes
    for uid, at in enemies:
        i = index.get(at)
        near = (
            [hexes[j] for j in nb[i * 6 : i * 6 + 6] if j >= 0 and land[j]]
            if i is not None
            else [n for n in at.neighbours() if m.is_land(n)]
        )  # a hex beyond the board's edge
        for n in near:
            if n not in skip:
                units.setdefault(n, set()).add(uid)
                origins.setdefault(n, set()).add(at)
    return ZocMap({h: frozenset(v) for h, v in units.items()}, {h: frozenset(v) for h, v in origins.items()})


def kept_zoc_map(cache: MutableMapping[Hashable, Any], m: Map, enemies: Iterable[tuple[str, Hex]], exempt: Iterable[Hex] = ()) -> ZocMap:
    """:func:`zoc_map`, kept in ``cache`` (a game's search cache) under what it is made of: the enemy units'
    hexes and the exempt hexes.  The moving side's own moves leave both alone, so a whole movement phase
    builds its enemy's ZOC once instead of once per move."""
    units, skip = tuple(enemies), frozenset(exempt)
    key = ("zoc-map", id(m), units, skip)
    found: ZocMap | None = cache.get(key)
    if found is None:
        found = cache[key] = zoc_map(m, units, skip)
    return found
