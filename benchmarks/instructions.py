"""Instructions per random game, counted by valgrind: a figure a busy machine does not move.

    python benchmarks/instructions.py [--games N] [--apply-undo] [--system NAME ...] [CHECKOUT ...]

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

``--apply-undo`` counts instead the instructions of one apply + undo (``play`` then ``pop``) of the actions
``benchmarks/run.py`` times for that figure (up to 8 undoable legal actions at every 7th decision of a random game):
a run that plays each of them 10 times less one that plays none, divided by their number; a mean where the
benchmark gives a median, so the two figures follow each other but are not the same.

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

# the child for ``--apply-undo``: the actions benchmarks/run.py times, each played and taken back ``n`` times
APPLY_UNDO = """
import random, sys
from tobruk.engine.throughput import for_many_games
for_many_games()
from tobruk.engine.errors import UndoError
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
scenario, n = load_scenario(sys.argv[1]), int(sys.argv[2])
game, rng, chosen, work = Game(scenario, seed=3), random.Random(3), random.Random(3), []
decisions = 0
while game.decision is not None and decisions < 7 * 120:
    if decisions % 7 == 0:
        here = game.copy()
        ids = here.legal_id_list()
        for i in chosen.sample(ids, min(8, len(ids))):
            action, trial = here.legal_ids()[i], here.copy()
            try:
                trial.play(action)
                trial.pop()
            except UndoError:
                continue
            here.play(action)
            here.pop()
            work.append((here, action))
    game.play_id(rng.choice(game.legal_id_list()))
    decisions += 1
for here, action in work:
    for _ in range(n):
        here.play(action)
        here.pop()
print(len(work))
"""


class NotPlayed(Exception):
    """The child could not play the scenario in that checkout (an older one without the system, say)."""


def count(checkout: Path, scenario: str, games: int, child: str = CHILD) -> tuple[int, int]:
    """Instructions executed by a child playing the first ``games`` random games in ``checkout`` (or ``APPLY_UNDO``:
    its actions ``games`` times each), and the number it prints (the actions played, or taken back)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "games.py"
        script.write_text(child)
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
    parser.add_argument("--apply-undo", action="store_true", help="instructions per apply + undo instead of per game")
    parser.add_argument("--system", action="append", choices=SYSTEMS, help="a system's first scenario (default: all three)")
    parser.add_argument("checkouts", nargs="*", type=Path, help="checkouts to compare (default: this one)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    for checkout in args.checkouts or [HERE]:
        for scenario in args.system or SYSTEMS:
            if not (checkout / "tobruk").is_dir():
                raise SystemExit(f"{checkout}: not a checkout of this project (no tobruk/)")
            if args.apply_undo:
                try:
                    none, actions_taken = count(checkout, scenario, 0, APPLY_UNDO)
                    ten, _ = count(checkout, scenario, 10, APPLY_UNDO)
                except NotPlayed as why:
                    print(f"{checkout}: {scenario}: not played ({why})")
                    continue
                each = (ten - none) / (10 * max(actions_taken, 1))
                print(f"{checkout}: {scenario}: {each / 1e3:.1f} thousand instructions an apply + undo ({actions_taken} actions)")
                continue
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
