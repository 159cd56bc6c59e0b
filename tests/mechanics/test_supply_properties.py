"""Property test of the supply search against an independent oracle, on random small maps (GG-XV.A.2).

The oracle reads the position as drawn and applies the supply-line rules afresh (rulings under "Supply" in
docs/rulings.md): from each usable source, along roads and tracks without counting, 1 MF for each hex off
the net and never back on it for free; enemy units, enemy boxes held or vacant in enemy ZOC, enemy villages
and (outside a sandstorm) undisrupted enemy ZOC block; a ZOC it may cross costs 1 MF more, and may not be
entered across an enemy minefield; hexes with friendly units are always open.  networkx finds the cheapest
lines; the engine must reach the same hexes at the same cost, in every weather.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import jump_to, make_scenario, unit_toml
from tobruk.board.hexes import Hex, Hexside
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import supply as sp

MF = 60
LINE = {"clear": 7, "rainstorm": 5}  # GG-XV.A.2; a sandstorm: 3 + the die of the determination


@dataclass
class Position:
    rows: int
    cols: int
    sources: list[Hex]  # Axis
    friends: list[Hex]  # Axis units
    enemies: list[tuple[Hex, bool]]  # Allied units, disrupted or not
    sea: set[Hex]
    routes: list[list[Hex]]
    boxes: list[Hex]  # Allied boxes
    villages: list[Hex]  # all Allied at the start (the inline map has no Axis set-up zone)
    mines: list[tuple[Hexside, str]]  # minefields and their owners (the Allied ones are the enemy's)

    def land(self, h: Hex) -> bool:
        return 0 <= h.row < self.rows and 0 <= h.col < self.cols and h not in self.sea


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(3, 8))
    hexes = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    picks = draw(st.permutations(hexes))
    n_friends, n_enemies = draw(st.integers(1, 3)), draw(st.integers(0, 3))
    friends, enemy_hexes = picks[:n_friends], picks[n_friends : n_friends + n_enemies]
    enemies = [(h, draw(st.booleans())) for h in enemy_hexes]
    rest = picks[n_friends + n_enemies :]
    sources = draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=2, unique=True))
    rest = [h for h in rest if h not in sources]
    sea = set(draw(st.lists(st.sampled_from(rest), max_size=2, unique=True))) if rest else set()
    land = [h for h in hexes if h not in sea]
    routes = []
    for _ in range(draw(st.integers(0, 3))):
        chain = [draw(st.sampled_from(land))]
        for _ in range(draw(st.integers(1, 6))):
            options = sorted(n for n in chain[-1].neighbours() if n in land and n not in chain)
            if not options:
                break
            chain.append(draw(st.sampled_from(options)))
        if len(chain) >= 2:
            routes.append(chain)
    boxes = draw(st.lists(st.sampled_from(land), max_size=2, unique=True))
    villages = draw(st.lists(st.sampled_from([h for h in land if h not in boxes] or land), max_size=2, unique=True))
    sides = sorted({Hexside.between(h, n) for h in land for n in h.neighbours() if n in land})
    mined = draw(st.lists(st.sampled_from(sides), max_size=4, unique=True)) if sides else []
    mines = [(side, draw(st.sampled_from(["allied", "axis"]))) for side in mined]
    return Position(rows, cols, sources, friends, enemies, sea, routes, boxes, villages, mines)


def game_of(p: Position, weather: str, die: int) -> Game:
    units = "".join(unit_toml(f"F{i}", "axis", h.label, type_="infantry", factors="1-1-2") for i, h in enumerate(p.friends))
    units += "".join(unit_toml(f"E{i}", "allied", h.label, type_="infantry", factors="1-1-2") for i, (h, _) in enumerate(p.enemies))
    extra = "[map.supply]\naxis = [" + ", ".join(f'"{h.label}"' for h in p.sources) + "]\n"
    terrain = [f"sea = [{', '.join(repr(h.label) for h in sorted(p.sea))}]"] if p.sea else []
    terrain += [f"village = [{', '.join(repr(h.label) for h in p.villages)}]"] if p.villages else []
    extra += "[map.terrain]\n" + "\n".join(terrain).replace("'", '"') + "\n" if terrain else ""
    for chain in p.routes:
        extra += '[[map.route]]\nkind = "minor-track"\nhexes = [' + ", ".join(f'"{h.label}"' for h in chain) + "]\n"
    if p.mines:
        extra += "[map.hexsides]\nminefield = [" + ", ".join(f'{{ side = "{s.label}", owner = "{o}" }}' for s, o in p.mines) + "]\n"
    if p.boxes:
        extra += "[map.fortifications]\nallied = [" + ", ".join(f'"{h.label}"' for h in p.boxes) + "]\n"
    game = Game(make_scenario(units, rows=p.rows, columns=p.cols, map_extra=extra))
    jump_to(game, "axis-movement")
    for i, (_, disrupted) in enumerate(p.enemies):
        family_unit(game, f"E{i}").disrupted = disrupted
    game.vars.weather = weather
    game.vars.supply_die = {"axis": die}
    return game


def oracle(p: Position, weather: str, die: int) -> dict[Hex, int]:
    """The cost of the cheapest Axis supply line to every hex a line of the weather's length reaches."""
    sandstorm = weather == "sandstorm"
    limit = (3 + die if sandstorm else LINE[weather]) * MF
    enemy_at = {h for h, _ in p.enemies}
    fresh: set[Hex] = set()  # hexes in the ZOC of undisrupted enemy units
    tired: set[Hex] = set()  # and of disrupted ones
    for h, disrupted in p.enemies:
        (tired if disrupted else fresh).update(h.neighbours())
    zoc = fresh | tired
    net = {Hexside.between(a, b) for chain in p.routes for a, b in itertools.pairwise(chain)}

    def entry(here: Hex, there: Hex) -> int | None:
        """The extra MF for entering ``there`` from ``here``, or None where the line may not go."""
        if not p.land(there):
            return None
        if there in p.friends:
            return 0  # always through a hex a friendly unit holds
        if there in enemy_at or (there in p.boxes and there in zoc) or there in p.villages:
            return None  # enemy units; an enemy box vacant in enemy ZOC; a village the enemy controls
        if there in fresh and not sandstorm:
            return None
        if there in zoc:
            return None if (Hexside.between(here, there), "allied") in p.mines else MF  # never across enemy mines
        return 0

    graph = nx.DiGraph()
    starts = [(s, True) for s in p.sources if s not in enemy_at]  # a source the enemy holds is no source
    todo = list(starts)
    graph.add_nodes_from(starts)
    while todo:
        here, on_net = node = todo.pop()
        for there in here.neighbours():
            extra = entry(here, there)
            if extra is None:
                continue
            along = on_net and Hexside.between(here, there) in net
            nxt = (there, along)
            if nxt not in graph:
                todo.append(nxt)
            graph.add_edge(node, nxt, weight=extra + (0 if along else MF))
    best: dict[Hex, int] = {}
    if starts:
        for (h, _), cost in nx.multi_source_dijkstra_path_length(graph, set(starts)).items():
            if cost <= limit:
                best[h] = min(best.get(h, cost), cost)
    return best


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from(["clear", "sandstorm", "rainstorm"]), st.integers(1, 6))
def test_supply_lines_are_what_the_oracle_finds(p: Position, weather: str, die: int) -> None:
    game = game_of(p, weather, die)
    engine = {h: t.cost for h, t in sp.trace(game, Side.AXIS).items()}
    assert engine == oracle(p, weather, die)
    # and a unit is in supply by its line exactly where the oracle reaches its hex
    status = sp.status(game, Side.AXIS)
    expected = oracle(p, weather, die)
    for i, h in enumerate(p.friends):
        assert status[f"F{i}"]["supplied"] == (h in expected)


def test_edge_tables_tabulate_step_rules_given_as_functions() -> None:
    # a 1 x 3 row A1-A2-A3: steps into A2 blocked, steps into A3 cost 1 MF more, off the board always blocked
    from tobruk.mechanics.supply import edge_tables

    game = game_of(Position(1, 3, [Hex.parse("A1")], [Hex.parse("A1")], [], set(), [], [], [], []), "clear", 1)
    m = game.scenario.map
    blocked, extra = edge_tables(m, lambda a, b: b.label == "A2", lambda a, b: MF if b.label == "A3" else 0)
    for i in range(len(m.hexes)):
        for d in range(6):
            j = m.neighbour_table[i * 6 + d]
            there = None if j < 0 else m.hexes[j].label
            assert blocked[i * 6 + d] == (there is None or there == "A2")
            assert extra[i * 6 + d] == (MF if there == "A3" else 0)
