"""The reinforcements a side could move in its next movement, from the scenario's turn track: what the family's
systems answer to :meth:`~tobruk.engine.system.System.arrivals` (the enemy's warnings of them).

Each system says in which of the side's steps its reinforcements enter (in the movement phase itself, or a step of
their own before it) and which entry hexes its rules open; the rest is the same for all: the units the track brings
in by the turn of the side's next such step (this game-turn's while it is still to come, else the next one's, none
after the last turn), overdue ones still off the map included, air units left out (they fly, they do not move), each
with the hexes of its entry zone no enemy unit stands in now.  The schedule and whether a counter has entered are
public; the answer is asked of the position as the enemy knows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tobruk.engine.system import Arrival
from tobruk.mechanics.counters import family_defs

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side

Opens = Callable[[str, "Hex"], bool]  # whether a reinforcement may enter in a hex free of enemy units (a stacking limit)


def entry_turn(game: Game, entry_step: str) -> int:
    """The game-turn of the next step ``entry_step``: this one while the game has not passed it, else the next."""
    keys = [s.key for s in game.steps]
    return game.turn if entry_step in keys and game.state.step <= keys.index(entry_step) else game.turn + 1


def scheduled_arrivals(game: Game, side: Side, entry_step: str, opens: Opens | None = None) -> list[Arrival]:
    """``side``'s reinforcements that could enter in its next step ``entry_step`` and move in the movement that
    follows, in order of battle, each with that step's turn and its open entry hexes (``opens`` narrowing them)."""
    turn = entry_turn(game, entry_step)
    if turn > game.scenario.turns:
        return []
    defs, enemy = family_defs(game), game.occupants(side.enemy)
    out = []
    for uid, r in sorted(game.scenario.reinforcements.items()):
        d, u = defs[uid], game.unit(uid)
        if d.side is not side or d.is_air or r.turn > turn or u.hex is not None or u.eliminated:
            continue
        entries = frozenset(h for h in game.scenario.zone(r.zone) if h not in enemy and (opens is None or opens(uid, h)))
        if entries:
            out.append(Arrival(uid, turn, entries))
    return out
