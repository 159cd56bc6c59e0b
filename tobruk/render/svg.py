"""The map (and optionally the counters) as SVG: a pure function of the map, the units and a system's rendering.

Terrain fills, sea, hex labels, roads (solid red), major tracks (dashed brown), minor tracks (dotted brown),
escarpments (a line with teeth pointing downhill), towering escarpments (doubled), ridges, minefields (a row
of crosses), the fortress perimeter, the fortified sides of a fort (a rampart just inside its hex), boxes and
forts (square outlines in the owner's colour), place names, a legend of the terrain the map has, and counters.
Colours, unit symbols and status words come from the game system's rendering over the family's palette
(:mod:`tobruk.render.palette`); the browser's page draws its counters with the same layout (:func:`map_layout`)
and the symbols this SVG carries in its ``<defs>``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from html import escape

from tobruk.board.hexes import Hex
from tobruk.board.layout import Layout
from tobruk.board.maps import Feature, Map, Terrain
from tobruk.board.units import UnitDef
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.engine.system import Objective, Rendering
from tobruk.render.marks import (
    feature_svg,
    fortification_svg,
    fortification_words,
    legend_marks,
    objective_key,
    objective_svg,
    objective_words,
    supply_svg,
)
from tobruk.render.names import FONT, place_names
from tobruk.render.palette import SHAPE_WIDTH, SIDE_COLOUR, Palette, shape_defs

Point = tuple[float, float]


def _fmt(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def _symbol(shape: str, x: float, y: float, w: float) -> str:
    """A unit symbol ``w`` wide centred at (x, y): the shape from the SVG's ``<defs>``."""
    scale = w / SHAPE_WIDTH
    return f'<use href="#shape-{shape}" transform="translate({x - w / 2:.2f},{y - 0.3 * w:.2f}) scale({scale:.3f})"/>'


def legend_entries(m: Map, palette: Palette) -> list[tuple[str, str, str]]:
    """(kind, words, colour) of every terrain kind the map has, by name."""
    return [(kind, palette.terrain_name(kind), palette.terrain(kind)) for kind in sorted(set(m.terrain.values()))]


def _legend(
    m: Map, palette: Palette, objectives: Sequence[Objective], left: float, top: float, width: float, size: float
) -> tuple[list[str], float]:
    """The legend in rows from (left, top) no wider than ``width``: the terrain the map has, then every other mark it
    draws (:func:`~tobruk.render.marks.legend_marks`); its SVG and its height."""
    swatch, font, gap = size * 0.5, size * 0.32, size * 0.6
    out = [f'<g id="legend" font-size="{font:.1f}" fill="#222">']
    x, y = left, top
    scale = swatch / (size * 0.6)  # a mark's sample is drawn size by 0.6 size: brought to the swatch's height

    def terrain(colour: str) -> Callable[[float, float], str]:
        return lambda x, y: (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{swatch:.1f}" height="{swatch:.1f}" fill="{colour}" '
            f'stroke="#b9ab88" stroke-width="0.6"/>'
        )

    def mark(sample: str) -> Callable[[float, float], str]:
        return lambda x, y: f'<g transform="translate({x:.1f},{y:.1f}) scale({scale:.3f})">{sample}</g>'

    rows = [(swatch, words, f'<g data-terrain="{escape(kind)}">', terrain(colour)) for kind, words, colour in legend_entries(m, palette)]
    rows += [
        (size * scale, k.name, f'<g data-legend="{escape(k.key)}">', mark(k.sample)) for k in legend_marks(m, palette, objectives, size)
    ]
    for sample_w, words, opening, draw in rows:
        advance = sample_w + font * 0.3 + len(words) * font * 0.62 + gap
        if x > left and x + advance > left + width:
            x, y = left, y + swatch * 1.5
        out.append(f'{opening}{draw(x, y)}<text x="{x + sample_w + font * 0.3:.1f}" y="{y + swatch * 0.8:.1f}">{escape(words)}</text></g>')
        x += advance
    out.append("</g>")
    return out, y - top + swatch * 1.5


