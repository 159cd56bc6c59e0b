"""The action-id space scales to the largest packaged map, for every system's vocabulary: one space per scenario,
tables that grow with the units and hexes (never with the ids), a listing of ids with no mask, and a mask only when
asked for."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from tests.engine.cases import CASES, IDS, Case
from tests.toy_system import toy_scenario
from tobruk.engine.actions import HEX, INT, UNIT, Action, ActionSpace, Dim, Vocabulary
from tobruk.engine.game import Game
from tobruk.engine.system import system_for, system_names
from tobruk.loading.scenario import Scenario, load_scenario, scenario_names

SYSTEMS = system_names()  # every playable system, its vocabulary taken from the registry


def expected_size(kind: type[Action], units: int, hexes: int) -> int:
    """How many ids a shape takes, from its coordinates as the engine defines them (a unit, a hex, a flag, a range)."""
    n = 1
    for d in kind.shape:
        n *= {"unit": units, "hex": hexes, "flag": 2}.get(d.kind, d.hi - d.lo + 1)
    return n


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_game_of_a_scenario_and_every_copy_share_one_space(case: Case) -> None:
    scenario = case.fresh()
    first, second = Game(scenario, seed=1, options=case.options), Game(scenario, seed=2, options=case.options)
    assert first.action_space is second.action_space is first.copy().action_space
    assert Game(case.fresh(), seed=1, options=case.options).action_space is not first.action_space  # another scenario, its own space


@functools.cache
def largest() -> Scenario:
    """The packaged scenario with the most hexes (a map of thousands)."""
    return max((load_scenario(name) for name in scenario_names()), key=lambda s: (len(s.map.hexes), len(s.units)))


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_systems_actions_on_the_largest_map_take_tables_per_unit_and_hex_and_ids_without_gaps(system: str) -> None:
    scenario = largest()
    vocabulary = system_for(system).vocabulary
    units, hexes = [u.id for u in scenario.units], scenario.map.hexes
    space = ActionSpace(vocabulary, units, hexes)
    shapes = [t for t in vocabulary.types if not t.composite]
    assert space.size == sum(expected_size(t, len(units), len(hexes)) for t in shapes)
    assert len(hexes) > 1000  # a map of thousands of hexes
    tables = len(space.units) + len(space.hexes) + len(space.offsets) + len(space.sizes)
    assert tables == len(units) + len(hexes) + 2 * len(shapes)  # nothing per id
    # the ids of each shape run from its offset, one after another, with no gap or overlap up to the last id
    ends = sorted((space.offsets[t], space.offsets[t] + expected_size(t, len(units), len(hexes))) for t in shapes)
    assert ends[0][0] == 0 and ends[-1][1] == space.size and all(a[1] == b[0] for a, b in itertools.pairwise(ends))


@pytest.mark.parametrize("system", SYSTEMS)
def test_ids_on_the_largest_map_are_distinct_and_name_their_type(system: str) -> None:
    scenario = largest()
    vocabulary = system_for(system).vocabulary
    units, hexes = [u.id for u in scenario.units], scenario.map.hexes
    space = ActionSpace(vocabulary, units, hexes)
    rng = random.Random(7)

    def pick(d: Dim) -> object:
        if d.kind == "unit":
            return rng.choice(units)
        if d.kind == "hex":
            return rng.choice(hexes)
        return rng.random() < 0.5 if d.kind == "flag" else rng.randint(d.lo, d.hi)

    seen: dict[int, tuple[type[Action], tuple[object, ...]]] = {}
    for kind in (t for t in vocabulary.types if not t.composite):
        for _ in range(200):
            key = tuple(pick(d) for d in kind.shape)
            i = space.id_of_key(kind, key)
            assert 0 <= i < space.size and space.kind_of(i) is kind
            assert seen.setdefault(i, (kind, key)) == (kind, key)  # one id, one action shape
    with pytest.raises(ValueError):
        space.kind_of(space.size)


@pytest.mark.parametrize("shape", [(UNIT, HEX), (HEX,), (UNIT,), (Dim("int", 2, 5),)])
def test_a_shape_takes_the_product_of_its_coordinates(shape: tuple[Dim, ...]) -> None:
    class Probe(Action):
        verb = "probe"

    Probe.shape = shape
    space = ActionSpace(Vocabulary((Probe,)), ["a", "b", "c"], [*toy_scenario().map.hexes])
    assert space.size == expected_size(Probe, 3, len(toy_scenario().map.hexes))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_listing_is_ids_and_a_mask_is_made_only_when_asked_for(case: Case) -> None:
    game = case.game(3)
    ids = game.legal_id_list()
    assert ids == sorted(set(ids)) and all(0 <= i < game.action_space.size for i in ids)
    mask = game.legal_mask()
    assert len(mask) == game.action_space.size and [i for i, b in enumerate(mask) if b] == ids


def test_ids_of_numbered_shapes_cover_their_range_and_refuse_beyond_it() -> None:
    class Dice(Action):
        verb = "dice"
        shape = (INT(1, 6), INT(1, 6))

    space = ActionSpace(Vocabulary((Dice,)), ["a"], [*toy_scenario().map.hexes])
    lo, hi = space.id_of_key(Dice, (1, 1)), space.id_of_key(Dice, (6, 6))
    assert (lo, hi) == (0, 6 * 6 - 1) and space.size == 36  # two dice: 36 ids in a row
    assert space.id_of_key(Dice, (2, 1)) - lo == 6  # the first coordinate is the higher digit
    for bad in ((0, 1), (1, 7)):
        with pytest.raises(ValueError, match="outside 1-6"):
            space.id_of_key(Dice, bad)
