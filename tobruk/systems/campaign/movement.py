"""Operational movement in the campaign (CA-M.1-5 with CA-Z.1-2, CA-F.3, CA-F.7-10, CA-G.15): where a unit may go.

One statement of the rules, :func:`_step` (one hex entered from another), serves both :func:`walk`, which checks an
order's path and raises the first broken rule's clause, and :func:`reach`, a Dijkstra search with a heap over the
map's integer hex indices, so what the search offers is exactly what the check accepts.  Costs are integers in
sixtieths of a movement factor (MF), as in the rest of the family.

The rules, by clause:

* CA-M.2: a unit's basic MF is printed on it, else 4 for a German mobile unit and 3 for any other;
* CA-M.3: a bonus of 4 MF, not for a unit that will attack, nor for a move that leaves or enters the zone of an
  undisrupted enemy division or corps where no friendly unit or fortification stands (left behind, or already
  there).  Entering such a zone stops the unit (CA-Z.1), so it is the last step of a move that loses the bonus;
* CA-M.4: along the coastal road a hex costs a third of an MF (three times the MF, bonus included), but not on a
  step from or into a hex of enemy zone;
* CA-M.5: in a breakthrough the basic MF is 2 less and the bonus 3 (docs/rulings.md);
* CA-M.1: no unit enters a hex the enemy holds; CA-Z.1: a unit entering a hex of enemy zone stops there; CA-Z.2:
  no step from a zone straight into another exerted by the same enemy hex, or from a fortified infantry-type
  unit's zone into another's, unless onto a hex a friendly unit holds; CA-F.3: an empty enemy fort is a zone;
* CA-F.7: crossing an escarpment costs 3 MF in all for a mobile unit, 2 for any other, unless by a pass (a road
  crossing is one, docs/rulings.md); CA-F.8: an impassable escarpment only along a road, and no unit enters the
  Qattara floor, the sand sea or the salt marsh; CA-F.10: a mountain hex off the road costs 2 MF for an armoured
  or motorized corps, 1 for any other unit; CA-F.11: nothing enters the sea or leaves the map;
* CA-G.15: a disrupted unit does not move.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from tobruk.board.hexes import Hexside
from tobruk.board.maps import Feature, Map, RouteKind, Terrain
from tobruk.engine.errors import IllegalOrderError
from tobruk.mechanics.counters import Echelon, UnitType
from tobruk.systems.campaign.position import MOBILE_TYPES, CampaignPosition, CampaignUnit
from tobruk.systems.campaign.terrain import enterable
from tobruk.systems.campaign.zoc import EnemyZoc, enemy_zoc

MF = 60
BONUS = 4 * MF  # CA-M.3
BREAKTHROUGH_CUT = 2 * MF  # CA-M.5: the basic MF is reduced by 2
BREAKTHROUGH_BONUS = 3 * MF  # CA-Q.1 step 6: OMB = 3
COASTAL_ROAD = MF // 3  # CA-M.4: three times as fast
ESCARPMENT_MOBILE = 3 * MF  # CA-F.7: in all, to go up or down
ESCARPMENT_FOOT = 2 * MF
MOUNTAIN_SLOW = 2 * MF  # CA-F.10: an armoured or motorized corps off the road
COASTAL_ZONE = "coastal-road"  # the map zone of the coastal road's hexes

# a hexside step's kind, as bits: along the coastal road, along a road, across an escarpment that costs the climb,
# across an impassable escarpment with no road
COASTAL, ROAD, CLIMB, BARRIER = 1, 2, 4, 8

OUTSIDE = 2  # MoveBoard.sea's mark of a land hex outside the scenario's section of the map

# why a step is refused (see _refused)
OFF_MAP, IMPASSABLE, ENEMY, NO_ROAD, ZOC_TO_ZOC, NO_MF = range(1, 7)


@dataclass(frozen=True, slots=True)
class MoveBoard:
    """The campaign map flattened for the movement rules: ``open[i]`` a unit may enter hex ``i``; ``sea[i]`` it is sea;
    ``mountain[i]``; ``edge[i * 6 + d]`` the step's kind bits; ``nb`` the map's neighbour table."""

    nb: tuple[int, ...]
    open: bytes
    sea: bytes
    mountain: bytes
    edge: bytes


@lru_cache(maxsize=8)
def move_board(m: Map, area: frozenset[int] | None = None) -> MoveBoard:
    """The movement tables of a map (made once a map), or of the section ``area`` of it a scenario is played on:
    a hex outside the section is off the map (CA-F.11), as the section's edges are the map's edges."""
    coastal = m.zones.get(COASTAL_ZONE, frozenset())
    nb, index = m.neighbour_table, m.index
    edge = bytearray(len(nb))  # (a side with no road and no feature: 0, as a step off the map)
    roads = {side for side, kind in m.routes.items() if kind == RouteKind.ROAD}
    for side in roads | m.hexsides.keys():  # (the sides that carry something, not every hex's six)
        a, b = side.hexes
        i, j = index.get(a), index.get(b)
        if i is None or j is None:
            continue
        kinds = {f.kind for f in m.hexsides.get(side, ())}
        road = side in roads
        bits = ROAD * road
        if road and a in coastal and b in coastal:
            bits |= COASTAL
        if Feature.IMPASSABLE_ESCARPMENT in kinds and not road:
            bits |= BARRIER
        elif Feature.ESCARPMENT in kinds and Feature.PASS not in kinds and not road:
            bits |= CLIMB
        edge[i * 6 + a.direction_to(b)] = bits  # (the same both ways)
        edge[j * 6 + b.direction_to(a)] = bits
    return MoveBoard(
        nb,
        bytes(enterable(m, h) for h in m.hexes),
        bytes(OUTSIDE if area is not None and i not in area else not m.is_land(h) for i, h in enumerate(m.hexes)),
        bytes(m.terrain[h] == Terrain.MOUNTAIN for h in m.hexes),
        bytes(edge),
    )


def basic_mf(u: CampaignUnit) -> int:
    """A unit's basic operational MF in sixtieths (CA-M.2): printed, else 4 for German mobile units, 3 for others."""
    if u.unit.movement > 0:
        return u.unit.movement * MF
    return (4 if u.unit.nationality == "german" and u.unit.type in MOBILE_TYPES else 3) * MF


