"""A move carried out (GG-XIII), with the dice that may cut it short: the enemy air unit interdicting a hex on the
way (GG-X.B.1) and the Crusader breakdown (GG-XIII.D).

Each die is a chance node (:mod:`tobruk.engine.chance`): the move's state between its dice is a :class:`Moving`
value the roll frames carry, and the move ends in :func:`finish_move` once nothing more is rolled.  What the rolls
read of the route (the MF spent to each hex) is worked out before the move, as the unit stood then.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex, route_text
from tobruk.engine.chance import Chance
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.reach import MF, Reach, walk_costs
from tobruk.systems.gazala import air
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.control import pass_through
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True, slots=True)
class Moving:
    """A move under way: the unit, by truck convoy or not, its route (cut short where an interdiction stopped it),
    the MF spent to each hex of the route (worked out before the move; empty when no die needs them), the MF of the
    whole route, the index in ``path`` where the unit stops, and the log's note of what happened on the way."""

    unit: str
    trucks: bool
    path: tuple[Hex, ...]
    costs: tuple[int, ...]
    spent: int
    end: int
    note: str = ""
    stopped: bool = False  # an interdiction stopped it: no other interdiction on the way


def carry_out_move(game: Game, order: Move, route: Reach) -> None:
    """Carry out a move the rules allow: face up if it was face down, then the dice on the way, then the move."""
    d, u = family_defs(game)[order.unit], family_unit(game, order.unit)
    if u.hidden:
        hd.reveal(game, order.unit, "it moves")
    i = gazala_vars(game).interdiction
    interdicted = i is not None and i.side != d.side.value and not u.disrupted and any(h.label == i.hex for h in route.path[1:])
    breakdown = "crusader" in d.flags and _used(route.spent) >= 2
    if not interdicted and not breakdown:
        finish_move(game, order.unit, order.trucks, route.path, route.spent, len(route.path) - 1, "")
        return
    costs = walk_costs(mv.move_context(game, order.unit, order.trucks), route.path)  # as the unit stands before the move
    on_the_way(game, Moving(order.unit, order.trucks, route.path, costs, route.spent, len(route.path) - 1), 1)


def _used(spent: int) -> int:
    return -(-spent // MF)  # whole MF used


def on_the_way(game: Game, m: Moving, start: int) -> None:
    """The hexes from ``start`` on: an interdiction die where the enemy air unit waits (GG-X.B.1), then the breakdown
    die (GG-XIII.D), then the move itself."""
    if gazala_vars(game).interdiction is not None and not m.stopped:
        for k in range(start, m.end + 1):
            if air.interdicts(game, m.unit, m.path[k]):
                game.push_frame(InterdictionRoll(m, k))
                return
    if "crusader" in family_defs(game)[m.unit].flags and _used(m.spent) >= 2:
        game.push_frame(BreakdownRoll(m))
        return
    finish_move(game, m.unit, m.trucks, m.path, m.spent, m.end, m.note)


@dataclass(frozen=True)
class InterdictionRoll(Chance):
    """GG-X.B.1: the interdicting air unit attacks the unit entering hex ``at`` of its route; a D stops it there,
    disrupted."""

    move: Moving
    at: int

    def purpose(self, game: Game) -> str:
        i = gazala_vars(game).interdiction
        return f"{i.air if i else 'air'} interdicts {self.move.unit} in {self.move.path[self.at]}"

    def resolve(self, game: Game, value: int) -> None:
        m = self.move
        if not air.interdiction_result(game, m.unit, value):
            on_the_way(game, m, self.at + 1)
            return
        family_unit(game, m.unit).disrupted = True
        h = m.path[self.at]
        cut = replace(m, path=m.path[: self.at + 1], spent=m.costs[self.at], end=self.at, stopped=True)
        on_the_way(game, replace(cut, note=f"; disrupted by air interdiction in {h}, stops"), self.at + 1)


@dataclass(frozen=True)
class BreakdownRoll(Chance):
    """GG-XIII.D: a Crusader unit that used 2 MF or more rolls against the MF used beyond the first; at or under it,
    the unit breaks down, disrupted, in the last hex entered within the first (roll) MF of its route."""

    move: Moving

    def purpose(self, game: Game) -> str:
        return f"Crusader breakdown, {self.move.unit} ({_used(self.move.spent) - 1} or less breaks down)"

    def resolve(self, game: Game, value: int) -> None:
        m = self.move
        if value <= _used(m.spent) - 1:
            stop = breakdown_index(m.costs[: m.end + 1], value)
            family_unit(game, m.unit).disrupted = True
            m = replace(m, end=stop, note=f"{m.note}; breaks down in {m.path[stop]} (rolled {value}) and is disrupted")
        else:
            m = replace(m, note=f"{m.note}; no breakdown (rolled {value})")
        finish_move(game, m.unit, m.trucks, m.path, m.spent, m.end, m.note)


def breakdown_index(costs: tuple[int, ...], roll: int) -> int:
    """GG-XIII.D: the index of the last hex entered within the first ``roll`` MF of the route, given the MF spent to
    each of its hexes (never short of the first hex entered, even when that hex alone costs more, as up an
    escarpment)."""
    stop = 1
    for i in range(2, len(costs)):
        if costs[i] > roll * MF:
            break
        stop = i
    return stop


def finish_move(game: Game, uid: str, trucks: bool, path: tuple[Hex, ...], spent: int, stop: int, note: str) -> None:
    """The move itself, once its dice are rolled (``path``: the route, ``spent`` its MF, ``stop`` the index of the hex
    the unit stops in, ``note`` what happened on the way): convoys used, disruption out of supply, the hex, control,
    the Gallop, the log."""
    d, u = family_defs(game)[uid], family_unit(game, uid)
    end = path[stop]
    if trucks:
        used_convoys = gazala_vars(game).convoys_used
        gazala_vars(game).convoys_used = used_convoys | {d.side.value: used_convoys.get(d.side.value, 0) + d.attack}
        note += f"; by truck convoy ({d.attack} used)"
    # GG-XV.B (a move cut short by a breakdown or interdiction has disrupted the unit already)
    if u.out_of_supply and not u.disrupted and 2 * spent > d.movement * MF:
        u.disrupted = True
        note += "; out of supply and over half its MF: disrupted"
    u.hex = end
    u.moved = True
    pass_through(game, d.side, path[: stop + 1])
    if uid in gazala_vars(game).gallop and mv.gallop_goal(end):
        gazala_vars(game).gallop = tuple(sorted(mv.galloping(game) - {uid}))
    game.log(f"{d.side.display}: {uid} moves {route_text(path)}{note}.", kind="move")
