"""What the browser's page draws a game's board from, besides the map's SVG: one JSON document per scenario.

The page knows no game: the hexes it places counters on (each hex's centre in the SVG's layout, and the layout's
size and origin, from which the page's hex-grid maths work out the same centres and the corners), which hexes
touch (for the enemy's zones of control and attack targets), the rows and columns, the legend (terrain, and every
other mark the map draws), the objectives of the scenario and how a threatened one is ringed, the
shape of each unit type's symbol, the sides' colours and the status words all come from here, built from
the map and the game system's rendering hook.  Nothing in it depends on the position: it is the same for
both sides and for every game of the scenario.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tobruk.board.maps import Map
from tobruk.engine.sides import Side
from tobruk.engine.system import Objective, Rendering
from tobruk.render.marks import THREAT, legend_marks
from tobruk.render.palette import NATIONALITY_COLOUR, SIDE_COLOUR, Palette, status_marks
from tobruk.render.svg import legend_entries, map_layout


def board_data(m: Map, rendering: Rendering | None, *, size: float, title: str, objectives: Sequence[Objective] = ()) -> dict[str, Any]:
    """The page's board for map ``m`` drawn at hex ``size`` (as :func:`~tobruk.render.svg.render_map` draws it), with
    the system's ``objectives`` (public: the scenario's victory conditions name them)."""
    palette = Palette(rendering)
    marks = status_marks([w.word for w in palette.statuses])
    layout = map_layout(size)
    on_map = set(m.hexes)
    return {
        "title": title,
        "size": size,
        "origin": [layout.origin_x, layout.origin_y],  # A1's centre, unrounded: the page's hex-grid maths start from it
        "rows": m.rows,
        "columns": m.columns,
        "hexes": {h.label: [round(c, 2) for c in layout.centre(h)] for h in m.hexes},
        "neighbours": {h.label: [n.label for n in h.neighbours() if n in on_map] for h in m.hexes},
        "passable": [h.label for h in m.hexes if m.is_land(h)],  # the hexes a unit may enter (no layer shades the others)
        "legend": [{"terrain": kind, "name": words, "colour": colour} for kind, words, colour in legend_entries(m, palette)],
        # every other mark the map draws, as its legend shows it (the page draws the threatened ring itself: ``threat``)
        "key": [{"mark": k.key, "name": k.name} for k in legend_marks(m, palette, objectives, size)],
        "objectives": [o.data() for o in objectives],
        "threat": THREAT.data(),
        "symbols": palette.symbols,
        "sides": {side.value: {"name": side.display, "colour": SIDE_COLOUR[side]} for side in Side},
        "alarms": list(palette.rendering.alarms),
        "marks": palette.rendering.marks,
        "corner": palette.rendering.corner,
        "nationalities": NATIONALITY_COLOUR,
        "statuses": [
            {"bit": w.bit, "word": w.word, "when": w.when, "sides": list(w.sides), "faded": w.faded, "mark": mark, "colour": colour}
            for w, (mark, colour) in zip(palette.statuses, marks, strict=True)
        ],
    }
