"""The bugout in a running game (CA-S.4), made in the operational movement step in place of a unit's move.

The rules of the way are :mod:`.strategic`'s (:func:`~.strategic.bugout_reach`, :func:`~.strategic.check_bugout`);
this module says which orders the step lists and what one does (docs/rulings.md, CA-S.3-4):

* Any unit of the side, disrupted or not, that has not yet moved nor been allocated to an attack in the player-turn
  may bug out, in the operational movement step only (not the breakthrough): ``bugout UNIT HEX`` to any end at least
  16 hexes nearer its side's coastal-road edge hex, or ``bugout UNIT EDGE off-map`` out through that hex.  The dummy
  never moves (CA-F.4).  The unit has then moved: it neither moves again nor attacks in the player-turn.
* The way is the one entering the fewest hexes under movement-stopping enemy zones; each such hex is one die, a 1
  eliminating the unit.  The dice are chance nodes, one per such hex in the order entered (:class:`BugoutRoll`,
  the outcomes of :func:`~.strategic.bugout_hex_outcomes`), so the rolls are recorded each with its hex, as dice
  fall at the table, and a search meets small nodes; together they make :func:`~.strategic.bugout_outcomes`'
  distribution, arriving with (5/6)^k.
* A unit that arrives is disrupted with a Newly Disrupted marker (a face-down counter is then revealed); one that
  leaves the map is out of play, neither on it nor eliminated (``evacuated``: El Agheila III's evacuation, CA-SC.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Chance, Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.actions import Bugout
from tobruk.systems.campaign.sea import eliminate, note_control
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.strategic import LOST, OFF_MAP, BugoutReach, bugout_hex_outcomes, bugout_reach, check_bugout, rear_hex
from tobruk.systems.campaign.zoc import enemy_zoc

if TYPE_CHECKING:
    from tobruk.engine.game import Game


_REACH: Cache[BugoutReach] = Cache("campaign.bugout", BOARD)


def rear(game: Game, side: Side) -> int:
    """``side``'s coastal-road edge hex, of the map or of the scenario's section: where a bugout heads (CA-S.4)."""
    area = live.setup_of(game).area
    return rear_hex(game.scenario.map, side, None if area is None else game.scenario.zone(area))


def unit_reach(game: Game, uid: str) -> BugoutReach:
    """Where the unit may bug out to (kept per board)."""
    side = counter_defs(game)[uid].side
    return _REACH.get(game, uid, lambda: bugout_reach(live.position(game), uid, rear(game, side)))


def refusal(game: Game, side: Side, uid: str) -> IllegalOrderError | None:
    """Why ``uid`` may not bug out now whatever the end, or None."""
    clause = "CA-Q.1" if side is Side.AXIS else "CA-Q.2"
    problem = hidden.not_movable(game, side, uid, "CA-S.4")
    if problem is not None:
        return problem
    c = counter(game, uid)
    if c.attacking:
        return IllegalOrderError(clause, f"{uid} is allocated to an attack and moves no more")
    if c.moved or uid in campaign_vars(game).spent:
        return IllegalOrderError("CA-S.4", f"{uid} has moved already: a bugout takes the place of its move")
    return None


def bugout_orders(game: Game, side: Side) -> list[Bugout]:
    """Every bugout ``side`` may order now: each unit that may, to each end it may reach, and off the map."""
    hexes = game.scenario.map.hexes
    out: list[Bugout] = []
    for uid in live.on_map(game, side):
        if refusal(game, side, uid) is not None:
            continue
        r = unit_reach(game, uid)
        for i in sorted(r.destinations):
            out.append(Bugout(uid, hexes[r.rear], True) if i == OFF_MAP else Bugout(uid, hexes[i]))
    return out


def bug_out(game: Game, side: Side, order: Bugout) -> None:
    """Check a bugout and carry it out: a die for each hex under a movement-stopping enemy zone it enters (chance
    nodes, :class:`BugoutRoll`), then the arrival."""
    problem = refusal(game, side, order.unit)
    if problem is not None:
        raise problem
    m = game.scenario.map
    edge = rear(game, side)
    if order.off:
        if m.index.get(order.hex) != edge:
            raise IllegalOrderError("CA-S.4", f"a unit leaves the map by bugout through its side's edge hex {m.hexes[edge]}")
        to = OFF_MAP
    else:
        found = m.index.get(order.hex)
        p = live.position(game)
        if found is None or (p.area is not None and found not in p.area):
            raise IllegalOrderError("CA-F.11", f"{order.hex} is not on the map")
        to = found
    r = check_bugout(live.position(game), order.unit, to, edge)
    way = tuple(m.hexes[i] for i in r.path(to))
    zoc = _zone_hexes(game, side, r.path(to))
    counter(game, order.unit).moved = True
    move = BugoutRoll(order.unit, side, way, order.off, zoc, 0)
    if zoc:
        game.push_frame(move)
    else:
        move.arrive(game)


def _zone_hexes(game: Game, side: Side, path: tuple[int, ...]) -> tuple[Hex, ...]:
    """The hexes of the way (the start left out) under movement-stopping enemy zones: one die each."""
    zone = enemy_zoc(live.position(game), side).sources
    hexes = game.scenario.map.hexes
    return tuple(hexes[i] for i in path[1:] if i in zone)


@dataclass(frozen=True)
class BugoutRoll(Chance):
    """CA-S.4's die for the ``n``-th (from 0) of the ``risky`` hexes on ``unit``'s bugout along ``way`` (off the map
    at its end when ``off``): a 1 eliminates the unit; else the next die, or the arrival after the last."""

    unit: str
    side: Side
    way: tuple[Hex, ...]
    off: bool
    risky: tuple[Hex, ...]
    n: int

    def purpose(self, game: Game) -> str:
        at = self.risky[self.n]
        return f"bugout of {hidden.name(game, self.unit)}, enemy zone hex {self.n + 1} of {len(self.risky)} ({at}): a 1 eliminates (CA-S.4)"

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        return bugout_hex_outcomes()

    def resolve(self, game: Game, value: int) -> None:
        label = next(o.label for o in self.outcomes(game) if o.value == value)
        if label == LOST:
            uid = self.unit
            at = self.risky[self.n]
            text = f"{self.side.display}: {{}} bugs out from {self.way[0]} and is eliminated in {at}, rolled {value} (CA-S.4)."
            hidden.log_about(game, uid, text.format(uid), text.format("a face-down unit"), kind="loss")
            eliminate(game, uid)
            return
        if self.n + 1 < len(self.risky):
            game.push_frame(BugoutRoll(self.unit, self.side, self.way, self.off, self.risky, self.n + 1))
            return
        self.arrive(game)

    def arrive(self, game: Game) -> None:
        """The end of the bugout: off the map, out of play; else disrupted with a Newly Disrupted marker."""
        uid = self.unit
        c = counter(game, uid)
        way = "-".join(h.label for h in self.way)
        note_control(game, self.side, self.way)
        if self.off:
            text = f"{self.side.display}: {{}} bugs out {way} and leaves the map (CA-S.4)."
            hidden.log_about(game, uid, text.format(uid), text.format("a face-down unit"), kind="move")
            c.hex = None
            c.disrupted = c.newly_disrupted = c.out_of_supply = c.targeted = False
            v = campaign_vars(game)
            v.evacuated = (*v.evacuated, uid)
            return
        text = f"{self.side.display}: {{}} bugs out {way}, arriving disrupted with a Newly Disrupted marker (CA-S.4)."
        hidden.log_about(game, uid, text.format(uid), text.format("a face-down unit"), kind="move")
        c.hex = self.way[-1]
        c.disrupted = c.newly_disrupted = True
        hidden.reveal(game, [uid], "disrupted")
