"""The reach search's barriers: the hexside kinds a system names as crossed only along a road or track.

The default is the towering escarpment (GG-XI.D); a system may name others (the impassable escarpments at the
edge of the Qattara Depression).  Checked on a three-hex strip with the search and the path check alike.
"""

from __future__ import annotations

import pytest

from tests.mechanics.strips import vehicle_in_a1
from tobruk.board.hexes import Hex, Hexside
from tobruk.board.maps import Feature, MovementRates, RouteLine, SideFeature, build_map
from tobruk.engine.errors import IllegalOrderError
from tobruk.mechanics.reach import MF, MoveContext, reach, walk

H = Hex.parse


def strip(route: bool) -> MoveContext:
    """A1-A2-A3, an impassable escarpment on A1|A2 (A2 high), a road along the strip if ``route``."""
    terrain = {H(x): "clear" for x in ("A1", "A2", "A3")}
    sides = {Hexside.between(H("A1"), H("A2")): [SideFeature(Feature.IMPASSABLE_ESCARPMENT, high=H("A2"))]}
    routes = [RouteLine("road", "road", (H("A1"), H("A2"), H("A3")))] if route else []
    m = build_map("strip", terrain, hexsides=sides, routes=routes)
    return vehicle_in_a1(m, 4 * MF, MovementRates.of(road=30))


def test_a_named_barrier_is_not_crossed_off_the_road() -> None:
    ctx = strip(route=False)
    barred = MoveContext(**{**ctx.__dict__, "barriers": (Feature.TOWERING_ESCARPMENT, Feature.IMPASSABLE_ESCARPMENT)})
    assert set(reach(barred)) == set()
    with pytest.raises(IllegalOrderError) as exc:
        walk(barred, [H("A1"), H("A2")])
    assert exc.value.clause == "XI.D" and "impassable escarpment A1|A2" in exc.value.reason


def test_a_kind_not_named_is_no_barrier() -> None:
    ctx = strip(route=False)  # the default barriers: the towering escarpment only
    assert set(reach(ctx)) == {H("A2"), H("A3")}
    assert walk(ctx, [H("A1"), H("A2")]).hex == H("A2")


def test_a_road_crosses_a_barrier() -> None:
    ctx = strip(route=True)
    barred = MoveContext(**{**ctx.__dict__, "barriers": (Feature.IMPASSABLE_ESCARPMENT,)})
    assert set(reach(barred)) == {H("A2"), H("A3")}
