"""The SVG renderer and the page's board data draw a system's map from its rendering hook over the family's
palette: terrain and feature colours, a legend of the terrain the map has, unit symbols, status words."""

from __future__ import annotations

import re

import pytest

from tests.conftest import family, make_scenario, unit_toml
from tests.toy_system import MARSH_COLOUR, NAME, toy_scenario
from tobruk.board.hexes import Hex, Hexside
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.engine.system import Rendering, StatusWord, system_for
from tobruk.loading.datafile import Table
from tobruk.loading.mapfile import read_map
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_defs, family_rendering, family_unit
from tobruk.render.board import board_data
from tobruk.render.palette import FILL, SIDE_COLOUR, Palette
from tobruk.render.svg import map_layout, render_map

TOY = toy_scenario()
TOY_RENDERING = system_for(NAME).rendering()


def fills(svg: str) -> dict[str, str]:
    """Each hex's fill, by label, as drawn."""
    return dict(re.findall(r'<polygon data-hex="([A-Z]+\d+)" points="[^"]*" fill="([^"]*)">', svg))


def legend(svg: str) -> list[tuple[str, str, str]]:
    """(terrain, colour, words) of each legend entry, as drawn."""
    return re.findall(r'<g data-terrain="([^"]*)"><rect [^>]*fill="([^"]*)"[^>]*/><text [^>]*>([^<]*)</text></g>', svg)


def test_a_systems_own_terrain_is_drawn_in_its_colour_and_the_familys_in_the_palette() -> None:
    svg = render_map(TOY.map, rendering=TOY_RENDERING)
    drawn = fills(svg)
    # the toy scenario's map: marsh in B2, C3, C4, sea in D6, the rest clear
    assert {h for h, c in drawn.items() if c == MARSH_COLOUR} == {"B2", "C3", "C4"}
    assert drawn["D6"] == FILL["sea"] and drawn["A1"] == FILL["clear"]
    assert len(drawn) == 4 * 6


def test_the_legend_shows_the_terrain_the_map_has_and_no_other() -> None:
    svg = render_map(TOY.map, rendering=TOY_RENDERING)
    assert legend(svg) == [("clear", FILL["clear"], "clear"), ("marsh", MARSH_COLOUR, "salt marsh"), ("sea", FILL["sea"], "sea")]
    gazala = load_scenario("gazala-gallop")
    kinds = [k for k, _, _ in legend(render_map(gazala.map, rendering=system_for(gazala.system).rendering()))]
    assert kinds == sorted(set(gazala.map.terrain.values()))
    assert 'id="legend"' not in render_map(TOY.map, legend=False)


def test_a_rendering_overrides_the_palette_and_without_one_the_palette_draws() -> None:
    mine = Rendering(terrain={"clear": "#123456"})
    assert set(fills(render_map(TOY.map, rendering=mine)).values()) == {"#123456", FILL["sea"], Palette().terrain("marsh")}
    # a terrain nobody names a colour for still gets a fill, the same for every such hex
    plain = fills(render_map(TOY.map))
    assert plain["B2"] == plain["C3"] == plain["C4"] not in (FILL["clear"], FILL["sea"], MARSH_COLOUR)


def test_route_and_feature_colours_come_from_the_rendering() -> None:
    scenario = make_scenario(
        unit_toml("Pz", "axis", "A1"),
        map_extra="""
[[map.route]]
kind = "road"
name = "the road"
hexes = ["B1", "B2", "B3"]
[map.hexsides]
ridge = [{ side = "C1|C2" }]
wadi = [{ side = "D1|D2" }]
""",
    )
    default = render_map(scenario.map)
    assert 'stroke="#b22222" stroke-width="3"' in default  # the family's road
    coloured = render_map(scenario.map, rendering=Rendering(features={"road": "#00aa00", "ridge": "#0000aa"}))
    assert 'stroke="#00aa00" stroke-width="3"' in coloured and 'stroke="#b22222"' not in coloured
    assert 'stroke="#0000aa" stroke-width="3" stroke-dasharray="1 3"' in coloured
    # a feature the family does not draw (a wadi) is a plain line along its hexside, in its colour
    assert re.search(r'<line [^>]*stroke="#555555"[^>]*><title>wadi D1\|D2</title>', default)
    assert re.search(
        r'<line [^>]*stroke="#884400"[^>]*><title>wadi D1\|D2</title>',
        render_map(scenario.map, rendering=Rendering(features={"wadi": "#884400"})),
    )