def slow_in_mountains(u: CampaignUnit) -> bool:
    """An armoured or motorized corps pays 2 MF a mountain hex off the road; divisions and brigades 1 (CA-F.10)."""
    return u.unit.echelon is Echelon.CORPS and u.unit.type in (UnitType.ARMOUR, UnitType.MOTORIZED)


@dataclass(frozen=True)
class Mover:
    """One unit's move prepared: its MF, bonus and why it has none, the enemy's zones, the friendly hexes."""

    position: CampaignPosition
    unit: CampaignUnit
    zoc: EnemyZoc
    budget: int
    bonus: int
    no_bonus: str  # why the bonus is not given from the start ("" when it is)
    withheld: int  # the bonus it would have had but for that
    friends: frozenset[int]  # hexes a friendly unit holds, the mover's start only if another unit stays there
    own_forts: frozenset[int]
    enemy: frozenset[int]  # hexes the enemy holds
    denied: frozenset[int]  # hexes whose entry loses the bonus (see bonus_denied_by)
    board: MoveBoard
    mobile: bool
    slow_in_mountains: bool

    @property
    def start(self) -> int:
        return self.unit.hex

    def bonus_denied_by(self, j: int) -> bool:
        """Entering ``j`` is entering the zone of an undisrupted enemy division or corps with no friendly unit or
        fortification there: the move gets no bonus (CA-M.3)."""
        return j in self.denied


