"""What The Gazala Gallop remembers beyond the units' own states: its variables, field by field.

Every value is immutable (see :class:`~tobruk.engine.vars.Vars`: dicts are kept as frozen dicts): a rule changes a
variable by assigning a changed copy, so a copy for undo or search is never touched by later play.
Hexes are kept as labels and sides as their values where the rules only compare them (they go into
saves and hashes as they are).
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


@dataclass(frozen=True, slots=True)
class Unseen:
    """How a counter looked to the enemy when a phase he may not follow began (set-up, siege)."""

    hex: str | None
    hidden: bool
    eliminated: bool
    anon: str | None


@dataclass(frozen=True, slots=True)
class Interdiction:
    """An air unit over a hex after its ground attack, interdicting enemy movement (GG-X.B.1)."""

    air: str
    hex: str
    side: str


@dataclass
class GazalaVars(BattleVars, PhaseVars, ControlVars, SupplyMarkers, Vars):
    weather: str = "clear"  # GG-VIII: clear, sandstorm or rainstorm this game-turn
    nonhistorical: bool = False  # GG-V.B: the nonhistorical set-up was chosen
    placed: tuple[str, ...] = ()  # units set up (or redeployed in a siege) this phase
    # face-down counters (GG-V.B, XIV.B.6)
    anon: dict[str, str] = field(default_factory=dict)  # counter -> the anonymous id the enemy sees
    anon_batch: int = 0
    unseen: dict[str, Unseen] = field(default_factory=dict)
    siege_lost: bool = False  # an Axis unit has been inside the Tobruk perimeter
    # activation and movement (GG-V.A, XIII)
    activations: dict[str, int] = field(default_factory=dict)  # turn -> activations used
    allied_losses: dict[str, int] = field(default_factory=dict)  # turn -> Allied units lost in the Axis player-turn
    gallop_called: bool = False
    gallop: tuple[str, ...] = ()  # units still galloping east
    boxes_held: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> boxes held at its player-turn's start
    boxes_eliminated: tuple[str, ...] = ()
    # combat (GG-XIV): the declared attacks, the units attacked, the GG-IX.B retreats (BattleVars)
    # supply (GG-XV): each side's last determination is SupplyMarkers' (shown on the map, never read back by a rule)
    supply_help: dict[str, dict[str, str]] = field(default_factory=dict)  # side -> unit -> what supplies it
    supply_die: dict[str, int] = field(default_factory=dict)  # side -> the sandstorm die for its line
    convoys_used: dict[str, int] = field(default_factory=dict)
    convoy_tried: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # air (GG-X)
    air: dict[str, tuple[int, int]] = field(default_factory=dict)  # air unit -> (turn last flown, out until turn)
    air_ok: dict[str, bool] = field(default_factory=dict)  # side -> airfields usable in the rain
    interdiction: Interdiction | None = None
    result: dict[str, Any] | None = field(default=None, metadata={"key": False})  # the score once the game is over


gazala_vars = cast("Callable[[Game], GazalaVars]", attrgetter("state.vars"))  # the game's variables, typed (one getter, no cost)
