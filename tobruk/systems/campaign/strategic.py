"""Strategic movement in the campaign (CA-S.1-4): rail, sea and the bugout, as functions of a position.

* CA-S.2, rail: an undisrupted Allied unit on the working railway (from the east edge to the railhead of the turn)
  moves along it to any hex of it, unless the way passes a hex under a movement-stopping enemy zone (CA-Z.1,
  CA-F.3) that no friendly unit occupies, or an enemy unit (CA-M.1).  It may then move and attack as if it had
  started there, so it arrives undisrupted (docs/rulings.md: the rail clause's own words govern it, not CA-S.1's).
* CA-S.3, sea: one unit a player-turn from a coastal hex to a friendly-controlled port.  Sunk on a 1 if its side
  controls the sea (holds Tobruk), on a 1-3 if not.  It arrives disrupted (CA-S.1).
* CA-S.4, the bugout: any unit, disrupted or not, moves back at least 16 hexes (toward its own coastal-road edge
  hex, never away from it), or off the map there; it may pass hexes under movement-stopping enemy zones, each at a 1-in-6 risk of
  elimination (the rules' 17%), and ends with a Newly Disrupted marker.

Every die here is a chance node: :func:`sea_outcomes`, :func:`bugout_hex_outcomes` and :func:`bugout_outcomes`
list the outcomes with exact :class:`~fractions.Fraction` probabilities (the engine's :mod:`~tobruk.engine.chance`
types), and :func:`sea_move` and :func:`bugout` apply a chosen outcome, so the sequence of play pushes a frame that
asks chance and settles with them.  Refusals raise :class:`IllegalOrderError` naming the clause.  The readings of
the words are in docs/rulings.md ("North-Africa campaign: reinforcements, strategic movement, fortifications,
special units").
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.chance import Outcome, die, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.systems.campaign.movement import BARRIER, move_board
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit
from tobruk.systems.campaign.special import after_movement
from tobruk.systems.campaign.stacking import hex_refusal
from tobruk.systems.campaign.supply import supply_ground
from tobruk.systems.campaign.zoc import enemy_zoc

PORTS = "ports"  # the map's zone of the ports (CA-S.3)
TOBRUK = "tobruk-centre"  # the map's zone of Tobruk's own hex: its holder controls the sea (CA-S.3)
SEA_SUNK_FRIENDLY = 1  # CA-S.3: faces that sink a unit when the sea is friendly ...
SEA_SUNK_ENEMY = 3  # ... and when it is not
BUGOUT_BACK = 16  # CA-S.4: hexes back, at least
BUGOUT_LOSS = Fraction(1, 6)  # CA-S.4: "a 17% chance of elimination for every such hex entered"
OFF_MAP = -1  # a bugout's destination off the map through the side's own edge hex
SUNK, ARRIVES = "sunk", "arrives"
LOST, PASSES = "eliminated", "passes"


def rear_hex(m: Map, side: Side, section: Collection[Hex] | None = None) -> int:
    """The coastal-road hex on ``side``'s own map edge (the west end for the Axis, the east end for the Allies), or
    on the edge of the section a scenario is played on: where its reinforcements enter (CA-R.4), its supply leads
    back to (CA-P.1) and its bugout heads (CA-S.4)."""
    ground = supply_ground(m, section)
    return ground.west_end if side is Side.AXIS else ground.east_end


def _friends(position: CampaignPosition, u: CampaignUnit) -> frozenset[int]:
    """The hexes a friendly unit occupies, the mover's own only if another unit of its side stays there."""
    held = position.held[u.side]
    stays = any(o.id != u.id and o.side is u.side for o in position.at(u.hex))
    return held if stays else held - {u.hex}


def _stack_check(position: CampaignPosition, u: CampaignUnit, to: int) -> None:
    why = hex_refusal(position, to, u.side, (replace(u, hex=to),))
    if why is not None:
        raise IllegalOrderError("CA-K.1", f"{position.hex(to)} would hold {why}")


