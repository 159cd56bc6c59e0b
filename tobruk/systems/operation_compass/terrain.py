"""The terrain effects chart (OC-TER.1, TER.2) on the map: what each step costs to move and to trace supply, where
nothing may cross, and what a hex and the hexside an assault crosses do to it.

A step costs the terrain of the hex it enters plus the hexside it crosses (ridge, wadi), or, along a road or minor
road, the road's own cost whatever the terrain and the hexside (ruling R-OC-ROAD); an impassable escarpment is
crossed only along a road (a pass) by moves, supply lines and retreats, never by an assault or a bombardment
(OC-TER.1, RET.3, ruling R-OC-PASS).
The fixed part of the costs is a table per map (:func:`step_table`), kept with the map; the units standing in the
way are laid over it when a search runs (:func:`closed`).
"""

from __future__ import annotations

from collections.abc import Iterable

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.mechanics.paths import BLOCKED
from tobruk.systems.operation_compass.charts import Terrain


def _step_cost(m: Map, t: Terrain, a: Hex, b: Hex, supply: bool) -> int:
    if not m.is_land(b):
        return BLOCKED
    route = m.route(a, b)
    route_costs = t.route_supply if supply else t.route_move
    if route is not None and route in route_costs:
        return route_costs[route]  # ruling R-OC-ROAD: along the road, its cost alone
    if impassable(m, t, a, b):
        return BLOCKED
    costs = t.supply if supply else t.move
    terrain = m.terrain[b]
    if terrain not in costs:
        return BLOCKED
    extras = t.hexside_supply if supply else t.hexside_move
    return costs[terrain] + sum(extra for kind, extra in extras.items() if m.feature(a, b, kind) is not None)


def impassable(m: Map, t: Terrain, a: Hex, b: Hex) -> bool:
    """Whether the hexside between ``a`` and ``b`` is one of the chart's impassable kinds (the escarpment)."""
    return any(m.feature(a, b, kind) is not None for kind in t.impassable)


def step_table(m: Map, t: Terrain, *, supply: bool) -> tuple[int, ...]:
    """Each step's cost (sixtieths of an MP, or of a supply point) by ``i * 6 + d``, or ``BLOCKED``: kept with the map
    (a map is frozen), under the charts' terrain it was made from, which is kept with it so that its id is never
    another's."""
    kept: dict[tuple[int, bool], tuple[Terrain, tuple[int, ...]]] = m.__dict__.setdefault("_compass_steps", {})
    key = (id(t), supply)
    found = kept.get(key)
    if found is None or found[0] is not t:
        nb = m.neighbour_table
        out = []
        for i, a in enumerate(m.hexes):
            for d in range(6):
                j = nb[i * 6 + d]
                out.append(BLOCKED if j < 0 else _step_cost(m, t, a, m.hexes[j], supply))
        found = kept[key] = (t, tuple(out))
    return found[1]


def closed(m: Map, steps: tuple[int, ...], hexes: Iterable[Hex]) -> list[int]:
    """The step table with every step into ``hexes`` closed (hexes held by the enemy, or a line may not enter)."""
    out = list(steps)
    incoming = steps_into(m)
    for h in hexes:
        j = m.index.get(h)
        if j is not None:
            for k in incoming[j]:
                out[k] = BLOCKED
    return out


def steps_into(m: Map) -> tuple[tuple[int, ...], ...]:
    """For each hex (by index), the steps ``i * 6 + d`` that enter it: kept with the map (a map is frozen)."""
    found: tuple[tuple[int, ...], ...] | None = m.__dict__.get("_compass_steps_into")
    if found is None:
        into: list[list[int]] = [[] for _ in m.hexes]
        for k, j in enumerate(m.neighbour_table):
            if j >= 0:
                into[j].append(k)
        found = m.__dict__["_compass_steps_into"] = tuple(tuple(x) for x in into)
    return found


def hex_drm(m: Map, t: Terrain, target: Hex) -> tuple[int, list[str]]:
    """OC-TER.2: the DRM the target hex's terrain and Sidi Barrani give an assault, with a line for each."""
    terrain = m.terrain[target]
    total = t.combat_drm.get(terrain, 0)
    lines = [f"+{total} {terrain} (OC-TER.2)"] if total else []
    if target in m.zones.get(t.sidi_barrani_zone, frozenset()):
        total += t.sidi_barrani_drm
        lines.append(f"+{t.sidi_barrani_drm} Sidi Barrani (OC-TER.2)")
    return total, lines


def fortified_against(m: Map, t: Terrain, attacker: Hex, target: Hex) -> bool:
    """OC-TER.2: whether an assault from ``attacker`` crosses a fortified side of the fort in ``target``."""
    f = m.feature(attacker, target, t.fortified_side)
    return f is not None and f.inside == target


def halving(m: Map, t: Terrain, attacker: Hex, target: Hex) -> str | None:
    """OC-TER.2: "down" or "up" when the Allied attack strength is halved across the hexside (ridge, wadi)."""
    if any(m.feature(attacker, target, kind) is not None for kind in t.halve_down):
        return "down"
    if any(m.feature(attacker, target, kind) is not None for kind in t.halve_up):
        return "up"
    return None
