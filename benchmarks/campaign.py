"""The campaign's movement rules on the 3,260-hex map: a reach listing for every unit at each scenario's start.

    python benchmarks/campaign.py

For each packaged campaign scenario with units on the map at its start: the units that may move (undisrupted),
the destinations they have in all, and the time to list every one of them (the enemy's zones worked out once a
position and side, then one Dijkstra search a unit, `tobruk/systems/campaign/movement.py`), with the time per
unit.  Times are the best of three runs on a fresh position each (so the zones are worked out in every run; the
map's movement tables are made once a process and not counted).
"""

from __future__ import annotations

import platform
import time

from tobruk.loading.scenario import load_scenario
from tobruk.systems.campaign.movement import move_board, reach
from tobruk.systems.campaign.position import CampaignPosition, position_from_scenario

SCENARIOS = (
    *("na-el-agheila-1", "na-el-agheila-2", "na-el-agheila-3", "na-crusader", "na-gazala", "na-mersa-matruh"),
    *("na-1st-alamein", "na-alam-halfa", "na-alamein"),
)


def listing(p: CampaignPosition) -> int:
    """Every undisrupted unit's reach; the number of destinations in all."""
    return sum(len(reach(p, u.id).destinations()) for u in p.units if not u.disrupted)


def figures(name: str) -> dict[str, float]:
    scenario = load_scenario(name)
    move_board(scenario.map)
    movers = 0
    best = float("inf")
    found = 0
    for _ in range(3):
        p = position_from_scenario(scenario)
        movers = sum(not u.disrupted for u in p.units)
        start = time.perf_counter()
        found = listing(p)
        best = min(best, time.perf_counter() - start)
    ms = best * 1e3
    return {"hexes": len(scenario.map.hexes), "units": movers, "destinations": found, "ms": ms, "ms_per_unit": ms / max(movers, 1)}


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    print("| scenario | hexes | units that may move | destinations | every unit's reach | per unit |")
    print("|---|---|---|---|---|---|")
    for name in SCENARIOS:
        f = figures(name)
        print(f"| {name} | {f['hexes']:.0f} | {f['units']:.0f} | {f['destinations']:.0f} | {f['ms']:.1f} ms | {f['ms_per_unit']:.2f} ms |")


if __name__ == "__main__":
    main()
