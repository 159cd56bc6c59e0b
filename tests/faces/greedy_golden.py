"""Golden games of the greedy player: whole seeded games between computer players, recorded as records.

The greedy player's choices moved from the player (which named the family's actions) to the systems' advisors
(``System.advisor``); these records were made before that move, so the same seeds must still give the same records,
order for order and state hash for state hash.  Each game is a whole record (:func:`tobruk.record.record_of`): every
order in notation with the state hash after it, and every die.

Regenerate a file only when the greedy player's play is changed on purpose, and say why in the commit:

    python -m tests.faces.greedy_golden                      # rewrite every file
    python -m tests.faces.greedy_golden fa-greedy-greedy-2   # rewrite one
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.players.base import make_player, play_game
from tobruk.record import record_of

FOLDER = Path(__file__).resolve().parent / "greedy_golden"


@dataclass(frozen=True)
class GreedyGame:
    name: str
    scenario: str
    seed: int
    options: tuple[str, ...]
    axis: str
    allied: str


# greedy against greedy in both systems and both Gazala set-ups, and greedy against random, whose positions ask the
# greedy side the rarer questions (retreats as the loser, No Retreat!, eliminations over the stacking limit)
GAMES = (
    GreedyGame("gg-greedy-greedy-1", "gazala-gallop", 1, (), "greedy", "greedy"),
    GreedyGame("gg-greedy-greedy-2", "gazala-gallop", 2, (), "greedy", "greedy"),
    GreedyGame("gg-greedy-greedy-4-nh", "gazala-gallop", 4, ("nonhistorical",), "greedy", "greedy"),
    GreedyGame("gg-greedy-random-6", "gazala-gallop", 6, (), "greedy", "random"),
    GreedyGame("gg-random-greedy-8-nh", "gazala-gallop", 8, ("nonhistorical",), "random", "greedy"),
    GreedyGame("fa-greedy-greedy-1", "first-alamein", 1, (), "greedy", "greedy"),
    GreedyGame("fa-greedy-greedy-2", "first-alamein", 2, (), "greedy", "greedy"),
    GreedyGame("fa-random-greedy-3", "first-alamein", 3, (), "random", "greedy"),
    GreedyGame("fa-greedy-random-4", "first-alamein", 4, (), "greedy", "random"),
)


def play(g: GreedyGame) -> dict[str, Any]:
    """Play the game with its players (seeded as ``tobruk play`` seeds them) and give its whole record as data."""
    game = Game(load_scenario(g.scenario), seed=g.seed, options=g.options)
    players = {Side.AXIS: make_player(g.axis, g.seed * 2 + 1), Side.ALLIED: make_player(g.allied, g.seed * 2 + 2)}
    play_game(game, players)
    assert game.is_over
    return record_of(game, {"axis": g.axis, "allied": g.allied}).to_data()


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.json"


def main(argv: list[str]) -> int:
    for g in GAMES:
        if argv and g.name not in argv:
            continue
        data = play(g)
        path_of(g.name).write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
        print(f"{g.name}: {len(data['orders'])} orders")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
