"""The Gazala Gallop's vocabulary (the family's actions and its own) on the campaign map: over half a million action
ids, with tables that grow with the units and hexes only.  (That every system's space is laid out so, on the largest
packaged map, is the engine's part: tests/engine/test_action_space.py.)"""

from __future__ import annotations

import itertools

from tests.engine.test_action_space import expected_size
from tobruk.engine.actions import ActionSpace
from tobruk.engine.system import system_for
from tobruk.loading.scenario import load_scenario


def test_the_family_actions_on_the_campaign_map_number_over_half_a_million_with_tables_per_unit_and_hex() -> None:
    campaign = load_scenario("na-campaign")
    vocabulary = system_for("gazala-gallop").vocabulary
    units, hexes = [u.id for u in campaign.units], campaign.map.hexes
    space = ActionSpace(vocabulary, units, hexes)
    shapes = [t for t in vocabulary.types if not t.composite]
    assert space.size == sum(expected_size(t, len(units), len(hexes)) for t in shapes)
    assert space.size > 500_000 and len(hexes) == 3260
    tables = len(space.units) + len(space.hexes) + len(space.offsets) + len(space.sizes)
    assert tables == len(units) + len(hexes) + 2 * len(shapes)  # nothing per id
    # the ids of each shape run from its offset, one after another, with no gap or overlap up to the last id
    ends = sorted((space.offsets[t], space.offsets[t] + expected_size(t, len(units), len(hexes))) for t in shapes)
    assert ends[0][0] == 0 and ends[-1][1] == space.size and all(a[1] == b[0] for a, b in itertools.pairwise(ends))
