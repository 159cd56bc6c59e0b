"""What a running campaign game remembers: each counter's statuses, and the variables beyond the counters.

The counters' live state is the engine's unit arrays.  :class:`CampaignCounter` names the statuses the campaign's
rules read and write, which the engine allocates as bits (so views, saves, hashes and undo carry them):

* ``disrupted`` (CA-G.15) and ``newly_disrupted``, the Newly Disrupted marker of CA-Q.3 (a marker on a counter, not
  a counter of its own: it never stands without the disruption beneath it);
* ``moved`` and ``attacking``: the unit has moved, or has been allocated to an attack, in its side's player-turn.
  Operational movement is for "as yet unused" units (CA-Q.1-2 step 3) and the breakthrough for units "which have
  not yet moved or attacked" (step 6), so both are what those steps read;
* ``targeted``: an attack is allocated against the unit.  The recovery steps pass over units "being attacked"
  (CA-G.17, CA-Q.1-2 step 4) and a lone armour unit loses its ZOC (CA-Z.1);
* ``out_of_supply``: the last supply determination found it so (CA-P.3), for people; the rules trace supply
  afresh whenever they ask (docs/rulings.md).

:class:`CampaignVars` holds the rest: the attacks allocated (target hex -> attackers, CA-M.3 and CA-G.17 read it),
the MF each unit spent in the current movement step (CA-M.3: a unit that took the bonus may not attack), the
panzer divisions combined with their regiment (CA-U.1), what waits off the map and the entries of the player-turn
(CA-R, :mod:`.start_of_turn`), who controls the ports and the units moved by sea or evacuated (CA-S.3-4,
:mod:`.sea`, :mod:`.bugout`), and what the victory determinations found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from tobruk.engine.state import ENGINE_STATUSES, Status, UnitView
from tobruk.engine.vars import Vars
from tobruk.mechanics.counters import FamilyUnitDef

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class CampaignCounter(UnitView):
    """A campaign counter's statuses (see the module docstring)."""

    statuses = (*ENGINE_STATUSES, "disrupted", "newly_disrupted", "moved", "attacking", "targeted", "out_of_supply")
    disrupted = Status()
    newly_disrupted = Status()
    moved = Status()
    attacking = Status()
    targeted = Status()
    out_of_supply = Status()


@dataclass
class CampaignVars(Vars):
    # the attacks allocated in the current step: target hex label -> the attacking units' ids (CA-Q.1-2 steps 2-3, 6)
    allocations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the MF (in sixtieths) each unit spent moving in the current movement step (CA-M.3)
    spent: dict[str, int] = field(default_factory=dict)
    # the units that may take part in the breakthrough, noted as its step begins (CA-M.5, CA-Q.1-2 step 6)
    eligible: tuple[str, ...] = ()
    # panzer divisions standing as one XX+ counter with their regiment (CA-U.1): base id -> the parts it carries
    combined: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the fort and box markers on the map: hex label -> the owner's side value (CA-F.1)
    forts: dict[str, str] = field(default_factory=dict)
    # the face-down counters' anonymous ids, which the Axis sees (CA-F.4, hidden.py)
    anon: dict[str, str] = field(default_factory=dict)
    # the counters not yet in play, each with the turn from which it may enter ("": from the start; CA-R.1)
    waiting: dict[str, str] = field(default_factory=dict)
    # the sides (values) that have brought in their one reinforcement or replacement this player-turn (CA-R.4)
    entered: tuple[str, ...] = ()
    # the sides (values) that have built their fort or box this game-turn (CA-F.1)
    built: tuple[str, ...] = ()
    # the sides (values) whose latest player-turn resolved an attack: no fort/box is built after combat (CA-F.1)
    fought: tuple[str, ...] = ()
    # the units set up in the current set-up step, each once (CA-SC.1-9, setup.py)
    placed: tuple[str, ...] = ()
    # the scenario's fortifications set up in the current set-up step, by their index in the scenario's list
    set_up_forts: tuple[int, ...] = ()
    # the units moved by rail in the current rail movement step (CA-S.2)
    railed: tuple[str, ...] = ()
    # the Allied Alamein Force Level is in force: an Axis unit has been within 5 hexes of El Alamein (CA-R.3, CA-R.5)
    alamein: bool = False
    # the Allied units that entered in the game: id -> (the turn they entered, the tank type chosen or ""; CA-R.4)
    equipped: dict[str, tuple[str, str]] = field(default_factory=dict)
    # who controls each port and Tobruk: hex label -> the side value of the last side to have had a unit there (CA-S.3, sea.py)
    ports: dict[str, str] = field(default_factory=dict)
    # the sides (values) that have moved their one unit by sea this player-turn (CA-S.3)
    sailed: tuple[str, ...] = ()
    # the units that left the map through their side's edge hex by bugout, out of play (CA-S.4, CA-SC.3)
    evacuated: tuple[str, ...] = ()
    # victory zones a side has taken (a unit of it stood there at a victory determination): side -> zone names
    taken: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the last victory determination's finding, for people: side -> "won" / "not yet" / why it cannot be told
    victory: dict[str, str] = field(default_factory=dict, metadata={"key": False})


campaign_vars = cast("Callable[[Game], CampaignVars]", attrgetter("state.vars"))  # the game's variables, typed
counter = cast("Callable[[Game, str], CampaignCounter]", lambda game, uid: game.unit(uid))
counter_defs = cast("Callable[[Game], Mapping[str, FamilyUnitDef]]", attrgetter("defs"))