# ---------------------------------------------------------------------------------------------------- rail (CA-S.2)


@lru_cache(maxsize=32)
def rail_line(m: Map, railhead: str) -> tuple[int, ...]:
    """The working railway as hex indices, from its east end (the map's first railway hex) to the railhead ``railhead``
    (a place on the railway: the turn track's railhead of the turn, ``Track.railhead``)."""
    try:
        head = m.place(railhead).hex
    except KeyError:
        raise ValueError(f"map {m.name!r} has no place {railhead!r} (CA-S.2's railhead)") from None
    if head not in m.railway:
        raise ValueError(f"{railhead} ({head}) is not on the railway of map {m.name!r}")
    rail = m.railway[: m.railway.index(head) + 1]
    return tuple(m.index[h] for h in rail)


@dataclass(frozen=True)
class RailMoves:
    """Where one unit may go by rail: the hexes of the line it may reach, and why each other hex of the line is
    refused (hex index -> (clause, reason))."""

    unit: str
    line: tuple[int, ...]
    destinations: frozenset[int]
    refused: Mapping[int, tuple[str, str]]

    def refusal(self, i: int) -> str | None:
        """Why the unit may not go to hex ``i`` by rail, as "[clause] reason"; None when it may."""
        if i in self.destinations:
            return None
        clause, reason = self.refused.get(i, ("CA-S.2", "not a hex of the railway up to the railhead"))
        return f"[{clause}] {reason}"


def rail_blocks(position: CampaignPosition, u: CampaignUnit) -> dict[int, tuple[str, str]]:
    """The hexes that stop ``u``'s rail movement, with their clause: an enemy unit (CA-M.1) or a hex under a
    movement-stopping enemy zone no friendly unit occupies (CA-S.2; an empty enemy fort is one, CA-F.3).  The unit's
    own hex counts unless another unit of its side stays there."""
    zoc = enemy_zoc(position, u.side)
    friends = _friends(position, u)
    out: dict[int, tuple[str, str]] = {}
    for i in position.held[u.side.enemy]:
        out[i] = ("CA-M.1", f"{position.hex(i)} holds enemy units")
    for i in zoc.sources:
        if i not in friends and i not in out:
            out[i] = ("CA-S.2", f"{position.hex(i)} is in an enemy zone of control that no friendly unit occupies")
    return out


def rail_moves(position: CampaignPosition, unit_id: str, line: tuple[int, ...]) -> RailMoves:
    """Where ``unit_id`` may move by rail along ``line`` (:func:`rail_line`): every hex of the line it can reach from
    its own without passing a blocked hex (:func:`rail_blocks`).  Raises :class:`IllegalOrderError` when the unit
    may not move by rail at all: not Allied, disrupted or off the line (CA-S.2)."""
    u = position.unit(unit_id)
    if u.side is not Side.ALLIED:
        raise IllegalOrderError("CA-S.2", f"{u.id} is an Axis unit: only Allied units move by rail")
    if u.disrupted:
        raise IllegalOrderError("CA-S.2", f"{u.id} is disrupted: only undisrupted units move by rail")
    if u.hex not in line:
        raise IllegalOrderError("CA-S.2", f"{u.id} at {position.hex(u.hex)} is not on the railway up to the railhead")
    blocks = rail_blocks(position, u)
    k = line.index(u.hex)
    refused: dict[int, tuple[str, str]] = {}
    reached: set[int] = set()
    if u.hex in blocks:
        why = blocks[u.hex]
        return RailMoves(u.id, line, frozenset(), {i: why for i in line if i != u.hex})
    for step in (1, -1):
        stop: tuple[str, str] | None = None  # the first block met this way: every hex beyond it is refused for it
        n = k + step
        while 0 <= n < len(line):
            i = line[n]
            stop = stop or blocks.get(i)
            if stop:
                refused[i] = stop
            else:
                reached.add(i)
            n += step
    return RailMoves(u.id, line, frozenset(reached), refused)


