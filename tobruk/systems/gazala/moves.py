"""The Gazala Gallop's operational movement: who may move, how far, and what happens on the way.

Builds the :class:`MoveContext` for a unit from the position and the Gazala charts (road and
track rates by unit type, escarpment costs, weather caps, the box ZOC rule), and carries out the
rules that go with a move: Allied activation (GG-V.A), the Crusader breakdown (GG-XIII.D),
truck convoys for infantry (GG-XV.A.4), the Gazala Gallop (GG-XIII.E), the turn 7
reinforcement (GG-VII.B) and the stacking limit at the end of a phase (GG-XII).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from tobruk.board.hexes import Direction, Hex
from tobruk.board.maps import MovementRates
from tobruk.engine.caching import FIXED, POSITION, Cache, enemy_units, side_units, variable
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import FamilyUnitDef, UnitType, family_defs, family_unit
from tobruk.mechanics.kept_blocks import UnitBlocks, in_order, kept
from tobruk.mechanics.move_blocks import MoveBlock, reading_rank
from tobruk.mechanics.move_blocks import listed_route as route_listed
from tobruk.mechanics.phases import StackingRules
from tobruk.mechanics.reach import MF, MoveContext, Reach, ReachResult, SideTables, enemy_tables, reach, reach_result, walk
from tobruk.mechanics.zoc import ZocMap, zoc_map
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

# Terrain effects chart: sixtieths of an MF per hex along road, major track, minor track.
RATES = {
    "armour": MovementRates.of(road=15, major_track=20, minor_track=30),
    "motorized": MovementRates.of(road=12, major_track=15, minor_track=20),
    "foot": MovementRates.of(road=30, major_track=30, minor_track=30),
}
# GG-VIII.B.2 (ruling R-RAIN): the major-track fraction doubled, no minor-track boost.
RAIN_RATES = {
    "armour": MovementRates.of(road=15, major_track=40, minor_track=60),
    "motorized": MovementRates.of(road=12, major_track=30, minor_track=60),
    "foot": MovementRates.of(road=30, major_track=60, minor_track=60),
}
ASCENT = {"armour": 2 * MF, "motorized": 2 * MF, "foot": MF}  # GG-XI.C
CONVOYS = {Side.AXIS: 4, Side.ALLIED: 6}  # GG-XV.A.4
CONVOY_MF = 3  # GG-XIII.A.2c: trucked infantry moves at the motorized rate with 3 MF
ACTIVATIONS_PER_TURN = 2  # GG-V.A.4
GALLOP_DIRECTIONS = frozenset({Direction.NE, Direction.E, Direction.SE})
GALLOP_BEYOND_COLUMN = 13  # GG-XIII.E: anywhere east of vertical hex column 13
STACK_UNITS, STACK_DIVISIONS = 3, 2  # GG-XII.A.2

CLAUSES = {k: f"GG-{k}" for k in ("XIII.A.1", "XIII.A.2", "XIII.A.3", "XIII.B.1", "XIII.B.3", "XIII.E", "XI.D", "XI.A.3n", "XI.A.4")}


def movement_class(d: FamilyUnitDef, trucks: bool = False) -> str:
    if trucks:
        return "motorized"
    if d.type is UnitType.ARMOUR:
        return "armour"
    if d.type is UnitType.INFANTRY:
        return "foot"
    return "motorized"  # motorized, recce, AA (GG-XIV.B.7: the AA units count as motorized), artillery


def on_map(game: Game, side: Side) -> list[tuple[str, Hex]]:
    """Real ground units of a side on the board (no dummies, air units or eliminated units)."""
    return list(_on_map(game, side))


def _on_map(game: Game, side: Side) -> tuple[tuple[str, Hex], ...]:
    """Kept, as :meth:`Game.placed`'s answer it is read from, while the side's rows stay as they are."""
    placed = game.placed(side)
    defs = family_defs(game)
    return _ON_MAP.get(game, side, lambda: tuple((uid, h) for uid, h in placed if not defs[uid].is_dummy and not defs[uid].is_air))


_ON_MAP: Cache[tuple[tuple[str, Hex], ...]] = Cache("gazala.on-map", side_units())


def zoc_units(game: Game, side: Side) -> list[tuple[str, Hex]]:
    """The units of a side that exert ZOC: its real ground units, and dummies still face down."""
    out = on_map(game, side)
    for uid in game.units_of(side):
        u = family_unit(game, uid)
        if family_defs(game)[uid].is_dummy and u.hidden and u.hex is not None and not u.eliminated:
            out.append((uid, u.hex))
    return out


def boxes_held_now(game: Game, side: Side) -> list[Hex]:
    """The side's own boxes or forts its real units stand in now (eliminated ones excluded)."""
    gone = set(gazala_vars(game).boxes_eliminated)
    mine = {h for h, s in game.scenario.map.fortifications.items() if s is side and h.label not in gone}
    return sorted({h for _, h in on_map(game, side)} & mine)


