"""Retreat routes: the family's retreat requirements and preferences, parameterised by what a system knows.

The family's retreat rule (GG-XIV.D.2), which later systems keep where their charts are silent.  Every hex of a
route must be farther from the hex the unit left (a), on the land and not across a barrier hexside off a road
or track, free of enemy units (b), out of enemy ZOC unless a friendly unit stands there (c), not a defending
hex of a declared attack still to be resolved (d), and not next to a hex the unit was attacked from (or was
attacking) unless it holds a friendly box (e).  Among the routes that meet them, hex by hex: the least
stacked hex first (f), then, if any, a hex in friendly supply (g).

What differs between systems is data the caller passes (:class:`RetreatGround`): which hexsides are barriers,
where the enemy's ZOC and the friendly boxes are, and how supply is traced "at that moment".  The search is
breadth-first over routes of exactly the asked length, which stays small: a retreat is one or two hexes.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex, Hexside
from tobruk.mechanics.battle import pending
from tobruk.mechanics.counters import family_defs, family_unit

if TYPE_CHECKING:
    from tobruk.engine.game import Game

Path = tuple[Hex, ...]


@dataclass(frozen=True)
class RetreatGround:
    """The position as one side's retreat rules see it.

    ``supplied`` is called only when two or more routes are left after the stacking preference, so a
    system's supply trace is paid for only when it can decide something.
    """

    enemy_zoc: Container[Hex]
    friendly_boxes: Container[Hex]
    barriers: frozenset[str]
    supplied: Callable[[], Container[Hex]]


def retreat_paths(game: Game, uid: str, length: int, from_hexes: Sequence[Hex], ground: RetreatGround) -> list[Path]:
    """The legal routes of exactly ``length`` hexes for a unit, preferences applied; each starts at its hex.

    An empty list means the unit cannot retreat that far ("unable to retreat").
    """
    origin = family_unit(game, uid).hex
    if origin is None or length <= 0:
        return []
    m = game.scenario.map
    side = family_defs(game)[uid].side
    declared = {h for a in pending(game) for h in a.order.defenders}
    occupants = game.occupants()

    def ground_units(h: Hex) -> list[str]:
        return [u for u in occupants.get(h, []) if not family_defs(game)[u].is_air]

    def ok(here: Hex, there: Hex) -> bool:
        if there not in m or not m.is_land(there) or origin.distance(there) <= origin.distance(here):
            return False
        if m.route(here, there) is None and any(f.kind in ground.barriers for f in m.features(Hexside.between(here, there))):
            return False
        units = ground_units(there)
        if any(family_defs(game)[u].side is not side for u in units):
            return False
        if there in ground.enemy_zoc and not units:
            return False
        if there in declared:
            return False
        return there in ground.friendly_boxes or not any(there.is_adjacent(f) for f in from_hexes)

    paths: list[Path] = [(origin,)]
    for _ in range(length):
        paths = [(*p, n) for p in paths for n in p[-1].neighbours() if ok(p[-1], n)]

    def stacked(h: Hex) -> int:  # every counter of the side, a face-down dummy too: the enemy cannot tell them apart
        return len([u for u in ground_units(h) if u != uid])

    supplied: Container[Hex] | None = None
    for step in range(1, length + 1):
        if len(paths) <= 1:
            break
        least = min(stacked(p[step]) for p in paths)  # f
        paths = [p for p in paths if stacked(p[step]) == least]
        if len(paths) > 1:
            if supplied is None:
                supplied = ground.supplied()
            if any(p[step] in supplied for p in paths):  # g
                paths = [p for p in paths if p[step] in supplied]
    return sorted(paths)


def can_leave_board(game: Game, uid: str) -> bool:
    """Whether a unit stands where a retreat could take it off the map or into the sea (GG-XIV.D.4)."""
    h = family_unit(game, uid).hex
    m = game.scenario.map
    return h is not None and any(n not in m or not m.is_land(n) for n in h.neighbours())
