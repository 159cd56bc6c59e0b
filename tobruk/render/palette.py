"""What a map and its counters are drawn with: the family's palette, overridden by a system's rendering.

A game system says how its map and counters look through its :meth:`~tobruk.engine.system.System.rendering`
hook (colours of terrain kinds, features and route kinds, a shape per unit type, status words, legend words).
:class:`Palette` resolves a name against that first and the family's palette second, so a system names only
what it draws differently or what the family does not know (a deir, a salt marsh), and the SVG renderer
and the browser's page draw the same thing from one source.

Unit symbols are NATO-style shapes drawn in a 20 x 12 box (:data:`SHAPES`, each with its frame); the map's
SVG carries them once in its ``<defs>`` (``shape-NAME``), and every counter, the page's too, uses them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tobruk.board.maps import Feature, RouteKind, Terrain
from tobruk.engine.sides import Side
from tobruk.engine.system import Rendering, StatusWord

# --- the family's palette ------------------------------------------------------------------------------------
FILL = {
    Terrain.CLEAR: "#efe4c4",
    Terrain.SEA: "#9cc3dd",
    Terrain.TOWN: "#d9c7a0",
    Terrain.VILLAGE: "#e6d5ae",
    Terrain.HILL: "#d8c28f",
    Terrain.MOUNTAIN: "#b08a5a",
    Terrain.OASIS: "#bfd69a",
    Terrain.DEPRESSION: "#d9d3c7",
    Terrain.SAND_SEA: "#f3dc9c",
    Terrain.SALT_MARSH: "#c9d3cf",
}
OTHER_TERRAIN = "#e3d9bd"
FEATURE_COLOUR = {
    Feature.ESCARPMENT: "#5a3a1a",
    Feature.TOWERING_ESCARPMENT: "#5a3a1a",
    Feature.IMPASSABLE_ESCARPMENT: "#2a1606",  # darker: it stands out from the passable ones
    Feature.PASS: "#5a3a1a",
    Feature.RIDGE: "#8a6d3b",
    Feature.PERIMETER: "#5b2c83",
}
OTHER_FEATURE = "#555555"


@dataclass(frozen=True, slots=True)
class Line:
    """How a road or track is drawn."""

    colour: str
    width: float
    dashes: str | None = None

    def attributes(self) -> str:
        dash = f' stroke-dasharray="{self.dashes}"' if self.dashes else ""
        return f'stroke="{self.colour}" stroke-width="{self.width:g}"{dash}'


ROUTE_LINE = {
    RouteKind.ROAD: Line("#b22222", 3),
    RouteKind.MAJOR_TRACK: Line("#7a4a1e", 2.2, "6 3"),
    RouteKind.MINOR_TRACK: Line("#7a4a1e", 1.6, "2 3"),
}
OTHER_ROUTE = Line("#7a4a1e", 1.6)
SIDE_COLOUR = {Side.AXIS: "#6b6f73", Side.ALLIED: "#c8a165"}
# a counter's colour by its nationality (lower case; one not listed takes its side's colour): each far enough in colour
# from every nationality of the other side to be told from it at a glance (tests/faces/test_palette.py)
NATIONALITY_COLOUR = {
    "german": SIDE_COLOUR[Side.AXIS],  # each side's principal nationality keeps the side's colour
    "italian": "#9fae7a",
    "libyan": "#a9a58f",
    "british": SIDE_COLOUR[Side.ALLIED],
    "indian": "#d6874f",
    "australian": "#e8b49c",
    "new zealand": "#b8a8d8",
    "south african": "#e0c070",
    "french": "#8fa8d8",
    "free french": "#8fa8d8",
    "polish": "#d49a9a",
    "greek": "#9cc0e0",
}
# the marks of a counter's statuses, in the order the system declares them: each its own colour
STATUS_MARK_COLOURS = ("#c0392b", "#7d3c98", "#1f618d", "#117a65", "#b9770e", "#515a5a")


def status_marks(words: list[str]) -> list[tuple[str, str]]:
    """Each status word's mark on a counter: a letter or two of the word (no two words alike) and a colour."""
    out: list[tuple[str, str]] = []
    taken: set[str] = set()
    for i, word in enumerate(words):
        letters = "".join(c for c in word if c.isalpha()) or "?"
        mark = next((letters[:n].upper() for n in range(1, len(letters) + 1) if letters[:n].upper() not in taken), f"{i}")
        taken.add(mark)
        out.append((mark, STATUS_MARK_COLOURS[i % len(STATUS_MARK_COLOURS)]))
    return out