def phasing_side(game: Game) -> Side | None:
    """Whose player-turn it is (``None`` during set-up and weather)."""
    key = game.phase.key
    if key == "axis-setup":
        return None
    for side in Side:
        if key.startswith(side.value + "-"):
            return side
    return None


def record_boxes_held(game: Game, side: Side) -> None:
    """GG-XI.A.3 looks at the boxes held at the start of the friendly player-turn: remember them."""
    gazala_vars(game).boxes_held = gazala_vars(game).boxes_held | {side.value: tuple(h.label for h in boxes_held_now(game, side))}


def zoc_exempt(game: Game, side: Side) -> set[Hex]:
    """GG-XI.A.3: hexes of ``side``'s own boxes/forts where enemy ZOCs do not reach.

    In its own player-turn: those it held at the start of that player-turn; in the enemy's: those
    it holds now.  (Once per position: every move's search context and the listing ask.)
    """
    return set(exempt_boxes(game, side))


def exempt_boxes(game: Game, side: Side) -> frozenset[Hex]:
    """:func:`zoc_exempt` as a frozenset kept for the position (not to be changed by the caller)."""

    def work() -> frozenset[Hex]:
        if phasing_side(game) is side:
            return frozenset(Hex.parse(h) for h in gazala_vars(game).boxes_held.get(side.value, ()))
        return frozenset(boxes_held_now(game, side))

    return _EXEMPT.get(game, side, work)


_EXEMPT: Cache[frozenset[Hex]] = Cache("gazala.zoc-exempt", POSITION)


def enemy_zoc(game: Game, side: Side) -> ZocMap:
    """The ZOC of ``side``'s enemies, as it applies to ``side``'s units now."""
    return _ENEMY_ZOC.get(game, side, lambda: _enemy_parts(game, side)[1])


_ENEMY_ZOC: Cache[ZocMap] = Cache("gazala.enemy-zoc", POSITION)


def _enemy_parts(game: Game, side: Side) -> tuple[frozenset[Hex], ZocMap]:
    """The hexes of ``side``'s enemies and their ZOC (as it applies to ``side``), kept under the enemy's units
    (:meth:`Game.side_key`) and the boxes exempt from it: built once while the enemy stands still (a whole
    movement phase of ``side``), not once per move."""
    exempt = exempt_boxes(game, side)

    def work() -> tuple[frozenset[Hex], ZocMap]:
        enemies = frozenset(
            h
            for uid in game.units_of(side.enemy)
            if (h := family_unit(game, uid).hex) is not None and not family_unit(game, uid).eliminated and not family_defs(game)[uid].is_air
        )
        return enemies, zoc_map(game.scenario.map, zoc_units(game, side.enemy), exempt)

    return _ENEMY_PARTS.get(game, (side, exempt), work)


_ENEMY_PARTS: Cache[tuple[frozenset[Hex], ZocMap]] = Cache("gazala.enemy-parts", enemy_units())


def enemy_forts(game: Game, side: Side) -> frozenset[Hex]:
    """The enemy's boxes and forts not yet eliminated (kept under the eliminated ones: the same set object while
    none falls, so the tables keyed by it look it up at once)."""

    def work() -> frozenset[Hex]:
        gone = set(gazala_vars(game).boxes_eliminated)
        return frozenset(h for h, s in game.scenario.map.fortifications.items() if s is not side and h.label not in gone)

    return _ENEMY_FORTS.get(game, side, work)


