"""The North-Africa campaign (1941-43, clause ids CA-*): a game system of this package's engine, its first part.

Its nine scenarios and the campaign game draw their counters from one order of battle (``forces/``,
:mod:`.forces`) and their dates from a turn track of half-months (``tracks/``, :mod:`.track`); a
scenario (``scenarios/``) names them with ``units_from`` and says where each unit stands or when it
enters, the fortifications, the anti-tank guns and the victory condition (:mod:`.scenario`).

The rules are functions of a position (:mod:`.position`): zones of control (:mod:`.zoc`), operational movement
(:mod:`.movement`), stacking (:mod:`.stacking`) and supply (:mod:`.supply`).  A running game drives them through the
sequence of play (:mod:`.sequence`, CA-Q.1-2, opened by the scenario's set-up, :mod:`.setup`) on the game's own state
(:mod:`.state`, made into a position by :mod:`.live`): movement and attack allocation (:mod:`.moves`), recovery and
the Newly Disrupted markers (:mod:`.recovery`), the supply determination (:mod:`.supply_phase`) and victory
(:mod:`.victory`).  Combat is the second part (:mod:`.combat` is where it plugs in), so the system is registered
``playable = False`` with a ``preview``: the faces (the browser, ``tobruk play``) offer its scenarios as a preview
that says combat is not played, made by :meth:`NorthAfricaCampaign.for_preview` (no attack may be allocated, so no
game stops at an attack it cannot resolve), and the checks every played system passes (fuzzing, arenas, benchmarks)
leave it out.  ``tobruk show`` reads and shows its scenarios through the system's scenario extension for
``units_from`` (:mod:`.show`).  Its tests make games with the system given directly
(``Game(scenario, system=NorthAfricaCampaign())``, attacks allocated).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from tobruk.engine.flow import Step
from tobruk.engine.sides import Side
from tobruk.engine.system import Overlay, Rendering, System, register
from tobruk.loading.scenario import ScenarioExtension
from tobruk.systems.campaign import faces, hidden, live, sea, show, start_of_turn
from tobruk.systems.campaign import sequence as sq
from tobruk.systems.campaign.actions import VOCABULARY
from tobruk.systems.campaign.forces import load_forces
from tobruk.systems.campaign.scenario import read_campaign
from tobruk.systems.campaign.state import CampaignCounter, CampaignVars, campaign_vars, counter
from tobruk.systems.campaign.steps import turn_title
from tobruk.systems.campaign.terrain import TERRAIN_KINDS

if TYPE_CHECKING:
    from tobruk.engine.game import Game

SYSTEM = "north-africa-campaign"  # the system its scenario files name


@register
class NorthAfricaCampaign(System):
    name = SYSTEM
    title = "The North-Africa campaign"
    prefix = "CA"
    playable = False
    preview = (
        "A preview: movement, supply, strategic moves, reinforcements and forts are played; "
        "combat (CA-G, CA-T) is not yet, so no attack may be allocated."
    )
    vocabulary = VOCABULARY
    game_over_clause = "CA-Q.2"  # the game ends after its last game-turn (the scenario's end on the track)
    unit_view = CampaignCounter
    terrain_kinds = TERRAIN_KINDS  # the depression, sand sea and salt marsh impassable (terrain.py)
    scenario_extension: ClassVar[ScenarioExtension] = ScenarioExtension(
        field="units_from", system=SYSTEM, read=read_campaign, summary=show.summary, data=show.data, counters=show.counters
    )

    def __init__(self, *, attacks: bool = True) -> None:
        # False in the faces' preview: an attack allocated could not be resolved (combat is the rules' second part)
        self.attacks = attacks

    @classmethod
    def for_preview(cls) -> NorthAfricaCampaign:
        """The campaign the faces play until combat is written: every rule of its first part, no attack allocated
        (an allocated attack would stop the game at its resolution, :mod:`.combat`)."""
        return cls(attacks=False)

    def new_vars(self, game: Game) -> CampaignVars:
        return CampaignVars()

    def sequence(self, game: Game) -> Sequence[Step]:
        return sq.steps_of(game, live.setup_of(game).first)

    def setup(self, game: Game) -> None:
        """The scenario's start: combined panzer divisions carry their regiment (their parts off the map while
        combined, CA-U.1), units listed disrupted are, units arriving later are off the map, the fixed
        fortifications stand (CA-F.1)."""
        setup = live.setup_of(game)
        v = campaign_vars(game)
        for base, form in setup.forms.items():
            if form == "XX+":
                parts = load_forces(setup.forces).divisions[base].parts
                v.combined = v.combined | {base: parts}
                for p in parts:
                    counter(game, p).hex = None
        for uid in game.scenario.reinforcements:
            counter(game, uid).hex = None
        for uid in setup.disrupted:
            if uid in game.defs:
                counter(game, uid).disrupted = True
        v.forts = {h.label: f.side.value for f in setup.fortifications for h in f.hexes}
        hidden.conceal_garrison(game)
        start_of_turn.start(game)
        sea.start(game)  # who controls the ports and Tobruk (CA-S.3)
        game.log(f"{game.scenario.title}: {turn_title(game)}, the {setup.first.display} player-turn first.")

    def view(self, game: Game, side: Side) -> dict[str, Any]:
        return faces.view(game, side)

    def overlays(self, game: Game, side: Side) -> list[Overlay]:
        return faces.overlays(game, side)

    seen_key = staticmethod(hidden.seen_key)
    seen_units = staticmethod(hidden.seen_units)

    def rendering(self) -> Rendering:
        return Rendering(status_names={"disrupted": "disrupted", "newly_disrupted": "Newly Disrupted", "out_of_supply": "out of supply"})

    def end_game(self, game: Game) -> None:
        found = campaign_vars(game).victory
        game.log(f"End of the game: the victory condition is {found.get('condition', 'not judged')}.", kind="event")
