"""Property tests of operational movement against an independent oracle, on random small maps.

The oracle works the rules out again from the position as drawn (not from the engine's tables): it builds
the graph of (hex, fraction of an MF carried along the road, whether an enemy ZOC was entered) with each
step's cost written from the charts and GG-XIII, XI.A, XI.C-D, VIII.A-B (rulings R-ROUND, R-ESC, R-BONUS,
R-SAND, R-RAIN), and lets networkx find the cheapest paths.  The engine's reach must offer exactly the hexes
the oracle reaches, each with the same MF left; ``play`` must accept those and refuse every other hex with
the clause of the rule the oracle finds broken, leaving the state untouched.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import networkx as nx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex, Hexside
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import moves as mv

MF = 60  # sixtieths of a movement factor
# Terrain effects chart: sixtieths of an MF per hex along a road, a major track, a minor track (GG-XIII.A.2a-c);
# walking infantry 1/2 on any of them. In a rainstorm the major-track fraction is doubled and minor tracks give
# no boost (GG-VIII.B.2, ruling R-RAIN); a sandstorm keeps the boosts (GG-VIII.A.2).
RATES = {
    "clear": {"armour": (15, 20, 30), "motorized": (12, 15, 20), "foot": (30, 30, 30)},
    "sandstorm": {"armour": (15, 20, 30), "motorized": (12, 15, 20), "foot": (30, 30, 30)},
    "rainstorm": {"armour": (15, 40, 60), "motorized": (12, 30, 60), "foot": (30, 60, 60)},
}
KINDS = {"road": 0, "major-track": 1, "minor-track": 2}
ASCENT = {"armour": 2 * MF, "motorized": 2 * MF, "foot": MF}  # GG-XI.C
UNITS = {
    "armour": ("armour", "4-3-4", 4),
    "motorized": ("motorized", "2-3-3", 3),
    "recce": ("motorized", "1-1-5", 5),
    "infantry": ("foot", "2-3-2", 2),
}


@dataclass
class Position:
    """A small board and its units, as drawn: the engine gets it as TOML, the oracle as these lists."""

    rows: int
    cols: int
    mover: Hex
    kind: str
    enemies: list[Hex]
    friends: list[Hex]
    sea: set[Hex]
    routes: list[tuple[str, list[Hex]]]
    escarpments: list[tuple[Hexside, Hex, bool]]  # (hexside, its high side, towering)
    forts: list[Hex]  # Allied boxes: enemy forts to the Axis mover
    mines: list[Hexside]  # Allied minefields
    toml: tuple[str, str] = field(default=("", ""))  # (units, map extra)

    def land(self, h: Hex) -> bool:
        return 0 <= h.row < self.rows and 0 <= h.col < self.cols and h not in self.sea


def board(rows: int, cols: int) -> list[Hex]:
    return [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(3, 6))
    hexes = board(rows, cols)
    picks = draw(st.permutations(hexes))
    mover = picks[0]
    enemies = picks[1 : 1 + draw(st.integers(0, 3))]
    rest = picks[1 + len(enemies) :]
    friends = rest[: draw(st.integers(0, 2))]
    free = [h for h in hexes if h != mover and h not in enemies and h not in friends]
    sea = set(draw(st.lists(st.sampled_from(free), max_size=2, unique=True))) if free else set()
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
            routes.append((draw(st.sampled_from(sorted(KINDS))), chain))
    sides = sorted({Hexside.between(h, n) for h in land for n in h.neighbours() if n in land})
    escarpments = []
    for side in draw(st.lists(st.sampled_from(sides), max_size=4, unique=True)) if sides else []:
        escarpments.append((side, draw(st.sampled_from(side.hexes)), draw(st.booleans())))
    # boxes, often with an enemy unit in them (what GG-XI.A.3n is about)
    forts = draw(st.lists(st.sampled_from([h for h in land if h != mover and h not in friends]), max_size=2, unique=True))
    if bool(enemies) and draw(st.booleans()):
        forts = sorted(set(forts) | set(draw(st.lists(st.sampled_from(enemies), min_size=1, max_size=2, unique=True))))
    mines = draw(st.lists(st.sampled_from(sides), max_size=3, unique=True)) if sides else []
    kind = draw(st.sampled_from(sorted(UNITS)))
    p = Position(rows, cols, mover, kind, list(enemies), list(friends), sea, routes, escarpments, forts, mines)
    p.toml = position_toml(p)
    return p


def position_toml(p: Position) -> tuple[str, str]:
    type_ = "recce" if p.kind == "recce" else p.kind
    units = unit_toml("M", "axis", p.mover.label, type_=type_, factors=UNITS[p.kind][1])
    units += "".join(unit_toml(f"E{i}", "allied", e.label, type_="infantry", factors="1-1-2") for i, e in enumerate(p.enemies))
    units += "".join(unit_toml(f"F{i}", "axis", f.label, type_="infantry", factors="1-1-2") for i, f in enumerate(p.friends))
    extra = ""
    if p.sea:
        extra += "[map.terrain]\nsea = [" + ", ".join(f'"{h.label}"' for h in sorted(p.sea)) + "]\n"
    for kind, chain in p.routes:
        extra += f'[[map.route]]\nkind = "{kind}"\nhexes = [' + ", ".join(f'"{h.label}"' for h in chain) + "]\n"
    esc = [f'{{ side = "{s.label}", high = "{high.label}" }}' for s, high, tow in p.escarpments if not tow]
    tow = [f'{{ side = "{s.label}", high = "{high.label}" }}' for s, high, t in p.escarpments if t]
    mines = [f'{{ side = "{s.label}", owner = "allied" }}' for s in p.mines]
    if esc or tow or mines:
        extra += "[map.hexsides]\n"
        extra += "escarpment = [" + ", ".join(esc) + "]\n" if esc else ""
        extra += '"towering-escarpment" = [' + ", ".join(tow) + "]\n" if tow else ""
        extra += "minefield = [" + ", ".join(mines) + "]\n" if mines else ""
    if p.forts:
        extra += "[map.fortifications]\nallied = [" + ", ".join(f'"{h.label}"' for h in p.forts) + "]\n"
    return units, extra


# --- the oracle ---------------------------------------------------------------------------------------------------


@dataclass
class Oracle:
    """The rules of operational movement for the Axis mover of a :class:`Position`, worked out afresh."""

    p: Position
    weather: str
    disrupted: bool

    def __post_init__(self) -> None:
        p = self.p
        cls = UNITS[p.kind][0]
        self.vehicle = cls != "foot"  # R-ROUND: only vehicles lose the fractions
        self.rates = RATES[self.weather][cls]
        self.ascent = ASCENT[cls]
        mf = UNITS[p.kind][2]
        if self.disrupted or self.weather in ("sandstorm", "rainstorm"):
            mf = min(mf, 1)  # GG-IX.A, VIII.A.2, VIII.B.2
        self.budget, self.bonus = mf * MF, MF  # GG-XIII.C: +1 MF entering no enemy ZOC
        self.zoc: dict[Hex, set[Hex]] = {}  # hex -> the enemies (by their hexes) whose ZOC covers it
        for e in p.enemies:
            for n in e.neighbours():
                if p.land(n):
                    self.zoc.setdefault(n, set()).add(e)
        self.route: dict[Hexside, int] = {}
        for kind, chain in p.routes:
            for a, b in itertools.pairwise(chain):
                s = Hexside.between(a, b)
                self.route[s] = min(self.route.get(s, 9), KINDS[kind])  # the better kind where two share a side

    def step(self, here: Hex, there: Hex, frac: int) -> tuple[int, int, bool, bool] | str:
        """(cost, fraction carried on, must stop, entered a ZOC), or the clause the step breaks."""
        p = self.p
        side = Hexside.between(here, there)
        if not p.land(there):
            return "GG-XIII.A.2"
        if there in p.enemies:
            return "GG-XIII.A.3"
        kind = self.route.get(side)
        esc = [(high, tow) for s, high, tow in p.escarpments if s == side]
        if any(tow for _, tow in esc) and kind is None:
            return "GG-XI.D"  # impassable unless a road or track crosses it
        sandstorm = self.weather == "sandstorm"
        # R-SAND: in a sandstorm a ZOC counts only when entered across an enemy minefield
        into_zoc = there in self.zoc and (not sandstorm or side in p.mines)
        if into_zoc and not sandstorm and here in self.zoc and there not in p.friends:
            if self.zoc[here] & self.zoc[there]:
                return "GG-XIII.B.3"  # from one ZOC of an enemy unit into another of the same unit
            in_box_here = self.zoc[here] & set(p.forts)
            in_box_there = self.zoc[there] & set(p.forts)
            if any(x != y for x in in_box_here for y in in_box_there):
                return "GG-XI.A.3n"
        rate = self.rates[kind] if kind is not None else MF
        if kind is not None and rate < MF and not into_zoc:  # GG-XIII.B.4: no road rate into a ZOC
            cost, carried = rate, (frac + rate) % MF if self.vehicle else 0
        else:  # off the road: a vehicle's fractions are rounded up to a whole MF first (GG-XIII.A.2d)
            cost = ((MF - frac) % MF if self.vehicle else 0) + MF
            if kind is None and any(high == there for high, _ in esc):
                cost += self.ascent  # ascending off road or track (GG-XI.C, R-ESC)
            carried = 0
        stop = into_zoc or there in p.forts  # GG-XIII.B.1; an enemy box (GG-XI.A.4)
        return cost, carried, stop, into_zoc

    def reach(self) -> dict[Hex, int]:
        """Every hex the mover can end in, with the most MF (sixtieths) it can have left there."""
        start = (self.p.mover, 0, False, False)  # (hex, fraction carried, entered a ZOC, had to stop)
        graph = nx.DiGraph()
        graph.add_node(start)
        todo = [start]
        while todo:
            here, frac, entered, stopped = node = todo.pop()
            if stopped:
                continue
            for there in here.neighbours():
                if there == self.p.mover:
                    continue
                result = self.step(here, there, frac)
                if isinstance(result, str):
                    continue
                cost, carried, stop, into = result
                nxt = (there, carried, entered or into, stop)
                if nxt not in graph:
                    todo.append(nxt)
                graph.add_edge(node, nxt, weight=cost)
        best: dict[Hex, int] = {}
        for (h, _, entered, _), spent in nx.single_source_dijkstra_path_length(graph, start).items():
            left = (self.budget if entered else self.budget + self.bonus) - spent
            if h != self.p.mover and left >= 0:
                best[h] = max(best.get(h, -1), left)
        return best

    def refusal(self, target: Hex) -> str:
        """The clause a destination-only order to an unreachable hex is refused with: the first step's rule
        when the hex is next to the mover, else not enough MF (GG-XIII.A.2)."""
        if target.is_adjacent(self.p.mover):
            result = self.step(self.p.mover, target, 0)
            if isinstance(result, str):
                return result
        return "GG-XIII.A.2"


def game_for(p: Position, weather: str, disrupted: bool) -> Game:
    units, extra = p.toml
    game = movement_game(units, extra, rows=p.rows, columns=p.cols)
    game.vars.weather = weather
    family_unit(game, "M").disrupted = disrupted
    return game


WEATHER = st.sampled_from(["clear", "sandstorm", "rainstorm"])


def drawn(rows: int, cols: int, mover: str, kind: str, enemies: list[str], forts: list[str]) -> Position:
    """A position written by hand, for the cases random drawing rarely meets."""
    p = Position(rows, cols, Hex.parse(mover), kind, [Hex.parse(e) for e in enemies], [], set(), [], [], [Hex.parse(f) for f in forts], [])
    p.toml = position_toml(p)
    return p


# A2 is in the ZOC of the unit in the box A1; A3 in that of the unit in the box A4 only (GG-XI.A.3n)
BOX_TO_BOX = drawn(3, 5, "A2", "armour", ["A1", "A4"], ["A1", "A4"])


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), WEATHER, st.booleans())
@example(BOX_TO_BOX, "clear", False)
def test_reach_is_what_the_oracle_finds(p: Position, weather: str, disrupted: bool) -> None:
    game = game_for(p, weather, disrupted)
    ctx = mv.move_context(game, "M")
    engine = {h: r.left(ctx) for h, r in mv.destinations(game, "M").items()}
    assert engine == Oracle(p, weather, disrupted).reach()


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), WEATHER, st.booleans())
@example(BOX_TO_BOX, "clear", False)
def test_play_accepts_the_reach_and_refuses_the_rest_with_the_rule(p: Position, weather: str, disrupted: bool) -> None:
    game = game_for(p, weather, disrupted)
    oracle = Oracle(p, weather, disrupted)
    offered = mv.destinations(game, "M")
    for h in board(p.rows, p.cols):
        if h == p.mover:
            continue
        trial = game.copy()
        before = trial.state_hash()
        if h in offered:
            trial.play(Move("M", (h,)))
            assert trial.unit("M").hex == h
            again = game.copy()
            again.play(Move("M", offered[h].path))
            assert family_unit(again, "M").hex == h
        else:
            try:
                trial.play(Move("M", (h,)))
            except IllegalOrderError as exc:
                assert exc.clause == oracle.refusal(h), (h, exc.reason)
                assert trial.state_hash() == before
            else:
                raise AssertionError(f"{h} was not offered but the move was accepted")
