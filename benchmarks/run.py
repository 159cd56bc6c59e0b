"""Benchmarks for tobruk's forward model: prints its figures against the targets (docs/performance.md).

    python benchmarks/run.py [--games N] [--compare] [--fuzz N]

For The Gazala Gallop, 1st Alamein and Operation Compass, on one core (each target checked on each system):

* complete random-policy games per second: at every decision the ascending list of legal action ids, one
  picked uniformly, played by id (``Game.legal_id_list`` and ``Game.play_id``: no notation, no views);
* the time to copy a game (what a search does per node);
* apply + undo of one atomic action (``play`` then ``pop``), median over the undoable legal actions at
  positions along a random game;
* the legal-action mask at a decision point (``Game.legal_mask`` the first time a new position asks, the
  searches of units nothing disturbed kept), median and 90th percentile over a random game's decisions;
* the movement reach search and the supply trace against networkx's Dijkstra on the same graph and costs
  (``benchmarks/kernels.py``);
* memory: what a new game holds beyond what every game of its scenario shares, and what a copy holds at positions
  along a random game (tracemalloc); the size of the scenario's action-id space, and that of the family's actions
  on the campaign map (the space is shared per scenario and a mask made only on demand);
* fuzzed games (every invariant checked after every action) as ``tobruk fuzz`` plays them, and what 10,000 would
  take on two cores from that one-core rate (the measure is a real run of ``tobruk fuzz --jobs 2``, which takes
  somewhat longer: the two processes share the machine; docs/performance.md); the same with all the scenario's
  options (the Gazala Gallop's nonhistorical set-up, longer games with face-down counters), as information.

The process is set up as the fuzzer and the arena set theirs up for many games (``tobruk.engine.throughput``: fewer
garbage collections); ``--gc-defaults`` measures with Python's own settings instead.

``--compare`` adds the searches side by side with networkx on every map (the Gazala Gallop, 1st Alamein, the
North-Africa campaign) and on growing parts of the campaign map: how the cost grows with the number of hexes.

Times are CPU seconds of this process (``time.process_time``), so a busy machine slows the figures less than
it would wall-clock ones.  Figures vary with the machine; docs/performance.md records them with the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import kernels  # benchmarks/kernels.py, beside this script

from tobruk.engine.actions import ActionSpace
from tobruk.engine.errors import UndoError
from tobruk.engine.game import Game
from tobruk.engine.system import system_for
from tobruk.engine.throughput import for_many_games
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.tools.fuzz import fuzz_game

SYSTEMS = {"Gazala Gallop": "gazala-gallop", "1st Alamein": "first-alamein", "Op. Compass": "operation-compass"}

# the forward model's targets (docs/performance.md): (figure, unit, target, True when bigger is better)
TARGETS: list[tuple[str, str, float, bool]] = [
    ("random-policy games per second", "games/s", 10.0, True),
    ("copy a game", "us", 20.0, False),
    ("apply + undo of one atomic action (median)", "us", 20.0, False),
    ("legal-action mask at a decision point (median)", "us", 50.0, False),
    ("legal-action mask at a decision point (90th percentile)", "us", float("nan"), False),
    ("movement reach vs networkx Dijkstra", "x faster", 10.0, True),
    ("supply trace vs networkx", "x faster", 10.0, True),
    ("memory of a new game", "KiB", float("nan"), False),
    ("memory of a copy along a game", "KiB", float("nan"), False),
    ("action ids in the scenario's space", "ids", float("nan"), False),
    ("fuzzed games per second", "games/s", float("nan"), True),
    ("10,000 fuzzed games on 2 cores (estimate)", "min", 30.0, False),
    ("fuzzed games per second, with the options", "games/s", float("nan"), True),
    ("10,000 of those on 2 cores (estimate)", "min", float("nan"), False),
]


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Best of three runs of ``repeat`` calls, seconds per call."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, (time.process_time() - start) / repeat)
    return best


def random_game(scenario: Scenario, seed: int) -> Game:
    """One complete game, both sides picking uniformly among the legal action ids."""
    game = Game(scenario, seed=seed)
    rng = random.Random(seed)
    while game.decision is not None:
        game.play_id(rng.choice(game.legal_id_list()))
    return game


def random_games(scenario: Scenario, n: int) -> tuple[float, float]:
    start = time.process_time()
    actions = sum(len(random_game(scenario, seed).history) for seed in range(n))
    elapsed = time.process_time() - start
    return n / elapsed, actions / elapsed


def positions(scenario: Scenario, seed: int, every: int, limit: int) -> list[Game]:
    """Copies of a random game's positions, every ``every``-th decision, at most ``limit``."""
    game = Game(scenario, seed=seed)
    rng = random.Random(seed)
    out: list[Game] = []
    n = 0
    while game.decision is not None and len(out) < limit:
        if n % every == 0:
            out.append(game.copy())
        game.play_id(rng.choice(game.legal_id_list()))
        n += 1
    return out


