"""Instructions per random game, counted by valgrind: a figure a busy machine does not move.

    python benchmarks/instructions.py [--games N] [--system NAME ...] [CHECKOUT ...]

The machines this project runs on are shared: the same commit has measured 12.3 and 7.0 random games a second on
two of them, and a run of ``benchmarks/run.py`` while other work holds the cores moves by a tenth from one run to
the next.  Timing two versions of the engine against each other then says little below a tenth.  The number of
machine instructions the interpreter executes to play the same games does not depend on the load: valgrind's
cachegrind counts them (``--cache-sim=no``: counting only, about fifty times slower than a plain run).

For each checkout (this one if none is named) and each system, two runs play the first 2 and the first 2 + N random
games (seeds 0, 1, ...; the same games as ``benchmarks/run.py`` plays), and the difference, divided by N, is the
count per game without the start-up (imports, loading, the first games' one-time work).  Two checkouts of the
engine play the same games when their listings order the legal actions alike, which the figure's line says by
the actions per game.  ``PYTHONHASHSEED`` is fixed so that set and dict orders, and so the work, repeat.

Instructions are not time (memory stalls, branch mispredictions), but for an interpreter running the same kind of
code they follow it closely; the two figures together (docs/performance.md) say more than either alone.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SYSTEMS = ("gazala-gallop", "first-alamein", "operation-compass")
HERE = Path(__file__).resolve().parent.parent

# the child: plays the first ``n`` random games of a scenario as benchmarks/run.py does, prints the actions played
CHILD = """
import random, sys
from tobruk.engine.throughput import for_many_games
for_many_games()
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
scenario, n = load_scenario(sys.argv[1]), int(sys.argv[2])
actions = 0
for seed in range(n):
    game, rng = Game(scenario, seed=seed), random.Random(seed)
    while game.decision is not None:
        game.play_id(rng.choice(game.legal_id_list()))
    actions += len(game.history)
print(actions)
"""


class NotPlayed(Exception):
    """The child could not play the scenario in that checkout (an older one without the system, say)."""


def count(checkout: Path, scenario: str, games: int) -> tuple[int, int]:
    """Instructions executed by a child playing the first ``games`` random games in ``checkout``, and its actions."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "games.py"
        script.write_text(CHILD)
        out = Path(tmp) / "cachegrind.out"
        env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
        valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
        run = subprocess.run(
            [*valgrind, sys.executable, str(script), scenario, str(games)],
            cwd=checkout,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if run.returncode:
        said = [line for line in run.stderr.splitlines() if line.strip() and not line.startswith("==")]  # (not valgrind's)
        raise NotPlayed(said[-1] if said else f"exit status {run.returncode}")
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no instruction count for {scenario} in {checkout}:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(run.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games counted (after the first 2; default 6)")
    parser.add_argument("--system", action="append", choices=SYSTEMS, help="a system's first scenario (default: all three)")
    parser.add_argument("checkouts", nargs="*", type=Path, help="checkouts to compare (default: this one)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    for checkout in args.checkouts or [HERE]:
        for scenario in args.system or SYSTEMS:
            if not (checkout / "tobruk").is_dir():
                raise SystemExit(f"{checkout}: not a checkout of this project (no tobruk/)")
            try:
                first, first_actions = count(checkout, scenario, 2)
                total, total_actions = count(checkout, scenario, 2 + args.games)
            except NotPlayed as why:
                print(f"{checkout}: {scenario}: not played ({why})")
                continue
            actions = (total_actions - first_actions) / args.games
            per_game = (total - first) / args.games
            print(f"{checkout}: {scenario}: {per_game / 1e6:.1f} million instructions a game ({actions:.1f} actions a game)")


if __name__ == "__main__":
    main()
