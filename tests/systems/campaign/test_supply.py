"""Campaign supply on small worked boards: each expected answer is counted by hand from the rule text (CA-P.1-3,
CA-F.3, CA-F.6) and the rulings under "North-Africa campaign: supply" in docs/rulings.md, never read off the code.

The boards are full rectangles with the coastal road along one row, its west end the Axis source and its east end
the Allied one, as on the campaign map.  Distances are counted in hexes as the crow flies; in a board whose rows
are all friendly or all enemy units, the distance from a hex to such a row is the number of rows between.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map, RouteKind, RouteLine, Terrain, build_map
from tobruk.engine.sides import Side
from tobruk.systems.campaign.supply import (
    CHAIN_LINK,
    SupplyLines,
    SupplyOutcome,
    determination,
    determine,
    may_recover,
    odds_shift,
    supply_ground,
    trace,
)

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def board(rows: int, cols: int, *, road_row: int = 0, terrain: Mapping[str, str] | None = None, towns: Iterable[str] = ()) -> Map:
    """A ``rows`` x ``cols`` board of clear hexes with the coastal road along row ``road_row``, from its west end (the
    Axis source) to its east end (the Allied source); ``terrain`` overrides hexes by label; ``towns`` are the
    towns and oases."""
    hexes = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    kinds = {h: Terrain.CLEAR for h in hexes}
    for label, kind in (terrain or {}).items():
        kinds[H(label)] = kind
    road = tuple(Hex.from_offset(road_row, c) for c in range(cols))
    return build_map(
        "test",
        kinds,
        routes=[RouteLine(RouteKind.ROAD, "coast road", road)],
        supply_sources={AXIS: (road[0],), ALLIED: (road[-1],)},
        zones={"coastal-road": road, "towns-oases": [H(t) for t in towns]},
    )


def lines(m: Map, side: Side, friends: Iterable[str], enemies: Iterable[str] = (), forts: Iterable[str] = ()) -> SupplyLines:
    ix = m.index
    return trace(supply_ground(m), side, [ix[H(h)] for h in friends], [ix[H(h)] for h in enemies], [ix[H(h)] for h in forts])


def supplied(m: Map, side: Side, friends: Iterable[str], enemies: Iterable[str] = (), forts: Iterable[str] = ()) -> set[str]:
    """The labels of the friendly units' hexes in supply."""
    found = lines(m, side, friends, enemies, forts)
    return {f for f in friends if found.supplied(m.index[H(f)])}


def row(letter: str, cols: int) -> list[str]:
    return [f"{letter}{c}" for c in range(1, cols + 1)]


# --- the line: no nearer an enemy unit than a friendly one ---------------------------------------------------------

# Row A is the road (A1 west, A9 east), row B sea, row C land: an enemy unit on C5 is 2 hexes from A4, A5 and A6 and
# farther from the rest of row A, and no line crosses from row A to row C.
CORRIDOR = {**{f"B{c}": Terrain.SEA for c in range(1, 10)}}


@pytest.mark.rule("CA-P.1")
def test_a_line_hex_as_near_a_friendly_unit_as_an_enemy_one_may_be_used() -> None:
    m = board(3, 9, terrain=CORRIDOR)
    # friends on A3 and A7: A5 is 2 from each and 2 from C5 -- equal, so usable; every other hex of row A is nearer a friend
    assert supplied(m, ALLIED, ["A3", "A7"], ["C5"]) == {"A3", "A7"}
    assert supplied(m, AXIS, ["A3", "A7"], ["C5"]) == {"A3", "A7"}
    found = lines(m, ALLIED, ["A3", "A7"], ["C5"])
    assert found.usable[m.index[H("A5")]] == 1
    assert [m.hexes[i].label for i in found.route(m.index[H("A3")])] == ["A9", "A8", "A7", "A6", "A5", "A4", "A3"]


