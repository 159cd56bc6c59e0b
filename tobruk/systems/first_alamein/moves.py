"""1st Alamein's operational movement and reinforcements.

The charts give the free hexes along roads and tracks (FA-TER.1) and the Allied boxes that stop Axis
operational movement (FA-TER.2-3); the rest is The Gazala Gallop's basic movement (docs/rulings.md):
1 MF a hex, the bonus MF for a move that enters no enemy ZOC (GG-XIII.C), the ZOC rules (GG-XIII.B,
XI.A.3), a spent unit's single MF (GG-IX.A), and the cost of moving far while out of supply (GG-XV.B).
A unit moves once a game-turn (FA-SEQ.1).  Reinforcements enter on their turn (FA-UNIT.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from tobruk.board.hexes import Hex, in_reading_order, route_text
from tobruk.board.maps import MovementRates
from tobruk.engine.caching import FIXED, POSITION, Cache
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.mechanics.control import pass_through
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.kept_blocks import UnitBlocks, in_order, kept
from tobruk.mechanics.move_blocks import MoveBlock, reading_rank
from tobruk.mechanics.move_blocks import listed_route as route_listed
from tobruk.mechanics.reach import MF, MoveContext, Reach, SideTables, enemy_tables, reach_result, walk
from tobruk.mechanics.zoc import ZocMap
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import chart
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

# 1 MF a hex on or off the road: roads and tracks give free hexes instead of fractions (FA-TER.1)
FLAT = MovementRates.of()
CLAUSES = {k: f"GG-{k}" for k in ("XIII.A.1", "XIII.A.2", "XIII.A.3", "XIII.B.1", "XIII.B.3", "XI.D", "XI.A.3n")} | {"XI.A.4": "FA-TER.2"}

SideParts = tuple[ZocMap, frozenset[Hex], frozenset[Hex], frozenset[Hex], SideTables]


def side_parts(game: Game, side: Side) -> SideParts:
    """What every move of a side shares in one position: the enemy's ZOC, who is where, the enemy's boxes."""
    return _SIDE_PARTS.get(game, side, lambda: _side_parts(game, side))


def _side_parts(game: Game, side: Side) -> SideParts:
    friends = frozenset(h for _, h in pos.on_map(game, side))
    enemies = frozenset(h for _, h in pos.on_map(game, side.enemy))
    zoc = pos.enemy_zoc(game, side)
    stops = pos.boxes(game, side.enemy)  # FA-TER.2: Axis units stop on entering an Allied box
    tables = enemy_tables(game.scenario.map, side, zoc, enemies, stops, chart(game).barriers)
    return zoc, enemies, friends, stops, tables


def move_context(game: Game, uid: str, parts: SideParts | None = None) -> MoveContext:
    """The search context of one unit's move now (once per position: the listing and the move both ask)."""
    return _MOVE_CONTEXT.get(game, uid, lambda: _move_context(game, uid, parts))


def _move_context(game: Game, uid: str, parts: SideParts | None) -> MoveContext:
    d, u = family_defs(game)[uid], family_unit(game, uid)
    assert u.hex is not None
    factor = min(d.movement, chart(game).spent_movement) if u.disrupted else d.movement  # GG-IX.A
    return context_from(game, uid, u.hex, factor, parts)


def context_from(game: Game, uid: str, start: Hex, factor: int, parts: SideParts | None = None) -> MoveContext:
    """The search context of a move of ``uid`` from ``start`` with movement factor ``factor`` (its move now, or the
    most it could do from a hex, for the threat warnings)."""
    c, side = chart(game), family_defs(game)[uid].side
    zoc, enemies, friends, stops, tables = parts if parts is not None else side_parts(game, side)
    free = (("road", c.road_free_hexes), *((k, c.track_free_hexes) for k in c.track_kinds))
    return MoveContext.of(
        map=game.scenario.map,
        side=side,
        start=start,
        rates=FLAT,
        budget=factor * MF,
        bonus=c.movement_bonus * MF,
        ascent=0,
        vehicle=False,
        zoc=zoc,
        enemy_units=enemies,
        friendly_units=friends,
        enemy_forts=stops,
        clauses=CLAUSES,
        tables=tables,
        free_steps=free,
        free_total=c.road_free_hexes,
        barriers=c.barriers,
    )