def rail_move(position: CampaignPosition, unit_id: str, to: int, line: tuple[int, ...]) -> CampaignPosition:
    """``unit_id`` moved by rail to ``to``, undisrupted (it moves and attacks from there as from its start, CA-S.2);
    the 8th Army artillery is disrupted by it as by any movement (CA-U.3)."""
    moves = rail_moves(position, unit_id, line)
    u = position.unit(unit_id)
    if to == u.hex:
        raise IllegalOrderError("CA-S.2", f"{u.id} already stands in {position.hex(to)}")
    if to not in moves.destinations:
        clause, reason = moves.refused.get(to, ("CA-S.2", f"{position.hex(to)} is not on the railway up to the railhead"))
        raise IllegalOrderError(clause, reason)
    _stack_check(position, u, to)
    return position.with_unit(after_movement(replace(u, hex=to)))


# ----------------------------------------------------------------------------------------------------- sea (CA-S.3)


def coastal(m: Map, i: int) -> bool:
    """Whether hex ``i`` is a coastal hex: land with the sea beside it."""
    h = m.hexes[i]
    return m.is_land(h) and any(not m.is_land(n) for n in m.neighbours(h))


def controls_sea(side: Side, tobruk_holder: Side | None) -> bool:
    """CA-S.3: the player controlling Tobruk controls the Mediterranean (nobody holding it: neither does)."""
    return tobruk_holder is side


def sea_ports(position: CampaignPosition, side: Side, control: Mapping[int, Side]) -> frozenset[int]:
    """The ports (the map's ``ports`` zone) ``side`` controls by ``control`` (hex index -> the controlling side, the
    game's record of control) and no enemy unit occupies."""
    m = position.board
    enemy = position.held[side.enemy]
    ports = (m.index[h] for h in m.zones.get(PORTS, frozenset()))
    return frozenset(i for i in ports if control.get(i) is side and i not in enemy)


def check_sea_move(position: CampaignPosition, unit_id: str, port: int, control: Mapping[int, Side], *, used: bool) -> None:
    """Raise :class:`IllegalOrderError` unless ``unit_id`` may move by sea to ``port`` this player-turn (``used``: its
    side has already moved a unit by sea this player-turn)."""
    u = position.unit(unit_id)
    m = position.board
    if used:
        raise IllegalOrderError("CA-S.3", "one unit a player-turn may move by sea, and one has")
    if u.disrupted:
        raise IllegalOrderError("CA-G.15", f"{u.id} is disrupted and may not move")
    if not coastal(m, u.hex):
        raise IllegalOrderError("CA-S.3", f"{u.id} at {position.hex(u.hex)} is not on a coastal hex")
    if port == u.hex:
        raise IllegalOrderError("CA-S.3", f"{u.id} already stands in {position.hex(port)}")
    if port not in sea_ports(position, u.side, control):
        raise IllegalOrderError("CA-S.3", f"{position.hex(port)} is not a port the {u.side.display} side controls")
    _stack_check(position, u, port)


def sea_outcomes(friendly_sea: bool) -> tuple[Outcome, ...]:
    """The sinking die of a sea move (CA-S.3): one die, a 1 sinks the unit when its side controls the sea, a 1-3 when
    it does not (faces labelled ``sunk`` or ``arrives``)."""
    sunk = SEA_SUNK_FRIENDLY if friendly_sea else SEA_SUNK_ENEMY
    return labelled(die(6), [SUNK if o.value <= sunk else ARRIVES for o in die(6)])


def sea_move(position: CampaignPosition, unit_id: str, port: int, value: int, friendly_sea: bool) -> tuple[CampaignPosition, bool]:
    """The position after ``unit_id``'s sea move to ``port`` with the die showing ``value`` (an outcome of
    :func:`sea_outcomes`), and whether it was sunk: sunk, it is eliminated; else it arrives disrupted (CA-S.1)."""
    outcome = next((o for o in sea_outcomes(friendly_sea) if o.value == value), None)
    if outcome is None:
        raise ValueError(f"{value} is not a face of the sinking die")
    if outcome.label == SUNK:
        return _without(position, unit_id), True
    u = position.unit(unit_id)
    return position.with_unit(replace(u, hex=port, disrupted=True)), False


