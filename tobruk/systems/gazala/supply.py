"""Supply in The Gazala Gallop (GG-XV, with IX.E recovery and XVI village control).

Who is in supply is determined in each side's recovery and supply determination phase
(``determine``), kept in ``vars.supply`` with every unit's route for the map overlay, and
then acted on: units in supply recover from disruption (GG-IX.E), units out of supply carry the
marker into their next player-turn, where moving more than half their MF or attacking disrupts
them (GG-XV.B).  The owner may send truck convoys to extend lines (GG-XV.A.4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Chance
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import UnitType, family_defs, family_unit
from tobruk.mechanics.supply import MF, SupplyContext, SupplyTrace, enemy_mine_bytes, entry_steps, trace_all
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.control import villages
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

LINE_MF = {"clear": 7, "sandstorm": 3, "rainstorm": 5}  # GG-XV.A.2 (a sandstorm adds one die)
CONVOY_DICE = {"clear": 1, "sandstorm": 2, "rainstorm": 1}  # GG-XV.A.4
TOBRUK_LIMIT = 7  # GG-XV.A.1: Tobruk cut off from the east edge supplies at most 7 units


# --- the supply line --------------------------------------------------------------------------------
def sources(game: Game, side: Side, east_only: bool = False) -> frozenset[Hex]:
    """The side's usable sources (not held by the enemy); ``east_only``: those on the east map edge."""
    m = game.scenario.map
    hexes = set(m.supply_sources.get(side, ()))
    if east_only:
        hexes &= m.edge("east")
    return frozenset(h for h in hexes if not game.units_at(h, side.enemy))


def fortress_sources(game: Game) -> set[Hex]:
    """Allied sources inside the map (Tobruk): cut off from the east edge they supply 7 units at most."""
    m = game.scenario.map
    return set(m.supply_sources.get(Side.ALLIED, ())) - m.edge("east")


def context(game: Game, side: Side, source_hexes: frozenset[Hex], absent: frozenset[str] = frozenset()) -> SupplyContext:
    """GG-XV.A.2's blocks and extra MF for ``side``'s supply lines in the present weather, as step tables
    (``absent``: units that count as gone, such as a unit retreating out of its hex); once per position."""
    steps = _STEP_TABLES.get(game, (side, absent), lambda: _step_tables(game, side, absent))
    return SupplyContext.of_steps(game.scenario.map, source_hexes, steps)


def _step_tables(game: Game, side: Side, absent: frozenset[str]) -> tuple[bytes, bytes]:
    """Per hex a line may enter (by the map's hex index): 0 open, 1 open at +1 MF (a ZOC it may cross), 2 blocked,
    worked out for the few hexes some rule marks (every other hex is open); then the step tables from them."""
    m = game.scenario.map
    index, nb = m.index, m.neighbour_table
    sandstorm = gazala_vars(game).weather == "sandstorm"
    friends = {index[h] for uid, h in mv.on_map(game, side) if uid not in absent}
    enemy_hexes = {index[h] for uid, h in game.placed(side.enemy) if not family_defs(game)[uid].is_air}
    undisrupted: set[int] = set()
    disrupted: set[int] = set()
    for uid, h in mv.zoc_units(game, side.enemy):  # a face-down counter's state is unknown: undisrupted
        u = family_unit(game, uid)
        target = disrupted if u.disrupted and not u.hidden else undisrupted
        i = index[h]
        target.update(j for j in nb[i * 6 : i * 6 + 6] if j >= 0)
    zoc = undisrupted | disrupted
    enemy_forts = {index[h] for h in mv.enemy_forts(game, side) if h in index}
    enemy_villages = {index[h] for h, s in villages(game).items() if s is side.enemy and h in index}
    state = bytearray(len(m.hexes))
    for i in enemy_hexes | zoc | enemy_villages:
        if i in friends:
            continue  # always through friendly-occupied hexes
        if i in enemy_hexes or (i in enemy_forts and i in zoc) or i in enemy_villages or (i in undisrupted and not sandstorm):
            state[i] = 2  # enemy units; an enemy box vacant in enemy ZOC; an enemy village; a ZOC that blocks
        else:
            state[i] = 1  # (in zoc)
    return entry_steps(m, state, enemy_mine_bytes(m, side), MF)  # (a ZOC it may cross is closed across an enemy minefield)