_ENEMY_FORTS: Cache[frozenset[Hex]] = Cache("gazala.enemy-forts", variable("boxes_eliminated"))


def galloping(game: Game) -> set[str]:
    return set(gazala_vars(game).gallop)


def convoys_left(game: Game, side: Side) -> int:
    used = gazala_vars(game).convoys_used.get(side.value, 0)
    return int(CONVOYS[side] - used)


SideParts = tuple[ZocMap, frozenset[Hex], frozenset[Hex], frozenset[Hex], SideTables]


def side_parts(game: Game, side: Side) -> SideParts:
    """What every move of a side shares in one position (see ``_side_parts``), once per position."""
    return _SIDE_PARTS.get(game, side, lambda: _side_parts(game, side))


def move_context(game: Game, uid: str, trucks: bool = False, parts: SideParts | None = None) -> MoveContext:
    """The search context of one unit's move, once per position (the listing, the move's check and its carrying
    out all ask); ``parts`` are its side's :func:`side_parts` when the caller already has them."""
    return _MOVE_CONTEXT.get(game, (uid, trucks), lambda: _move_context(game, uid, trucks, parts))


_SIDE_PARTS: Cache[SideParts] = Cache("gazala.move-side", POSITION)
_MOVE_CONTEXT: Cache[MoveContext] = Cache("gazala.move-context", POSITION)


def _move_context(game: Game, uid: str, trucks: bool, parts: SideParts | None) -> MoveContext:
    d, u = family_defs(game)[uid], family_unit(game, uid)
    assert u.hex is not None
    cls = movement_class(d, trucks)
    weather = gazala_vars(game).weather
    base = (CONVOY_MF if trucks else d.movement) * MF
    if u.disrupted:
        base = min(base, MF)  # GG-IX.A
    if weather in ("sandstorm", "rainstorm"):
        base = min(base, MF)  # GG-VIII.A.2, GG-VIII.B.2
    bonus = MF  # GG-XIII.C
    directions = None
    if uid in galloping(game):  # GG-XIII.E: twice the movement and the bonus, NE, E or SE only
        base, bonus, directions = base * 2, bonus * 2, GALLOP_DIRECTIONS
    zoc, enemies, friends, forts, tables = parts if parts is not None else side_parts(game, d.side)
    return MoveContext.of(
        map=game.scenario.map,
        side=d.side,
        start=u.hex,
        rates=(RAIN_RATES if weather == "rainstorm" else RATES)[cls],
        budget=base,
        bonus=bonus,
        ascent=ASCENT[cls],
        vehicle=cls != "foot",
        zoc=zoc,
        enemy_units=enemies,
        friendly_units=friends,
        enemy_forts=forts,
        zoc_stops=weather != "sandstorm",
        directions=directions,
        clauses=CLAUSES,
        tables=tables,
    )


def _side_parts(game: Game, side: Side) -> SideParts:
    """What every move of a side shares in one position: enemy ZOC, who is where, enemy forts."""
    friends = frozenset(h for _, h in on_map(game, side))
    enemies, zoc = _enemy_parts(game, side)
    forts = enemy_forts(game, side)
    return zoc, enemies, friends, forts, enemy_tables(game.scenario.map, side, zoc, enemies, forts)


def why_not_movable(game: Game, uid: str, side: Side, trucks: bool = False) -> IllegalOrderError | None:
    """The rule that keeps a unit from moving now, or ``None``."""
    reason = _unmovable(game, uid, side, trucks)
    if reason == MOVABLE:
        return None
    if reason == NOT_YOURS:
        return IllegalOrderError("GG-XIII.A.1", f"{uid!r} is not one of your units")
    if reason == NOT_ON_MAP:
        return IllegalOrderError("GG-XIII.A.1", f"{uid} is not a ground unit on the map")
    if reason == MOVED:
        return IllegalOrderError("GG-XIII.A.1", f"{uid} has already moved this turn")
    if reason == INACTIVE:
        return IllegalOrderError("GG-V.A.2", f"{uid} has not been activated")
    if reason == NOT_INFANTRY:
        return IllegalOrderError("GG-XV.A.4", f"truck convoys carry only non-motorized infantry, not {uid}")
    d = family_defs(game)[uid]
    return IllegalOrderError("GG-XV.A.4", f"{uid} needs {d.attack} truck convoys; {convoys_left(game, side)} left this turn")