def map_layout(size: float = 28.0) -> Layout:
    """Where :func:`render_map` puts the hexes (the browser places counters with the same layout)."""
    margin = size * 1.2
    return Layout(size, margin + size * math.sqrt(3) / 2, margin + size)


def render_map(
    m: Map,
    units: Iterable[tuple[UnitDef, UnitState]] = (),
    *,
    size: float = 28.0,
    title: str | None = None,
    rendering: Rendering | None = None,
    legend: bool = True,
    objectives: Sequence[Objective] = (),
) -> str:
    """The map as an SVG document; ``units`` adds their counters (stacks fanned out).  ``rendering``: the game
    system's (its colours, unit symbols and status words over the family's palette); ``legend``: a key to the
    terrain the map has and every mark it draws, under it; ``objectives``: the system's (:meth:`~tobruk.engine.system.
    System.objectives`), each ringed in its hex."""
    palette = Palette(rendering)
    margin = size * 1.2
    layout = map_layout(size)
    xs = [p[0] for h in m.hexes for p in layout.corners(h)]
    ys = [p[1] for h in m.hexes for p in layout.corners(h)]
    width, bottom = max(xs) + margin, max(ys) + size * 0.6
    key, key_height = _legend(m, palette, objectives, margin, bottom, width - 2 * margin, size) if legend else ([], 0.0)
    height = bottom + key_height + margin * 0.6 + (size if title else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<defs>{shape_defs()}</defs>",
        '<rect width="100%" height="100%" fill="#fbf8ef"/>',
    ]
    if title:
        out.append(
            f'<text x="{margin:.0f}" y="{height - size * 0.5:.0f}" font-size="{size * 0.6:.0f}" font-weight="bold">{escape(title)}</text>'
        )
    out += _hexes(m, layout, palette, size)
    out += _hexsides(m, layout, palette, size)
    out += _routes(m, layout, palette)
    out += _objectives(objectives, layout)
    out += _names(m, layout, size)
    out += key
    out += _counters(units, layout, palette, size)
    out.append("</svg>")
    return "\n".join(out)


def _hexes(m: Map, layout: Layout, palette: Palette, size: float) -> list[str]:
    """Terrain fills, the hills' texture, boxes and forts."""
    out = ['<g id="hexes" stroke="#b9ab88" stroke-width="0.6">']
    for h in m.hexes:
        pts = " ".join(_fmt(p) for p in layout.corners(h))
        out.append(
            f'<polygon data-hex="{h.label}" points="{pts}" fill="{palette.terrain(m.terrain[h])}">'
            f"<title>{h.label} {m.terrain[h]}</title></polygon>"
        )
    out.append("</g>")
    for h in m.hexes:
        if m.terrain[h] in (Terrain.HILL, Terrain.MOUNTAIN):
            cx, cy = layout.centre(h)
            out.append(
                f'<path d="M{cx - size * 0.35:.1f},{cy + size * 0.25:.1f} l{size * 0.2:.1f},{-size * 0.3:.1f} '
                f"l{size * 0.2:.1f},{size * 0.3:.1f} m{-size * 0.05:.1f},0 l{size * 0.2:.1f},{-size * 0.22:.1f} "
                f'l{size * 0.2:.1f},{size * 0.22:.1f}" fill="none" stroke="#8a6d3b" stroke-width="1"/>'
            )
    for h, holder in sorted(m.fortifications.items()):
        out.append(fortification_svg(layout.centre(h), holder, size, f"{fortification_words(holder)} {h.label}"))
    return out