@pytest.mark.rule("CA-P.1")
def test_a_line_hex_nearer_an_enemy_unit_cuts_the_line_and_each_side_looks_to_its_own_end_of_the_road() -> None:
    m = board(3, 9, terrain=CORRIDOR)
    # friends on A2 and A8: A5 is 3 from each but 2 from C5, so no line passes A5 (A4 and A6, 2 from a friend, pass)
    assert lines(m, ALLIED, ["A2", "A8"], ["C5"]).usable[m.index[H("A5")]] == 0
    # the Allies draw from the east end (A9): A8 is in supply, A2 is cut off
    assert supplied(m, ALLIED, ["A2", "A8"], ["C5"]) == {"A8"}
    # the Axis from the west end (A1): A2 is in supply; A8 stands on the road, but beyond A5 it no longer leads back
    assert supplied(m, AXIS, ["A2", "A8"], ["C5"]) == {"A2"}
    axis = lines(m, AXIS, ["A2", "A8"], ["C5"])
    assert [m.hexes[i].label for i in axis.road] == ["A1", "A2", "A3", "A4"]
    out = axis.status({"8PzRgt": m.index[H("A8")]})["8PzRgt"]
    assert not out.supplied and out.clause == "CA-P.1" and "west edge (A1)" in out.reason and out.route == ()


@pytest.mark.rule("CA-P.1")
def test_the_tracing_unit_is_a_friendly_unit_so_its_own_hex_is_always_on_its_line() -> None:
    # one Allied unit on the east end with an enemy next to it: its own hex is 0 from a friend (itself), 1 from the enemy
    m = board(2, 5)
    assert supplied(m, ALLIED, ["A5"], ["B4"]) == {"A5"}
    # one hex off the source it is cut: A5 is 1 from the unit on A4 and 1 from B4 -- still usable (equal) -- so in supply
    assert supplied(m, ALLIED, ["A4"], ["B4"]) == {"A4"}
    # from A3 the line must end on A5, 2 from A3 and 1 from B4: cut (B5 beside it is as near B4)
    assert supplied(m, ALLIED, ["A3"], ["B4"]) == set()


@pytest.mark.rule("CA-P.1")
def test_every_unit_counts_as_a_friend_for_every_line() -> None:
    # the Allied unit on A3 alone is cut (A6 is 3 from it and 2 from the enemy on C5); a second Allied unit on A7 makes
    # A6 usable for both: the position, not the unit, decides which hexes a line may use
    m = board(3, 9, terrain=CORRIDOR)
    assert supplied(m, ALLIED, ["A3"], ["C5"]) == set()
    assert supplied(m, ALLIED, ["A3", "A7"], ["C5"]) == {"A3", "A7"}


@pytest.mark.rule("CA-P.1")
def test_with_no_enemy_unit_on_the_map_every_open_hex_may_be_used() -> None:
    m = board(3, 4, terrain={"B2": Terrain.SEA})
    found = lines(m, AXIS, ["C4"])
    assert found.supplied_hexes() == {i for i, h in enumerate(m.hexes) if h.label != "B2"}


@pytest.mark.rule("CA-P.1")
@pytest.mark.parametrize("kind", [Terrain.DEPRESSION, Terrain.SAND_SEA, Terrain.SALT_MARSH])
def test_no_line_runs_through_impassable_ground(kind: str) -> None:
    # column 3 impassable from top to bottom: the Allied unit west of it cannot reach the east end, the one east can
    m = board(2, 5, terrain={"A3": kind, "B3": kind})
    assert supplied(m, ALLIED, ["B1", "B5"]) == {"B5"}
    assert supplied(m, AXIS, ["B1", "B5"]) == {"B1"}
    # a gap in it lets the line round it
    m = board(3, 5, terrain={"A3": kind, "B3": kind})
    assert supplied(m, ALLIED, ["B1"]) == {"B1"}
    assert all(m.terrain[m.hexes[i]] != kind for i in lines(m, ALLIED, ["B1"]).route(m.index[H("B1")]))


# --- fortifications (CA-F.3) ----------------------------------------------------------------------------------------


@pytest.mark.rule("CA-F.3")
def test_a_vacant_enemy_fortification_blocks_the_line() -> None:
    m = board(1, 7)  # one row: every line runs along it
    assert supplied(m, ALLIED, ["A2"], forts=["A5"]) == set()
    status = lines(m, ALLIED, ["A2"], forts=["A5"]).status({"4IndDiv": m.index[H("A2")]})["4IndDiv"]
    assert not status.supplied and status.clause == "CA-F.3" and "A5" in status.reason
    # a unit beyond it, between the fort and the source, is untouched
    assert supplied(m, ALLIED, ["A2", "A6"], forts=["A5"]) == {"A6"}


@pytest.mark.rule("CA-F.3")
def test_an_enemy_fortification_a_friendly_unit_occupies_does_not_block() -> None:
    m = board(1, 7)
    assert supplied(m, ALLIED, ["A2", "A5"], forts=["A5"]) == {"A2", "A5"}
    assert supplied(m, AXIS, ["A6", "A3"], forts=["A3"]) == {"A6", "A3"}


