"""Retreat routes in 1st Alamein: The Gazala Gallop's GG-XIV.D.2, which the charts leave as it is.

The requirements (a-e) and preferences (f, then g) are the family's (:mod:`tobruk.mechanics.retreat`); what
is 1st Alamein's own is the ground: the barriers hexsides of the charts' terrain table, the side's boxes and
the enemy's ZOC as this system works them out, and its supply trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache
from tobruk.mechanics.counters import family_defs
from tobruk.mechanics.retreat import Path, RetreatGround
from tobruk.mechanics.retreat import retreat_paths as paths_of_retreat
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import chart

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def retreat_paths(game: Game, uid: str, length: int, from_hexes: Sequence[Hex]) -> list[Path]:
    """The legal routes of exactly ``length`` hexes for a unit, the preferences applied (its hex first); kept per
    board (the battle asks whether a unit can retreat, lists its routes and checks the one played, each after its
    frame has changed)."""
    from tobruk.systems.first_alamein import supply  # (supply reads the position module too)

    side = family_defs(game)[uid].side

    def work() -> tuple[Path, ...]:
        ground = RetreatGround(
            enemy_zoc=pos.enemy_zoc(game, side),
            friendly_boxes=pos.boxes(game, side),
            barriers=frozenset(chart(game).barriers),
            supplied=lambda: supply.trace(game, side),
        )
        return tuple(paths_of_retreat(game, uid, length, from_hexes, ground))

    return list(_RETREAT_PATHS.get(game, (uid, length, tuple(from_hexes)), work))


_RETREAT_PATHS: Cache[tuple[Path, ...]] = Cache("first-alamein.retreat-paths", BOARD)
