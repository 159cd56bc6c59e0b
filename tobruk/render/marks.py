"""The marks the map draws besides the terrain fills, each drawn by one function for the map and for its legend.

A mark is every kind of thing the map shows over the terrain: a road or track, the railway, an escarpment, a
minefield, the fortress perimeter, a fortified side, a box or fort, a supply source, an objective, the ring of an
objective the enemy could reach.  Each carries a key (``data-mark`` on the map, ``data-legend`` in the legend), so
the legend is made of the marks the map has, each drawn the way the map draws it (:func:`legend_marks`), and a
system whose map has a new kind of mark gets its legend entry with it.  The page draws the threatened ring itself,
from the board data's ``threat`` (:data:`THREAT`), and its legend entry is here with the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from tobruk.board.maps import Feature, Map
from tobruk.engine.sides import Side
from tobruk.engine.system import Objective
from tobruk.render.palette import SIDE_COLOUR, Palette

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Ring:
    """A ring drawn inside a hex: its colour, stroke width, size against the hex's and dashes (empty: solid)."""

    colour: str
    width: float
    scale: float
    dashes: str = ""

    def data(self) -> dict[str, str | float]:
        return {"colour": self.colour, "width": self.width, "scale": self.scale, "dashes": self.dashes}


OBJECTIVE = Ring("#d4a000", 3.0, 0.8)  # an objective's ring inside its hex
THREAT = Ring("#e00000", 3.5, 0.92, "5 3")  # the ring round an objective under threat
THREAT_WORDS = "objective the enemy could reach in its next move"
OWNED_COLOUR = {Side.ALLIED: "#8b1a1a", Side.AXIS: "#333"}  # minefields, fortified sides, boxes and forts by holder
HIGH_SIDED = (Feature.ESCARPMENT, Feature.TOWERING_ESCARPMENT, Feature.IMPASSABLE_ESCARPMENT)
FEATURE_WORDS = {
    Feature.ESCARPMENT: "escarpment (teeth downhill)",
    Feature.TOWERING_ESCARPMENT: "towering escarpment",
    Feature.IMPASSABLE_ESCARPMENT: "impassable escarpment",
    Feature.PASS: "pass",
    Feature.RIDGE: "ridge",
    Feature.PERIMETER: "fortress perimeter",
}


@dataclass(frozen=True, slots=True)
class Mark:
    """One kind of mark for the legend: its key, its words, and a sample drawn as the map draws it in a box ``size``
    wide and ``size * 0.6`` high from (0, 0)."""

    key: str
    name: str
    sample: str


