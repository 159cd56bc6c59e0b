"""What the campaign shows a side besides its counters: the fortifications standing, the enemy zones that stop its
units, the working railway, as the layers a face draws over the map (:meth:`System.overlays`), and the forts in the
side's view.

Everything here is public or worked out from what the side may know: forts and boxes stand on the map for both sides
to see (CA-F.1), the railway and its railhead are the turn track's, and the zones come from the position in which a
face-down counter exerts a division's zone whichever it is (:mod:`.hidden`, CA-F.4), so the Axis is drawn the same
zones whichever counter in Tobruk is the dummy (tests/systems/campaign/test_fog.py holds it to that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tobruk.engine.sides import Side
from tobruk.engine.system import Overlay
from tobruk.systems.campaign import live, rail
from tobruk.systems.campaign.state import campaign_vars
from tobruk.systems.campaign.zoc import enemy_zoc

if TYPE_CHECKING:
    from tobruk.engine.game import Game

FORT_WORDS = {Side.AXIS: "Axis forts", Side.ALLIED: "Allied boxes"}  # what each side's fortifications are called (CA-F.1)
FORT_COLOUR = {Side.AXIS: "#333", Side.ALLIED: "#8b1a1a"}  # as the map draws the scenario's own forts and boxes
ZOC_COLOUR = "#c00000"
RAIL_COLOUR = "#5a3d1e"


def forts(game: Game) -> dict[str, str]:
    """The fortifications standing, by hex label: the side holding each."""
    return dict(sorted(campaign_vars(game).forts.items()))


def view(game: Game, side: Side) -> dict[str, Any]:
    """The campaign's part of a side's view: the forts and boxes standing (public)."""
    return {"forts": forts(game)}


def overlays(game: Game, side: Side) -> list[Overlay]:
    """The forts and boxes of each side (drawn from the start: a fort built must be seen), the enemy zones that stop
    the side's units (CA-Z.1, CA-F.3), and for the Allies the railway of the turn up to its railhead (CA-S.2)."""
    standing = forts(game)
    out = [
        Overlay(
            f"forts-{owner.value}",
            FORT_WORDS[owner],
            "hexes",
            hexes=tuple(h for h, s in standing.items() if s == owner.value),
            colour=FORT_COLOUR[owner],
            shown=True,
        )
        for owner in (Side.AXIS, Side.ALLIED)
    ]
    position = live.position(game)
    labels = game.scenario.map.hexes
    zones = enemy_zoc(position, side)
    out.append(
        Overlay(
            "enemy-zoc",
            "enemy zones that stop your units",
            "hexes",
            hexes=tuple(sorted(labels[i].label for i in zones.sources)),
            colour=ZOC_COLOUR,
        )
    )
    if side is Side.ALLIED:
        line = rail.line(game)
        if line:
            out.append(
                Overlay(
                    "railway", "the railway to the railhead", "lines", lines=(tuple(labels[i].label for i in line),), colour=RAIL_COLOUR
                )
            )
    return out
