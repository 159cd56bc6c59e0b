"""Village and town control in The Gazala Gallop (GG-XVI): who holds each one, and when it changes hands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tobruk.engine.sides import Side
from tobruk.hexes import Hex
from tobruk.maps import Terrain

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def villages(game: Game) -> dict[Hex, Side]:
    data = game.vars.villages
    return {Hex.parse(h): Side(s) for h, s in data.items()}


def set_initial_control(game: Game) -> None:
    """At the start each village or town belongs to the side on whose side of the Gazala Line it lies."""
    m = game.scenario.map
    west = game.scenario.zone("axis-free-setup") if "axis-free-setup" in game.scenario.zones else frozenset()
    game.vars.villages = {
        h.label: (Side.AXIS if h in west else Side.ALLIED).value for h in m.hexes if m.terrain[h] in (Terrain.VILLAGE, Terrain.TOWN)
    }


def pass_through(game: Game, side: Side, path: Iterable[Hex]) -> None:
    """A combat unit in or through a village takes control of it (GG-XVI)."""
    for h in path:
        control = game.vars.villages
        if h.label in control and control[h.label] != side.value:
            game.vars.villages = control | {h.label: side.value}
            game.log(f"{side.display} takes control of {', '.join(p.name for p in game.scenario.map.places_in(h)) or h}.", kind="event")