def _without(position: CampaignPosition, unit_id: str) -> CampaignPosition:
    position.unit(unit_id)
    return replace(position, units=tuple(u for u in position.units if u.id != unit_id))


# -------------------------------------------------------------------------------------------------- bugout (CA-S.4)


@dataclass(frozen=True)
class BugoutReach:
    """Where one unit may bug out to: per hex index the fewest hexes under movement-stopping enemy zones its way
    enters (``-1``: no way), the hex before it on that way, and the legal ends (at least 16 hexes back, room to
    stack), with :data:`OFF_MAP` when it may leave the map through its edge hex ``rear``."""

    unit: str
    start: int
    rear: int
    risk: array[int]
    before: array[int]
    destinations: frozenset[int]

    def path(self, i: int) -> tuple[int, ...]:
        """The way to ``i`` (hex indices, the start first) entering the fewest zone hexes; to :data:`OFF_MAP`, the
        way to the edge hex."""
        j = self.rear if i == OFF_MAP else i
        if self.risk[j] < 0:
            raise KeyError(i)
        out = [j]
        while out[-1] != self.start:
            out.append(self.before[out[-1]])
        return tuple(reversed(out))

    def blocking(self, i: int) -> int:
        """How many hexes under a movement-stopping enemy zone the way to ``i`` enters: the dice to roll."""
        return self.risk[self.rear if i == OFF_MAP else i]


def back(position: CampaignPosition, start: int, end: int, rear: int) -> int:
    """How far a move from ``start`` to ``end`` goes back: how much nearer the side's edge hex ``rear`` it ends, in
    hexes as the crow flies (CA-S.4)."""
    h = position.board.hexes
    return h[start].distance(h[rear]) - h[end].distance(h[rear])


def bugout_reach(position: CampaignPosition, unit_id: str, rear: int) -> BugoutReach:
    """Every end of ``unit_id``'s bugout toward its edge hex ``rear`` (:func:`rear_hex`).  The way is a retreat: each
    hex of it no farther from ``rear`` than the one before; it goes anywhere a unit may be (not into an enemy hex,
    CA-M.1; not onto impassable ground, across an impassable escarpment off the road or into the sea, CA-F.8,
    CA-F.11), any distance, with no movement factors; each hex entered under a movement-stopping enemy zone
    (CA-Z.1, CA-F.3) is one risk of 1 in 6, and the way chosen enters the fewest (a 0-1 breadth-first search).  An
    end is legal when it is at least 16 hexes back (:func:`back`) and the unit may stack there (CA-K.1); leaving the
    map through ``rear`` is always as far back as a unit can go."""
    u = position.unit(unit_id)
    b = move_board(position.board)
    zoc = enemy_zoc(position, u.side).sources
    enemy = position.held[u.side.enemy]
    n = len(b.open)
    to_rear = _to_rear(position.board, rear)
    risk = array("i", [-1]) * n
    before = array("i", [-1]) * n
    risk[u.hex] = 0
    # Hexes leave the queue in order of risk (a 0-1 search), and what entering a hex risks is the hex's own (its
    # enemy zone): the first hex to reach another is one of the least risk, so no hex's risk is ever lowered later
    # and none is queued twice; no stale entry to skip.
    todo: deque[tuple[int, int]] = deque([(0, u.hex)])
    while todo:
        r, i = todo.popleft()
        for d in range(6):
            e = i * 6 + d
            j = b.nb[e]
            if j < 0 or b.sea[j] or not b.open[j] or j in enemy or b.edge[e] & BARRIER or to_rear[j] >= to_rear[i]:
                continue
            if risk[j] >= 0:
                continue  # (reached already, at no more risk: see above)
            w = 1 if j in zoc else 0
            risk[j] = r + w
            before[j] = i
            if w:
                todo.append((r + w, j))
            else:
                todo.appendleft((r, j))
    far = to_rear[u.hex] - BUGOUT_BACK  # an end is at least 16 hexes back: this near the rear or nearer
    ends = {j for j in range(n) if risk[j] >= 0 and to_rear[j] <= far and (not position.at(j) or _stacks(position, u, j))}
    if risk[rear] >= 0:
        ends.add(OFF_MAP)
    return BugoutReach(u.id, u.hex, rear, risk, before, frozenset(ends))


