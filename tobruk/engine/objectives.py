"""Which of a side's objectives the enemy could reach in its next movement, worked out from what the side may know.

The system names the objectives (:meth:`~tobruk.engine.system.System.objectives`, each with the side that must hold
it) and how far a unit could move (:meth:`~tobruk.engine.system.System.movement_reach`, the most the rules could
allow it).  The question is asked of :func:`~tobruk.engine.information.observed`, the position as the side knows it,
and a face-down enemy counter is not taken for the counter that happens to fill its place there: it counts with the
most any of the enemy's unseen counters could do from that hex (the union of their reaches), so two positions that
differ only in which counter is which, or where a dummy stands, give the same warnings.

The enemy's reinforcements count too where the rules let a unit move in the movement it arrives in: the system says
which of the enemy's units the turn track brings in before that movement and from which entry hexes
(:meth:`~tobruk.engine.system.System.arrivals`, asked of the observed position: the schedule is public), and each
counts with what it could reach from any of them, the hex it enters by included.  Only a reinforcement the side sees
face up off the map (not yet arrived, not eliminated) is named: one whose counter it sees face down is not, so no
warning tells which counter is which.

A unit that may move only once a condition is met (the system's
:meth:`~tobruk.engine.system.System.movement_condition`: a unit waiting to be activated, if activated) is named under
that condition, with how many of its kind could meet it, so the warning says "if activated (GG-V.A.4) by 2 of X, Y, Z"
rather than a list that reads as if all could come; one that none could meet now (no activations left) is not named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.information import knowledge, observed
from tobruk.engine.system import Arriving, Condition, Conditional, Threat

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side


def threats(game: Game, side: Side) -> list[Threat]:
    """``side``'s objectives an enemy unit could end its next move on, in the system's order, each with the face-up
    enemy units that could (by id), how many face-down places hold a counter that could, and the enemy's
    reinforcements due before that move that could (by id, with their turn)."""
    mine = [o for o in game.system.objectives(game.scenario) if o.defender is side]
    if not mine or game.is_over:
        return []
    goals = {o.hex for o in mine}
    known = knowledge(game, side)
    seen = observed(game, side)
    system = seen.system
    units: dict[Hex, list[str]] = {}
    unseen: dict[Hex, int] = {}
    for uid, (h, eliminated) in known.face_up.items():
        if h is None or eliminated:
            continue
        for g in goals & system.movement_reach(seen, uid, h):
            units.setdefault(g, []).append(uid)
    arriving: dict[Hex, list[Arriving]] = {}
    for a in system.arrivals(seen, side.enemy):
        if known.face_up.get(a.unit) != (None, False):  # (on the map already, gone, or face down: not named here)
            continue
        entered: set[Hex] = set()
        for entry in sorted(a.entries):
            entered |= goals & (system.movement_reach(seen, a.unit, entry) | {entry})
            if entered == goals:
                break
        for g in entered:
            arriving.setdefault(g, []).append(Arriving(a.unit, when(game, a.turn)))
    for place in known.places:
        if place.hex is None or place.eliminated:
            continue
        reached: set[Hex] = set()
        for uid in known.unseen:  # the most any of them could do from here
            reached |= goals & system.movement_reach(seen, uid, place.hex)
            if reached == goals:
                break
        for g in reached:
            unseen[g] = unseen.get(g, 0) + 1
    conditions = {uid: c for uid in {u for us in units.values() for u in us} if (c := system.movement_condition(seen, uid)) is not None}
    out = []
    for o in mine:
        if o.hex not in units and o.hex not in unseen and o.hex not in arriving:
            continue
        named = tuple(sorted(units.get(o.hex, ())))
        groups: dict[Condition, list[str]] = {}
        for uid in named:
            if uid in conditions:
                groups.setdefault(conditions[uid], []).append(uid)
        barred = {u for c, us in groups.items() if c.most == 0 for u in us}  # a condition none of them can meet now
        named = tuple(u for u in named if u not in barred)
        if not named and o.hex not in unseen and o.hex not in arriving:
            continue
        conditional = tuple(Conditional(c, tuple(us)) for c, us in groups.items() if c.most != 0)
        out.append(Threat(o, named, unseen.get(o.hex, 0), tuple(sorted(arriving.get(o.hex, ()), key=lambda a: a.unit)), conditional))
    return out


def when(game: Game, turn: int) -> str:
    """A turn as a warning says it: "turn 3", or the name a dated track gives it."""
    name = game.scenario.turn_name(turn)
    return f"turn {turn}" if name == f"Turn {turn}" else name
