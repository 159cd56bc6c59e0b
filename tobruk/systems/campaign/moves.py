"""Operational movement and attack allocation in a running game (CA-M, CA-Z with CA-Q.1-2 steps 2, 3 and 6).

The rules of a move are :mod:`.movement`'s, on the position of the game (:mod:`.live`); this module says which
units a step lets move or attack and what an order does to the game.

* Operational movement (step 3) is for "as yet unused" units: undisrupted (CA-G.15), not yet moved, not yet
  allocated to an attack.  A unit moves once, as one order (a unit, then a hex; the rules find the way).
* The breakthrough (step 6) is for the units "which have not yet moved or attacked", noted when the step begins:
  German ones in the Axis player-turn (CA-M.5), Allied ones in the Allied; basic MF 2 less, bonus 3 (CA-M.5 with
  the sequence's OMB=3, docs/rulings.md).
* An allocation puts one unit against one adjacent hex of enemy units (CA-G.12); the enemy units there are then
  "being attacked" (CA-G.17) and a lone armour unit among them loses its ZOC (CA-Z.1).  A unit allocated moves no
  more.  A unit that spent more than its basic MF took the movement bonus, which a unit that will attack does not
  get (CA-M.3): it may not be allocated.
* At the end of a movement step no hex of the side may be over-stacked (CA-K.1).
* The 8th Army artillery ends every move disrupted (CA-U.3), so it never moves and attacks in one player-turn.
* A move takes control of the ports and of Tobruk it enters or passes (CA-S.3, :mod:`.sea`).
* The Tobruk dummy (CA-F.4) neither moves nor attacks: it is a decoy inside the perimeter (docs/rulings.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.actions import Allocate
from tobruk.systems.campaign.movement import BREAKTHROUGH_CUT, MF, CampaignReach, basic_mf, explain, mover, reach, walk
from tobruk.systems.campaign.sea import note_control
from tobruk.systems.campaign.special import army_artillery
from tobruk.systems.campaign.stacking import check_stacking
from tobruk.systems.campaign.start_of_turn import note_alamein
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.steps import attacks_played

if TYPE_CHECKING:
    from tobruk.engine.game import Game


_REACH: Cache[CampaignReach] = Cache("campaign.reach", BOARD)


def breakthrough_eligible(game: Game, side: Side) -> tuple[str, ...]:
    """The units that may take part in ``side``'s breakthrough, as its step begins: on the map, undisrupted, not yet
    moved nor allocated to an attack; German only in the Axis player-turn (CA-M.5), every Allied unit in the Allied
    (CA-Q.2 step 6)."""
    defs = counter_defs(game)
    out = []
    for uid in live.on_map(game, side):
        c = counter(game, uid)
        if c.disrupted or c.moved or c.attacking or defs[uid].type == hidden.DUMMY:
            continue
        if side is Side.AXIS and defs[uid].nationality != "german":
            continue
        out.append(uid)
    return tuple(out)


def movers(game: Game, side: Side, breakthrough: bool) -> list[str]:
    """The units that may move now."""
    v = campaign_vars(game)
    pool = v.eligible if breakthrough else tuple(live.on_map(game, side))
    defs = counter_defs(game)
    out = []
    for uid in pool:
        c = counter(game, uid)
        if defs[uid].type == hidden.DUMMY or c.disrupted or c.attacking or c.eliminated or c.hex_index < 0 or uid in v.spent:
            continue
        if not breakthrough and c.moved:
            continue
        out.append(uid)
    return out


def unit_reach(game: Game, uid: str, breakthrough: bool) -> CampaignReach:
    """Where the unit may end its move (kept per board)."""
    return _REACH.get(game, (uid, breakthrough), lambda: reach(live.position(game), uid, breakthrough=breakthrough))


def move_orders(game: Game, side: Side, breakthrough: bool) -> list[Move]:
    """Every legal move now, one per unit and destination, along the cheapest legal way."""
    hexes = game.scenario.map.hexes
    out: list[Move] = []
    for uid in movers(game, side, breakthrough):
        r = unit_reach(game, uid, breakthrough)
        out.extend(Move(uid, tuple(hexes[k] for k in r.path(i))) for i in r.destinations())
    return out


def move(game: Game, side: Side, order: Move, *, breakthrough: bool) -> None:
    """Check and carry out an operational move (a destination alone, or a whole path checked step by step)."""
    clause = "CA-M.5" if breakthrough else "CA-Q.1" if side is Side.AXIS else "CA-Q.2"
    uid = order.unit
    refusal = hidden.not_movable(game, side, uid, clause)  # (the side's own unit, on the map, not the Tobruk dummy)
    if refusal is not None:
        raise refusal
    c = counter(game, uid)
    v = campaign_vars(game)
    if c.disrupted:
        raise IllegalOrderError("CA-G.15", f"{uid} is disrupted and may not move")
    if c.attacking:
        raise IllegalOrderError(clause, f"{uid} is allocated to an attack and moves no more")
    if breakthrough and uid not in v.eligible:
        who = "German units" if side is Side.AXIS else "units"
        raise IllegalOrderError("CA-M.5", f"only {who} that have not yet moved or attacked take part in the breakthrough; {uid} may not")
    if uid in v.spent or (c.moved and not breakthrough):
        raise IllegalOrderError(clause, f"{uid} has moved already in this step")
    m = game.scenario.map
    if len(order.path) == 1:
        target = m.index.get(order.path[0])
        if target is None:
            raise IllegalOrderError("CA-F.11", f"{order.path[0]} is not on the map")
        r = unit_reach(game, uid, breakthrough)
        if target not in r:
            raise explain(mover(live.position(game), uid, breakthrough=breakthrough), target)
        path = r.path(target)
        spent = r.cost(target)
    else:
        if any(h not in m.index for h in order.path):
            raise IllegalOrderError("CA-F.11", "the path leaves the map")
        path = tuple(m.index[h] for h in order.path)
        spent = walk(live.position(game), uid, path, breakthrough=breakthrough)
    start = c.hex
    c.hex = m.hexes[path[-1]]
    c.moved = True
    v.spent = v.spent | {uid: spent}
    artillery = army_artillery(counter_defs(game)[uid])
    c.disrupted = c.disrupted or artillery  # CA-U.3: at the end of any movement
    text = f"{side.display}: {{}} moves {start}-{c.hex} ({spent / MF:g} MF){', disrupted (CA-U.3)' if artillery else ''}."
    note_control(game, side, (m.hexes[k] for k in path))  # the ports and Tobruk it passes (CA-S.3)
    hidden.log_about(game, uid, text.format(uid), text.format("a face-down unit"), kind="move")
    if side is Side.AXIS:
        note_alamein(game)  # CA-R.3, CA-R.5


def allocation_targets(game: Game, side: Side, uid: str) -> list[Hex]:
    """The hexes of enemy units next to the unit, which it may be allocated to attack."""
    c = counter(game, uid)
    here = c.hex
    if here is None:
        return []
    occupied = game.occupants(side.enemy)
    return sorted((h for h in here.neighbours() if h in occupied), key=lambda h: h.label)


def may_allocate(game: Game, side: Side, uid: str, target: Hex, *, step: str) -> IllegalOrderError | None:
    """Why ``uid`` may not be allocated against ``target`` in a step of kind ``step`` ("early", "movement",
    "breakthrough"), or None."""
    if not attacks_played(game):
        return IllegalOrderError("CA-G", "this preview of the campaign does not play combat yet: no attack may be allocated")
    d = counter_defs(game).get(uid)
    if d is None or d.side is not side:
        return IllegalOrderError("CA-G.12", f"{uid!r} is not one of your units")
    c = counter(game, uid)
    v = campaign_vars(game)
    if c.eliminated or c.hex is None:
        return IllegalOrderError("CA-G.12", f"{uid} is not on the map")
    if d.type == hidden.DUMMY:
        return IllegalOrderError("CA-F.4", f"{uid} is a dummy and never fights")
    if c.disrupted:
        return IllegalOrderError("CA-G.15", f"{uid} is disrupted and may not attack")
    if c.attacking:
        return IllegalOrderError("CA-G.12", f"{uid} is already allocated to an attack")
    if step == "early" and c.moved:
        clause = "CA-Q.1" if side is Side.AXIS else "CA-Q.2"
        return IllegalOrderError(clause, f"{uid} has moved: attacks before movement are by unmoved units")
    if step == "breakthrough" and uid not in v.eligible:
        return IllegalOrderError("CA-M.5", f"{uid} moved or attacked before the breakthrough and takes no part in it")
    if step == "movement" and c.moved and uid not in v.spent:
        return IllegalOrderError("CA-Q.1" if side is Side.AXIS else "CA-Q.2", f"{uid} moved in an earlier step")
    if not target.is_adjacent(c.hex) or target not in game.occupants(side.enemy):
        return IllegalOrderError("CA-G.12", f"{target} is not a hex of enemy units next to {uid}")
    if uid in v.spent:
        basic = basic_mf(live.position(game).unit(uid)) - (BREAKTHROUGH_CUT if step == "breakthrough" else 0)
        if v.spent[uid] > basic:
            return IllegalOrderError(
                "CA-M.3",
                f"{uid} spent {v.spent[uid] / MF:g} MF, more than its {basic / MF:g} basic MF: "
                "a unit that took the movement bonus may not attack",
            )
    return None


def allocation_orders(game: Game, side: Side, step: str) -> list[Allocate]:
    """Every legal allocation now."""
    out: list[Allocate] = []
    for uid in live.on_map(game, side):
        for h in allocation_targets(game, side, uid):
            if may_allocate(game, side, uid, h, step=step) is None:
                out.append(Allocate(uid, h))
    return out


def allocate(game: Game, side: Side, order: Allocate, *, step: str) -> None:
    """Allocate a unit to an attack: it is attacking, the enemy units in the hex are being attacked."""
    problem = may_allocate(game, side, order.unit, order.hex, step=step)
    if problem is not None:
        raise problem
    v = campaign_vars(game)
    hidden.reveal(game, [order.unit], "it attacks")
    hidden.reveal(game, game.units_at(order.hex, side.enemy), "being attacked")
    counter(game, order.unit).attacking = True
    for e in game.units_at(order.hex, side.enemy):
        counter(game, e).targeted = True
    label = order.hex.label
    v.allocations = v.allocations | {label: (*v.allocations.get(label, ()), order.unit)}
    game.log(f"{side.display}: {order.unit} is allocated to attack {order.hex}.", kind="move")


def close_movement(game: Game, side: Side) -> None:
    """The end of a movement step: no hex of the side over-stacked (CA-K.1)."""
    check_stacking(live.position(game), side)