def mover(position: CampaignPosition, unit_id: str, *, will_attack: bool = False, breakthrough: bool = False) -> Mover:
    """Prepare ``unit_id``'s operational move (``will_attack``: it will attack after moving; ``breakthrough``: the
    breakthrough step, CA-M.5).  Raises :class:`IllegalOrderError` for a disrupted unit (CA-G.15)."""
    u = position.unit(unit_id)
    if u.disrupted:
        raise IllegalOrderError("CA-G.15", f"{u.id} is disrupted and may not move")
    zoc = enemy_zoc(position, u.side)
    held = position.held[u.side]
    stays = any(o.id != u.id for o in position.at(u.hex) if o.side is u.side)
    friends = held if stays else held - {u.hex}
    own_forts = frozenset(i for i, s in position.forts.items() if s is u.side)
    denied = frozenset(j for j in zoc.sources if zoc.in_division_zone(j)) - friends - own_forts
    budget = basic_mf(u) - (BREAKTHROUGH_CUT if breakthrough else 0)
    bonus, why = (BREAKTHROUGH_BONUS if breakthrough else BONUS), ""
    if will_attack:
        bonus, why = 0, "a unit that will attack gets no movement bonus"
    elif u.hex in denied:
        bonus, why = 0, f"leaving the zone of an undisrupted enemy division or corps at {position.hex(u.hex)} gives no movement bonus"
    return Mover(
        position,
        u,
        zoc,
        max(budget, 0),
        bonus,
        why,
        0 if not why else (BREAKTHROUGH_BONUS if breakthrough else BONUS),
        friends,
        own_forts,
        position.held[u.side.enemy],
        denied,
        move_board(position.board, position.area),
        u.mobile,
        slow_in_mountains(u),
    )


def _step(mv: Mover, i: int, d: int, spent: int, *, ignore_zoc: bool = False, ignore_enemy: bool = False) -> int:
    """The MF spent after entering the neighbour of hex ``i`` in direction ``d`` having spent ``spent``, or the
    negative code of the rule that forbids it.  ``ignore_*`` relax a rule (to explain a refusal, never to move)."""
    b = mv.board
    e = i * 6 + d
    j = b.nb[e]
    if j < 0 or b.sea[j]:
        return -OFF_MAP
    if not b.open[j]:
        return -IMPASSABLE
    if not ignore_enemy and j in mv.enemy:
        return -ENEMY
    kind = b.edge[e]
    if kind & BARRIER:
        return -NO_ROAD
    zones = mv.zoc.sources
    if not ignore_zoc and i in zones and j in zones and j not in mv.friends and mv.zoc.zoc_to_zoc(i, j):
        return -ZOC_TO_ZOC
    in_zoc = not ignore_zoc and (i in zones or j in zones)
    if kind & COASTAL and not in_zoc:
        cost = COASTAL_ROAD
    elif kind & CLIMB:
        cost = ESCARPMENT_MOBILE if mv.mobile else ESCARPMENT_FOOT
    elif b.mountain[j] and mv.slow_in_mountains and not kind & ROAD:
        cost = MOUNTAIN_SLOW
    else:
        cost = MF
    new = spent + cost
    limit = mv.budget if j in mv.denied else mv.budget + mv.bonus
    return new if new <= limit else -NO_MF


def _stops(mv: Mover, j: int) -> bool:
    """A unit entering ``j`` must stop there (CA-Z.1, CA-F.3)."""
    return j in mv.zoc.sources


