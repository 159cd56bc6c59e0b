"""What Operation Compass remembers beyond the units' own states: its variables, field by field (each immutable:
a rule assigns a changed copy, see :class:`~tobruk.engine.vars.Vars`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from tobruk.engine.vars import Vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass
class CompassVars(Vars):
    allied_eliminated: int = 0  # Allied units eliminated so far (OC-RET.1's DRM)
    naval_used: int = 0  # assaults the Inshore Squadron supported this turn (ruling R-OC-NAVAL)
    held: dict[str, str] = field(default_factory=dict)  # place hex -> the side that last held it (victory)
    to_check: tuple[str, ...] = ()  # Italian units still to check in this turn's Retreat Phase (OC-RET.1)
    # the Allied supply determination, as drawn on the map: unit -> (supplied, the line's hexes); read by no rule
    supply: dict[str, tuple[bool, tuple[str, ...]]] = field(default_factory=dict, metadata={"key": False})
    result: dict[str, Any] | None = field(default=None, metadata={"key": False})  # the score once the game is over


compass_vars = cast("Callable[[Game], CompassVars]", attrgetter("state.vars"))  # the game's variables, typed (one getter, no cost)
