"""Where the map's place names go: each under its hex where it fits, else lower, above, or to a side, so that no two
names cover each other ("Sidi Muftah" and "Knightsbridge" on neighbouring hexes ran into one line).

A name's box is estimated from its length (SVG text has no measure before a browser lays it out; the map's font is
a sans-serif whose average glyph is a little over half an em), and names are placed greedily, the map's towns and
ports before its other places, each at the first of a few spots near its hex whose box meets no name placed
before it.  A name that finds no free spot is drawn smaller at the first spot whose box is free at that size, else
under its hex as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from tobruk.board.hexes import Hex
from tobruk.board.layout import Layout
from tobruk.board.maps import Map

GLYPH = 0.56  # the average glyph's width, in ems (a sans-serif's lower-case text; capitals and spaces average out)
FONT = 0.28  # the names' size, as a part of the hex size
SMALL = 0.8  # the size a crowded name falls back to, as a part of FONT
# the spots tried, as (dx, dy) in hex sizes from the hex centre to the text's baseline middle: under the hex (the
# usual place), a line lower, just above the centre, then left and right under the hex
SPOTS: tuple[tuple[float, float], ...] = ((0, 0.62), (0, 0.92), (0, -0.18), (-0.6, 0.62), (0.6, 0.62), (0, 1.18))
# the kinds of place placed first (the rest in reading order after them)
FIRST = ("town", "port", "village", "oasis", "station")


@dataclass(frozen=True)
class Name:
    """A name drawn on the map: its text, its baseline middle (x, y) and its font size."""

    text: str
    x: float
    y: float
    font: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the text as estimated: its width from its length, from the cap height above
        the baseline to the descenders below it."""
        half = len(self.text) * GLYPH * self.font / 2
        return self.x - half, self.y - 0.78 * self.font, self.x + half, self.y + 0.22 * self.font


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def named_hexes(m: Map) -> dict[Hex, list[str]]:
    """The names to draw by hex (boxes and forts have their own marks; two names at most a hex), most important
    first: the hexes holding a town or port, then the rest, each group in reading order."""
    named: dict[Hex, list[str]] = {}
    rank: dict[Hex, int] = {}
    for p in m.places:
        if p.kind in ("box", "fort"):
            continue
        named.setdefault(p.hex, []).append(p.name)
        rank[p.hex] = min(rank.get(p.hex, len(FIRST)), FIRST.index(p.kind) if p.kind in FIRST else len(FIRST))
    return {h: named[h][:2] for h in sorted(named, key=lambda h: (rank[h], h))}


def place_names(m: Map, layout: Layout, size: float) -> list[Name]:
    """Every name's place (see the module's account)."""
    placed: list[Name] = []
    for h, names in named_hexes(m).items():
        cx, cy = layout.centre(h)
        for line, text in enumerate(names):
            placed.append(_spot(text, cx, cy + line * 0.3 * size, size, placed))
    return placed


def _spot(text: str, cx: float, cy: float, size: float, placed: list[Name]) -> Name:
    for font in (FONT * size, FONT * SMALL * size):
        for dx, dy in SPOTS:
            name = Name(text, cx + dx * size, cy + dy * size, font)
            if not any(overlap(name.box, other.box) for other in placed):
                return name
    return Name(text, cx, cy + SPOTS[0][1] * size, FONT * size)