def truck_borne(d: FamilyUnitDef) -> bool:
    """GG-XV.A.4: truck convoys carry only non-motorized infantry."""
    return d.type is UnitType.INFANTRY


# why a unit may not move now (``_unmovable``); the listing asks for every unit at every decision and needs no message
MOVABLE, NOT_YOURS, NOT_ON_MAP, MOVED, INACTIVE, NOT_INFANTRY, NO_CONVOYS = range(7)


def _unmovable(game: Game, uid: str, side: Side, trucks: bool, convoys: bool = True) -> int:
    """Why a unit may not move now (a code, or ``MOVABLE``); ``convoys``: whether to count the convoys left (the kept
    listing counts them at each position, for the few truck moves, see :func:`_listed_moves`)."""
    d = family_defs(game).get(uid)
    if d is None or d.side is not side:
        return NOT_YOURS
    u = family_unit(game, uid)
    if u.eliminated or u.hex is None or d.is_air or d.is_dummy:
        return NOT_ON_MAP
    if u.moved:
        return MOVED
    if d.side is Side.ALLIED and not u.activated:
        return INACTIVE
    if trucks:
        if not truck_borne(d):
            return NOT_INFANTRY
        if convoys and d.attack > convoys_left(game, side):
            return NO_CONVOYS
    return MOVABLE


def gallop_goal(h: Hex) -> bool:
    return h.col + 1 > GALLOP_BEYOND_COLUMN


def gazala_east(game: Game, uid: str) -> bool:
    """Is the unit already east of column 13 (its gallop done)?"""
    h = family_unit(game, uid).hex
    return h is not None and gallop_goal(h)


def destinations(game: Game, uid: str, trucks: bool = False) -> dict[Hex, Reach]:
    """Where a unit may end its move now (empty if it may not move), with the cheapest paths."""
    if why_not_movable(game, uid, family_defs(game)[uid].side, trucks) is not None:
        return {}
    return _destinations(game, uid, move_context(game, uid, trucks))


def _destinations(game: Game, uid: str, ctx: MoveContext) -> dict[Hex, Reach]:
    found, ends = _ends(game, uid, ctx)
    if len(ends) == len(found.ends):
        return found
    return {found.hex_of(j): found.entry(j) for j in ends}


def _ends(game: Game, uid: str, ctx: MoveContext) -> tuple[ReachResult, list[int]]:
    """The unit's search and which of its ends are destinations (``j`` into ``ends``): all of them, but for a
    galloping unit that can end east of column 13 only those (GG-XIII.E)."""
    found = reach_result(ctx, game)
    if _must_gallop_east(game, uid, found):
        return found, [j for j in range(len(found.ends)) if gallop_goal(found.hex_of(j))]
    return found, list(range(len(found.ends)))


def _must_gallop_east(game: Game, uid: str, found: ReachResult) -> bool:
    """GG-XIII.E: a galloping unit that can end its move east of column 13 must."""
    return uid in gazala_vars(game).gallop and any(gallop_goal(found.hex_of(j)) for j in range(len(found.ends)))


def move_orders(game: Game, uid: str, trucks: bool = False, parts: SideParts | None = None) -> Sequence[Move]:
    """Every move order of a unit that may move now, one per destination, in reading order (a :class:`MoveBlock`:
    each order is made when it is read).

    Kept in the game's search cache under the unit's reach key, so the same orders come back while nothing the
    unit's search reads has changed (the listing after each move stays cheap).
    """
    if _unmovable(game, uid, family_defs(game)[uid].side, trucks) != MOVABLE:
        return ()
    return _move_block(game, uid, trucks, parts)