def test_unit_symbols_come_from_the_rendering_else_the_family() -> None:
    game = Game(TOY, seed=1)
    units = [(family_defs(game)[u], family_unit(game, u).value()) for u in game.unit_ids]
    toy = render_map(TOY.map, units, rendering=TOY_RENDERING)
    # the toy draws its infantry (the Scouts) with a dot; its armour (the Guards) with the family's oval
    assert re.findall(r'<use href="#shape-([a-z-]+)"', toy) == ["dot", "oval"]
    family = family_rendering(Rendering())  # the family's symbols, as a family system's rendering carries them
    assert re.findall(r'<use href="#shape-([a-z-]+)"', render_map(TOY.map, units, rendering=family)) == ["cross", "oval"]
    # the renderer itself knows no system: a rendering that names no symbol draws the plain frame
    assert re.findall(r'<use href="#shape-([a-z-]+)"', render_map(TOY.map, units)) == ["none", "none"]
    for shape in ("dot", "oval", "cross"):
        assert f'<g id="shape-{shape}"' in toy  # every shape a counter uses is in the SVG's defs
    with pytest.raises(ValueError, match="no unit symbol 'star'"):
        render_map(TOY.map, units, rendering=Rendering(symbols={"infantry": "star"}))


def test_status_words_follow_the_bits_and_the_sides() -> None:
    gazala = Palette(system_for("gazala-gallop").rendering())
    # GG-V.A.2: an Allied unit is inactive until activated; an Axis unit is never activated and never inactive
    assert gazala.words("allied", {"activated": False}) == ["inactive"] and gazala.faded("allied", {})
    assert gazala.words("allied", {"activated": True}) == [] and not gazala.faded("allied", {"activated": True})
    assert gazala.words("axis", {"activated": False}) == [] and not gazala.faded("axis", {})
    assert gazala.words("axis", {"disrupted": True, "out_of_supply": True, "activated": True}) == ["disrupted", "out of supply"]
    toy = Palette(TOY_RENDERING)
    assert toy.words("axis", {"moved": True, "disrupted": True}) == ["footsore", "shaken"]
    assert (
        Palette(Rendering(status_words=(StatusWord("hidden", "veiled", when=True, sides=("axis",)),))).words("allied", {"hidden": True})
        == []
    )


def test_the_counters_title_carries_the_status_words() -> None:
    game = Game(TOY, seed=1)
    game.play("move Scout B3-B4")
    units = [(family_defs(game)[u], family_unit(game, u).value()) for u in game.unit_ids]
    svg = render_map(TOY.map, units, rendering=TOY_RENDERING)
    assert "<title>Scouts 1-1-1 footsore</title>" in svg and "<title>Guards 2-2-1</title>" in svg
    units = [(family_defs(game)["Guard"], UnitState(hex=Hex.parse("B6"), status={"disrupted": True}))]
    assert 'stroke="#b00" stroke-width="1.6"' in render_map(TOY.map, units, rendering=TOY_RENDERING)


def test_the_pages_board_comes_from_the_map_and_the_rendering() -> None:
    board = board_data(TOY.map, TOY_RENDERING, size=28.0, title=TOY.title)
    assert (board["rows"], board["columns"], board["size"], board["title"]) == (4, 6, 28.0, "Toy Skirmish")
    layout = map_layout(28.0)
    assert len(board["hexes"]) == 24
    assert board["hexes"]["C4"] == [round(c, 2) for c in layout.centre(Hex.parse("C4"))]  # where the SVG draws it
    # rows B, D ... are drawn half a hex east: A1 touches A2 and B1; B6 touches A6, B5 and C6 (its eastern
    # neighbours would be off the board)
    assert sorted(board["neighbours"]["A1"]) == ["A2", "B1"]
    assert sorted(board["neighbours"]["B6"]) == ["A6", "B5", "C6"]
    assert sorted(board["neighbours"]["B3"]) == ["A3", "A4", "B2", "B4", "C3", "C4"]
    assert board["legend"] == [
        {"terrain": "clear", "name": "clear", "colour": FILL["clear"]},
        {"terrain": "marsh", "name": "salt marsh", "colour": MARSH_COLOUR},
        {"terrain": "sea", "name": "sea", "colour": FILL["sea"]},
    ]
    assert board["symbols"]["infantry"] == "dot" and board["symbols"]["armour"] == "oval"
    assert board["sides"] == {
        "axis": {"name": "Axis", "colour": SIDE_COLOUR[Side.AXIS]},
        "allied": {"name": "Allied", "colour": SIDE_COLOUR[Side.ALLIED]},
    }
    assert {(s["bit"], s["word"]) for s in board["statuses"]} == {("moved", "footsore"), ("disrupted", "shaken")}


