"""Golden playthroughs: complete seeded games recorded as data, replayed after every engine change.

A golden file holds the game's settings, every order in notation and, after each order, a digest of
the game's *projection*: what the rules decide (each unit's hex and status, the turn, the phase, the
weather, the dice thrown, the result), not how the engine words its log or lays out its state. So a
refactor that changes wording or internals still passes, and any change of outcome is caught at the
first order where it shows; the full projection at every turn's end makes the difference readable.

Regenerate one file only when a behaviour is changed on purpose, and say why in the commit:

    python tests/systems/gazala/golden_games.py                # rewrite every golden file
    python tests/systems/gazala/golden_games.py gg-greedy-random-1   # rewrite one
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.players.base import make_player, play_game

FOLDER = Path(__file__).resolve().parent / "golden"
FORMAT = "tobruk-golden"
STATUS = (
    "disrupted",
    "newly_disrupted",
    "activated",  # (newly_disrupted: a status no longer kept, always off)
    "hidden",
    "eliminated",
    "moved",
    "attacked",
    "out_of_supply",
)


@dataclass(frozen=True)
class GoldenGame:
    name: str
    scenario: str
    seed: int
    options: tuple[str, ...]
    axis: str
    allied: str
    why: str


# chosen so that between them the games hold No Retreat! orders, airstrikes and interceptions, retreats,
# truck convoys, the Gazala Gallop, an airlift, the nonhistorical face-down set-up, the Siege of Tobruk,
# the AR of GG-IX.B, eliminations over the stacking limit, Crusader breakdowns and a sudden victory
GAMES = (
    GoldenGame("gg-greedy-greedy-1", "gazala-gallop", 1, (), "greedy", "greedy", "airstrikes, convoys, retreats"),
    GoldenGame("gg-greedy-greedy-3", "gazala-gallop", 3, (), "greedy", "greedy", "the Allied sudden victory"),
    GoldenGame(
        "gg-random-greedy-43",
        "gazala-gallop",
        43,
        (),
        "random",
        "greedy",
        "an airlift, the AR of GG-IX.B, Crusader breakdowns, a unit eliminated unable to retreat",
    ),
    GoldenGame(
        "gg-random-random-7",
        "gazala-gallop",
        7,
        (),
        "random",
        "random",
        "the Siege of Tobruk in the historical game, eliminations over the stacking limit",
    ),
    GoldenGame("gg-greedy-random-1", "gazala-gallop", 1, (), "greedy", "random", "No Retreat!, the Gallop"),
    GoldenGame("gg-random-random-2", "gazala-gallop", 2, (), "random", "random", "random play, historical"),
    GoldenGame(
        "gg-greedy-random-5-nh",
        "gazala-gallop",
        5,
        ("nonhistorical",),
        "greedy",
        "random",
        "the Siege of Tobruk, No Retreat!, many retreats",
    ),
    GoldenGame(
        "gg-random-random-3-nh", "gazala-gallop", 3, ("nonhistorical",), "random", "random", "an airlift, the Gallop, face-down set-up"
    ),
    GoldenGame("gg-random-random-5-nh", "gazala-gallop", 5, ("nonhistorical",), "random", "random", "the Siege of Tobruk"),
    GoldenGame(
        "gg-random-greedy-3-nh", "gazala-gallop", 3, ("nonhistorical",), "random", "greedy", "the greedy Allies in the nonhistorical set-up"
    ),
)


def projection(game: Game) -> dict[str, Any]:
    """What the rules decided so far, independent of wording and of how the state is laid out."""
    units = {}
    for uid in sorted(game.defs):
        u = game.unit(uid)
        flags = "".join(name[0] if not getattr(u, name, False) else name[0].upper() for name in STATUS)
        units[uid] = f"{u.hex.label if u.hex is not None else '-'} {flags}"
    return {
        "turn": game.turn,
        "phase": game.phase.key,
        "weather": getattr(game.vars, "weather", None),
        "over": game.is_over,
        "units": units,
        "dice": [r.value for r in game.dice.log],
        "result": game.system.result_lines(game)[:1],
    }


def digest(p: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(p, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def record(g: GoldenGame) -> dict[str, Any]:
    """Play the game with its players and record it."""
    scenario = load_scenario(g.scenario)
    game = Game(scenario, seed=g.seed, options=g.options)
    steps: list[dict[str, Any]] = []
    last_turn = [game.turn]

    def after(game: Game, order: Any) -> None:
        p = projection(game)
        # the order as the player gave it: a whole choice (an attack) is kept whole, as its parts alone ("declare")
        # could not be replayed
        step: dict[str, Any] = {"order": order.notation(), "digest": digest(p)}
        if game.turn != last_turn[0] or game.is_over:
            step["projection"] = p
            last_turn[0] = game.turn
        steps.append(step)

    players = {Side.AXIS: make_player(g.axis, g.seed * 2 + 1), Side.ALLIED: make_player(g.allied, g.seed * 2 + 2)}
    play_game(game, players, after=after)
    return {
        "format": FORMAT,
        "version": 1,
        "name": g.name,
        "why": g.why,
        "scenario": g.scenario,
        "seed": g.seed,
        "options": list(g.options),
        "players": {"axis": g.axis, "allied": g.allied},
        "start": projection(Game(scenario, seed=g.seed, options=g.options)),
        "steps": steps,
    }


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.json"


def write(g: GoldenGame) -> Path:
    path = path_of(g.name)
    data = record(g)
    path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    return path


def main(argv: list[str]) -> int:
    chosen = [g for g in GAMES if not argv or g.name in argv]
    for g in chosen:
        print(f"{write(g).name}: {len(json.loads(path_of(g.name).read_text())['steps'])} orders")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
