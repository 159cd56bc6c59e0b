"""Movement and supply in Operation Compass (OC-TER.1 and the rulings on what the charts leave open).

Movement: an Allied unit moves once a turn up to its movement allowance in MP, each step priced by the terrain
effects chart (:mod:`.terrain`); it may not enter a hex the enemy holds, and ends its move where at most
``allied_units`` Allied units will stand (ruling R-OC-STACK).  There are no zones of control (ruling R-OC-ZOC): the
charts give none, the Italians stood in their camps and the WDF drove through the gaps between them.

Supply (ruling R-OC-SUPPLY): a line from one of the side's sources, priced by the chart's bracketed costs, of at
most ``range`` supply points, entering no hex the enemy holds nor one next to an enemy combat unit unless a friendly
unit stands there.  An Allied unit out of supply checks morale worse (OC-MC.1) and no longer threatens a retreat
(OC-RET.1); an Italian unit with no line is cut off (OC-RET.1), and one that can get no closer to its source cannot
retreat (OC-RET.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex, route_text
from tobruk.engine.caching import BOARD, FIXED, Cache, enemy_units, side_units
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.mechanics.paths import BLOCKED, Paths, cheapest
from tobruk.mechanics.reach import MF
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.move_block import UnitMoves
from tobruk.systems.operation_compass.state import compass_vars
from tobruk.systems.operation_compass.terrain import closed, step_table

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def on_map(game: Game, side: Side) -> list[tuple[str, Hex]]:
    """The side's units on the map, in order of battle, with their hexes."""
    return list(game.placed(side))


def combat_units_near(game: Game, side: Side) -> frozenset[Hex]:
    """The hexes next to ``side``'s combat units (all but its support units), those units' own hexes included."""
    defs = compass_defs(game)
    out: set[Hex] = set()
    for uid, h in on_map(game, side):
        if not defs[uid].is_support:
            out.add(h)
            out.update(h.neighbours())
    return frozenset(out)


# a unit's reach and moves read its hex (an argument) and the enemy's hexes; its moves also the hexes full already
_REACH: Cache[Paths] = Cache("operation-compass.reach", enemy_units(0))  # (side, unit, hex)
_MOVES: Cache[UnitMoves] = Cache("operation-compass.moves", enemy_units(0))  # (side, unit, hex, full hexes)
NO_MOVES: tuple[Move, ...] = ()
_FULL: Cache[frozenset[Hex]] = Cache("operation-compass.full-hexes", side_units(0))  # (side)
_PLACES: Cache[frozenset[Hex]] = Cache("operation-compass.places", FIXED)
_SUPPLY_PATHS: Cache[Paths] = Cache("operation-compass.supply-paths", BOARD)  # (both sides' hexes)


# --- movement ----------------------------------------------------------------------------------------
def reach(game: Game, uid: str) -> Paths:
    """Where ``uid`` could move now, with its cheapest paths (within its movement allowance, into no enemy hex)."""

    def work() -> Paths:
        m, d, u = game.scenario.map, compass_defs(game)[uid], compass_unit(game, uid)
        assert u.hex is not None
        steps = closed(m, step_table(m, chart(game).terrain, supply=False), game.occupants(d.side.enemy))
        return cheapest(m, [(u.hex, 0)], steps, d.movement * MF)

    d, u = compass_defs(game)[uid], compass_unit(game, uid)
    return _REACH.get(game, (d.side, uid, u.hex), work)


def room(game: Game, h: Hex) -> bool:
    """Whether one more Allied unit may end a move in ``h`` (ruling R-OC-STACK; only the WDF moves)."""
    return h not in full_hexes(game, Side.ALLIED)


def full_hexes(game: Game, side: Side) -> frozenset[Hex]:
    """The hexes where no more of the side's units may end a move (ruling R-OC-STACK: :func:`room` is false)."""

    def work() -> frozenset[Hex]:
        limit = chart(game).allied_stack
        return frozenset(h for h, here in game.occupants(side).items() if len(here) >= limit)

    return _FULL.get(game, side, work)


def moves(game: Game, uid: str) -> Sequence[Move]:
    """The unit's legal moves, one a destination, along its cheapest path (the first such in hex order).  Kept while
    the unit, the enemy's hexes and the full hexes stay as they are: the same tuple is handed out again, so the
    listing works out its ids once (``Node.action_blocks``)."""
    u = compass_unit(game, uid)
    here = u.hex
    if here is None or u.moved:
        return NO_MOVES
    side = compass_defs(game)[uid].side
    full = full_hexes(game, side)

    def work() -> UnitMoves:
        paths = reach(game, uid)
        return UnitMoves(uid, paths, [h for h in paths.reached() if h != here and h not in full])

    return _MOVES.get(game, (side, uid, here, full), work)