def _f(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def feature_mark(kind: str, owner: Side | None) -> str:
    """The key of a hexside feature's mark (a minefield or fortified side by its holder: the colour says whose)."""
    if kind == Feature.MINEFIELD:
        return f"minefield:{(owner or Side.ALLIED).value}"
    if kind == Feature.FORTIFIED:
        return f"fortified:{(owner or Side.AXIS).value}"
    return f"feature:{kind}"


def feature_svg(kind: str, owner: Side | None, a: Point, b: Point, low: Point, palette: Palette, size: float, title: str) -> str:
    """A hexside feature on the segment a-b, ``low`` the point its teeth point to (downhill; for a fortified side the
    hex behind it)."""
    (x1, y1), (x2, y2) = a, b
    key = f'data-mark="{escape(feature_mark(kind, owner))}"'
    seg = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
    colour = palette.feature(kind)
    tip = f"<title>{escape(title)}</title>"
    if kind == Feature.PASS:
        return (
            f'<circle {key} cx="{(x1 + x2) / 2:.1f}" cy="{(y1 + y2) / 2:.1f}" r="{size * 0.14:.1f}" fill="#fbf8ef" '
            f'stroke="{colour}" stroke-width="1.2">{tip}</circle>'
        )
    if kind in HIGH_SIDED:
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dist = math.hypot(low[0] - mx, low[1] - my) or 1
        tx, ty = (low[0] - mx) / dist * size * 0.22, (low[1] - my) / dist * size * 0.22
        teeth = "".join(
            f'<line x1="{x1 + (x2 - x1) * k:.1f}" y1="{y1 + (y2 - y1) * k:.1f}" '
            f'x2="{x1 + (x2 - x1) * k + tx:.1f}" y2="{y1 + (y2 - y1) * k + ty:.1f}"/>'
            for k in (0.2, 0.4, 0.6, 0.8)
        )
        double = (
            f'<line x1="{x1 + tx * 0.5:.1f}" y1="{y1 + ty * 0.5:.1f}" x2="{x2 + tx * 0.5:.1f}" '
            f'y2="{y2 + ty * 0.5:.1f}" stroke-width="2.4"/>'
            if kind == Feature.TOWERING_ESCARPMENT
            else ""
        )
        return f'<g {key} stroke="{colour}" stroke-width="1.4">{tip}<line {seg} stroke-width="2.4"/>{teeth}{double}</g>'
    if kind == Feature.RIDGE:
        return f'<line {key} {seg} stroke="{colour}" stroke-width="3" stroke-dasharray="1 3" stroke-linecap="round">{tip}</line>'
    if kind == Feature.MINEFIELD:
        r = size * 0.09
        marks = "".join(
            f'<path d="M{px - r:.1f},{py - r:.1f} L{px + r:.1f},{py + r:.1f} M{px - r:.1f},{py + r:.1f} L{px + r:.1f},{py - r:.1f}"/>'
            for k in (0.2, 0.5, 0.8)
            for px, py in [(x1 + (x2 - x1) * k, y1 + (y2 - y1) * k)]
        )
        return f'<g {key} stroke="{OWNED_COLOUR[owner or Side.ALLIED]}" stroke-width="1.3">{marks}{tip}</g>'
    if kind == Feature.PERIMETER:
        return f'<line {key} {seg} stroke="{colour}" stroke-width="2.5" stroke-dasharray="8 3">{tip}</line>'
    if kind == Feature.FORTIFIED:
        return _fortified_side(key, a, b, low, owner, size, tip)
    return f'<line {key} {seg} stroke="{colour}" stroke-width="2.4">{tip}</line>'


def _fortified_side(key: str, a: Point, b: Point, inside: Point, owner: Side | None, size: float, tip: str) -> str:
    """A fortified side: a rampart drawn just inside its hex, in the holder's colour, with short teeth toward
    the outside (the way its defences faced), so that the open sides of a camp show as gaps."""
    inset = 0.16
    (ax, ay), (bx, by), (cx, cy) = a, b, inside
    a2, b2 = (ax + (cx - ax) * inset, ay + (cy - ay) * inset), (bx + (cx - bx) * inset, by + (cy - by) * inset)
    mx, my = (a2[0] + b2[0]) / 2, (a2[1] + b2[1]) / 2
    dist = math.hypot(mx - cx, my - cy) or 1
    tx, ty = (mx - cx) / dist * size * 0.1, (my - cy) / dist * size * 0.1
    teeth = "".join(
        f'<line x1="{a2[0] + (b2[0] - a2[0]) * k:.1f}" y1="{a2[1] + (b2[1] - a2[1]) * k:.1f}" '
        f'x2="{a2[0] + (b2[0] - a2[0]) * k + tx:.1f}" y2="{a2[1] + (b2[1] - a2[1]) * k + ty:.1f}"/>'
        for k in (0.25, 0.5, 0.75)
    )
    return (
        f'<g {key} stroke="{OWNED_COLOUR[owner or Side.AXIS]}" stroke-width="1.6">'
        f'<line x1="{a2[0]:.1f}" y1="{a2[1]:.1f}" x2="{b2[0]:.1f}" y2="{b2[1]:.1f}" stroke-width="2.6"/>{teeth}{tip}</g>'
    )


def fortification_svg(centre: Point, holder: Side, size: float, title: str) -> str:
    """A box or fort: a dashed square in the holder's colour."""
    cx, cy = centre
    s = size * 0.78
    return (
        f'<rect data-mark="fortification:{holder.value}" x="{cx - s / 2:.1f}" y="{cy - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" '
        f'fill="none" stroke="{OWNED_COLOUR[holder]}" stroke-width="2" stroke-dasharray="4 2"><title>{escape(title)}</title></rect>'
    )


def fortification_words(holder: Side) -> str:
    return "Allied box" if holder is Side.ALLIED else "Axis fort"


def supply_svg(centre: Point, owner: Side, size: float, title: str) -> str:
    """A supply source: a dot in its side's colour at the top of its hex."""
    cx, cy = centre
    return (
        f'<circle data-mark="supply:{owner.value}" cx="{cx:.1f}" cy="{cy - size * 0.55:.1f}" r="{size * 0.16:.1f}" '
        f'fill="{SIDE_COLOUR[owner]}" stroke="#222" stroke-width="0.8"><title>{escape(title)}</title></circle>'
    )


def objective_key(o: Objective) -> str:
    return f"objective:{o.clause}:{o.name}"


def objective_words(o: Objective) -> str:
    return f"{o.name}, for the {o.defender.display} to hold [{o.clause}]"


def ring_points(corners: Sequence[Point], centre: Point, scale: float) -> str:
    cx, cy = centre
    return " ".join(_f((cx + (x - cx) * scale, cy + (y - cy) * scale)) for x, y in corners)


def objective_svg(key: str, corners: Sequence[Point], centre: Point, title: str) -> str:
    """An objective: a gold ring inside its hex."""
    pts = ring_points(corners, centre, OBJECTIVE.scale)
    return (
        f'<polygon data-mark="{escape(key)}" points="{pts}" fill="none" stroke="{OBJECTIVE.colour}" '
        f'stroke-width="{OBJECTIVE.width}"><title>{escape(title)}</title></polygon>'
    )


def threat_svg(corners: Sequence[Point], centre: Point) -> str:
    """The ring round a threatened objective (as the page draws it, board.js)."""
    pts = ring_points(corners, centre, THREAT.scale)
    return (
        f'<polygon data-mark="threatened" points="{pts}" fill="none" stroke="{THREAT.colour}" '
        f'stroke-width="{THREAT.width}" stroke-dasharray="{THREAT.dashes}"/>'
    )


def route_words(kind: str) -> str:
    return kind.replace("-", " ")


def _hexagon(size: float, h: float) -> tuple[list[Point], Point]:
    """A small pointy-topped hexagon's corners filling a sample box's height, and its centre."""
    r = h / 2
    cx, cy = size / 2, h / 2
    return [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30))) for k in range(6)], (cx, cy)


