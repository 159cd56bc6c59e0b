"""Strategic movement (CA-S.1-4) on worked boards and the campaign map, with networkx oracles on random boards.

CA-S.2: rail to the railhead, blocked by an enemy zone no friendly unit occupies.  CA-S.3: one unit a player-turn
by sea to a friendly port, sunk on 1 in 6 (the side holds Tobruk) or 3 in 6.  CA-S.4: the bugout, at least 16
hexes back, 1 in 6 to be eliminated for each zone hex entered, Newly Disrupted on arrival.  CA-S.1: strategically
moved units arrive disrupted (rail excepted, docs/rulings.md).  Every die is a chance node whose outcomes sum to 1.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.systems.campaign.boards import H, ix, position
from tests.systems.campaign.campaign_data import forces
from tests.systems.campaign.maps import campaign
from tobruk.board.hexes import Hex
from tobruk.board.maps import Map, Place, RouteLine, build_map
from tobruk.engine.chance import check
from tobruk.engine.dice import Dice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.systems.campaign.position import CampaignPosition
from tobruk.systems.campaign.strategic import (
    OFF_MAP,
    back,
    bugout,
    bugout_hex_outcomes,
    bugout_outcomes,
    bugout_reach,
    check_bugout,
    check_sea_move,
    coastal,
    controls_sea,
    rail_line,
    rail_move,
    rail_moves,
    rear_hex,
    sea_move,
    sea_outcomes,
    survival,
)


def rail_board(cols: int = 8, head: str = "A2") -> Map:
    """Two rows of clear hexes; the railway along row A from its east end (A``cols``) west, the railhead at ``head``."""
    hexes = {Hex.from_offset(r, c): "clear" for r in range(2) for c in range(cols)}
    rail = [H(f"A{c}") for c in range(cols, 0, -1)]
    return build_map("rail", hexes, railway=rail, places=[Place("Head", H(head))])


def labels(p: CampaignPosition, indices: frozenset[int] | set[int]) -> set[str]:
    return {p.hex(i).label for i in indices}


# ---------------------------------------------------------------------------------------------------------- rail


@pytest.mark.rule("CA-S.2")
def test_rail_runs_from_the_east_end_to_the_railhead() -> None:
    m = rail_board()
    p = position(m, "GdsBde@A7")
    line = rail_line(m, "Head")
    assert [m.hexes[i].label for i in line] == ["A8", "A7", "A6", "A5", "A4", "A3", "A2"]
    moves = rail_moves(p, "GdsBde", line)
    assert labels(p, moves.destinations) == {"A8", "A6", "A5", "A4", "A3", "A2"}  # not A1, beyond the railhead


@pytest.mark.rule("CA-S.2")
def test_the_campaign_railheads_by_date() -> None:
    m = campaign()
    track = forces().track
    ends = {turn: m.hexes[rail_line(m, track.railhead(turn))[-1]].label for turn in ("II Mar 41", "I Nov 41", "I Feb 42", "II May 42")}
    assert ends == {"II Mar 41": "Q63", "I Nov 41": "R53", "I Feb 42": "O47", "II May 42": "L40"}
    assert m.hexes[rail_line(m, "Mersa Matruh")[0]].label == "V79"  # the line starts on the east edge


@pytest.mark.rule("CA-S.2")
def test_an_enemy_zone_blocks_the_line_unless_a_friend_occupies_it() -> None:
    m = rail_board()
    line = rail_line(m, "Head")
    # 90th Light at B4 (a division: a stopping zone) covers A4 and A5 of the line
    p = position(m, "GdsBde@A7", "90Lt@B4")
    moves = rail_moves(p, "GdsBde", line)
    assert labels(p, moves.destinations) == {"A8", "A6"}
    assert moves.refused[ix(p, "A5")][0] == "CA-S.2" and (moves.refusal(ix(p, "A5")) or "").startswith("[CA-S.2]")
    assert moves.refused[ix(p, "A3")][0] == "CA-S.2"  # beyond the block
    assert moves.refusal(ix(p, "A6")) is None and (moves.refusal(ix(p, "A1")) or "").startswith("[CA-S.2]")
    # a friend on A5 opens A5 only; friends on both open the line
    p = position(m, "GdsBde@A7", "90Lt@B4", "1PolBde@A5")
    assert labels(p, rail_moves(p, "GdsBde", line).destinations) == {"A8", "A6", "A5"}
    p = position(m, "GdsBde@A7", "90Lt@B4", "1PolBde@A5", "1FFBde@A4")
    assert labels(p, rail_moves(p, "GdsBde", line).destinations) == {"A8", "A6", "A5", "A4", "A3", "A2"}
    with pytest.raises(IllegalOrderError) as err:
        rail_move(position(m, "GdsBde@A7", "90Lt@B4"), "GdsBde", ix(p, "A3"), line)
    assert err.value.clause == "CA-S.2"


@pytest.mark.rule("CA-S.2")
def test_a_zone_that_does_not_stop_movement_does_not_block_the_line() -> None:
    m = rail_board()
    line = rail_line(m, "Head")
    # one undisrupted Axis brigade alone (not armour, not the Recce Gruppe) has no movement-stopping zone (CA-Z.1)
    p = position(m, "GdsBde@A7", "15MotBde@B4")
    assert labels(p, rail_moves(p, "GdsBde", line).destinations) == {"A8", "A6", "A5", "A4", "A3", "A2"}
    # an empty Axis fort on the line is a zone of its own hex (CA-F.3)
    p = position(m, "GdsBde@A7", forts={"A4": Side.AXIS})
    assert labels(p, rail_moves(p, "GdsBde", line).destinations) == {"A8", "A6", "A5"}
    # an enemy unit on the line blocks it (CA-M.1)
    p = position(m, "GdsBde@A7", "15MotBde@A5")
    assert rail_moves(p, "GdsBde", line).refused[ix(p, "A5")][0] == "CA-M.1"


@pytest.mark.rule("CA-S.2")
@pytest.mark.parametrize(("placed", "unit"), [("15MotBde@A7", "15MotBde"), ("GdsBde@A7:d", "GdsBde"), ("GdsBde@B7", "GdsBde")])
def test_rail_is_for_undisrupted_allied_units_on_the_line(placed: str, unit: str) -> None:
    m = rail_board()
    with pytest.raises(IllegalOrderError) as err:
        rail_moves(position(m, placed), unit, rail_line(m, "Head"))
    assert err.value.clause == "CA-S.2"


@pytest.mark.rule("CA-S.2")
@pytest.mark.rule("CA-S.1")
def test_a_railed_unit_arrives_ready_to_move_and_attack() -> None:
    m = rail_board()
    line = rail_line(m, "Head")
    p = rail_move(position(m, "GdsBde@A7", "8ArmyArty@A8"), "GdsBde", ix(position(m), "A2"), line)
    assert p.hex(p.unit("GdsBde").hex).label == "A2" and not p.unit("GdsBde").disrupted
    # the 8th Army artillery is disrupted by any movement, rail too (CA-U.3)
    p = rail_move(p, "8ArmyArty", ix(p, "A3"), line)
    assert p.unit("8ArmyArty").disrupted


@pytest.mark.rule("CA-S.2")
def test_a_unit_in_an_enemy_zone_alone_cannot_entrain() -> None:
    m = rail_board()
    line = rail_line(m, "Head")
    p = position(m, "GdsBde@A5", "90Lt@B4")
    assert not rail_moves(p, "GdsBde", line).destinations
    p = position(m, "GdsBde@A5", "1PolBde@A5", "90Lt@B4")  # a friend stays behind: the hex is held
    assert "A6" in labels(p, rail_moves(p, "GdsBde", line).destinations)


def _line_oracle(m: Map, p: CampaignPosition, unit: str, line: tuple[int, ...]) -> set[int]:
    """The line's hexes reachable along it: networkx on the line's path graph, without the hexes held by the enemy or
    next to an Axis division (clear boards: a division's zone reaches its six neighbours) with no Allied unit of
    those staying behind."""
    u = p.unit(unit)
    enemy = {x.hex for x in p.units if x.side is Side.AXIS}
    zone = {m.index[n] for x in p.units if x.side is Side.AXIS and x.division_level for n in m.neighbours(m.hexes[x.hex])}
    friends = {x.hex for x in p.units if x.side is Side.ALLIED and x.id != unit}
    blocked = enemy | (zone - friends)
    g = nx.path_graph(line)
    if u.hex in blocked:
        return set()
    g.remove_nodes_from([i for i in line if i in blocked])
    return set(nx.node_connected_component(g, u.hex)) - {u.hex}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
@pytest.mark.rule("CA-S.2")
def test_rail_against_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    cols = rng.randint(3, 9)
    m = rail_board(cols, head=f"A{rng.randint(1, cols)}")
    line = rail_line(m, "Head")
    start = m.hexes[rng.choice(line)]
    others = [h for h in m.hexes if h != start]
    rng.shuffle(others)
    placed = [f"GdsBde@{start.label}"]
    for uid in rng.sample(("90Lt", "Trieste", "15MotBde", "XXICorps"), rng.randint(0, 3)):
        placed.append(f"{uid}@{others.pop().label}")  # the Axis, one hex each
    for uid in rng.sample(("1PolBde", "1FFBde"), rng.randint(0, 2)):
        placed.append(f"{uid}@{rng.choice([start, *others]).label}")  # Allied friends, anywhere the Axis is not
    p = position(m, *placed)
    assert set(rail_moves(p, "GdsBde", line).destinations) == _line_oracle(m, p, "GdsBde", line)


# ----------------------------------------------------------------------------------------------------------- sea


def sea_board() -> Map:
    """Row A sea, rows B-C land; ports at B2 and B5; C3 inland."""
    hexes = {Hex.from_offset(r, c): ("sea" if r == 0 else "clear") for r in range(3) for c in range(6)}
    return build_map("sea", hexes, zones={"ports": [H("B2"), H("B5")]})


ALLIED_PORTS = {"B2": Side.ALLIED, "B5": Side.ALLIED}


def control(p: CampaignPosition, by: dict[str, Side]) -> dict[int, Side]:
    return {ix(p, h): s for h, s in by.items()}


@pytest.mark.rule("CA-S.3")
@pytest.mark.parametrize(("friendly", "sunk"), [(True, {1}), (False, {1, 2, 3})])
def test_the_sinking_die(friendly: bool, sunk: set[int]) -> None:
    outcomes = sea_outcomes(friendly)
    check(outcomes, "sea move")
    assert sum(o.probability for o in outcomes) == 1
    assert {o.value for o in outcomes if o.label == "sunk"} == sunk
    assert sum(o.probability for o in outcomes if o.label == "sunk") == Fraction(len(sunk), 6)


@pytest.mark.rule("CA-S.3")
def test_the_side_holding_tobruk_controls_the_sea() -> None:
    assert controls_sea(Side.ALLIED, Side.ALLIED) and not controls_sea(Side.AXIS, Side.ALLIED)
    assert controls_sea(Side.AXIS, Side.AXIS) and not controls_sea(Side.ALLIED, None)


@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-S.1")
def test_a_sea_move_arrives_disrupted_or_is_sunk() -> None:
    m = sea_board()
    p = position(m, "GdsBde@B3")
    port = ix(p, "B5")
    check_sea_move(p, "GdsBde", port, control(p, ALLIED_PORTS), used=False)
    after, sunk = sea_move(p, "GdsBde", port, 2, friendly_sea=True)
    assert not sunk and after.unit("GdsBde").hex == port and after.unit("GdsBde").disrupted
    assert not after.unit("GdsBde").newly_disrupted
    after, sunk = sea_move(p, "GdsBde", port, 1, friendly_sea=True)
    assert sunk and "GdsBde" not in after.by_id
    assert sea_move(p, "GdsBde", port, 3, friendly_sea=False)[1]
    assert not sea_move(p, "GdsBde", port, 4, friendly_sea=False)[1]


@pytest.mark.rule("CA-S.3")
def test_sea_move_refusals() -> None:
    m = sea_board()
    p = position(m, "GdsBde@B3", "NZDiv@C3", "1PolBde@B4:d", "90Lt@B5")
    ctl = control(p, ALLIED_PORTS)

    def clause(unit: str, port: str, *, used: bool = False, by: dict[int, Side] = ctl) -> str:
        with pytest.raises(IllegalOrderError) as err:
            check_sea_move(p, unit, ix(p, port), by, used=used)
        return err.value.clause

    assert clause("GdsBde", "B2", used=True) == "CA-S.3"  # one unit a player-turn
    assert clause("NZDiv", "B2") == "CA-S.3"  # C3 is not coastal
    assert clause("1PolBde", "B2") == "CA-G.15"  # disrupted
    assert clause("GdsBde", "B5") == "CA-S.3"  # the enemy holds it
    assert clause("GdsBde", "B2", by=control(p, {"B2": Side.AXIS})) == "CA-S.3"  # not a friendly port
    assert clause("GdsBde", "C4") == "CA-S.3"  # not a port
    check_sea_move(p, "GdsBde", ix(p, "B2"), ctl, used=False)
    assert coastal(m, ix(p, "B3")) and not coastal(m, ix(p, "C3"))


@pytest.mark.rule("CA-S.3")
def test_the_campaign_ports_take_sea_moves() -> None:
    m = campaign()
    ports = {m.index[h] for h in m.zone("ports")}
    assert {m.hexes[i].label for i in ports} >= {"J39", "J10", "C30", "M47", "Q63"}  # Tobruk, Benghazi, Derna, Bardia, Matruh
    assert all(coastal(m, i) for i in ports)


# -------------------------------------------------------------------------------------------------------- bugout


def strip(rows: int = 3, cols: int = 20) -> Map:
    """Clear hexes, a coastal road along row A from the Axis edge (A1) to the Allied edge."""
    hexes = {Hex.from_offset(r, c): "clear" for r in range(rows) for c in range(cols)}
    road = tuple(H(f"A{c}") for c in range(1, cols + 1))
    sources = {Side.AXIS: [road[0]], Side.ALLIED: [road[-1]]}
    return build_map("strip", hexes, routes=[RouteLine("road", "coast", road)], zones={"coastal-road": road}, supply_sources=sources)


@pytest.mark.rule("CA-S.4")
def test_a_bugout_goes_at_least_16_hexes_back() -> None:
    m = strip()
    p = position(m, "90Lt@A17")
    rear = ix(p, "A1")
    found = bugout_reach(p, "90Lt", rear)
    assert back(p, ix(p, "A17"), rear, rear) == 16
    assert rear in found.destinations  # 16 hexes back
    assert ix(p, "A2") not in found.destinations  # 15
    assert OFF_MAP in found.destinations  # off the map through its own edge hex
    with pytest.raises(IllegalOrderError) as err:
        check_bugout(p, "90Lt", ix(p, "A2"), rear)
    assert err.value.clause == "CA-S.4" and "15 hexes back" in err.value.reason
    # a unit 15 hexes from its edge cannot go 16 back on the map: only off it
    p = position(m, "90Lt@A16")
    assert bugout_reach(p, "90Lt", rear).destinations == {OFF_MAP}


@pytest.mark.rule("CA-S.4")
def test_the_allies_bug_out_east() -> None:
    m = strip()
    p = position(m, "GdsBde@A3")
    rear = rear_hex(m, Side.ALLIED)
    assert p.hex(rear).label == "A20"
    found = bugout_reach(p, "GdsBde", rear)
    assert ix(p, "A19") in found.destinations and ix(p, "A18") not in found.destinations  # 16 and 15 back
    assert p.hex(rear_hex(m, Side.AXIS)).label == "A1"


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-S.1")
def test_a_bugout_passes_zones_at_a_risk_and_ends_newly_disrupted() -> None:
    m = strip()
    # the New Zealand division at B9 covers A9, A10, B8, B10, C9, C10: a way west along the strip enters two of them
    p = position(m, "90Lt@A19:d", "NZDiv@B9")
    rear = ix(p, "A1")
    found = bugout_reach(p, "90Lt", rear)
    assert found.blocking(rear) == 2
    assert found.blocking(ix(p, "A11")) == 0 and found.blocking(ix(p, "A10")) == 1
    assert survival(found.blocking(rear)) == Fraction(25, 36)
    after = bugout(p, "90Lt", ix(p, "A3"), rear, lost=False)  # disrupted units may bug out
    u = after.unit("90Lt")
    assert p.hex(u.hex).label == "A3" and u.disrupted and u.newly_disrupted
    assert "90Lt" not in bugout(p, "90Lt", ix(p, "A3"), rear, lost=True).by_id
    assert "90Lt" not in bugout(p, "90Lt", OFF_MAP, rear, lost=False).by_id


@pytest.mark.rule("CA-S.4")
def test_a_bugout_never_enters_an_enemy_hex_and_may_not_overstack() -> None:
    m = strip(1, 20)
    p = position(m, "90Lt@A19", "NZDiv@A9")
    found = bugout_reach(p, "90Lt", ix(p, "A1"))
    assert not {ix(p, "A1"), ix(p, "A3"), OFF_MAP} & found.destinations  # the New Zealanders bar the only way
    with pytest.raises(IllegalOrderError) as err:
        check_bugout(p, "90Lt", ix(p, "A3"), ix(p, "A1"))
    assert err.value.clause == "CA-S.4"
    p = position(m, "90Lt@A19", "XXICorps@A2", "XCorps@A3")
    found = bugout_reach(p, "90Lt", ix(p, "A1"))
    assert ix(p, "A2") in found.destinations  # a corps and a division may share a hex
    p = position(m, "Trieste@A19", "XXICorps@A2", "164Div@A2")
    with pytest.raises(IllegalOrderError) as err:
        check_bugout(p, "Trieste", ix(p, "A2"), ix(p, "A1"))
    assert err.value.clause == "CA-K.1"  # a third division-level unit


@pytest.mark.rule("CA-S.4")
def test_the_bugout_die_of_one_zone_hex() -> None:
    outcomes = bugout_hex_outcomes()
    check(outcomes, "bugout")
    assert [o.value for o in outcomes if o.label == "eliminated"] == [1]
    assert sum(o.probability for o in outcomes if o.label == "eliminated") == Fraction(1, 6)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12))
@pytest.mark.rule("CA-S.4")
def test_the_bugout_as_one_node_sums_to_one_and_survives_five_sixths_to_the_k(k: int) -> None:
    outcomes = bugout_outcomes(k)
    check(outcomes, "bugout")
    assert sum(o.probability for o in outcomes) == 1
    assert outcomes[0].value == 0 and outcomes[0].probability == Fraction(5, 6) ** k == survival(k)
    for o in outcomes[1:]:
        assert o.probability == Fraction(1, 6) * Fraction(5, 6) ** (o.value - 1)


def _risk_oracle(m: Map, p: CampaignPosition, unit: str, rear: int) -> tuple[dict[int, int], set[int]]:
    """The fewest zone hexes entered to each hex: networkx's Dijkstra on a digraph of the hexes a unit may be in
    (clear ground, not an enemy's), its edges those that come a hex nearer the rear hex, an edge weighing 1 when it
    enters a hex next to an Allied division (clear boards)."""
    u = p.unit(unit)
    enemy = {x.hex for x in p.units if x.side is Side.ALLIED}
    zone = {m.index[n] for x in p.units if x.side is Side.ALLIED and x.division_level for n in m.neighbours(m.hexes[x.hex])}
    g = nx.DiGraph()
    for i, h in enumerate(m.hexes):
        if m.terrain[h] != "clear" or i in enemy:  # the sea and the depression are closed (CA-F.8, CA-F.11)
            continue
        g.add_node(i)
        for n in m.neighbours(h):
            j = m.index[n]
            if m.terrain[n] == "clear" and j not in enemy and n.distance(m.hexes[rear]) < h.distance(m.hexes[rear]):
                g.add_edge(i, j, weight=1 if j in zone else 0)  # each step a hex nearer the rear
    return dict(nx.single_source_dijkstra_path_length(g, u.hex)), zone


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
@pytest.mark.rule("CA-S.4")
def test_bugout_risk_and_length_against_the_oracle(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 5), rng.choice((rng.randint(2, 16), rng.randint(17, 26), rng.randint(17, 26)))
    closed = rng.choice((0.0, 0.04, 0.15))
    kinds = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    hexes = {h: rng.choice(("sea", "depression")) if rng.random() < closed else "clear" for h in kinds}
    land = [h for h, t in hexes.items() if t == "clear"]
    if len(land) < 2:
        return
    m = build_map("random", hexes)
    # most boards put the unit at the east end and its edge hex at the west, so that some bugouts reach 16 hexes
    west = [h for h in land if h.col == 0]
    east = [h for h in land if h.col >= cols - 4 and (h not in west or len(west) > 1)]
    far = rng.random() < 0.8 and west and east
    start = rng.choice(east) if far else rng.choice(land)
    rear_hex_ = rng.choice([h for h in west if h != start]) if far else rng.choice([h for h in land if h != start])
    others = [h for h in land if h not in (start, rear_hex_)]
    rng.shuffle(others)
    placed = [f"90Lt@{start.label}"]
    for uid in rng.sample(("NZDiv", "4IndDiv", "GdsBde", "1PolBde"), min(len(others), rng.randint(0, 3))):
        placed.append(f"{uid}@{others.pop().label}")
    p = position(m, *placed)
    rear = m.index[rear_hex_]
    found = bugout_reach(p, "90Lt", rear)
    oracle, zone = _risk_oracle(m, p, "90Lt", rear)
    assert {i: found.risk[i] for i in range(len(m.hexes)) if found.risk[i] >= 0} == oracle
    for j in found.destinations - {OFF_MAP}:
        assert back(p, p.unit("90Lt").hex, j, rear) >= 16
        path = found.path(j)
        assert all(m.hexes[a].is_adjacent(m.hexes[b]) for a, b in itertools.pairwise(path))
        assert len(path) - 1 == back(p, path[0], j, rear) >= 16  # the route is as long as it goes back
        assert sum(1 for i in path[1:] if i in zone) == found.blocking(j) == oracle[j]  # the way it gives is that risky
    ends = {j for j in oracle if j != p.unit("90Lt").hex and back(p, p.unit("90Lt").hex, j, rear) >= 16}
    ends = {j for j in ends if not p.at(j)}  # the Axis unit is alone: an empty hex always takes it
    assert ends <= found.destinations
    assert (OFF_MAP in found.destinations) == (rear in oracle)


@pytest.mark.rule("CA-S.2")
def test_rail_on_the_campaign_map_in_november_1941() -> None:
    m = campaign()
    line = rail_line(m, forces().track.railhead("I Nov 41"))  # Misheifa, R53
    p = position(m, "GdsBde@V79")
    ends = labels(p, rail_moves(p, "GdsBde", line).destinations)
    assert "R53" in ends and "Q63" in ends and "R52" not in ends  # the line ends at the railhead
    # the 90th Light at S65, beside the line east of Mersa Matruh, cuts it at S66
    p = position(m, "GdsBde@V79", "90Lt@S65")
    ends = labels(p, rail_moves(p, "GdsBde", line).destinations)
    assert "S67" in ends and not {"S66", "R65", "Q63", "R53"} & ends


@pytest.mark.rule("CA-S.4")
def test_the_gazala_gallop_on_the_campaign_map() -> None:
    m = campaign()
    p = position(m, "50Div@I35", "90Lt@I33", "21Pz@J36")
    rear = rear_hex(m, Side.ALLIED)
    found = bugout_reach(p, "50Div", rear)
    ends = found.destinations - {OFF_MAP}
    assert ends and OFF_MAP in found.destinations
    assert all(back(p, ix(p, "I35"), j, rear) >= 16 for j in ends)
    closed = {"sea", "depression", "sand-sea", "salt-marsh"}
    assert not any(m.terrain[m.hexes[j]] in closed for j in range(len(m.hexes)) if found.risk[j] >= 0)
    # the 21st Panzer at J36 sits across the way east: the gallop passes I36 and I37 in its zone, then runs free
    way = [p.hex(i).label for i in found.path(ix(p, "K43"))]
    assert way[:3] == ["I35", "I36", "I37"] and found.blocking(ix(p, "K43")) == found.blocking(OFF_MAP) == 2
    assert len(way) - 1 == back(p, ix(p, "I35"), ix(p, "K43"), rear)  # each hex of it a hex back
    assert survival(found.blocking(OFF_MAP)) == Fraction(25, 36)


def test_refusals_at_the_edges_of_strategic_movement() -> None:
    m = rail_board()
    line = rail_line(m, "Head")
    p = position(m, "GdsBde@A7", "NZDiv@A3", "4IndDiv@A3", "1PolBde@A3")
    with pytest.raises(IllegalOrderError, match="already stands"):
        rail_move(p, "GdsBde", ix(p, "A7"), line)
    with pytest.raises(IllegalOrderError) as err:
        rail_move(p, "GdsBde", ix(p, "A3"), line)  # a fourth unit
    assert err.value.clause == "CA-K.1"
    with pytest.raises(IllegalOrderError) as err:
        rail_move(p, "GdsBde", ix(p, "B3"), line)  # off the line
    assert err.value.clause == "CA-S.2"
    with pytest.raises(ValueError, match="no place"):
        rail_line(m, "Nowhere")
    off = build_map("off", {H("A1"): "clear", H("A2"): "clear"}, railway=[H("A1")], places=[Place("Away", H("A2"))])
    with pytest.raises(ValueError, match="not on the railway"):
        rail_line(off, "Away")
    s = sea_board()
    q = position(s, "GdsBde@B2")
    with pytest.raises(IllegalOrderError, match="already stands"):
        check_sea_move(q, "GdsBde", ix(q, "B2"), control(q, ALLIED_PORTS), used=False)
    with pytest.raises(ValueError, match="not a face"):
        sea_move(q, "GdsBde", ix(q, "B5"), 7, friendly_sea=True)
    with pytest.raises(ValueError):
        bugout_outcomes(-1)
    b = position(strip(1, 20), "90Lt@A19", "NZDiv@A9")
    found = bugout_reach(b, "90Lt", ix(b, "A1"))
    with pytest.raises(KeyError):
        found.path(ix(b, "A3"))
    with pytest.raises(IllegalOrderError, match="no way to its edge hex"):
        check_bugout(b, "90Lt", OFF_MAP, ix(b, "A1"))
    assert found.path(ix(b, "A19")) == (ix(b, "A19"),)
    assert bugout_outcomes(0) == bugout_outcomes(0)[:1] and survival(0) == 1


@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-S.4")
def test_the_engines_dice_draw_these_nodes() -> None:
    """The seeded dice draw each distribution as a chance node does in play: only listed values, about as often as
    the fractions say (1,800 draws; the bounds are five standard deviations wide)."""
    dice = Dice(7)
    draws = 1800
    arrived = sum(dice.draw("bugout", bugout_outcomes(2)) == 0 for _ in range(draws))
    assert abs(arrived / draws - 25 / 36) < 5 * (25 / 36 * 11 / 36 / draws) ** 0.5
    sunk = sum(dice.draw("sea move", sea_outcomes(False)) <= 3 for _ in range(draws))
    assert abs(sunk / draws - 1 / 2) < 5 * (1 / 4 / draws) ** 0.5
    assert {dice.draw("bugout", bugout_outcomes(3)) for _ in range(300)} <= {0, 1, 2, 3}


@pytest.mark.rule("CA-S.4")
def test_an_undisrupted_unit_ends_its_bugout_disrupted() -> None:
    p = position(strip(), "90Lt@A19")
    u = bugout(p, "90Lt", ix(p, "A3"), ix(p, "A1"), lost=False).unit("90Lt")
    assert u.disrupted and u.newly_disrupted


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-K.1")
def test_a_bugout_exactly_16_hexes_back_is_refused_only_for_the_stack_it_would_make() -> None:
    p = position(strip(1, 20), "Trieste@A17", "XXICorps@A1", "164Div@A1")
    with pytest.raises(IllegalOrderError) as err:
        check_bugout(p, "Trieste", ix(p, "A1"), ix(p, "A1"))
    assert err.value.clause == "CA-K.1"
    assert err.value.reason.startswith("A1 would hold 3 division-level units") and "Trieste" in err.value.reason


@pytest.mark.rule("CA-S.4")
def test_bugout_refusals_name_the_clause_and_the_hex() -> None:
    p = position(strip(1, 20), "90Lt@A19", "NZDiv@A9")  # the New Zealanders bar the only way west
    rear = ix(p, "A1")
    with pytest.raises(IllegalOrderError) as err:
        check_bugout(p, "90Lt", ix(p, "A3"), rear)
    assert (err.value.clause, err.value.reason) == ("CA-S.4", "90Lt has no way to A3 (enemy units, impassable ground or the sea)")
    with pytest.raises(IllegalOrderError) as err:
        check_bugout(p, "90Lt", OFF_MAP, rear)
    assert (err.value.clause, err.value.reason) == ("CA-S.4", "90Lt has no way to its edge hex A1")
    with pytest.raises(KeyError) as key:
        bugout_reach(p, "90Lt", rear).path(ix(p, "A3"))
    assert key.value.args == (ix(p, "A3"),)


@pytest.mark.rule("CA-S.4")
def test_the_bugout_outcomes_say_what_each_means() -> None:
    labels_ = [o.label for o in bugout_outcomes(2)]
    assert labels_ == ["arrives", "eliminated at zone hex 1", "eliminated at zone hex 2"]
    with pytest.raises(ValueError) as err:
        bugout_outcomes(-1)
    assert str(err.value) == "a bugout enters 0 or more zone hexes"


@pytest.mark.rule("CA-S.2")
@pytest.mark.rule("CA-S.3")
def test_rail_and_sea_refusals_name_their_clause_and_reason() -> None:
    m = rail_board()
    line = rail_line(m, "Head")
    p = position(m, "GdsBde@A7")
    with pytest.raises(IllegalOrderError) as err:
        rail_move(p, "GdsBde", ix(p, "A7"), line)
    assert (err.value.clause, err.value.reason) == ("CA-S.2", "GdsBde already stands in A7")
    assert rail_moves(p, "GdsBde", line).refusal(ix(p, "B3")) == "[CA-S.2] not a hex of the railway up to the railhead"
    alone = position(m, "GdsBde@A5", "90Lt@B4")  # its own hex in an enemy zone: no hex of the line for it
    assert rail_moves(alone, "GdsBde", line).refusal(ix(alone, "A2")) == (
        "[CA-S.2] A5 is in an enemy zone of control that no friendly unit occupies"
    )
    s = sea_board()
    q = position(s, "GdsBde@B2", "NZDiv@B3")
    with pytest.raises(IllegalOrderError) as err:
        check_sea_move(q, "GdsBde", ix(q, "B2"), control(q, ALLIED_PORTS), used=False)
    assert (err.value.clause, err.value.reason) == ("CA-S.3", "GdsBde already stands in B2")
    with pytest.raises(IllegalOrderError) as err:
        check_sea_move(q, "NZDiv", ix(q, "B2"), control(q, ALLIED_PORTS), used=True)
    assert (err.value.clause, err.value.reason) == ("CA-S.3", "one unit a player-turn may move by sea, and one has")
