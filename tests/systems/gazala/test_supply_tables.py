"""The supply mechanics' entry tables: open, blocked and costly hexes as step tables, and a line traced on them."""

from __future__ import annotations

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map, RouteLine, build_map
from tobruk.mechanics.supply import MF, SupplyContext, entry_tables, trace_all

H = Hex.parse


def strip(n: int = 5) -> Map:
    return build_map("strip", {H(f"A{i}"): "clear" for i in range(1, n + 1)})


def test_blocked_costly_and_open_hexes() -> None:
    m = strip()
    blocked, extra = entry_tables(m, open_hexes={H("A3")}, blocked_hexes={H("A3"), H("A5")}, costly_hexes={H("A2")})
    ctx = SupplyContext(m, frozenset({H("A1")}), blocked, extra)
    found = trace_all(ctx, 10 * MF)
    assert found[H("A2")].cost == 2 * MF  # 1 MF a hex off the net, +1 in the ZOC it may cross
    assert found[H("A3")].cost == 3 * MF  # blocked, but open: a friendly unit stands there
    assert H("A5") not in found and found[H("A4")].cost == 4 * MF


def test_a_costly_hex_is_closed_across_a_marked_hexside() -> None:
    m = strip(3)
    marks = [False] * len(m.neighbour_table)
    i, j = m.index[H("A1")], m.index[H("A2")]
    marks[i * 6 + m.neighbour_table[i * 6 : i * 6 + 6].index(j)] = True
    blocked, extra = entry_tables(m, (), (), {H("A2")}, not_across=marks)
    assert H("A2") not in trace_all(SupplyContext(m, frozenset({H("A1")}), blocked, extra), 10 * MF)
    blocked, extra = entry_tables(m, (), (), {H("A2")})
    assert H("A2") in trace_all(SupplyContext(m, frozenset({H("A1")}), blocked, extra), 10 * MF)


def test_the_road_costs_nothing_but_its_extras() -> None:
    m = build_map("road", {H(f"A{i}"): "clear" for i in range(1, 5)}, routes=[RouteLine("road", "r", (H("A1"), H("A2"), H("A3"), H("A4")))])
    blocked, extra = entry_tables(m, (), (), {H("A3")})
    found = trace_all(SupplyContext(m, frozenset({H("A1")}), blocked, extra), 0)
    assert found[H("A2")].cost == 0 and H("A3") not in found  # the ZOC hex costs 1 MF even on the road
