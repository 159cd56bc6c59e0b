"""``tobruk arena``: many games between two players with sides swapped, and honest statistics.

Win rates come with 95% Wilson score intervals (a binomial interval that behaves at 0% and 100%);
GVP differences are averaged from each player's point of view.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.players import make_player, play_game


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins``/``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameOutcome:
    seed: int
    axis: str
    allied: str
    winner: str | None
    level: str
    margin: Fraction  # the Allied points minus the Axis points, as the system scores them
    orders: int


RULES = "rules"  # the name a side the rules play goes by in the results (in a solitaire game)


def one_game(args: tuple[str, str, str, int, tuple[str, ...]]) -> GameOutcome:
    scenario_name, axis, allied, seed, options = args
    game = Game(load_scenario(scenario_name), seed=seed, options=options)
    play_game(game, {Side.AXIS: make_player(axis, seed * 2 + 1), Side.ALLIED: make_player(allied, seed * 2 + 2)})
    summary = game.system.summary(game)
    if summary is None:
        raise RuntimeError(f"{scenario_name}: the game ended without a result")
    ruled = game.system.ruled_sides(game)  # a side the rules play is no player's: its results are the rules'
    axis, allied = (RULES if Side.AXIS in ruled else axis), (RULES if Side.ALLIED in ruled else allied)
    return GameOutcome(seed, axis, allied, summary.winner, summary.level, summary.margin, len(game.history))


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    margin: Fraction = field(default_factory=Fraction)

    def add(self, won: bool, drawn: bool, margin: Fraction) -> None:
        self.games += 1
        self.wins += won
        self.draws += drawn
        self.margin += margin


def tally(outcomes: Iterable[GameOutcome]) -> dict[tuple[str, str], Tally]:
    """Per (player, side): games, wins, draws and the summed points margin in the player's favour."""
    out: dict[tuple[str, str], Tally] = {}
    for o in outcomes:
        for player, side in ((o.axis, "axis"), (o.allied, "allied")):
            margin = -o.margin if side == "axis" else o.margin
            out.setdefault((player, side), Tally()).add(o.winner == side, o.winner is None, margin)
    return out


def report(results: dict[tuple[str, str], Tally]) -> list[str]:
    lines = [f"{'player':<10} {'side':<7} {'games':>5} {'wins':>5} {'draws':>5}  {'win rate (95% CI)':<24} avg points margin"]
    for (player, side), t in sorted(results.items()):
        lo, hi = wilson(t.wins, t.games)
        rate = t.wins / t.games if t.games else 0.0
        lines.append(
            f"{player:<10} {side:<7} {t.games:>5} {t.wins:>5} {t.draws:>5}  "
            f"{rate:6.1%} ({lo:6.1%} - {hi:6.1%})   {float(t.margin / max(1, t.games)):+.2f}"
        )
    return lines


def run(
    scenario: str,
    a: str,
    b: str,
    games: int,
    *,
    jobs: int = 1,
    seed: int = 0,
    options: tuple[str, ...] = (),
    progress: Callable[[int, int], None] | None = None,
) -> list[GameOutcome]:
    """Play ``games`` games, ``a`` as the Axis in the even ones and as the Allies in the odd ones."""
    tasks = [(scenario, a if i % 2 == 0 else b, b if i % 2 == 0 else a, seed + i, options) for i in range(games)]
    outcomes: list[GameOutcome] = []
    if jobs <= 1:
        for t in tasks:
            outcomes.append(one_game(t))
            if progress:
                progress(len(outcomes), games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for o in pool.map(one_game, tasks):
                outcomes.append(o)
                if progress:
                    progress(len(outcomes), games)
    return outcomes


def plot(outcomes: list[GameOutcome], folder: Any) -> list[Any]:
    """The distribution of results and of the points difference (Allied minus Axis) of an arena run, as PNG."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    fig, ax = plt.subplots(figsize=(7, 3.2))
    labels = sorted({f"{o.winner or 'draw'}: {o.level}" for o in outcomes})
    ax.barh(labels, [sum(1 for o in outcomes if f"{o.winner or 'draw'}: {o.level}" == x) for x in labels], color="#8a6d3b")
    ax.set_title(f"Results of {len(outcomes)} games")
    fig.tight_layout()
    fig.savefig(folder / "results.png", dpi=100)
    plt.close(fig)
    made.append(folder / "results.png")
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.hist([float(o.margin) for o in outcomes], bins=20, color="#5b6b7a")
    ax.set_title("Points difference (Allied minus Axis)")
    fig.tight_layout()
    fig.savefig(folder / "margin.png", dpi=100)
    plt.close(fig)
    made.append(folder / "margin.png")
    return made


def progress_bar(done: int, total: int, stream: Any = sys.stderr) -> None:
    width = 30
    filled = int(width * done / max(1, total))
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        stream.write("\n")
    stream.flush()