def why_not_movable(game: Game, uid: str, side: Side) -> IllegalOrderError | None:
    """The rule that keeps a unit from moving now, or ``None``."""
    d = family_defs(game).get(uid)
    if d is None or d.side is not side:
        return IllegalOrderError("GG-XIII.A.1", f"{uid!r} is not one of your units")
    u = family_unit(game, uid)
    if u.eliminated or u.hex is None or d.is_air:
        return IllegalOrderError("GG-XIII.A.1", f"{uid} is not a ground unit on the map")
    if u.moved:
        return IllegalOrderError("FA-SEQ.1", f"{uid} has moved already this game-turn")
    return None


def move_orders(game: Game, uid: str, parts: SideParts | None = None) -> Sequence[Move]:
    """Every move of a unit that may move now, one per destination (the path leaving it the most MF), in reading
    order (a :class:`MoveBlock`: each move is made when it is read).

    Kept under the unit's reach key (:data:`_MOVE_BLOCKS`), so the same orders come back while nothing
    its search reads has changed.
    """
    if why_not_movable(game, uid, family_defs(game)[uid].side) is not None:
        return ()
    ctx = move_context(game, uid, parts)

    def work() -> MoveBlock:
        found = reach_result(ctx, game)
        rank = reading_rank(game.scenario.map)
        return MoveBlock(uid, found, sorted(range(len(found.ends)), key=[rank[e] for e in found.ends].__getitem__))

    return _MOVE_BLOCKS.get(game, (uid, ctx.reach_key()), work)


def _kept_moves(game: Game, side: Side) -> dict[int, UnitBlocks]:
    """Each of the side's units' moves now (a block, or none), by row; kept from one position to the next and worked
    out again only for the units a change touches (:func:`~tobruk.mechanics.kept_blocks.kept`; the variables enter
    whole but for who controls the villages, which no move reads), and once per position (the listing and the move
    both ask)."""
    return _KEPT_MOVES.get(game, side, lambda: _kept_moves_now(game, side))


def _kept_moves_now(game: Game, side: Side) -> dict[int, UnitBlocks]:
    context = (
        game.turn,
        game.state.step,
        game.side_key(side.enemy),
        alamein_vars(game).key_without(("villages",)),
        frozenset(pos.zoc_exempt(game, side)),
    )

    def make(uids: Sequence[str]) -> list[tuple[tuple[Sequence[Move], ...], bool]]:
        parts: SideParts | None = None
        out: list[tuple[tuple[Sequence[Move], ...], bool]] = []
        for uid in uids:
            if why_not_movable(game, uid, side) is not None:
                out.append(((), False))
                continue
            if parts is None:
                parts = side_parts(game, side)
            orders = move_orders(game, uid, parts)
            out.append(((orders,) if orders else (), move_context(game, uid, parts).reads_neighbours()))
        return out

    return kept(game, side, "moves", context, make)


def move_blocks(game: Game, side: Side) -> list[Sequence[Move]]:
    """Every move order of the side's units now, in order of battle (see :func:`_kept_moves`)."""
    return [cast(MoveBlock, block) for block in in_order(game, side, _kept_moves(game, side))]


def listed_route(game: Game, order: Move, side: Side) -> Reach | None:
    """The route of a move the listing holds now (legal as listed: nothing to check again), else ``None``."""
    return route_listed(game, order, side, _kept_moves(game, side))


