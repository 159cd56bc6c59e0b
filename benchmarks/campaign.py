"""The campaign's movement rules on the 3,260-hex map: a reach listing for every unit at each scenario's start.

    python benchmarks/campaign.py

For each packaged campaign scenario with units on the map at its start: the units that may move (undisrupted),
the destinations they have in all, and the time to list every one of them (the enemy's zones worked out once a
position and side, then one Dijkstra search a unit, `tobruk/systems/campaign/movement.py`), with the time per
unit.  Times are the best of three runs on a fresh position each (so the zones are worked out in every run; the
map's movement tables are made once a process and not counted).

Then the game's own listing (``Game.legal_id_list``, every action with its id, as a face asks) at the start of each
scenario's first movement step, played through the engine with the campaign's system given directly (it is not yet
playable by the faces): a first game's listing and a second game's of the scenario (the map's tables are made once
a process, by the reach listings above when they run first: alone, they add about 30 ms to the very first listing).
The target: under 100 ms.
"""

from __future__ import annotations

import platform
import time

from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import NorthAfricaCampaign
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


def at_movement(name: str) -> Game:
    """A new game of the scenario at its first movement step (earlier steps passed; a starting force that enters in the
    set-up goes to the first hex offered it)."""
    game = Game(load_scenario(name), system=NorthAfricaCampaign())
    while not game.step.key.endswith("-movement") or game.decision is None:
        orders = game.legal_orders()
        game.play(EndPhase() if EndPhase() in orders else orders[0])
    return game


def game_listing(name: str) -> tuple[str, int, float, float]:
    """The first movement step's key, its actions, and the listing's time in ms: a first game's, a second game's."""
    times = []
    for _ in range(2):
        game = at_movement(name)
        start = time.perf_counter()
        actions = len(game.legal_id_list())
        times.append((time.perf_counter() - start) * 1e3)
    return game.step.key, actions, times[0], times[1]


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    print("| scenario | hexes | units that may move | destinations | every unit's reach | per unit |")
    print("|---|---|---|---|---|---|")
    for name in SCENARIOS:
        f = figures(name)
        print(f"| {name} | {f['hexes']:.0f} | {f['units']:.0f} | {f['destinations']:.0f} | {f['ms']:.1f} ms | {f['ms_per_unit']:.2f} ms |")
    print()
    print("| scenario | first movement step | actions listed | the listing, a first game | a second game |")
    print("|---|---|---|---|---|")
    for name in SCENARIOS:
        step, actions, first, second = game_listing(name)
        print(f"| {name} | {step} | {actions} | {first:.1f} ms | {second:.1f} ms |")


if __name__ == "__main__":
    main()