@pytest.mark.rule("CA-F.3")
def test_a_fortification_is_no_unit_for_the_distances() -> None:
    # an Axis fort on B3 with no Axis unit anywhere: the hexes around it are no nearer an enemy unit, so the Allied
    # line runs past it (A3, A4) to the east end
    m = board(2, 5)
    assert supplied(m, ALLIED, ["A1"], forts=["B3"]) == {"A1"}


@pytest.mark.rule("CA-F.3")
def test_a_unit_cut_both_by_a_fortification_and_by_the_enemy_is_out_under_the_line_rule() -> None:
    # A2's line is closed at A4 by the fort and at A5 by the enemy on A7 (A5 is 2 from A7, 3 from A2): opening the fort
    # would not bring it into supply, so the reason is CA-P.1
    m = board(1, 9)
    status = lines(m, ALLIED, ["A2"], ["A7"], forts=["A4"]).status({"u": m.index[H("A2")]})["u"]
    assert not status.supplied and status.clause == "CA-P.1"


# --- towns and oases (CA-P.1, CA-F.6) -------------------------------------------------------------------------------

# Three columns.  Row A is the road, Axis units fill row B and Allied units row E, so rows D-F (and G when no
# Axis unit is within 2 hexes of it) are nearer the enemy: a wall no line crosses.  The Axis unit south of the
# wall reaches the road only through a town in supply.


def walled() -> tuple[list[str], list[str]]:
    return row("B", 3), row("E", 3)


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.6")
def test_a_town_seven_hexes_from_the_road_leading_back_supplies_the_units_that_reach_it() -> None:
    assert CHAIN_LINK == 7
    m = board(11, 3, towns=["H2"])  # H is row 8: 7 rows below the road
    axis, allied = walled()
    # J2 (row 10): row H is 2 from it and 3 from row E, usable; rows F and G are 1 and 2 from row E but 4 and 3 from J2
    found = lines(m, AXIS, [*axis, "J2"], allied)
    assert found.towns == {m.index[H("H2")]}
    assert found.supplied(m.index[H("J2")])
    status = found.status({"90Lt": m.index[H("J2")]})["90Lt"]
    assert status.supplied and m.hexes[status.route[0]].label == "H2" and "town or oasis" in status.reason


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.6")
def test_a_town_eight_hexes_from_the_road_does_not() -> None:
    m = board(11, 3, towns=["I2"])  # row 9: 8 rows below the road
    axis, allied = walled()
    found = lines(m, AXIS, [*axis, "J2"], allied)
    assert found.towns == frozenset()
    assert not found.supplied(m.index[H("J2")]) and found.usable[m.index[H("I2")]] == 1  # the town is open, but too far


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.6")
def test_towns_and_oases_do_not_supply_the_allies() -> None:
    m = board(11, 3, towns=["H2"])
    axis, allied = walled()
    # mirror the walls: Allied units fill row B, Axis units row E, an Allied unit on J2 beyond them
    assert not lines(m, ALLIED, [*axis, "J2"], allied).supplied(m.index[H("J2")])
    assert lines(m, ALLIED, [*axis, "J2"], allied).towns == frozenset()


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.6")
@pytest.mark.parametrize(("second", "unit", "chained"), [("O2", "Q2", True), ("P2", "Q2", False)])
def test_a_chain_of_towns_each_within_seven_hexes_of_the_last(second: str, unit: str, chained: bool) -> None:
    # two walls: Allied rows E and L, Axis rows B and I.  The first town H2 is 7 rows from the road; the second is 7 (O2)
    # or 8 (P2) rows from H2 and 14 or 15 from the road.  The unit on Q2 reaches rows O-R (row N is 2 from row L and 3
    # from Q2: cut; row O 3 and 2: usable), so only the second town; the Axis row I reaches rows G-J and the first.
    m = board(18, 3, towns=["H2", second])
    friends = [*row("B", 3), *row("I", 3), unit]
    enemies = [*row("E", 3), *row("L", 3)]
    found = lines(m, AXIS, friends, enemies)
    assert m.index[H("H2")] in found.towns
    assert (m.index[H(second)] in found.towns) is chained
    assert found.supplied(m.index[H(unit)]) is chained
    assert found.supplied(m.index[H("I2")])  # the middle Axis row reaches the first town


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.6")
def test_a_town_nearer_an_enemy_unit_is_no_link() -> None:
    # as the seven-hex case, with an Allied unit on J1 next to the town's row: H2 is 2 from J1 and from J2 -- still
    # usable; with the Allied unit on I2 instead, H2 is 1 from it and 2 from J2: not in supply, and J2 is cut off
    m = board(11, 3, towns=["H2"])
    axis, allied = walled()
    assert lines(m, AXIS, [*axis, "J2"], [*allied, "J1"]).supplied(m.index[H("J2")])
    found = lines(m, AXIS, [*axis, "J2"], [*allied, "I2"])
    assert found.towns == frozenset() and not found.supplied(m.index[H("J2")])


