"""The map's place names cover one another nowhere (a name's box estimated from its length and font size, as
tobruk.render.names estimates it), on every packaged map: read back from the SVG the page shows."""

from __future__ import annotations

import itertools
import re
from functools import cache

import pytest

from tobruk.board.maps import Map
from tobruk.loading.scenario import load_scenario
from tobruk.render.names import FONT, SPOTS, Name, named_hexes, overlap
from tobruk.render.svg import map_layout, render_map

SIZE = 28.0
MAPS = ("gazala-gallop", "first-alamein", "operation-compass", "na-gazala")
TEXT = re.compile(r'<text x="([\d.]+)" y="([\d.]+)"(?: font-size="([\d.]+)")? [^>]*>([^<]*)</text>')


@cache
def board(scenario: str) -> Map:
    return load_scenario(scenario).map


def drawn(m: Map) -> list[Name]:
    """The names in the SVG's ``places`` group, as drawn."""
    svg = render_map(m, size=SIZE, legend=False)
    group = svg[svg.index('<g id="places"') :]
    group = group[: group.index("</g>")]
    return [
        Name(text.replace("&amp;", "&").replace("&#x27;", "'"), float(x), float(y), float(font) if font else FONT * SIZE)
        for x, y, font, text in TEXT.findall(group)
    ]


def covered(names: list[Name]) -> list[tuple[str, str]]:
    return [(a.text, b.text) for a, b in itertools.combinations(names, 2) if overlap(a.box, b.box)]


@pytest.mark.parametrize("scenario", MAPS)
def test_no_place_name_covers_another_and_every_name_is_drawn(scenario: str) -> None:
    m = board(scenario)
    names = drawn(m)
    assert covered(names) == []
    assert sorted(n.text for n in names) == sorted(t for texts in named_hexes(m).values() for t in texts)


@pytest.mark.parametrize("scenario", MAPS)
def test_each_name_stays_near_its_hex(scenario: str) -> None:
    """A name is drawn at one of the spots around its hex (the farthest a hex size and a fifth below its centre)."""
    m = board(scenario)
    layout = map_layout(SIZE)
    where = {t: layout.centre(h) for h, texts in named_hexes(m).items() for t in texts}
    for n in drawn(m):
        cx, cy = where[n.text]
        assert abs(n.x - cx) <= 0.6 * SIZE + 0.1
        assert -0.2 * SIZE <= n.y - cy <= (max(dy for _, dy in SPOTS) + 0.3) * SIZE + 0.1


def test_under_each_hex_as_before_the_gazala_names_would_cover_one_another() -> None:
    """The case that asked for this: every name under its hex (the old drawing) covers neighbours on the Gazala map,
    Sidi Muftah and Knightsbridge among them; placed, neither covers the other."""
    m = board("gazala-gallop")
    layout = map_layout(SIZE)
    under = [
        Name(t, layout.centre(h)[0], layout.centre(h)[1] + SIZE * (0.62 + 0.3 * i), FONT * SIZE)
        for h, texts in named_hexes(m).items()
        for i, t in enumerate(texts)
    ]
    assert covered(under)
    names = {n.text: n for n in drawn(m)}
    assert not overlap(names["Sidi Muftah"].box, names["Knightsbridge"].box)