def copy_time(scenario: Scenario) -> float:
    game = positions(scenario, 1, 1, 400)[-1]  # a position some way into the game
    return timed(game.copy, 2000)


def apply_undo_times(scenario: Scenario) -> list[float]:
    """Seconds for play + pop of each undoable legal action (up to 8 per position) along a random game."""
    times: list[float] = []
    rng = random.Random(3)
    for game in positions(scenario, 3, 7, 120):
        ids = game.legal_id_list()
        for i in rng.sample(ids, min(8, len(ids))):
            action = game.legal_ids()[i]
            trial = game.copy()
            try:
                trial.play(action)
                trial.pop()
            except UndoError:  # past a die roll or a reveal: no undo, so no figure
                continue
            start = time.perf_counter()
            for _ in range(20):
                game.play(action)
                game.pop()
            times.append((time.perf_counter() - start) / 20)
    return times


def mask_times(scenario: Scenario, seed: int = 4) -> list[float]:
    """Seconds for the first legal-action mask of each new position of a random game."""
    game = Game(scenario, seed=seed)
    rng = random.Random(seed)
    times: list[float] = []
    while game.decision is not None:
        start = time.perf_counter()
        game.legal_mask()
        times.append(time.perf_counter() - start)
        game.play_id(rng.choice(game.legal_id_list()))
    return times