@dataclass(frozen=True)
class CampaignReach:
    """Where one unit may end its move: per hex index the MF spent by the cheapest legal way (``-1``: not reached)
    and the hex before it on that way; the start is not a destination."""

    mover: Mover
    spent: array[int]
    before: array[int]

    @property
    def start(self) -> int:
        return self.mover.start

    def destinations(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.spent) if c >= 0 and i != self.start)

    def __contains__(self, i: object) -> bool:
        return isinstance(i, int) and i != self.start and 0 <= i < len(self.spent) and self.spent[i] >= 0

    def cost(self, i: int) -> int:
        return self.spent[i]

    def path(self, i: int) -> tuple[int, ...]:
        """The cheapest legal way from the start to ``i`` (hex indices, the start first)."""
        if i not in self:
            raise KeyError(i)
        out = [i]
        while out[-1] != self.start:
            out.append(self.before[out[-1]])
        return tuple(reversed(out))

    def refusal(self, i: int) -> str | None:
        """Why the unit may not end its move in ``i``, as "[clause] reason"; None when it may."""
        if i in self:
            return None
        err = explain(self.mover, i)
        return f"[{err.clause}] {err.reason}"


def reach(position: CampaignPosition, unit_id: str, *, will_attack: bool = False, breakthrough: bool = False) -> CampaignReach:
    """Every hex ``unit_id`` may end its operational move in, with the cheapest legal way there."""
    mv = mover(position, unit_id, will_attack=will_attack, breakthrough=breakthrough)
    return _search(mv)


def _search(mv: Mover, *, unlimited: bool = False, ignore_zoc: bool = False, ignore_enemy: bool = False) -> CampaignReach:
    """Dijkstra from the start over hex indices: every rule of :func:`_step`, which only ever raises the cost, so the
    cheapest arrival at a hex is the best (a stop ends a way, and only the start may be left from a zone)."""
    if unlimited:
        mv = replace(mv, budget=1 << 30, bonus=0)
    n = len(mv.board.open)
    spent = array("i", [-1]) * n
    before = array("i", [-1]) * n
    start = mv.start
    spent[start] = 0
    heap = [(0, start)]
    while heap:
        c, i = heapq.heappop(heap)
        if c > spent[i]:
            continue
        if i != start and not ignore_zoc and _stops(mv, i):
            continue
        for d in range(6):
            new = _step(mv, i, d, c, ignore_zoc=ignore_zoc, ignore_enemy=ignore_enemy)
            if new < 0:
                continue
            j = mv.board.nb[i * 6 + d]
            if spent[j] < 0 or new < spent[j]:
                spent[j] = new
                before[j] = i
                heapq.heappush(heap, (new, j))
    return CampaignReach(mv, spent, before)


def walk(position: CampaignPosition, unit_id: str, path: Sequence[int], *, will_attack: bool = False, breakthrough: bool = False) -> int:
    """Check an order's path (hex indices, the unit's hex first) step by step; the MF it spends, or
    :class:`IllegalOrderError` naming the first rule it breaks."""
    mv = mover(position, unit_id, will_attack=will_attack, breakthrough=breakthrough)
    hexes = position.board.hexes
    if not path or path[0] != mv.start:
        raise IllegalOrderError("CA-M.1", f"the path must start where {mv.unit.id} stands, {hexes[mv.start]}")
    if len(path) < 2:
        raise IllegalOrderError("CA-M.1", "a move enters at least one hex")
    spent = 0
    for n in range(1, len(path)):
        here, there = path[n - 1], path[n]
        if n > 1 and _stops(mv, here):
            raise IllegalOrderError("CA-Z.1", f"{mv.unit.id} must stop in {hexes[here]}, in an enemy zone of control")
        on_board = 0 <= there < len(hexes)  # (-1 would match a neighbour off the board's edge)
        d = next((d for d in range(6) if mv.board.nb[here * 6 + d] == there), None) if on_board else None
        if d is None:
            where = hexes[there] if on_board else f"hex index {there}"
            raise IllegalOrderError("CA-M.1", f"{hexes[here]} and {where} are not adjacent")
        new = _step(mv, here, d, spent)
        if new < 0:
            needed = _step(replace(mv, budget=1 << 30, bonus=0), here, d, spent) if new == -NO_MF else 0
            raise _refused(mv, -new, here, there, needed)
        spent = new
    return spent


