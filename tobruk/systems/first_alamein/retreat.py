"""Retreat routes in 1st Alamein: The Gazala Gallop's GG-XIV.D.2, which the charts leave as it is.

Every hex of a route must be farther from the hex the unit left, on the land and not across a barrier off a
road or track, free of enemy units, out of enemy ZOC unless a friendly unit stands there, not a defending hex
of a declared attack still to be resolved, and not next to a hex the unit was attacked from (or attacking)
unless it holds a friendly box (a-e).  Among the routes that meet them, hex by hex: the least stacked (f),
then the ones in supply (g).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.hexes import Hex, Hexside
from tobruk.mechanics.battle import pending
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import chart

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def retreat_paths(game: Game, uid: str, length: int, from_hexes: Sequence[Hex]) -> list[tuple[Hex, ...]]:
    """The legal routes of exactly ``length`` hexes for a unit, the preferences applied (its hex first)."""
    from tobruk.systems.first_alamein import supply  # (supply reads the position module too)

    origin = game.unit(uid).hex
    if origin is None or length <= 0:
        return []
    m = game.scenario.map
    side = game.defs[uid].side
    zoc = pos.enemy_zoc(game, side)
    declared = {h for a in pending(game) for h in a.order.defenders}
    boxes = pos.boxes(game, side)
    barriers = chart(game).barriers
    occupants = game.occupants()

    def ok(here: Hex, there: Hex) -> bool:
        if there not in m or not m.is_land(there) or origin.distance(there) <= origin.distance(here):
            return False
        if m.route(here, there) is None and any(f.kind in barriers for f in m.features(Hexside.between(here, there))):
            return False
        units = [u for u in occupants.get(there, []) if not game.defs[u].is_air]
        if any(game.defs[u].side is not side for u in units):
            return False
        if there in zoc and not units:
            return False
        if there in declared:
            return False
        return there in boxes or not any(there.is_adjacent(f) for f in from_hexes)

    paths: list[tuple[Hex, ...]] = [(origin,)]
    for _ in range(length):
        paths = [(*p, n) for p in paths for n in p[-1].neighbours() if ok(p[-1], n)]
    if len(paths) <= 1:
        return paths
    supplied = supply.trace(game, side)

    def preference(h: Hex) -> tuple[int, bool]:
        stacked = len([u for u in occupants.get(h, []) if u != uid and not game.defs[u].is_air])
        return stacked, h not in supplied

    for step in range(1, length + 1):
        best = min(preference(p[step]) for p in paths)
        paths = [p for p in paths if preference(p[step]) == best]
    return sorted(paths)