def legend_marks(m: Map, palette: Palette, objectives: Sequence[Objective], size: float) -> list[Mark]:
    """Every kind of mark the map of ``m`` shows with ``objectives`` (and the threatened ring where it has any), in the
    order the map draws them, each with a sample in a box ``size`` by ``size * 0.6``."""
    w, h = size, size * 0.6
    a, b, low = (w * 0.1, h * 0.35), (w * 0.9, h * 0.35), (w / 2, h * 1.5)
    out: list[Mark] = []
    holders = sorted(set(m.fortifications.values()), key=lambda s: s.value)
    for holder in holders:
        sample = fortification_svg((w / 2, h / 2), holder, h * 1.1, fortification_words(holder))
        out.append(Mark(f"fortification:{holder.value}", fortification_words(holder), sample))
    seen: dict[str, Mark] = {}
    for side_ in sorted(m.hexsides):
        for f in m.hexsides[side_]:
            key = feature_mark(f.kind, f.owner)
            if key not in seen:
                words = FEATURE_WORDS.get(f.kind, route_words(f.kind))
                if f.kind == Feature.MINEFIELD:
                    words = f"{(f.owner or Side.ALLIED).display} minefield"
                elif f.kind == Feature.FORTIFIED:
                    words = f"{(f.owner or Side.AXIS).display} fortified hexside (teeth outward)"
                inside = (w / 2, -h) if f.kind == Feature.FORTIFIED else low
                seen[key] = Mark(key, words, feature_svg(f.kind, f.owner, a, b, inside, palette, size, words))
    out += sorted(seen.values(), key=lambda x: x.key)
    if m.railway:
        line = f'x1="{a[0]:.1f}" y1="{h / 2:.1f}" x2="{b[0]:.1f}" y2="{h / 2:.1f}"'
        rail = (
            f'<g data-mark="railway"><line {line} stroke="#222" stroke-width="2.2"/>'
            f'<line {line} stroke="#fbf8ef" stroke-width="1.2" stroke-dasharray="4 4"/></g>'
        )
        out.append(Mark("railway", "railway", rail))
    if m.railheads:
        s = size * 0.4
        out.append(
            Mark(
                "railhead",
                "railhead",
                f'<rect data-mark="railhead" x="{(w - s) / 2:.1f}" y="{(h - s) / 2:.1f}" width="{s:.1f}" height="{s:.1f}" fill="#222"/>',
            )
        )
    kinds = set(m.routes.values())
    for kind in m.route_kinds:
        if kind in kinds:
            style = palette.route(kind).attributes()
            sample = (
                f'<line data-mark="route:{escape(kind)}" x1="{a[0]:.1f}" y1="{h / 2:.1f}" x2="{b[0]:.1f}" y2="{h / 2:.1f}" '
                f'{style} stroke-linecap="round"/>'
            )
            out.append(Mark(f"route:{kind}", route_words(kind), sample))
    for owner in sorted(m.supply_sources, key=lambda s: s.value):
        if m.supply_sources[owner]:
            words = f"{owner.display} supply source"
            out.append(Mark(f"supply:{owner.value}", words, supply_svg((w / 2, h * 0.5 + size * 0.55), owner, size, words)))
    corners, centre = _hexagon(w, h)
    named: dict[str, Mark] = {}
    for o in objectives:
        key = objective_key(o)
        named.setdefault(key, Mark(key, objective_words(o), objective_svg(key, corners, centre, objective_words(o))))
    out += named.values()
    if objectives:
        out.append(Mark("threatened", THREAT_WORDS, threat_svg(corners, centre)))
    return out