def _refused(mv: Mover, code: int, here: int, there: int, needed: int = 0) -> IllegalOrderError:
    """The player's message for a refused step, naming its clause (``needed``: the MF the way there would have
    spent, for a step refused for want of MF)."""
    m = mv.position.board
    a, b = m.hexes[here], m.hexes[there]
    if code == OFF_MAP:
        return _off_map(mv, there)
    if code == IMPASSABLE:
        return IllegalOrderError("CA-F.8", f"{b} is {m.terrain[b]}, ground no unit may enter")
    if code == ENEMY:
        return IllegalOrderError("CA-M.1", f"{b} holds enemy units: opposing units never share or pass through a hex")
    if code == NO_ROAD:
        return IllegalOrderError("CA-F.8", f"the impassable escarpment {Hexside.between(a, b)} is crossed only along a road")
    if code == ZOC_TO_ZOC:
        return IllegalOrderError("CA-Z.2", f"{a}-{b} moves straight from one enemy zone of control into another of the same enemy")
    return _short(mv, there, needed)


def _short(mv: Mover, there: int, needed: int) -> IllegalOrderError:
    """The message for a hex ``needed`` MF away that the unit's MF does not reach: CA-M.3 when the bonus it was
    denied would have reached it, else CA-M.2."""
    b = mv.position.board.hexes[there]
    full = mv.budget + mv.bonus
    if mv.bonus and mv.bonus_denied_by(there) and needed <= full:
        return IllegalOrderError(
            "CA-M.3",
            f"entering {b}, in the zone of an undisrupted enemy division or corps, gives no movement bonus ({mv.budget / MF:g} MF)",
        )
    if mv.no_bonus and needed <= full + mv.withheld:
        return IllegalOrderError("CA-M.3", f"{mv.no_bonus}: {b} is {needed / MF:g} MF away, more than the {full / MF:g} MF left")
    return IllegalOrderError("CA-M.2", f"{b} is {needed / MF:g} MF away, more than the {full / MF:g} MF of {mv.unit.id}")


def _off_map(mv: Mover, i: int) -> IllegalOrderError:
    h = mv.position.board.hexes[i]
    where = "outside the scenario's section of the map" if mv.board.sea[i] == OUTSIDE else "sea"
    return IllegalOrderError("CA-F.11", f"{h} is {where}: no unit moves into the sea or off the map")


def explain(mv: Mover, i: int) -> IllegalOrderError:
    """Why ``mv``'s unit cannot end its move in hex ``i`` (which the search did not reach)."""
    m = mv.position.board
    h = m.hexes[i]
    b = mv.board
    if i == mv.start:
        return IllegalOrderError("CA-M.1", f"{mv.unit.id} already stands in {h}")
    if b.sea[i]:
        return _off_map(mv, i)
    if not b.open[i]:
        return IllegalOrderError("CA-F.8", f"{h} is {m.terrain[h]}, ground no unit may enter")
    if i in mv.enemy:
        return IllegalOrderError("CA-M.1", f"{h} holds enemy units: opposing units never share or pass through a hex")
    free = _search(mv, unlimited=True)
    if i in free:
        return _short(mv, i, free.cost(i))
    if i in _search(mv, unlimited=True, ignore_zoc=True):
        if any(b.nb[mv.start * 6 + d] == i for d in range(6)) and mv.start in mv.zoc and i in mv.zoc:
            return _refused(mv, ZOC_TO_ZOC, mv.start, i)
        return IllegalOrderError("CA-Z.1", f"every way to {h} passes a hex of enemy zone of control, where {mv.unit.id} must stop")
    if i in _search(mv, unlimited=True, ignore_zoc=True, ignore_enemy=True):
        return IllegalOrderError("CA-M.1", f"enemy units bar every way to {h}: opposing units never pass through a hex")
    return IllegalOrderError("CA-F.8", f"impassable ground or escarpments bar every way to {h}")