def check_move(game: Game, order: Move, side: Side) -> Move:
    """The move as it will be made (a move given by its destination takes its cheapest path), or the refusal with
    its clause."""
    d = compass_defs(game).get(order.unit)
    if d is None or d.side is not side:
        raise IllegalOrderError("OC-TER.1", f"{order.unit!r} is not one of your units")
    u = compass_unit(game, order.unit)
    if u.hex is None:
        raise IllegalOrderError("OC-TER.1", f"{order.unit} is not on the map")
    if u.moved:
        raise IllegalOrderError("OC-TER.1", f"{order.unit} has moved this turn (a unit moves once a turn, ruling R-OC-SEQ)")
    if order in moves(game, order.unit):  # listed now (kept with the unit's reach): legal as it stands
        return order
    path = order.path
    if len(path) == 1:  # the destination alone: the cheapest path there
        paths = reach(game, order.unit)
        if path[0] == u.hex:
            raise IllegalOrderError("OC-TER.1", f"{order.unit} is in {u.hex} already")
        if path[0] not in paths:
            raise IllegalOrderError(
                "OC-TER.1",
                f"{order.unit} has {d.movement} MP: {path[0]} is beyond its reach (or the enemy, the sea or the escarpment bars the way)",
            )
        path = paths.path_to(path[0])
    if path[0] != u.hex:
        raise IllegalOrderError("OC-TER.1", f"the path must start where {order.unit} is, {u.hex}")
    m = game.scenario.map
    steps = closed(m, step_table(m, chart(game).terrain, supply=False), game.occupants(side.enemy))
    spent = 0
    for a, b in pairwise(path):
        if b not in m or not a.is_adjacent(b):
            raise IllegalOrderError("OC-TER.1", f"{a} and {b} are not next to each other on the map")
        i = m.index[a]
        cost = steps[i * 6 + a.direction_to(b)]
        if cost == BLOCKED:
            raise IllegalOrderError("OC-TER.1", f"{order.unit} cannot go from {a} to {b} (the enemy, the sea or the escarpment)")
        spent += cost
    if spent > d.movement * MF:
        raise IllegalOrderError("OC-TER.1", f"{route_text(path)} costs {spent / MF:g} MP; {order.unit} has {d.movement}")
    if not room(game, path[-1]):
        raise IllegalOrderError("OC-TER.1", f"at most {chart(game).allied_stack} Allied units in a hex (ruling R-OC-STACK)")
    return Move(order.unit, path)


def move(game: Game, order: Move) -> None:
    u = compass_unit(game, order.unit)
    u.hex = order.path[-1]
    u.moved = True
    side = compass_defs(game)[order.unit].side
    hold(game, side, order.path[1:])
    game.log(f"{side.display}: {order.unit} moves {route_text(order.path)}.", kind="move")


def hold(game: Game, side: Side, hexes: Iterable[Hex]) -> None:
    """The places the victory counts (ruling R-OC-VICTORY) belong to the last side to enter them."""
    counted = _PLACES.get(game, None, lambda: places_counted(game))
    entered = [h.label for h in hexes if h in counted]
    was = compass_vars(game).held
    if any(was.get(label) != side.value for label in entered):
        compass_vars(game).held = {**was, **dict.fromkeys(entered, side.value)}


def places_counted(game: Game) -> frozenset[Hex]:
    """The hexes of the places the victory counts (the charts' place points, the map's zones)."""
    zones = game.scenario.map.zones
    return frozenset(h for name in chart(game).place_points for h in zones.get(name, frozenset()))


# --- supply ------------------------------------------------------------------------------------------
def supply_paths(game: Game, side: Side, limit: int | None, *, line: bool = True) -> Paths:
    """The cheapest ways back to the side's sources (OC-TER.1's bracketed costs, ruling R-OC-SUPPLY), up to ``limit``
    supply points (sixtieths): never into a hex the enemy holds, and, for a supply line (``line``), never into one
    next to an enemy combat unit unless a unit of the side stands there."""

    def work() -> Paths:
        m = game.scenario.map
        enemy = side.enemy
        blocked = set(game.occupants(enemy))
        if line:
            blocked |= combat_units_near(game, enemy) - set(game.occupants(side))
        steps = closed(m, step_table(m, chart(game).terrain, supply=True), blocked)
        sources = [(h, 0) for h in m.supply_sources.get(side, ()) if h not in blocked]
        return cheapest(m, sources, steps, limit)

    return _SUPPLY_PATHS.get(game, (side, limit, line), work)


def in_supply(game: Game, side: Side) -> Paths:
    """The hexes a supply line of at most the charts' range reaches (ruling R-OC-SUPPLY)."""
    return supply_paths(game, side, chart(game).supply_range)


def supply_distance(game: Game, side: Side) -> Paths:
    """How far each hex is from the side's supply sources, for a retreat (OC-RET.1, RET.4, ruling R-OC-RETREAT): the
    cost of the cheapest way back by the supply costs, at any length, through no hex the enemy holds; the enemy's
    units beside the way do not close it (a retreat may pass them, at the price of OC-RET.2's check)."""
    return supply_paths(game, side, None, line=False)


def determine_supply(game: Game) -> None:
    """The Allied supply determination at the end of the Allied player-turn: each unit marked in or out of supply,
    the lines kept for the map."""
    lines = in_supply(game, Side.ALLIED)
    shown: dict[str, tuple[bool, tuple[str, ...]]] = {}
    out = []
    for uid, h in on_map(game, Side.ALLIED):
        supplied = h in lines
        compass_unit(game, uid).out_of_supply = not supplied
        shown[uid] = (supplied, tuple(x.label for x in lines.path_to(h)))
        if not supplied:
            out.append(uid)
    compass_vars(game).supply = shown
    game.log(
        "Allied supply: " + (f"out of supply: {', '.join(out)}." if out else "every unit in supply."), kind="supply" if out else "note"
    )


def cut_off(game: Game, uid: str) -> bool:
    """OC-RET.1: an Italian unit with no supply line."""
    h = compass_unit(game, uid).hex
    return h is not None and h not in in_supply(game, Side.AXIS)