def line_limit(game: Game, side: Side) -> int:
    """The supply line's length in sixtieths (a sandstorm's die is the one rolled for this determination)."""
    base = LINE_MF.get(gazala_vars(game).weather, 7)
    if gazala_vars(game).weather == "sandstorm":
        base += int(gazala_vars(game).supply_die.get(side.value, 1))
    return base * MF


def trace(
    game: Game, side: Side, limit: int | None = None, east_only: bool = False, absent: frozenset[str] = frozenset()
) -> dict[Hex, SupplyTrace]:
    return trace_all(context(game, side, sources(game, side, east_only), absent), line_limit(game, side) if limit is None else limit)


def serviced(game: Game, side: Side, absent: frozenset[str] = frozenset()) -> frozenset[Hex]:
    """The hexes friendly supply services now (GG-XIV.D.2 g, ruling R-RETREAT-SUPPLY): those a supply line of
    ``side`` reaches, and for the Allies their boxes, each a source for the units on it (GG-XV.A.1)."""

    def work() -> frozenset[Hex]:
        reached = set(trace(game, side, absent=absent))
        if side is Side.ALLIED:
            reached |= mv.enemy_forts(game, side.enemy)  # the Allied boxes not eliminated
        return frozenset(reached)

    return _SERVICED.get(game, (side, absent), work)


def german_subdivisional(game: Game, uid: str) -> bool:
    d = family_defs(game)[uid]
    return d.side is Side.AXIS and d.nationality == "german" and not d.is_division and not d.is_air


def status(game: Game, side: Side) -> dict[str, dict[str, Any]]:
    """Each of the side's units on the map: in supply or not, how, and the route of its line."""
    return _STATUS.get(game, side, lambda: _status(game, side))


def _status(game: Game, side: Side) -> dict[str, dict[str, Any]]:
    found = trace(game, side)
    out: dict[str, dict[str, Any]] = {}
    boxes = mv.boxes_held_now(game, side)
    cut: set[Hex] = set()
    if side is Side.ALLIED and fortress_sources(game):
        from_east = trace(game, side, east_only=True)
        cut = {h for h in fortress_sources(game) if h not in from_east}
    via_tobruk: list[tuple[int, str]] = []
    units = mv.on_map(game, side)
    for uid, h in units:
        entry: dict[str, Any] = {"hex": h.label, "supplied": False, "how": "out of supply", "route": []}
        if side is Side.ALLIED and h in boxes:
            entry.update(supplied=True, how="in a box")  # GG-XV.A.1: a box supplies the units on it
        elif h in found:
            route = found[h].route
            entry.update(supplied=True, how=f"line from {route[0]}", route=[x.label for x in route])
            if route[0] in cut:
                via_tobruk.append((found[h].cost, uid))
        out[uid] = entry
    if len(via_tobruk) > TOBRUK_LIMIT:  # GG-XV.A.1: the nearest 7 (ruling R-TOBRUK7)
        order = {uid: i for i, (uid, _) in enumerate(units)}
        for _, uid in sorted(via_tobruk, key=lambda cu: (cu[0], order[cu[1]]))[TOBRUK_LIMIT:]:
            out[uid].update(supplied=False, how="Tobruk, cut off from the east, supplies 7 units at most", route=[])
    for uid, how in gazala_vars(game).supply_help.get(side.value, {}).items():  # truck convoys, aerial resupply
        if uid in out and not out[uid]["supplied"]:
            out[uid].update(supplied=True, how=how)
    for uid, h in units:  # GG-XV.A.3: through a German division in supply (by convoy too)
        if out[uid]["supplied"] or not german_subdivisional(game, uid):
            continue
        for other, oh in units:
            d = family_defs(game)[other]
            if d.nationality == "german" and d.is_division and out[other]["supplied"] and (oh == h or oh.is_adjacent(h)):
                out[uid].update(supplied=True, how=f"through {other}", route=[h.label, oh.label])
                break
    return out