# --- unit symbols: shapes in a 20 x 12 box ----------------------------------------------------------------
SHAPE_WIDTH, SHAPE_HEIGHT = 20, 12
_FRAME = '<rect width="20" height="12" fill="none"/>'
_CROSS = '<line x1="0" y1="0" x2="20" y2="12"/><line x1="0" y1="12" x2="20" y2="0"/>'
SHAPES = {
    "none": _FRAME,
    "oval": _FRAME + '<ellipse cx="10" cy="6" rx="7" ry="3.6" fill="none"/>',
    "cross": _FRAME + _CROSS,
    "cross-wheels": _FRAME + _CROSS + '<circle cx="10" cy="14.5" r="1.6" fill="#222" stroke="none"/>',
    "slash": _FRAME + '<line x1="0" y1="12" x2="20" y2="0"/>',
    "aa": _FRAME + '<path d="M0,12 Q10,-4.8 20,12" fill="none"/>',
    "dot": _FRAME + '<circle cx="10" cy="6" r="2.2" fill="#222" stroke="none"/>',
}


def shape_defs() -> str:
    """Every shape as ``<g id="shape-NAME">`` for an SVG's ``<defs>`` (stroked, not filled, in the box's units)."""
    return "".join(f'<g id="shape-{name}" stroke="#222" stroke-width="1.3">{body}</g>' for name, body in SHAPES.items())


class Palette:
    """A system's rendering resolved against the family's palette (``None``: the family's palette alone).

    A shape the renderer does not have is refused when the palette is made: a system's typo shows at once.
    """

    def __init__(self, rendering: Rendering | None = None) -> None:
        self.rendering = rendering if rendering is not None else Rendering()
        unknown = sorted(set(self.rendering.symbols.values()) - set(SHAPES))
        if unknown:
            raise ValueError(f"rendering: no unit symbol {unknown[0]!r}; the shapes are {', '.join(SHAPES)}")

    def terrain(self, kind: str) -> str:
        return self.rendering.terrain.get(kind) or FILL.get(kind, OTHER_TERRAIN)

    def terrain_name(self, kind: str) -> str:
        return self.rendering.terrain_names.get(kind, kind.replace("-", " "))

    def feature(self, kind: str) -> str:
        return self.rendering.features.get(kind) or FEATURE_COLOUR.get(kind, OTHER_FEATURE)

    def route(self, kind: str) -> Line:
        line = ROUTE_LINE.get(kind, OTHER_ROUTE)
        colour = self.rendering.features.get(kind)
        return Line(colour, line.width, line.dashes) if colour else line

    @property
    def symbols(self) -> dict[str, str]:
        """The shape of each kind of unit's symbol, as the system draws them."""
        return dict(self.rendering.symbols)

    def symbol(self, kind: str) -> str:
        return self.rendering.symbols.get(kind, "none")

    @property
    def statuses(self) -> tuple[StatusWord, ...]:
        return self.rendering.statuses()

    def words(self, side: str, status: dict[str, bool], reasons: Mapping[str, str] | None = None) -> list[str]:
        """The status words a unit of ``side`` shows, given its status bits, each set bit's reason after its word where
        the system gives one (``reasons``, :meth:`~tobruk.engine.system.System.status_reasons`): "spent: starts the
        game spent (CA-SC.7)"."""
        why = reasons or {}
        return [
            f"{w.word}: {why[w.bit]}" if w.when and w.bit in why else w.word
            for w in self.statuses
            if status.get(w.bit, False) is w.when and (not w.sides or side in w.sides)
        ]

    def edged(self, status: dict[str, bool]) -> bool:
        """Whether the counter's edge is drawn in red: a status the system's rendering calls alarming is set."""
        return any(status.get(name, False) for name in self.rendering.alarms)

    def faded(self, side: str, status: dict[str, bool]) -> bool:
        """Whether the unit's counter is drawn faded (a word that fades it applies)."""
        return any(w.faded and status.get(w.bit, False) is w.when and (not w.sides or side in w.sides) for w in self.statuses)