def test_a_board_whose_shifted_rows_are_shorter_has_only_its_hexes() -> None:
    short = read_map(
        Table(
            {"format": "tobruk-map", "version": 1, "name": "short", "grid": {"rows": 3, "columns": 4, "shifted_row_columns": 3}},
            "short.toml",
        )
    )
    board = board_data(short, None, size=20.0, title="short")
    assert (board["rows"], board["columns"], len(board["hexes"])) == (3, 4, 4 + 3 + 4)
    assert "B4" not in board["hexes"] and "A4" in board["hexes"] and "C4" in board["hexes"]
    assert sorted(board["neighbours"]["B3"]) == ["A3", "A4", "B2", "C3", "C4"]


def test_gazalas_rendering_covers_its_terrain_and_its_counters() -> None:
    gazala = load_scenario("gazala-gallop")
    system = system_for(gazala.system)
    rendering = system.rendering()
    assert system.terrain_kinds is not None and set(rendering.terrain) == set(system.terrain_kinds)
    drawn = {d.type.value for d in family(gazala) if not d.is_air and not d.is_dummy}
    assert drawn <= set(rendering.symbols)


def test_a_fortified_side_is_a_rampart_inside_its_hex_in_the_holders_colour() -> None:
    m = read_map(
        Table(
            {
                "grid": {"rows": 3, "columns": 3},
                "hexsides": {
                    "fortified": [{"side": "B2|B3", "inside": "B2", "owner": "axis"}, {"side": "A1|A2", "inside": "A2", "owner": "allied"}]
                },
            },
            "maps/test.toml",
        )
    )
    svg = render_map(m)
    axis = re.search(
        r'<g data-mark="fortified:axis" stroke="#333" stroke-width="1.6"><line x1="([\d.]+)"[^>]*/>(?:<line [^>]*/>){3}'
        r"<title>Axis fortified side B2\|B3</title></g>",
        svg,
    )
    assert axis and re.search(
        r'<g data-mark="fortified:allied" stroke="#8b1a1a"[^>]*>.*<title>Allied fortified side A1\|A2</title></g>', svg
    )
    # drawn just inside B2: west of the hexside between B2 and B3, east of B2's centre
    layout = map_layout()
    (side_x, _), _ = layout.side_segment(Hexside.between(Hex.parse("B2"), Hex.parse("B3")))
    assert layout.centre(Hex.parse("B2"))[0] < float(axis.group(1)) < side_x


@pytest.mark.parametrize("name", ["gazala-gallop", "first-alamein", "operation-compass"])
def test_the_legend_names_every_mark_the_map_draws_and_each_objective(name: str) -> None:
    """Every kind of mark drawn over the terrain (``data-mark``) has its legend entry (``data-legend``), and each
    objective the system names is ringed in its hex and listed with its rule."""
    scenario = load_scenario(name)
    system = system_for(scenario.system)
    objectives = system.objectives(scenario)
    svg = render_map(scenario.map, rendering=system.rendering(), objectives=objectives)
    body, key = svg.split('<g id="legend"')
    drawn, listed = set(re.findall(r'data-mark="([^"]*)"', body)), set(re.findall(r'data-legend="([^"]*)"', key))
    assert drawn <= listed and "threatened" in listed
    assert {k.split(":")[0] for k in drawn} >= {"route", "supply", "objective"}
    ringed = set(re.findall(r'<polygon data-mark="objective:[^"]*" points="[^"]*" [^>]*><title>([A-Z]+\d+):', body))
    assert ringed == {o.hex.label for o in objectives} and objectives
    assert all(f"[{o.clause}]" in key for o in objectives)
    board = board_data(scenario.map, system.rendering(), size=28.0, title=scenario.title, objectives=objectives)
    assert {k["mark"] for k in board["key"]} == listed and board["objectives"] == [o.data() for o in objectives]
