"""Zones of control of more enemy units than one 64-bit word holds: the reach search reads which enemy unit's ZOC a
hex lies in as a bitmask per hex, one bit per unit, in as many words as the units need (the campaign's order of
battle has more than 64 units a side).  A ZOC-to-ZOC step within the ZOC of one unit (GG-XIII.B.3) is refused
whatever that unit's place among the others.  The refusal names the family's clause
key, which each system maps to its own."""

from __future__ import annotations

import pytest

from tests.mechanics.strips import vehicle_in_a1
from tobruk.board.hexes import Hex
from tobruk.board.maps import MovementRates, build_map
from tobruk.engine.errors import IllegalOrderError
from tobruk.mechanics.reach import MF, reach, walk
from tobruk.mechanics.zoc import zoc_map

H = Hex.parse
BOARD = build_map("three rows", {Hex.from_offset(r, c): "clear" for r in range(3) for c in range(8)})


@pytest.mark.rule("GG-XIII.B.3")
@pytest.mark.parametrize("others", [0, 63, 64, 70, 130])
def test_a_step_within_one_units_zoc_is_refused_whatever_the_units_bit(others: int) -> None:
    # "Z" in B3 sorts after every "E..": with 64 others or more its bit lies in a second (or third) word.  A3 and A4
    # both touch B3; the others stand together in C8, whose ZOC touches neither.
    enemies = [(f"E{k:03}", H("C8")) for k in range(others)] + [("Z", H("B3"))]
    ctx = vehicle_in_a1(
        BOARD, 4 * MF, MovementRates.of(), start=H("A3"), zoc=zoc_map(BOARD, enemies), enemy_units=frozenset({H("B3"), H("C8")})
    )
    with pytest.raises(IllegalOrderError) as err:
        walk(ctx, [H("A3"), H("A4")])
    assert (err.value.clause, err.value.reason) == ("XIII.B.3", "A3-A4 moves from one ZOC of the enemy in B3 into another")
    found = reach(ctx)
    assert H("A4") not in found and H("A2") in found  # A2 lies in no enemy ZOC: the step out is free
