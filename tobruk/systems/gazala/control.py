"""Village and town control in The Gazala Gallop (GG-XVI): who holds each one at the start; the family's rule for
when one changes hands is the mechanics' (:func:`~tobruk.mechanics.control.pass_through`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.board.maps import Terrain
from tobruk.engine.sides import Side
from tobruk.mechanics.control import controllers, pass_through
from tobruk.systems.gazala.state import gazala_vars

__all__ = ["pass_through", "set_initial_control", "villages"]

if TYPE_CHECKING:
    from tobruk.engine.game import Game


villages = controllers  # each village or town with the side holding it


def set_initial_control(game: Game) -> None:
    """At the start each village or town belongs to the side on whose side of the Gazala Line it lies."""
    m = game.scenario.map
    west = game.scenario.zone("axis-free-setup") if "axis-free-setup" in game.scenario.zones else frozenset()
    gazala_vars(game).villages = {
        h.label: (Side.AXIS if h in west else Side.ALLIED).value for h in m.hexes if m.terrain[h] in (Terrain.VILLAGE, Terrain.TOWN)
    }