# --- convoys (GG-XV.A.4) -----------------------------------------------------------------------------
def convoy_eligible(game: Game, uid: str, side: Side) -> bool:
    """GG-XV.A.4: whether one of ``side``'s units on the map (see :func:`status`) may be sent a truck convoy."""
    d = family_defs(game)[uid]
    if d.is_division:
        return True  # division-level units and the independent brigades
    if side is Side.ALLIED:
        return d.formation is not None and d.type in (UnitType.ARMOUR, UnitType.MOTORIZED)  # armoured divisions' brigades
    return german_subdivisional(game, uid)


def convoy_candidates(game: Game, side: Side) -> list[str]:
    """GG-XV.A.4: units out of supply that a truck convoy may still be sent to this determination."""
    if mv.convoys_left(game, side) <= 0:
        return []
    supplied = status(game, side)
    tried = gazala_vars(game).convoy_tried.get(side.value, ())
    return [u for u, e in supplied.items() if not e["supplied"] and u not in tried and convoy_eligible(game, u, side)]


def convoy(game: Game, uid: str, side: Side) -> None:
    """Send a truck convoy to one unit: its dice (one in clear weather, more in storms, one more for a survivable
    Axis unit) extend the supply line (GG-XV.A.4); see :func:`convoy_line`."""
    d = family_defs(game)[uid]
    used = gazala_vars(game).convoys_used
    gazala_vars(game).convoys_used = used | {side.value: used.get(side.value, 0) + 1}
    dice = CONVOY_DICE.get(gazala_vars(game).weather, 1) + (1 if "survivable" in d.flags and side is Side.AXIS else 0)
    game.push_frame(ConvoyRoll(uid, side.value, dice))


@dataclass(frozen=True)
class ConvoyRoll(Chance):
    """One die of a truck convoy's line to ``unit`` (``left`` dice still to roll, ``rolls`` those rolled).  A convoy
    to a face-down unit is its owner's secret (a dummy never gets one): its dice and line too."""

    unit: str
    side: str
    left: int
    rolls: tuple[int, ...] = ()

    def purpose(self, game: Game) -> str:
        return f"convoy to {hd.name(game, self.unit)}"

    def seen_only_by(self, game: Game) -> Side | None:
        return Side(self.side) if family_unit(game, self.unit).hidden else None

    def resolve(self, game: Game, value: int) -> None:
        rolls = (*self.rolls, value)
        if self.left > 1:
            game.push_frame(replace(self, left=self.left - 1, rolls=rolls))
        else:
            convoy_line(game, self.unit, Side(self.side), rolls)


def convoy_line(game: Game, uid: str, side: Side, rolls: tuple[int, ...]) -> None:
    """The convoy's extended line for one unit, its dice rolled; on success it (and, for a British armoured division,
    its brigades within 2 hexes) counts as supplied this determination."""
    d = family_defs(game)[uid]
    weather = gazala_vars(game).weather
    secret = side if family_unit(game, uid).hidden else None
    limit = (LINE_MF.get(weather, 7) + sum(rolls)) * MF
    h = family_unit(game, uid).hex
    assert h is not None
    ok = h in trace(game, side, limit)
    text = (
        f"{side.display}: truck convoy to {uid if secret else hd.name(game, uid)}, line {limit // MF} MF "
        f"(rolled {', '.join(map(str, rolls))}): {'in supply' if ok else 'not enough'}."
    )
    if secret:
        hd.log_secret(game, side, text)
    else:
        game.log(text)
    if not ok:
        return
    help_ = dict(gazala_vars(game).supply_help.get(side.value, {}))
    help_[uid] = "truck convoy"
    if side is Side.ALLIED and d.formation is not None:
        near = two_hexes(game, side, h)
        for other, oh in mv.on_map(game, side):
            if other != uid and family_defs(game)[other].formation == d.formation and oh in near:
                help_[other] = f"within 2 hexes of {uid}"
    gazala_vars(game).supply_help = gazala_vars(game).supply_help | {side.value: help_}