def resolve_move(game: Game, order: Move, side: Side) -> Reach:
    """Check a move and return its route; a destination alone gets the route leaving the most MF."""
    listed = listed_route(game, order, side)
    if listed is not None:
        return listed
    problem = why_not_movable(game, order.unit, side)
    if problem is not None:
        raise problem
    if order.trucks:
        raise IllegalOrderError("GG-XIII.A.2", "1st Alamein has no truck convoys: a unit moves by itself")
    ctx = move_context(game, order.unit)
    found = reach_result(ctx, game)
    target = order.path[-1]
    j = found.position(target)
    if len(order.path) == 1:
        # every legal step is a destination, so one the search did not find is refused by the direct step's
        # first broken rule
        return found.entry(j) if j is not None else walk(ctx, [ctx.start, target])
    if j is not None and found.path(j) == order.path:
        return found.entry(j)  # the route the search found (and listed): legal
    boxes = ctx.enemy_forts
    for i, h in enumerate(order.path[1:-1], start=1):
        if h in boxes:  # the first rule broken, if the way there is legal: the box stops the unit (FA-TER.2)
            walk(ctx, order.path[: i + 1])
            raise IllegalOrderError("FA-TER.2", f"{order.unit} must stop on entering the box in {h}")
    return walk(ctx, order.path)


def carry_out_move(game: Game, order: Move, route: Reach) -> None:
    d, u = family_defs(game)[order.unit], family_unit(game, order.unit)
    note = ""
    if u.out_of_supply and not u.disrupted and 2 * route.spent > d.movement * MF:  # GG-XV.B: more than half its MF
        u.disrupted = True
        note = "; out of supply and over half its MF: spent"
    u.hex = route.hex
    u.moved = True
    pass_through(game, d.side, route.path[1:])
    game.log(f"{d.side.display}: {order.unit} moves {route_text(route.path)}{note}.", kind="move")


# --- reinforcements (FA-UNIT.1) ---------------------------------------------------------------------------
def due(game: Game, side: Side) -> list[str]:
    """The side's reinforcements whose turn has come and that are not on the map yet."""
    out = []
    for uid, r in sorted(game.scenario.reinforcements.items()):
        u = family_unit(game, uid)
        if family_defs(game)[uid].side is side and r.turn <= game.turn and u.hex is None and not u.eliminated:
            out.append(uid)
    return out


def entry_problem(game: Game, uid: str, h: Hex, occupants: dict[Hex, list[str]] | None = None) -> IllegalOrderError | None:
    """Why a reinforcement may not enter in ``h`` now, or ``None``."""
    r = game.scenario.reinforcements.get(uid)
    if r is None:
        return IllegalOrderError("FA-UNIT.1", f"{uid} is not a reinforcement")
    if r.turn > game.turn:
        return IllegalOrderError("FA-UNIT.1", f"{uid} arrives on turn {r.turn} (R{r.turn})")
    u = family_unit(game, uid)
    if u.hex is not None or u.eliminated:  # (what due() asks of a reinforcement whose turn has come)
        return IllegalOrderError("FA-UNIT.1", f"{uid} has arrived already")
    if h not in game.scenario.zone(r.zone):
        return IllegalOrderError("FA-UNIT.1", f"{uid} enters in {r.zone}, not in {h}")
    here = (occupants if occupants is not None else game.occupants()).get(h, [])
    return pos.stacking_problem(game, [*here, uid])


def arrivals(game: Game, side: Side) -> list[tuple[str, Hex]]:
    """Every (reinforcement, entry hex) open now."""
    occupants = game.occupants()
    out: list[tuple[str, Hex]] = []
    for uid in due(game, side):
        zone = game.scenario.zone(game.scenario.reinforcements[uid].zone)
        out.extend((uid, h) for h in in_reading_order(zone) if entry_problem(game, uid, h, occupants) is None)
    return out


_SIDE_PARTS: Cache[SideParts] = Cache("first-alamein.move-side", POSITION)
_MOVE_CONTEXT: Cache[MoveContext] = Cache("first-alamein.move-context", POSITION)
_MOVE_BLOCKS: Cache[MoveBlock] = Cache("first-alamein.move-orders", FIXED)  # under everything the unit's search reads
_KEPT_MOVES: Cache[dict[int, UnitBlocks]] = Cache("first-alamein.kept-moves", POSITION)