def _hexsides(m: Map, layout: Layout, palette: Palette, size: float) -> list[str]:
    """Escarpments with their teeth downhill, passes, ridges, minefields, perimeters, fortified sides; a feature the
    family does not draw is a plain line in its colour (:func:`~tobruk.render.marks.feature_svg`)."""
    out = ['<g id="hexsides">']
    for side in sorted(m.hexsides):
        a, b = layout.side_segment(side)
        for f in m.hexsides[side]:
            if f.kind == Feature.FORTIFIED:
                toward = layout.centre(f.inside or side.hex)
            else:
                toward = layout.centre(side.other(f.high) if f.high else side.hex)
            words = f.kind.replace("-", " ") + (" side" if f.kind == Feature.FORTIFIED else "")
            holder = f.owner or (Side.AXIS if f.kind == Feature.FORTIFIED else Side.ALLIED)
            owned = f.kind in (Feature.MINEFIELD, Feature.FORTIFIED)
            title = f"{holder.display + ' ' if owned else ''}{words} {side.label}"
            out.append(feature_svg(f.kind, f.owner, a, b, toward, palette, size, title))
    out.append("</g>")
    return out


def _routes(m: Map, layout: Layout, palette: Palette) -> list[str]:
    """The railway (if the map has one) under the roads and tracks, centre to centre, the best drawn last."""
    out = []
    if m.railway:
        pts = " ".join(_fmt(layout.centre(h)) for h in m.railway)
        out.append(
            f'<g id="railway" data-mark="railway"><polyline points="{pts}" fill="none" stroke="#222" stroke-width="2.2"/>'
            f'<polyline points="{pts}" fill="none" stroke="#fbf8ef" stroke-width="1.2" stroke-dasharray="4 4"/></g>'
        )
        size = layout.size
        for rh in m.railheads:
            cx, cy = layout.centre(rh.hex)
            out.append(
                f'<rect data-mark="railhead" x="{cx - size * 0.2:.1f}" y="{cy - size * 0.2:.1f}" '
                f'width="{size * 0.4:.1f}" height="{size * 0.4:.1f}" '
                f'fill="#222"><title>railhead {escape(rh.name)} from {rh.turn}</title></rect>'
            )
    out.append('<g id="routes" fill="none" stroke-linecap="round">')
    for route_kind in reversed(m.route_kinds):
        style = palette.route(route_kind).attributes()
        for side, kind_here in sorted(m.routes.items()):
            if kind_here == route_kind:
                a, b = side.hexes
                out.append(
                    f'<line data-mark="route:{escape(route_kind)}" x1="{layout.centre(a)[0]:.1f}" y1="{layout.centre(a)[1]:.1f}" '
                    f'x2="{layout.centre(b)[0]:.1f}" y2="{layout.centre(b)[1]:.1f}" {style}/>'
                )
    out.append("</g>")
    return out


def _objectives(objectives: Sequence[Objective], layout: Layout) -> list[str]:
    """Each objective's ring in its hex, named with what it counts for and the rule (a hex named twice is ringed once,
    its title giving both)."""
    by_hex: dict[Hex, list[Objective]] = {}
    for o in objectives:
        by_hex.setdefault(o.hex, []).append(o)
    out = ['<g id="objectives">']
    for h, named in by_hex.items():
        title = f"{h.label}: " + "; ".join(objective_words(o) for o in named)
        out.append(objective_svg(objective_key(named[0]), layout.corners(h), layout.centre(h), title))
    out.append("</g>")
    return out


def _names(m: Map, layout: Layout, size: float) -> list[str]:
    """Supply sources, hex labels and place names (two at most a hex, :mod:`tobruk.render.names`)."""
    out = []
    for owner, hexes in m.supply_sources.items():
        for h in hexes:
            out.append(supply_svg(layout.centre(h), owner, size, f"{owner.display} supply source {h.label}"))
    out.append(f'<g id="labels" font-size="{size * 0.26:.1f}" fill="#7d7258" text-anchor="middle">')
    for h in m.hexes:
        cx, cy = layout.centre(h)
        out.append(f'<text x="{cx:.1f}" y="{cy - size * 0.62:.1f}">{h.label}</text>')
    out.append("</g>")
    out.append(f'<g id="places" font-size="{size * FONT:.1f}" fill="#222" text-anchor="middle">')
    for name in place_names(m, layout, size):  # (each where it covers no other: tobruk.render.names)
        font = "" if name.font == size * FONT else f' font-size="{name.font:.1f}"'
        out.append(
            f'<text x="{name.x:.1f}" y="{name.y:.1f}"{font} '
            f'stroke="#fbf8ef" stroke-width="2.2" paint-order="stroke">{escape(name.text)}</text>'
        )
    out.append("</g>")
    return out


