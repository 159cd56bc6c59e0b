"""Free hexes along a road (the search's ``free_steps``: 1st Alamein's road-to-road hexes, FA-TER.1) as the path check
counts them: so many steps along the road cost nothing, then the road's rate; a free step into an enemy fort still
stops the unit there (GG-XI.A.4).  Checked on a five-hex road with the search and the path check alike."""

from __future__ import annotations

import pytest

from tests.mechanics.strips import vehicle_in_a1
from tobruk.board.hexes import Hex
from tobruk.board.maps import MovementRates, RouteLine, build_map
from tobruk.engine.errors import IllegalOrderError
from tobruk.mechanics.reach import MF, MoveContext, reach, walk

H = Hex.parse
ROAD = tuple(H(f"A{i}") for i in range(1, 6))


def road(forts: frozenset[Hex] = frozenset(), free: int = 2) -> MoveContext:
    """A1 to A5 along a road of half an MF a hex, ``free`` steps along it free, 2 MF to spend, no bonus."""
    m = build_map("road", dict.fromkeys(ROAD, "clear"), routes=[RouteLine("road", "road", ROAD)])
    return vehicle_in_a1(m, 2 * MF, MovementRates.of(road=30), enemy_forts=forts, free_steps=(("road", free),), free_total=free)


@pytest.mark.rule("FA-TER.1")
def test_the_free_steps_cost_nothing_then_the_road_s_rate() -> None:
    ctx = road()
    assert [walk(ctx, ROAD[:n]).spent for n in range(2, 6)] == [0, 0, MF // 2, MF]
    assert set(reach(ctx)) == set(ROAD[1:])
    assert [walk(road(free=1), ROAD[:n]).spent for n in range(2, 6)] == [0, MF // 2, MF, 3 * MF // 2]


@pytest.mark.rule("GG-XI.A.4")
def test_a_free_step_into_an_enemy_fort_stops_the_unit_there() -> None:
    ctx = road(forts=frozenset({H("A2")}))
    assert walk(ctx, ROAD[:2]).spent == 0
    with pytest.raises(IllegalOrderError) as err:
        walk(ctx, ROAD[:3])
    assert (err.value.clause, err.value.reason) == ("XI.A.4", "the unit had to stop in A2")  # (the rule's key: no system here)
    assert set(reach(ctx)) == {H("A2")}