@pytest.mark.rule("CA-P.1")
def test_the_road_beyond_a_cut_is_no_source_for_the_town_links() -> None:
    # road A1-A11 in one row with a sea row below it and the land beyond; an Allied unit on A3 cuts the road (A2 is 1
    # from A1 and from A3, so the road leads back from A1 and A2 only).  The town on C11 is 2 hexes from A11 but 10 from
    # A2: not in supply, though the Axis unit on it makes every road hex east of A3 usable.
    sea = {f"B{c}": Terrain.SEA for c in range(1, 12)}
    m = board(3, 11, terrain=sea, towns=["C11"])
    found = lines(m, AXIS, ["A1", "C11"], ["A3"])
    assert [m.hexes[i].label for i in found.road] == ["A1", "A2"]
    assert found.towns == frozenset() and not found.supplied(m.index[H("C11")])
    # without the cut the whole road leads back and the town is 2 hexes from it
    found = lines(m, AXIS, ["A1", "C11"])
    assert found.towns == {m.index[H("C11")]} and found.supplied(m.index[H("C11")])


def test_opposing_units_in_one_hex_are_refused() -> None:
    m = board(1, 3)
    with pytest.raises(ValueError, match=r"\(CA-M\.1\)"):
        lines(m, AXIS, ["A2"], ["A2"])


# --- what being out of supply does (CA-P.2, CA-P.3) -----------------------------------------------------------------


@pytest.mark.rule("CA-P.2")
@pytest.mark.parametrize(
    ("attackers", "defenders", "shift"),
    [
        ([True, True], [True], 0),
        ([True, False], [True], -1),  # any attacking unit out of supply: one column down
        ([False, False], [True], -1),  # one column, however many
        ([True], [False, True], 1),  # a defending unit out of supply: one column up
        ([False], [False], 0),  # both: the two shifts apply and cancel
    ],
)
def test_supply_shifts_the_odds_one_column(attackers: list[bool], defenders: list[bool], shift: int) -> None:
    assert odds_shift(attackers, defenders) == shift


@pytest.mark.rule("CA-P.2")
def test_a_unit_out_of_supply_is_not_recovered() -> None:
    assert may_recover(True) and not may_recover(False)


@pytest.mark.rule("CA-P.3")
@pytest.mark.parametrize(
    ("supplied_", "disrupted", "outcome"),
    [
        (True, False, SupplyOutcome.NONE),
        (True, True, SupplyOutcome.NONE),
        (False, False, SupplyOutcome.DISRUPTED),
        (False, True, SupplyOutcome.ELIMINATED),
    ],
)
def test_the_supply_determination_disrupts_or_eliminates(supplied_: bool, disrupted: bool, outcome: SupplyOutcome) -> None:
    assert determination(supplied_, disrupted) is outcome


@pytest.mark.rule("CA-P.3")
def test_a_determination_reads_one_trace_for_every_unit_of_the_side() -> None:
    # the corridor cut at A5 (friends A2, A8; enemy C5): for the Allies A2 and a unit with it are out, A8 in
    m = board(3, 9, terrain=CORRIDOR)
    found = lines(m, ALLIED, ["A2", "A8"], ["C5"])
    ix = m.index
    units = {"NZDiv": ix[H("A2")], "1ArmBde": ix[H("A2")], "4IndDiv": ix[H("A8")]}
    out = determine(found, units, disrupted={"1ArmBde", "4IndDiv"})
    assert {u: o for u, (o, _) in out.items()} == {
        "NZDiv": SupplyOutcome.DISRUPTED,
        "1ArmBde": SupplyOutcome.ELIMINATED,  # already disrupted and out of supply
        "4IndDiv": SupplyOutcome.NONE,  # disrupted, but in supply
    }
    assert out["NZDiv"][1].clause == "CA-P.1" and not out["NZDiv"][1].supplied
