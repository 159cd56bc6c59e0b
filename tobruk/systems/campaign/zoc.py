"""Zones of control in the campaign (CA-Z.1, CA-Z.2, CA-F.3, CA-F.7-8): which hexes stop a moving unit, and why.

Not every unit has a zone that stops movement (CA-Z.1).  A hex of the enemy exerts one when it holds a division or
corps (disrupted or not), the undisrupted Recce Gruppe, two undisrupted lower-level units, or an undisrupted pure
armour regiment or brigade against which no attack is allocated; an empty enemy fort or box is itself such a zone
(CA-F.3: the marker's own hex, until a unit of the mover's side stands on it).  A zone reaches the six neighbours
of its hex, but not up an escarpment, passable or not, nor into the sea or onto ground no unit enters (CA-F.7,
CA-F.8: the zone of a unit at the foot does not extend up, that of a unit on top extends down).

Zones are kept by the hex that exerts them (its index), which is what CA-Z.2 asks ("the same enemy unit/hex"):
:class:`EnemyZoc` holds, for every hex under a stopping zone, the hexes exerting it, and two subsets of those
sources the other rules read: the hexes with an undisrupted division or corps (CA-M.3's bonus) and the hexes
with an infantry-type unit in a field fortification (CA-Z.2).  A face-down counter of the Tobruk garrison (CA-F.4)
counts as an undisrupted infantry division whatever it is, so that the enemy's moves do not tell what it is
(docs/rulings.md).  The family's :func:`tobruk.mechanics.zoc.zoc_map`
gives every unit a zone and knows no escarpments, so it does not fit these rules and is not used here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from tobruk.board.maps import Feature, Map
from tobruk.engine.sides import Side
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit
from tobruk.systems.campaign.terrain import enterable

ESCARPMENTS = (Feature.ESCARPMENT, Feature.IMPASSABLE_ESCARPMENT)  # the zone of a unit at the foot stops there


@lru_cache(maxsize=8)
def zoc_steps(m: Map) -> tuple[int, ...]:
    """``table[i * 6 + d]``: the neighbour of hex ``i`` in direction ``d`` that a zone exerted from ``i`` reaches,
    or -1 (off the map, the sea, impassable ground, or up an escarpment from its foot).  Made from the map's
    escarpment sides (a few hundred), not by asking each of the 3,260 hexes' six sides."""
    nb, hexes, index = m.neighbour_table, m.hexes, m.index
    open_ = [enterable(m, h) for h in hexes]
    out = [j if j >= 0 and open_[j] else -1 for j in nb]
    for side, features in m.hexsides.items():
        for f in features:
            if f.kind not in ESCARPMENTS or f.high not in side.hexes:
                continue
            high = f.high
            low = side.hexes[0] if side.hexes[1] == high else side.hexes[1]
            i = index.get(low)
            if i is not None and high in index:
                out[i * 6 + low.direction_to(high)] = -1  # a zone reaches down the escarpment, not up it
    return tuple(out)


def stops_movement(stack: tuple[CampaignUnit, ...]) -> bool:
    """Whether a hex holding ``stack`` (one side's units) exerts a movement-stopping zone (CA-Z.1)."""
    lower = 0
    for u in stack:
        if u.division_level or u.face_down:
            return True  # a division or corps, disrupted or not; a face-down counter may be one (CA-F.4)
        if u.disrupted:
            continue
        if u.recce:
            return True
        if u.pure_armour and not u.attacked:
            return True  # a lone undisrupted armour regiment or brigade until an attack is allocated against it
        lower += 1
    return lower >= 2  # two undisrupted lower-level units together


def undisrupted_division(stack: tuple[CampaignUnit, ...]) -> bool:
    """Whether ``stack`` holds an undisrupted division or corps (its zone denies the movement bonus, CA-M.3)."""
    return any((u.division_level or u.face_down) and not u.disrupted for u in stack)


@dataclass(frozen=True)
class EnemyZoc:
    """The zones that stop units of ``side`` (the moving side): per hex index under a zone, the hexes exerting it."""

    side: Side
    sources: Mapping[int, frozenset[int]]
    divisions: frozenset[int]  # source hexes with an undisrupted division or corps (CA-M.3)
    fortified: frozenset[int]  # source hexes with an infantry-type unit in a field fortification (CA-Z.2)
    forts: frozenset[int]  # empty enemy forts and boxes, zones of their own hex (CA-F.3)

    def __contains__(self, i: object) -> bool:
        return i in self.sources

    def of(self, i: int) -> frozenset[int]:
        return self.sources.get(i, frozenset())

    def in_division_zone(self, i: int) -> bool:
        """Whether hex ``i`` is in the zone of an undisrupted enemy division or corps (CA-M.3)."""
        return not self.divisions.isdisjoint(self.of(i))

    def zoc_to_zoc(self, here: int, there: int) -> bool:
        """Whether a step from ``here`` to ``there``, both under zones, is one CA-Z.2 forbids: the same hex exerts
        both, or both are zones of fortified infantry-type units.  (The exception for a step onto a friendly-occupied
        hex is the caller's, who knows the friends.)"""
        a, b = self.of(here), self.of(there)
        if not a or not b:
            return False
        return not a.isdisjoint(b) or (not self.fortified.isdisjoint(a) and not self.fortified.isdisjoint(b))


def enemy_zoc(position: CampaignPosition, side: Side) -> EnemyZoc:
    """The movement-stopping zones the enemy of ``side`` exerts over the map (CA-Z.1, CA-F.3, CA-F.7-8); worked out
    once a position and side (every unit's move in a position reads the same)."""
    kept: dict[Side, EnemyZoc] = position.__dict__.setdefault("_enemy_zoc", {})
    found = kept.get(side)
    if found is None:
        found = kept[side] = _enemy_zoc(position, side)
    return found


def _enemy_zoc(position: CampaignPosition, side: Side) -> EnemyZoc:
    m = position.board
    steps = zoc_steps(m)
    enemy = side.enemy
    sources: dict[int, set[int]] = {}
    divisions: set[int] = set()
    fortified: set[int] = set()
    for i, stack in position.occupants.items():
        theirs = tuple(u for u in stack if u.side is enemy)
        if not theirs or not stops_movement(theirs):
            continue
        if undisrupted_division(theirs):
            divisions.add(i)
        if position.forts.get(i) is enemy and any(u.infantry_type or u.face_down for u in theirs):
            fortified.add(i)
        for j in steps[i * 6 : i * 6 + 6]:
            if j >= 0:
                sources.setdefault(j, set()).add(i)
    forts = set()
    for i, owner in position.forts.items():
        if owner is enemy and not position.at(i):
            forts.add(i)  # an empty enemy fort: a zone of its own hex until a unit of ours stands on it
            sources.setdefault(i, set()).add(i)
    return EnemyZoc(
        side,
        MappingProxyType({i: frozenset(v) for i, v in sources.items()}),
        frozenset(divisions),
        frozenset(fortified),
        frozenset(forts),
    )