def two_hexes(game: Game, side: Side, start: Hex) -> set[Hex]:
    """Hexes a 2-hex supply line from ``start`` reaches (the British armoured division rule)."""
    ctx = context(game, side, frozenset({start}))
    m = ctx.map
    out = {start}
    frontier = {start}
    for _ in range(2):
        nxt = set()
        for h in frontier:
            i = m.index[h]
            for d in range(6):
                e, j = i * 6 + d, m.neighbour_table[i * 6 + d]
                if j >= 0 and m.land_table[j] and not ctx.blocked[e] and ctx.extra[e] == 0:
                    nxt.add(m.hexes[j])
        out |= nxt
        frontier = nxt
    return out


# --- the determination itself -----------------------------------------------------------------------
def begin_determination(game: Game, side: Side) -> None:
    gazala_vars(game).supply_help = gazala_vars(game).supply_help | {side.value: {}}
    if gazala_vars(game).weather == "sandstorm":
        game.push_frame(SandstormLineRoll(side.value))


@dataclass(frozen=True)
class SandstormLineRoll(Chance):
    """The die that sets ``side``'s supply line in a sandstorm (GG-VIII.A.2), kept for its determination."""

    side: str

    def purpose(self, game: Game) -> str:
        return f"{Side(self.side).display} supply line in a sandstorm"

    def resolve(self, game: Game, value: int) -> None:
        gazala_vars(game).supply_die = gazala_vars(game).supply_die | {self.side: value}


def finish_determination(game: Game, side: Side) -> None:
    """Mark supply, recover disrupted units in supply (GG-IX.E), keep the routes for the overlay."""
    result = status(game, side)
    recovered = []
    for uid, entry in result.items():
        u = family_unit(game, uid)
        u.out_of_supply = not entry["supplied"]
        if u.disrupted and entry["supplied"]:
            u.disrupted = False
            recovered.append(uid)
    gazala_vars(game).supply = gazala_vars(game).supply | {side.value: result}
    if hd.face_down_on_map(game, side):  # (whether there are face-down counters is plain to see)
        face_down = {u for u in result if family_unit(game, u).hidden}
        crisis = any(not result[u]["supplied"] for u in result if u not in face_down)
        hd.log_secret(
            game,
            side,
            _supply_line(game, side, result, recovered, set()),
            _supply_line(game, side, result, recovered, face_down, "face-up units"),
            kind="supply" if crisis else "note",
        )
    else:
        crisis = any(not e["supplied"] for e in result.values())
        game.log(_supply_line(game, side, result, recovered, set()), kind="supply" if crisis else "note")


def _supply_line(
    game: Game, side: Side, result: dict[str, dict[str, Any]], recovered: list[str], unseen: set[str], what: str = "units"
) -> str:
    """The determination's log line, leaving out the ``unseen`` (face-down) units for the enemy's reading:
    what a counter he cannot see is doing must not show, nor how many real units stand behind them."""
    shown = [u for u in result if u not in unseen]
    out = [u for u in shown if not result[u]["supplied"]]
    back = [u for u in recovered if u not in unseen]
    return (
        f"{side.display} supply: {len(shown) - len(out)} {what} in supply"
        + (f", out of supply: {', '.join(out)}" if out else "")
        + (f"; recovered: {', '.join(back)}" if back else "")
        + "."
    )


# once per board (supply reads the units, the variables, the turn and the step, never the decision stack): every
# retreat, view and supply phase asks, and a supply determination asks again between its rolls
_STEP_TABLES: Cache[tuple[bytes, bytes]] = Cache("gazala.supply-tables", BOARD)
_SERVICED: Cache[frozenset[Hex]] = Cache("gazala.serviced", BOARD)
_STATUS: Cache[dict[str, dict[str, Any]]] = Cache("gazala.supply-status", BOARD)
