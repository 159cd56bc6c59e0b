"""What 1st Alamein remembers beyond the units' own states: its variables, field by field.

Every value is immutable (see :class:`~tobruk.engine.vars.Vars`: dicts are kept as frozen dicts); a rule
changes a variable by assigning a changed copy.  Hexes are kept as labels and sides as their values.  The
units' own bits say the rest: *disrupted* is Spent (FA-CRT.2), *moved* and *attacked* FA-SEQ.1,
*out_of_supply* the marker of the last supply determination.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from tobruk.engine.vars import Vars
from tobruk.mechanics.battle import BattleVars
from tobruk.mechanics.control import ControlVars
from tobruk.mechanics.phases import PhaseVars
from tobruk.mechanics.supply import SupplyMarkers

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass
class FirstAlameinVars(BattleVars, PhaseVars, ControlVars, SupplyMarkers, Vars):
    placed: tuple[str, ...] = ()  # units set up this phase (CA-SC.7: the Allied set-up)
    # boxes (FA-TER.2-3, with GG-XI.A.3 and A.5)
    boxes_held: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> boxes held at its player-turn's start
    boxes_eliminated: tuple[str, ...] = ()
    # combat (FA-CRT, GG-XIV): the declared attacks, the units attacked, the GG-IX.B retreats (BattleVars)
    # air (FA-AIR, GG-X): air unit -> (the game-turn it last flew, the last game-turn it is knocked out)
    air: dict[str, tuple[int, int]] = field(default_factory=dict)
    # supply: each side's last determination (SupplyMarkers: shown on the map; the rules read the units' bits)
    # villages: who controls each (ControlVars, GG-XVI)
    # victory: what the Axis held at each Axis victory determination (for people), and the final result
    holding: dict[str, tuple[str, ...]] = field(default_factory=dict, metadata={"key": False})
    result: dict[str, Any] | None = field(default=None, metadata={"key": False})


alamein_vars = cast("Callable[[Game], FirstAlameinVars]", attrgetter("state.vars"))  # the game's variables, typed (one getter, no cost)
