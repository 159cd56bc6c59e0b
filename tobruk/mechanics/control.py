"""Control of places (villages, towns): each belongs to the side that held it at the start, or to the last side
to have had a combat unit in it or through it.

The controllers live in the system's variables (a :class:`ControlVars` part, hex label -> side value); the
system decides who holds what at the start and calls :func:`pass_through` when units move or retreat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass
class ControlVars:
    """The part of a system's variables that control uses (a system's Vars inherits it)."""

    villages: dict[str, str] = field(default_factory=dict)  # hex label -> the side controlling it


control_vars = cast("Callable[[Game], ControlVars]", attrgetter("state.vars"))  # a game's variables, typed


def set_control(game: Game, holders: Mapping[Hex, Side]) -> None:
    """Who controls each place at the start."""
    control_vars(game).villages = {h.label: s.value for h, s in sorted(holders.items())}


def controllers(game: Game) -> dict[Hex, Side]:
    data: dict[str, str] = control_vars(game).villages
    return {Hex.parse(h): Side(s) for h, s in data.items()}


def pass_through(game: Game, side: Side, path: Iterable[Hex]) -> None:
    """A combat unit of ``side`` in or through these hexes takes control of the places among them."""
    control: dict[str, str] = control_vars(game).villages
    for h in path:
        label = h.label
        if label in control and control[label] != side.value:
            control_vars(game).villages = control = {**control, label: side.value}
            names = ", ".join(p.name for p in game.scenario.map.places_in(h)) or str(h)
            game.log(f"{side.display} takes control of {names}.", kind="event")
