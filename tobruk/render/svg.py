"""The map (and optionally the counters) as SVG: a pure function of the map and the units.

Terrain fills, sea, hex labels, roads (solid red), major tracks (dashed brown), minor
tracks (dotted brown), escarpments (a line with teeth pointing downhill), towering
escarpments (doubled), ridges, minefields (a row of crosses), the fortress perimeter,
boxes and forts (square outlines in the owner's colour), place names and counters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape

from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.hexes import Hex
from tobruk.layout import Layout
from tobruk.maps import Feature, Map, RouteKind, Terrain
from tobruk.units import UnitDef, UnitType

FILL = {
    Terrain.CLEAR: "#efe4c4",
    Terrain.SEA: "#9cc3dd",
    Terrain.TOWN: "#d9c7a0",
    Terrain.VILLAGE: "#e6d5ae",
    Terrain.HILL: "#d8c28f",
    Terrain.MOUNTAIN: "#b08a5a",
    Terrain.OASIS: "#bfd69a",
    Terrain.DEPRESSION: "#d9d3c7",
}
OTHER_TERRAIN = "#e3d9bd"
OTHER_ROUTE = 'stroke="#7a4a1e" stroke-width="1.6"'
ROUTE_STYLE = {
    RouteKind.ROAD: 'stroke="#b22222" stroke-width="3"',
    RouteKind.MAJOR_TRACK: 'stroke="#7a4a1e" stroke-width="2.2" stroke-dasharray="6 3"',
    RouteKind.MINOR_TRACK: 'stroke="#7a4a1e" stroke-width="1.6" stroke-dasharray="2 3"',
}
SIDE_COLOUR = {Side.AXIS: "#6b6f73", Side.ALLIED: "#c8a165"}
TYPE_SYMBOL = {
    UnitType.ARMOUR: "oval",
    UnitType.MOTORIZED: "cross-wheels",
    UnitType.INFANTRY: "cross",
    UnitType.RECCE: "slash",
    UnitType.AA: "aa",
    UnitType.ARTILLERY: "dot",
}

Point = tuple[float, float]


def _fmt(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def _symbol(kind: UnitType, x: float, y: float, w: float, h: float) -> str:
    """NATO-style type symbol inside a box of width w, height h centred at (x, y)."""
    box = f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" fill="none" stroke="#222" stroke-width="0.8"/>'
    lft, r, t, b = x - w / 2, x + w / 2, y - h / 2, y + h / 2
    shape = TYPE_SYMBOL.get(kind, "")
    if shape == "oval":
        inner = f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{w * 0.35:.1f}" ry="{h * 0.3:.1f}" fill="none" stroke="#222" stroke-width="0.8"/>'
    elif shape in ("cross", "cross-wheels"):
        inner = (f'<line x1="{lft:.1f}" y1="{t:.1f}" x2="{r:.1f}" y2="{b:.1f}" stroke="#222" stroke-width="0.8"/>'
                 f'<line x1="{lft:.1f}" y1="{b:.1f}" x2="{r:.1f}" y2="{t:.1f}" stroke="#222" stroke-width="0.8"/>')
        if shape == "cross-wheels":
            inner += f'<circle cx="{x:.1f}" cy="{b + 1.6:.1f}" r="1" fill="#222"/>'
    elif shape == "slash":
        inner = f'<line x1="{lft:.1f}" y1="{b:.1f}" x2="{r:.1f}" y2="{t:.1f}" stroke="#222" stroke-width="0.8"/>'
    elif shape == "aa":
        inner = f'<path d="M{lft:.1f},{b:.1f} Q{x:.1f},{t - h * 0.4:.1f} {r:.1f},{b:.1f}" fill="none" stroke="#222" stroke-width="0.8"/>'
    else:
        inner = ""
    return box + inner


def map_layout(size: float = 28.0) -> Layout:
    """Where :func:`render_map` puts the hexes (the browser places counters with the same layout)."""
    margin = size * 1.2
    return Layout(size, margin + size * math.sqrt(3) / 2, margin + size)


def render_map(m: Map, units: Iterable[tuple[UnitDef, UnitState]] = (), *, size: float = 28.0,
               title: str | None = None, terrain_colours: dict[str, str] | None = None) -> str:
    """The map as an SVG document; ``units`` adds their counters (stacks fanned out).  Terrain the family's
    palette does not know gets ``terrain_colours`` (a system's rendering), else a plain fill."""
    margin = size * 1.2
    layout = map_layout(size)
    xs = [p[0] for h in m.hexes for p in layout.corners(h)]
    ys = [p[1] for h in m.hexes for p in layout.corners(h)]
    width, height = max(xs) + margin, max(ys) + margin + (size if title else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
           '<rect width="100%" height="100%" fill="#fbf8ef"/>']
    if title:
        out.append(f'<text x="{margin:.0f}" y="{height - size * 0.5:.0f}" font-size="{size * 0.6:.0f}" '
                   f'font-weight="bold">{escape(title)}</text>')

    # hexes
    out.append('<g id="hexes" stroke="#b9ab88" stroke-width="0.6">')
    for h in m.hexes:
        pts = " ".join(_fmt(p) for p in layout.corners(h))
        fill = (terrain_colours or {}).get(m.terrain[h]) or FILL.get(m.terrain[h], OTHER_TERRAIN)
        out.append(f'<polygon data-hex="{h.label}" points="{pts}" fill="{fill}">'
                   f'<title>{h.label} {m.terrain[h]}</title></polygon>')
    out.append("</g>")
    # hill texture
    for h in m.hexes:
        if m.terrain[h] in (Terrain.HILL, Terrain.MOUNTAIN):
            cx, cy = layout.centre(h)
            out.append(f'<path d="M{cx - size * .35:.1f},{cy + size * .25:.1f} l{size * .2:.1f},{-size * .3:.1f} '
                       f'l{size * .2:.1f},{size * .3:.1f} m{-size * .05:.1f},0 l{size * .2:.1f},{-size * .22:.1f} '
                       f'l{size * .2:.1f},{size * .22:.1f}" fill="none" stroke="#8a6d3b" stroke-width="1"/>')
    # boxes and forts
    for h, holder in sorted(m.fortifications.items()):
        cx, cy = layout.centre(h)
        s = size * 0.78
        out.append(f'<rect x="{cx - s / 2:.1f}" y="{cy - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" fill="none" '
                   f'stroke="{"#8b1a1a" if holder is Side.ALLIED else "#333"}" stroke-width="2" stroke-dasharray="4 2">'
                   f'<title>{"Allied box" if holder is Side.ALLIED else "Axis fort"} {h.label}</title></rect>')
    # hexside features
    out.append('<g id="hexsides">')
    for side in sorted(m.hexsides):
        (x1, y1), (x2, y2) = layout.side_segment(side)
        for f in m.hexsides[side]:
            seg = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
            if f.kind == Feature.PASS:
                out.append(f'<circle cx="{(x1 + x2) / 2:.1f}" cy="{(y1 + y2) / 2:.1f}" r="{size * .14:.1f}" fill="#fbf8ef" '
                           f'stroke="#5a3a1a" stroke-width="1.2"><title>pass {side.label}</title></circle>')
            elif f.kind in (Feature.ESCARPMENT, Feature.TOWERING_ESCARPMENT, Feature.IMPASSABLE_ESCARPMENT):
                low = side.other(f.high) if f.high else side.hex
                lx, ly = layout.centre(low)
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                dx, dy = lx - mx, ly - my
                dist = math.hypot(dx, dy) or 1
                tx, ty = dx / dist * size * 0.22, dy / dist * size * 0.22
                teeth = "".join(f'<line x1="{x1 + (x2 - x1) * k:.1f}" y1="{y1 + (y2 - y1) * k:.1f}" '
                                f'x2="{x1 + (x2 - x1) * k + tx:.1f}" y2="{y1 + (y2 - y1) * k + ty:.1f}"/>'
                                for k in (0.2, 0.4, 0.6, 0.8))
                # impassable escarpments, in a darker brown, stand out from the passable ones
                colour = "#2a1606" if f.kind == Feature.IMPASSABLE_ESCARPMENT else "#5a3a1a"
                out.append(f'<g stroke="{colour}" stroke-width="1.4"><line {seg} stroke-width="2.4"/>{teeth}</g>')
                if f.kind == Feature.TOWERING_ESCARPMENT:
                    out.append(f'<line x1="{x1 + tx * .5:.1f}" y1="{y1 + ty * .5:.1f}" x2="{x2 + tx * .5:.1f}" '
                               f'y2="{y2 + ty * .5:.1f}" stroke="{colour}" stroke-width="2.4"/>')
            elif f.kind == Feature.RIDGE:
                out.append(f'<line {seg} stroke="#8a6d3b" stroke-width="3" stroke-dasharray="1 3" stroke-linecap="round"/>')
            elif f.kind == Feature.MINEFIELD:
                marks = []
                for k in (0.2, 0.5, 0.8):
                    px, py = x1 + (x2 - x1) * k, y1 + (y2 - y1) * k
                    r = size * 0.09
                    marks.append(f'<path d="M{px - r:.1f},{py - r:.1f} L{px + r:.1f},{py + r:.1f} '
                                 f'M{px - r:.1f},{py + r:.1f} L{px + r:.1f},{py - r:.1f}"/>')
                owner = f.owner or Side.ALLIED
                out.append(f'<g stroke="{"#8b1a1a" if owner is Side.ALLIED else "#333"}" stroke-width="1.3">'
                           f'{"".join(marks)}<title>{owner.display} minefield {side.label}</title></g>')
            elif f.kind == Feature.PERIMETER:
                out.append(f'<line {seg} stroke="#5b2c83" stroke-width="2.5" stroke-dasharray="8 3"/>')
    out.append("</g>")
    # the railway (if the map has one), under the roads
    if m.railway:
        pts = " ".join(_fmt(layout.centre(h)) for h in m.railway)
        out.append(f'<g id="railway"><polyline points="{pts}" fill="none" stroke="#222" stroke-width="2.2"/>'
                   f'<polyline points="{pts}" fill="none" stroke="#fbf8ef" stroke-width="1.2" stroke-dasharray="4 4"/></g>')
        for rh in m.railheads:
            cx, cy = layout.centre(rh.hex)
            out.append(f'<rect x="{cx - size * .2:.1f}" y="{cy - size * .2:.1f}" width="{size * .4:.1f}" height="{size * .4:.1f}" '
                       f'fill="#222"><title>railhead {escape(rh.name)} from {rh.turn}</title></rect>')
    # roads and tracks, centre to centre
    out.append('<g id="routes" fill="none" stroke-linecap="round">')
    for route_kind in reversed(m.route_kinds):  # the best drawn last, on top
        for side, kind_here in sorted(m.routes.items()):
            if kind_here == route_kind:
                a, b = side.hexes
                out.append(f'<line x1="{layout.centre(a)[0]:.1f}" y1="{layout.centre(a)[1]:.1f}" '
                           f'x2="{layout.centre(b)[0]:.1f}" y2="{layout.centre(b)[1]:.1f}" '
                           f'{ROUTE_STYLE.get(route_kind, OTHER_ROUTE)}/>')
    out.append("</g>")
    # supply sources
    for owner, hexes in m.supply_sources.items():
        for h in hexes:
            cx, cy = layout.centre(h)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy - size * .55:.1f}" r="{size * .16:.1f}" '
                       f'fill="{SIDE_COLOUR[owner]}" stroke="#222" stroke-width="0.8">'
                       f'<title>{owner.display} supply source {h.label}</title></circle>')
    # labels and places
    out.append(f'<g id="labels" font-size="{size * 0.26:.1f}" fill="#7d7258" text-anchor="middle">')
    for h in m.hexes:
        cx, cy = layout.centre(h)
        out.append(f'<text x="{cx:.1f}" y="{cy - size * 0.62:.1f}">{h.label}</text>')
    out.append("</g>")
    named: dict[Hex, list[str]] = {}
    for p in m.places:
        if p.kind not in ("box", "fort"):
            named.setdefault(p.hex, []).append(p.name)
    out.append(f'<g id="places" font-size="{size * 0.28:.1f}" fill="#222" text-anchor="middle">')
    for h, names in sorted(named.items()):
        cx, cy = layout.centre(h)
        for i, n in enumerate(names[:2]):
            out.append(f'<text x="{cx:.1f}" y="{cy + size * (0.62 + 0.3 * i):.1f}" '
                       f'stroke="#fbf8ef" stroke-width="2.2" paint-order="stroke">{escape(n)}</text>')
    out.append("</g>")
    # counters
    stacks: dict[Hex, list[tuple[UnitDef, UnitState]]] = {}
    for d, u in units:
        if u.hex is not None and not u.eliminated and not d.is_air:
            stacks.setdefault(u.hex, []).append((d, u))
    out.append(f'<g id="counters" font-size="{size * 0.26:.1f}" text-anchor="middle">')
    for h, stack in sorted(stacks.items()):
        cx, cy = layout.centre(h)
        c = size * 0.9
        for i, (d, u) in enumerate(stack):
            x, y = cx - c / 2 + i * size * 0.14, cy - c / 2 + i * size * 0.14
            fill = SIDE_COLOUR[d.side]
            stroke = "#b00" if u.disrupted else "#222"
            out.append(f'<g><title>{escape(d.name)} {d.factors}</title>'
                       f'<rect x="{x:.1f}" y="{y:.1f}" width="{c:.1f}" height="{c:.1f}" rx="2" fill="{fill}" '
                       f'stroke="{stroke}" stroke-width="{1.6 if u.disrupted else 0.8}"/>')
            if u.hidden:
                out.append(f'<text x="{x + c / 2:.1f}" y="{y + c * .6:.1f}">?</text></g>')
                continue
            out.append(_symbol(d.type, x + c / 2, y + c * 0.36, c * 0.5, c * 0.3))
            out.append(f'<text x="{x + c / 2:.1f}" y="{y + c * 0.13:.1f}" font-size="{size * 0.2:.1f}">'
                       f'{escape(d.id)}</text>')
            out.append(f'<text x="{x + c / 2:.1f}" y="{y + c * 0.86:.1f}">{d.factors}</text></g>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