def _counters(units: Iterable[tuple[UnitDef, UnitState]], layout: Layout, palette: Palette, size: float) -> list[str]:
    """Every unit on the map (air units stay off it), stacks fanned out: the side's colour, the type's symbol,
    the id and the factors; an alarming status's edge in red (a disruption), a faded counter where a status word says
    so."""
    stacks: dict[Hex, list[tuple[UnitDef, UnitState]]] = {}
    for d, u in units:
        if u.hex is not None and not u.eliminated:  # (air units stand off the map)
            stacks.setdefault(u.hex, []).append((d, u))
    out = [f'<g id="counters" font-size="{size * 0.26:.1f}" text-anchor="middle">']
    for h, stack in sorted(stacks.items()):
        cx, cy = layout.centre(h)
        c = size * 0.9
        for i, (d, u) in enumerate(stack):
            x, y = cx - c / 2 + i * size * 0.14, cy - c / 2 + i * size * 0.14
            status = u.to_data()
            words = palette.words(d.side.value, status)
            faded = ' opacity="0.75"' if not u.hidden and palette.faded(d.side.value, status) else ""
            alarmed = palette.edged(status)
            stroke = "#b00" if alarmed else "#222"
            out.append(
                f"<g{faded}><title>{escape(' '.join([d.name, d.factors, *words]))}</title>"
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{c:.1f}" height="{c:.1f}" rx="2" fill="{SIDE_COLOUR[d.side]}" '
                f'stroke="{stroke}" stroke-width="{1.6 if alarmed else 0.8}"/>'
            )
            if u.hidden:
                out.append(f'<text x="{x + c / 2:.1f}" y="{y + c * 0.6:.1f}">?</text></g>')
                continue
            out.append(_symbol(palette.symbol(d.kind), x + c / 2, y + c * 0.36, c * 0.5))
            out.append(f'<text x="{x + c / 2:.1f}" y="{y + c * 0.13:.1f}" font-size="{size * 0.2:.1f}">{escape(d.id)}</text>')
            out.append(f'<text x="{x + c / 2:.1f}" y="{y + c * 0.86:.1f}">{d.factors}</text></g>')
    out.append("</g>")
    return out


def counter_svg(d: UnitDef, rendering: Rendering | None = None, size: float = 48.0) -> str:
    """One counter face up as a standalone SVG document of ``size`` pixels square, drawn as the map draws it: the
    side's colour, the type's symbol, the id above and the factors below (for a VASSAL module's pieces)."""
    palette = Palette(rendering)
    c = size
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{c:.0f}" height="{c:.0f}" viewBox="0 0 {c:.0f} {c:.0f}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" text-anchor="middle">'
        f"<defs>{shape_defs()}</defs>"
        f'<rect x="0.5" y="0.5" width="{c - 1:.1f}" height="{c - 1:.1f}" rx="3" fill="{SIDE_COLOUR[d.side]}" stroke="#222"/>'
        + _symbol(palette.symbol(d.kind), c / 2, c * 0.38, c * 0.5)
        + f'<text x="{c / 2:.1f}" y="{c * 0.2:.1f}" font-size="{c * 0.2:.1f}">{escape(d.id)}</text>'
        f'<text x="{c / 2:.1f}" y="{c * 0.9:.1f}" font-size="{c * 0.26:.1f}">{escape(d.factors)}</text></svg>'
    )
