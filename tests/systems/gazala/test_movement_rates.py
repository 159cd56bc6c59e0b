"""Movement rates worked out by hand, for every kind of unit, route and weather (GG-XIII.A.2, VIII.A.2, VIII.B.2).

A unit in A1 of a one-row map moves east along a route covering the whole row (or none).  Its MF: armour 4,
motorized 3, walking infantry 2, each +1 bonus entering no enemy ZOC (GG-XIII.C); in a sandstorm or a
rainstorm the basic MF is at most 1 (+1 bonus: 2 MF).  Hexes per move = MF / cost per hex, with the costs of
the terrain effects chart: armour 1/4 road, 1/3 major track, 1/2 minor track; motorized 1/5, 1/4, 1/3;
walking infantry 1/2 on any.  Rain doubles the major-track fraction and gives no minor-track boost (ruling
R-RAIN: armour 2/3, motorized 1/2, infantry 1 on a major track; 1 MF on a minor track).
"""

from __future__ import annotations

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.systems.gazala import moves as mv

UNITS = {"armour": ("armour", "4-3-4"), "motorized": ("motorized", "2-3-3"), "infantry": ("infantry", "2-3-2")}
# hexes reached from A1: (unit, weather) -> (road, major track, minor track, no route)
HEXES = {
    ("armour", "clear"): (20, 15, 10, 5),  # 5 MF: 5 x 4, 5 x 3, 5 x 2, 5
    ("motorized", "clear"): (20, 16, 12, 4),  # 4 MF: 4 x 5, 4 x 4, 4 x 3, 4
    ("infantry", "clear"): (6, 6, 6, 3),  # 3 MF: 3 x 2 on any route, 3
    ("armour", "sandstorm"): (8, 6, 4, 2),  # 2 MF, the usual boosts: 2 x 4, 2 x 3, 2 x 2, 2
    ("motorized", "sandstorm"): (10, 8, 6, 2),  # 2 x 5, 2 x 4, 2 x 3, 2
    ("infantry", "sandstorm"): (4, 4, 4, 2),  # 2 x 2
    ("armour", "rainstorm"): (8, 3, 2, 2),  # road 2 x 4; major 2 / (2/3) = 3; minor 2
    ("motorized", "rainstorm"): (10, 4, 2, 2),  # road 2 x 5; major 2 / (1/2) = 4; minor 2
    ("infantry", "rainstorm"): (4, 2, 2, 2),  # road 2 x 2; major and minor 1 MF a hex
}
ROUTES = ("road", "major-track", "minor-track", None)


@pytest.mark.rule("GG-XIII.A.2")
@pytest.mark.rule("GG-XIII.A.2a")
@pytest.mark.rule("GG-XIII.A.2b")
@pytest.mark.rule("GG-XIII.A.2c")
@pytest.mark.rule("GG-VIII.A.2")
@pytest.mark.rule("GG-VIII.B.2")
@pytest.mark.parametrize(("unit", "weather"), sorted(HEXES))
@pytest.mark.parametrize("route", range(4))
def test_hexes_reached_along_each_route_in_each_weather(unit: str, weather: str, route: int) -> None:
    kind = ROUTES[route]
    columns = 25
    extra = (
        "" if kind is None else (f'[[map.route]]\nkind = "{kind}"\nhexes = [' + ", ".join(f'"A{c}"' for c in range(1, columns + 1)) + "]\n")
    )
    game = movement_game(unit_toml("U", "axis", "A1", type_=UNITS[unit][0], factors=UNITS[unit][1]), extra, rows=1, columns=columns)
    game.vars.weather = weather
    far = HEXES[unit, weather][route]
    assert set(mv.destinations(game, "U")) == {Hex.parse(f"A{c}") for c in range(2, 2 + far)}


def two_roads(unit: str) -> dict[Hex, int]:
    # road A1-A2 and road A3-A4: the step A2-A3 and everything from A4 on is off the road
    extra = '[[map.route]]\nkind = "road"\nhexes = ["A1", "A2"]\n[[map.route]]\nkind = "road"\nhexes = ["A3", "A4"]\n'
    game = movement_game(unit_toml("U", "axis", "A1", type_=UNITS[unit][0], factors=UNITS[unit][1]), extra, rows=1, columns=12)
    return {h: r.spent for h, r in mv.destinations(game, "U").items()}


@pytest.mark.rule("GG-XIII.A.2d")
def test_a_motorized_unit_loses_its_fractions_each_time_it_leaves_the_road() -> None:
    # 4 MF (240 sixtieths): A2 1/5 (12); A3 rounded up to 1, +1: 2 MF; A4 1/5: 2 1/5; A5 rounded up to 3, +1: 4 MF.
    # Keeping the fractions would give A3 1 1/5, A4 1 2/5, A5 2 2/5, A6 3 2/5: one hex more.
    spent = two_roads("motorized")
    assert spent == {Hex.parse("A2"): 12, Hex.parse("A3"): 120, Hex.parse("A4"): 132, Hex.parse("A5"): 240}


@pytest.mark.rule("GG-XIII.A.2d")
def test_walking_infantry_keeps_its_halves_off_the_road() -> None:
    # ruling R-ROUND: only vehicles lose the fractions. 3 MF: A2 1/2, A3 1 1/2, A4 2, A5 3
    spent = two_roads("infantry")
    assert spent == {Hex.parse("A2"): 30, Hex.parse("A3"): 90, Hex.parse("A4"): 120, Hex.parse("A5"): 180}