@lru_cache(maxsize=16)
def _to_rear(m: Map, rear: int) -> tuple[int, ...]:
    """Each hex's distance in hexes to the edge hex ``rear``, as the crow flies (kept per map and edge hex)."""
    return tuple(h.distance(m.hexes[rear]) for h in m.hexes)


def _stacks(position: CampaignPosition, u: CampaignUnit, j: int) -> bool:
    return hex_refusal(position, j, u.side, (replace(u, hex=j),)) is None


def check_bugout(position: CampaignPosition, unit_id: str, to: int, rear: int) -> BugoutReach:
    """The bugout's reach, or :class:`IllegalOrderError` naming why ``unit_id`` may not bug out to ``to``."""
    found = bugout_reach(position, unit_id, rear)
    if to in found.destinations:
        return found
    if to == OFF_MAP:
        raise IllegalOrderError("CA-S.4", f"{unit_id} has no way to its edge hex {position.hex(rear)}")
    where = position.hex(to)
    if found.risk[to] < 0:
        raise IllegalOrderError("CA-S.4", f"{unit_id} has no way to {where} (enemy units, impassable ground or the sea)")
    gone = back(position, found.start, to, rear)
    if gone < BUGOUT_BACK:
        raise IllegalOrderError("CA-S.4", f"{where} is {gone} hexes back, not the {BUGOUT_BACK} a bugout must go")
    why = hex_refusal(position, to, position.unit(unit_id).side, (replace(position.unit(unit_id), hex=to),))
    raise IllegalOrderError("CA-K.1", f"{where} would hold {why}")


def bugout_hex_outcomes() -> tuple[Outcome, ...]:
    """The die rolled for each hex under a movement-stopping enemy zone a bugout enters (CA-S.4): a 1 eliminates the
    unit (1 in 6, the rules' 17%)."""
    return labelled(die(6), [LOST if o.value == 1 else PASSES for o in die(6)])


def bugout_outcomes(blocking: int) -> tuple[Outcome, ...]:
    """A whole bugout entering ``blocking`` zone hexes as one chance node: value 0 the unit arrives ((5/6)^k), value
    n (1 to k) it is eliminated at the n-th such hex ((1/6)(5/6)^(n-1)).  The same as rolling
    :func:`bugout_hex_outcomes` once a hex until a 1; a search may use either."""
    if blocking < 0:
        raise ValueError("a bugout enters 0 or more zone hexes")
    keep = 1 - BUGOUT_LOSS
    lost = tuple(Outcome(n, BUGOUT_LOSS * keep ** (n - 1), f"{LOST} at zone hex {n}") for n in range(1, blocking + 1))
    return (Outcome(0, keep**blocking, ARRIVES), *lost)


def survival(blocking: int) -> Fraction:
    """The chance a bugout entering ``blocking`` zone hexes arrives: (5/6)^k."""
    return (1 - BUGOUT_LOSS) ** blocking


def bugout(position: CampaignPosition, unit_id: str, to: int, rear: int, lost: bool) -> CampaignPosition:
    """The position after ``unit_id``'s bugout to ``to`` (:data:`OFF_MAP`: off the map through ``rear``): ``lost``
    (the dice eliminated it), it is gone; off the map, it is gone from the map; else it stands at ``to`` disrupted
    with a Newly Disrupted marker (CA-S.4)."""
    check_bugout(position, unit_id, to, rear)
    if lost or to == OFF_MAP:
        return _without(position, unit_id)
    u = position.unit(unit_id)
    return position.with_unit(replace(u, hex=to, disrupted=True, newly_disrupted=True))