def _move_block(game: Game, uid: str, trucks: bool, parts: SideParts | None) -> MoveBlock:
    ctx = move_context(game, uid, trucks, parts)

    def work() -> MoveBlock:
        found, ends = _ends(game, uid, ctx)
        rank = reading_rank(game.scenario.map)
        ends.sort(key=[rank[e] for e in found.ends].__getitem__)
        return MoveBlock(uid, found, ends, trucks)

    return _MOVE_BLOCKS.get(game, (uid, trucks, uid in galloping(game), ctx.reach_key()), work)


# a unit's block of moves, kept under everything its search reads and whether it gallops (the same block, with its
# ids and notation, while those stay the same: the listing after each move stays cheap)
_MOVE_BLOCKS: Cache[MoveBlock] = Cache("gazala.move-orders", FIXED)


# variables the kept movement listing never reads: who controls the villages, the enemy's anonymous names for the
# counters, the activations used (the listing's choices, worked out at every position, read those), the truck
# convoys used (counted at each position: see _listed_moves)
LISTING_IGNORES = ("villages", "anon", "unseen", "activations", "convoys_used")


def _listed_moves(game: Game, side: Side) -> dict[int, UnitBlocks]:
    """Each of the side's units' blocks of move orders now (one per means: on foot, by truck convoy), by row, once
    per position (the listing and the move both ask): the kept ones (:func:`_kept_moves`) but for the moves by truck
    convoy of units needing more convoys than are left (GG-XV.A.4), which are left out here, at each position, so
    that sending a convoy does not make the whole listing again."""

    def work() -> dict[int, UnitBlocks]:
        blocks = _kept_moves(game, side)
        left = convoys_left(game, side)
        defs = family_defs(game)
        short = {i for i, uid in game.rows_of(side) if defs[uid].attack > left and any(cast(MoveBlock, b).trucks for b in blocks[i])}
        if not short:
            return blocks
        return {i: tuple(b for b in made if not cast(MoveBlock, b).trucks) if i in short else made for i, made in blocks.items()}

    return _LISTED_MOVES.get(game, side, work)


_LISTED_MOVES: Cache[dict[int, UnitBlocks]] = Cache("gazala.listed-moves", POSITION)


def _kept_moves(game: Game, side: Side) -> dict[int, UnitBlocks]:
    """Each of the side's units' blocks of move orders now (one per means: on foot, by truck convoy), by row; kept
    from one position to the next and worked out again only for the units a change touches
    (:func:`~tobruk.mechanics.kept_blocks.kept`)."""
    context = (
        game.turn,
        game.state.step,
        game.side_key(side.enemy),
        gazala_vars(game).key_without(LISTING_IGNORES),
        exempt_boxes(game, side),
    )

    def make(uids: Sequence[str]) -> list[tuple[tuple[Sequence[Move], ...], bool]]:
        parts: SideParts | None = None
        out: list[tuple[tuple[Sequence[Move], ...], bool]] = []
        for uid in uids:
            blocks: list[Sequence[Move]] = []
            reads_near = False
            for trucks in (False, True) if truck_borne(family_defs(game)[uid]) else (False,):
                if _unmovable(game, uid, side, trucks, convoys=False) != MOVABLE:
                    continue
                if parts is None:
                    parts = side_parts(game, side)
                orders = _move_block(game, uid, trucks, parts)
                reads_near = reads_near or move_context(game, uid, trucks, parts).reads_neighbours()
                if orders:
                    blocks.append(orders)
            out.append((tuple(blocks), reads_near))
        return out

    return kept(game, side, "moves", context, make)


def move_blocks(game: Game, side: Side) -> list[Sequence[Move]]:
    """Every move order of the side's units now, in order of battle (see :func:`_listed_moves`)."""
    return [cast(MoveBlock, block) for block in in_order(game, side, _listed_moves(game, side))]


def listed_route(game: Game, order: Move, side: Side) -> Reach | None:
    """The route of a move the listing holds now (legal as listed: nothing to check again), else ``None``."""
    return route_listed(game, order, side, _listed_moves(game, side))


