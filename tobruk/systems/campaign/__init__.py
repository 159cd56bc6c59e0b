"""The North-Africa campaign (1941-43, clause ids CA-*): a game system of this package's engine, data only so far.

Its nine scenarios and the campaign game draw their counters from one order of battle (``forces/``,
:mod:`.forces`) and their dates from a turn track of half-months (``tracks/``, :mod:`.track`); a
scenario (``scenarios/``) names them with ``units_from`` and says where each unit stands or when it
enters, the fortifications, the anti-tank guns and the victory condition (:mod:`.scenario`).

The first rules are written as functions of a position (:mod:`.position`): zones of control (:mod:`.zoc`),
operational movement (:mod:`.movement`) and stacking (:mod:`.stacking`).  The sequence of play and combat are not,
so the package registers its system as data only (``playable = False``): a game of one of its scenarios is refused
in one line (``RulesNotPlayed``), the browser does not offer them, and ``tobruk show`` reads and shows them through
the system's scenario extension for ``units_from`` (:mod:`.show`).
"""

from __future__ import annotations

from typing import ClassVar

from tobruk.engine.system import System, register
from tobruk.loading.scenario import ScenarioExtension
from tobruk.systems.campaign import show
from tobruk.systems.campaign.scenario import read_campaign
from tobruk.systems.campaign.terrain import TERRAIN_KINDS

SYSTEM = "north-africa-campaign"  # the system its scenario files name


@register
class NorthAfricaCampaign(System):
    name = SYSTEM
    title = "The North-Africa campaign"
    prefix = "CA"
    playable = False
    terrain_kinds = TERRAIN_KINDS  # the depression, sand sea and salt marsh impassable (terrain.py)
    scenario_extension: ClassVar[ScenarioExtension] = ScenarioExtension(
        field="units_from", system=SYSTEM, read=read_campaign, summary=show.summary, data=show.data, counters=show.counters
    )