def allocated(make: Callable[[], Any]) -> tuple[Any, float]:
    """What ``make`` returns, and the KiB it leaves allocated (traced by tracemalloc, the result kept alive)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    made = make()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return made, (after - before) / 1024


def memory_per_game(scenario: Scenario) -> tuple[float, float]:
    """KiB a new game holds (after a first one, so what every game of the scenario shares is made: the action space,
    the map's tables), and KiB a copy holds at positions along a random game (the median): what a search pays per
    node it keeps."""
    Game(scenario, seed=0).legal_id_list()
    _, new = allocated(lambda: Game(scenario, seed=1))
    copies = [allocated(game.copy)[1] for game in positions(scenario, 5, 25, 12)]
    return new, statistics.median(copies)


def campaign_space() -> str:
    """The family's actions numbered on the campaign map: how many ids, what the shared space costs to make and hold,
    and what a mask would hold (made only on demand: the listing is the ids of the legal actions)."""
    campaign = load_scenario("na-campaign")
    vocabulary = system_for("gazala-gallop").vocabulary
    start = time.perf_counter()
    space, kib = allocated(lambda: ActionSpace(vocabulary, [u.id for u in campaign.units], campaign.map.hexes))
    made = (time.perf_counter() - start) * 1e3
    return (
        f"the family's actions on the campaign map ({len(campaign.map.hexes)} hexes, {len(campaign.units)} units): "
        f"{space.size:,} ids; the space made in {made:.1f} ms, {kib:.0f} KiB, one per scenario shared by its games; "
        f"a mask would be {space.size / 1024:.0f} KiB, made only on demand"
    )


def fuzzed_games(scenario: Scenario, n: int, options: tuple[str, ...] = ()) -> float:
    """Fuzzed games per second, over ``n`` seeds, with ``options``."""
    start = time.process_time()
    for seed in range(n):
        result = fuzz_game(scenario, seed, options=options)
        if result.failure:
            raise SystemExit(f"fuzzed game {seed} failed: {result.failure}")
    return n / (time.process_time() - start)


def figures(name: str, games: int, fuzz: int) -> dict[str, float]:
    scenario = load_scenario(name)
    per_s, _ = random_games(scenario, games)
    new_game, copied = memory_per_game(scenario)
    undo = apply_undo_times(scenario)
    masks = mask_times(scenario)
    reach = kernels.reach_versus_networkx(scenario.map)
    supply = kernels.supply_versus_networkx(scenario.map)
    options = tuple(o.name for o in scenario.options)
    fuzz_rate = fuzzed_games(scenario, fuzz) if fuzz else float("nan")
    optioned_rate = fuzzed_games(scenario, fuzz, options) if fuzz and options else float("nan")
    return {
        "random-policy games per second": per_s,
        "copy a game": copy_time(scenario) * 1e6,
        "apply + undo of one atomic action (median)": statistics.median(undo) * 1e6,
        "legal-action mask at a decision point (median)": statistics.median(masks) * 1e6,
        "legal-action mask at a decision point (90th percentile)": statistics.quantiles(masks, n=10)[-1] * 1e6,
        "movement reach vs networkx Dijkstra": reach["reach_speedup"],
        "supply trace vs networkx": supply["supply_speedup"],
        "memory of a new game": new_game,
        "memory of a copy along a game": copied,
        "action ids in the scenario's space": Game(scenario).action_space.size,
        "fuzzed games per second": fuzz_rate,
        "10,000 fuzzed games on 2 cores (estimate)": 10_000 / fuzz_rate / 2 / 60,
        "fuzzed games per second, with the options": optioned_rate,
        "10,000 of those on 2 cores (estimate)": 10_000 / optioned_rate / 2 / 60,
    }


def verdict(value: float, target: float, bigger: bool) -> str:
    if target != target or value != value:  # no target (or not measured)
        return ""
    return "met" if (value >= target if bigger else value <= target) else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="random games per system (default 10)")
    parser.add_argument("--fuzz", type=int, default=4, help="fuzzed games per system (default 4; 0 to skip)")
    parser.add_argument("--compare", action="store_true", help="the searches beside networkx on every map, and their growth")
    parser.add_argument("--gc-defaults", action="store_true", help="keep Python's collector settings (throughput settings not applied)")
    args = parser.parse_args()
    if not args.gc_defaults:
        for_many_games()  # as the fuzzer and the arena run (tobruk/engine/throughput.py)
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}; one core")
    results = {label: figures(name, args.games, args.fuzz) for label, name in SYSTEMS.items()}
    for label, name in SYSTEMS.items():
        scenario = load_scenario(name)
        print(f"{label}: {len(scenario.units)} units, {len(scenario.map.hexes)} hexes")
    head = f"{'figure':58} " + " ".join(f"{label:>14}" for label in results) + f" {'target':>10}  (each system)"
    print(head)
    print("-" * len(head))
    for figure, unit, target, bigger in TARGETS:
        cells = " ".join(f"{results[label][figure]:>14.2f}" for label in results)
        aim = "" if target != target else f"{'>=' if bigger else '<='} {target:g}"
        verdicts = [verdict(results[label][figure], target, bigger) for label in results]
        print(f"{figure + ' (' + unit + ')':58} {cells} {aim:>10}  {' '.join(verdicts) if any(verdicts) else ''}")
    print(campaign_space())
    if args.compare:
        print()
        kernels.main()  # the searches beside networkx on every map, and their growth with the board


if __name__ == "__main__":
    main()