def resolve_move(game: Game, order: Move, side: Side) -> Reach:
    """Check a move order and return its route; a destination-only order gets the cheapest route."""
    listed = listed_route(game, order, side)
    if listed is not None:
        return listed
    problem = why_not_movable(game, order.unit, side, order.trucks)
    if problem is not None:
        raise problem
    ctx = move_context(game, order.unit, order.trucks)
    found = reach_result(ctx, game)
    target = order.path[-1]
    j = found.position(target)
    if j is not None and not gallop_goal(target) and _must_gallop_east(game, order.unit, found):
        j = None  # not a destination (GG-XIII.E), as the walk below says
    if len(order.path) == 1:
        if j is not None:
            return found.entry(j)
        # explain why with the straight step's first broken rule; a legal step the destinations leave out is a
        # galloping unit's that could end east of column 13 (every other legal step is a destination)
        result = walk(ctx, [ctx.start, target])
    elif j is not None and found.path(j) == order.path:
        return found.entry(j)  # the route the search found (and listed): legal, and no gallop rule against it
    else:
        result = walk(ctx, order.path)
    if order.unit in galloping(game) and not gallop_goal(result.hex) and any(gallop_goal(h) for h in reach(ctx, game)):
        raise IllegalOrderError("GG-XIII.E", f"a galloping unit must end east of column {GALLOP_BEYOND_COLUMN} when it can")
    return result


# --- activation (GG-V.A) ---------------------------------------------------------------------------
def activations_left(game: Game) -> int:
    turn = str(game.turn)
    used = gazala_vars(game).activations.get(turn, 0)
    bonus = gazala_vars(game).allied_losses.get(turn, 0)
    return int(ACTIVATIONS_PER_TURN + bonus - used)


def activate(game: Game, uid: str, *, counted: bool) -> None:
    family_unit(game, uid).activated = True
    if counted:
        counts = gazala_vars(game).activations
        gazala_vars(game).activations = counts | {str(game.turn): counts.get(str(game.turn), 0) + 1}


def gallop_candidates(game: Game) -> list[str]:
    """GG-XIII.E: Allied units on or within 1 hex of the Gazala Line."""

    def work() -> frozenset[Hex]:
        line = game.scenario.map.zones.get("gazala-line", frozenset())  # a map without the line has no Gallop
        return frozenset(n for x in line for n in (x, *x.neighbours()))

    near = _NEAR_LINE.get(game, None, work)
    return [uid for uid, h in on_map(game, Side.ALLIED) if h in near]


_NEAR_LINE: Cache[frozenset[Hex]] = Cache("gazala.near-gazala-line", FIXED)


# --- stacking (GG-XII) and losses -------------------------------------------------------------------
def overstacked(game: Game, side: Side) -> dict[Hex, list[str]]:
    """The side's hexes over the stacking limit, with the units in each (dummies do not count)."""
    return STACKING.overstacked(game, side)


def eliminate(game: Game, uid: str, why: str) -> None:
    d, u = family_defs(game)[uid], family_unit(game, uid)
    who = hd.name(game, uid)  # a face-down unit stays anonymous in the log
    u.eliminated = True
    where = u.hex
    u.hex = None
    if d.side is Side.ALLIED and game.phase.key.startswith("axis"):
        losses = gazala_vars(game).allied_losses  # GG-V.A.4's bonus activations
        gazala_vars(game).allied_losses = losses | {str(game.turn): losses.get(str(game.turn), 0) + 1}
    game.log(f"{d.side.display}: {who} eliminated in {where} ({why}).", kind="loss")


# GG-XII.A.2 and B: 3 units a hex, at most 2 division-level (dummies and air units do not count: on_map leaves
# them out); the owner eliminates units over the limit at the end of his movement or attack phase
STACKING = StackingRules(
    STACK_UNITS,
    STACK_DIVISIONS,
    "GG-XII.B",
    counts=lambda game, uid: True,
    division=lambda game, uid: family_defs(game)[uid].is_division,
    eliminate=eliminate,
    on_map=on_map,
)
