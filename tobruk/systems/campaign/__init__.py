"""The North-Africa campaign (1941-43, clause ids CA-*): a game system of this package's engine, data only so far.

Its nine scenarios and the campaign game draw their counters from one order of battle (``forces/``,
:mod:`.forces`) and their dates from a turn track of half-months (``tracks/``, :mod:`.track`); a
scenario (``scenarios/``) names them with ``units_from`` and says where each unit stands or when it
enters, the fortifications, the anti-tank guns and the victory condition (:mod:`.scenario`).

The rules are not implemented yet, so the package registers no :class:`tobruk.engine.system.System`:
``tobruk play`` refuses its scenarios in one line and the browser does not offer them.  What it registers
is the scenario loader's extension for ``units_from`` (read, and shown by ``tobruk show``: :mod:`.show`).
"""

from __future__ import annotations

from tobruk.loading.scenario import ScenarioExtension, register_extension
from tobruk.systems.campaign import show
from tobruk.systems.campaign.scenario import read_campaign

SYSTEM = "north-africa-campaign"  # the system its scenario files name

register_extension(
    ScenarioExtension(field="units_from", system=SYSTEM, read=read_campaign, summary=show.summary, data=show.data, counters=show.counters)
)
