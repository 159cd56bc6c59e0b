"""Campaign supply against an oracle of its own, on random small boards (CA-P.1, CA-F.3, CA-F.6).

The oracle reads the rules afresh from the position as drawn (docs/rulings.md, "North-Africa campaign: supply"):
distances by :meth:`Hex.distance` (as the crow flies) to the nearest unit of each side; a hex a line may use is
land no unit is barred from, no nearer an enemy unit than a friendly one, and not a vacant enemy fortification;
the Axis sources are the coastal road from its west end up to the first hex a line may not use, and the towns a
line may use chained to it or to each other by links of at most 7 hexes; the Allied source is the road's east end.
networkx then gives every hex joined to a source through usable hexes.  The rule code, which measures distances by
breadth-first search and traces on the family's compiled search, must find the same hexes, with routes that are
chains of usable adjacent hexes from a source.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.systems.campaign.test_supply import board
from tobruk.board.hexes import Hex
from tobruk.board.maps import Map, Terrain
from tobruk.engine.sides import Side
from tobruk.systems.campaign.supply import supply_ground, trace

LINK = 7  # CA-P.1: the longest link of a chain of towns and oases, in hexes
KINDS = (Terrain.CLEAR, Terrain.CLEAR, Terrain.CLEAR, Terrain.SEA, Terrain.DEPRESSION, Terrain.SAND_SEA, Terrain.SALT_MARSH)


@dataclass
class Position:
    rows: int
    cols: int
    road_row: int
    terrain: dict[str, str]
    towns: list[Hex]
    friends: list[Hex]
    enemies: list[Hex]
    forts: list[Hex]
    side: Side

    def map(self) -> Map:
        return board(self.rows, self.cols, road_row=self.road_row, terrain=self.terrain, towns=[t.label for t in self.towns])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(2, 16))
    road_row = draw(st.integers(0, rows - 1))
    hexes = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    off_road = [h for h in hexes if h.row != road_row]
    terrain = {h.label: draw(st.sampled_from(KINDS)) for h in off_road}
    land = [h for h in hexes if terrain.get(h.label, Terrain.CLEAR) != Terrain.SEA]
    clear = [h for h in hexes if terrain.get(h.label, Terrain.CLEAR) == Terrain.CLEAR]
    picks = draw(st.permutations(clear))
    n_friends, n_enemies = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    friends, enemies = picks[:n_friends], picks[n_friends : n_friends + n_enemies]
    towns = draw(st.lists(st.sampled_from(land), max_size=8, unique=True))
    forts = draw(st.lists(st.sampled_from(land), max_size=3, unique=True))
    return Position(rows, cols, road_row, terrain, towns, list(friends), list(enemies), forts, draw(st.sampled_from(list(Side))))


def oracle(p: Position, m: Map) -> set[Hex]:
    """Every hex a line of ``p.side`` reaches, by the rules as read in the module docstring."""
    impassable = {Terrain.SEA, Terrain.DEPRESSION, Terrain.SAND_SEA, Terrain.SALT_MARSH}
    far = 10**9

    def nearest(h: Hex, units: list[Hex]) -> int:
        return min((h.distance(u) for u in units), default=far)

    def usable(h: Hex) -> bool:
        if m.terrain[h] in impassable or nearest(h, p.friends) > nearest(h, p.enemies):
            return False
        return h not in p.forts or h in p.friends

    road = sorted((h for h in m.hexes if h.row == p.road_row), key=lambda h: h.col)
    sources: set[Hex] = set()
    if p.side is Side.ALLIED:
        sources = {road[-1]} if usable(road[-1]) else set()
    else:
        back = list(itertools.takewhile(usable, road))
        towns = {t for t in p.towns if usable(t)}
        chained = {t for t in towns if back and nearest(t, back) <= LINK}
        while more := {t for t in towns - chained if nearest(t, sorted(chained)) <= LINK}:
            chained |= more
        sources = set(back) | chained
    g = nx.Graph()
    g.add_nodes_from(h for h in m.hexes if usable(h))
    g.add_edges_from((h, n) for h in g.nodes for n in h.neighbours() if n in g.nodes)
    out: set[Hex] = set()
    for s in sources:
        out |= nx.node_connected_component(g, s)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_supply_lines_match_the_oracle(p: Position) -> None:
    m = p.map()
    ix = m.index
    found = trace(supply_ground(m), p.side, [ix[h] for h in p.friends], [ix[h] for h in p.enemies], [ix[h] for h in p.forts])
    expected = oracle(p, m)
    assert {m.hexes[i] for i in found.supplied_hexes()} == expected
    for i in found.supplied_hexes():
        route = [m.hexes[k] for k in found.route(i)]
        assert route[-1] == m.hexes[i] and all(found.usable[ix[h]] for h in route)
        assert all(a.is_adjacent(b) for a, b in itertools.pairwise(route))
        assert ix[route[0]] in found.road or ix[route[0]] in found.towns


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_unit_out_of_supply_is_blamed_on_a_fortification_only_when_opening_it_would_supply_it(p: Position) -> None:
    m = p.map()
    ix = m.index
    units = {f"u{k}": ix[h] for k, h in enumerate(p.friends)}
    found = trace(supply_ground(m), p.side, list(units.values()), [ix[h] for h in p.enemies], [ix[h] for h in p.forts])
    unforted = trace(supply_ground(m), p.side, list(units.values()), [ix[h] for h in p.enemies])
    for s in found.status(units).values():
        assert s.supplied == found.supplied(s.hex)
        if not s.supplied:
            assert s.clause in ("CA-P.1", "CA-F.3")
            if s.clause == "CA-F.3":
                assert unforted.supplied(s.hex)
