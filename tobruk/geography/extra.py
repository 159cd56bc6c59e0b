"""Geography beyond roads, lines and places: terrain areas, passes, the railway and its railheads.

A map at a larger scale needs terrain a battle map may have no use for: whole-hex mountains, ridges
and hills that are hexes rather than hexsides, depressions, passes through escarpments and a railway
whose railhead moves forward by date.  They are read from the same geography files and laid onto the
grid after the other features, so a map that uses none of them is built exactly as before.

* ``[[area]]``: a terrain ``kind`` (mountain, hill, oasis, depression, town, village) over the
  hexes whose centres lie inside a closed ring (``closed = true``), or the hexes an open line
  passes through (a ridge).  Sea stays sea.
* a place of ``kind = "pass"``: the escarpment hexside nearest to it (within one hex) carries a
  pass.
* ``[[railway]]``: one line, from the end nearest its base to the farthest railhead; ``[[railhead]]``:
  a station with the ISO ``date`` it became the railhead and the half-month ``turn`` containing it.
* a fortification's ``fortified`` facings (the eight directions north, north-east ... north-west, on a place with a ``fortification``): the
  hexsides of its hex that its defences faced carry a ``fortified`` feature, inside the place's hex and
  owned by its side; the sides left out are its open ones (a rear left unmined, a gap in the wire).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.layout import Layout
from tobruk.board.maps import HIGH_SIDED, Feature, Railhead, SideFeature
from tobruk.engine.sides import Side
from tobruk.loading.datafile import Table

LatLon = tuple[float, float]
HALF_MONTH = ("I", "II")
# the directions a fortification's defences may face, as bearings in degrees clockwise from north
FACINGS = {
    "north": 0,
    "north-east": 45,
    "east": 90,
    "south-east": 135,
    "south": 180,
    "south-west": 225,
    "west": 270,
    "north-west": 315,
}
# a facing covers the hexsides whose outward bearing is this close to it: each of the eight directions falls on one
# side of a pointy-topped hex, except north and south, which fall on a corner and so cover the two sides there
FACING_SPREAD = 30
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True, slots=True)
class GeoArea:
    """A stretch of terrain: a closed ring (the hexes inside) or an open line (the hexes it crosses)."""

    name: str
    kind: str  # the terrain the area gives the hexes it covers
    points: tuple[LatLon, ...]
    closed: bool
    confidence: str
    source: str


@dataclass(frozen=True, slots=True)
class GeoRailhead:
    name: str
    lat: float
    lon: float
    date: str
    turn: str
    confidence: str
    source: str


def turn_of(date: str) -> str:
    """The half-month turn containing an ISO date: days 1-15 are I, the rest II (``"II Nov 41"``)."""
    year, month, day = (int(p) for p in date.split("-"))
    return f"{HALF_MONTH[day > 15]} {MONTHS[month - 1]} {year % 100:02d}"


def read_areas(t: Table, points: Callable[[Table, str], tuple[LatLon, ...]], source_of: Callable[[Table], str]) -> list[GeoArea]:
    out = []
    for at in t.tables("area", None):
        kind = at.name("kind")
        closed = at.bool("closed", False)
        pts = points(at, "points")
        if closed and len(pts) < 3:
            raise at.error("points", "a closed area needs at least three points")
        out.append(GeoArea(at.str("name"), kind, pts, closed, at.str("confidence"), source_of(at)))
        at.done()
    return out


def read_railheads(t: Table, source_of: Callable[[Table], str]) -> list[GeoRailhead]:
    out = []
    for rt in t.tables("railhead", None):
        date = rt.str("date")
        try:
            expected = turn_of(date)
        except (ValueError, IndexError):
            raise rt.error("date", f"expected an ISO date (1941-11-15), got {date!r}") from None
        turn = rt.str("turn")
        if turn != expected:
            raise rt.error("turn", f"{date} falls in {expected!r}, not {turn!r}")
        out.append(GeoRailhead(rt.str("name"), rt.number("lat"), rt.number("lon"), date, turn, rt.str("confidence"), source_of(rt)))
        rt.done()
    return out


def _inside(pt: tuple[float, float], ring: Sequence[tuple[float, float]]) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(ring, [*ring[1:], ring[0]], strict=False):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def area_hexes(
    pts_km: Sequence[tuple[float, float]],
    closed: bool,
    layout: Layout,
    board: Sequence[Hex],
    trace: Callable[[Sequence[tuple[float, float]]], list[list[Hex]]],
) -> list[Hex]:
    if closed:
        return [h for h in board if _inside(layout.centre(h), pts_km)]
    return sorted({h for chain in trace(pts_km) for h in chain})


def nearest_escarpment_side(x: float, y: float, layout: Layout, hexsides: Mapping[Hexside, list[SideFeature]]) -> Hexside | None:
    """The escarpment hexside whose midpoint is nearest to ``(x, y)``, if one lies within a hex."""
    best: tuple[float, Hexside] | None = None
    for side, feats in hexsides.items():
        if not any(f.kind in HIGH_SIDED for f in feats):
            continue
        a, b = side.hexes
        (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
        d = math.hypot((ax + bx) / 2 - x, (ay + by) / 2 - y)
        if d <= layout.size * math.sqrt(3) and (best is None or d < best[0]):
            best = (d, side)
    return best[1] if best else None


def add_pass(side: Hexside, hexsides: dict[Hexside, list[SideFeature]]) -> None:
    feats = hexsides.setdefault(side, [])
    if all(f.kind != Feature.PASS for f in feats):
        feats.append(SideFeature(Feature.PASS))


def railway_chain(chains: list[list[Hex]]) -> list[Hex]:
    """Join the traced pieces of the railway into one chain (pieces split by the map edge are refused)."""
    out: list[Hex] = []
    for chain in chains:
        if out and not out[-1].is_adjacent(chain[0]):
            raise ValueError("the railway leaves the map and comes back: draw it inside the map")
        out.extend(h for h in chain if not out or h != out[-1])
    return out


def snap_railhead(r: GeoRailhead, h: Hex, railway: Sequence[Hex]) -> Railhead:
    """The railhead on the railway: its own hex, or the railway hex nearest to it."""
    if h not in railway:
        h = min(railway, key=lambda rh: (rh.distance(h), railway.index(rh)))
    return Railhead(r.name, h, r.date, r.turn)


def read_facings(t: Table, has_fortification: bool) -> tuple[str, ...]:
    """A place's ``fortified`` facings, checked: directions of :data:`FACINGS`, each once, and only on a fortification."""
    facings = t.strings("fortified", [])
    for i, f in enumerate(facings):
        if f not in FACINGS:
            raise t.error(f"fortified[{i}]", f"expected a direction ({', '.join(FACINGS)}), got {f!r}")
        if f in facings[:i]:
            raise t.error(f"fortified[{i}]", f"{f!r} is listed twice")
    if facings and not has_fortification:
        raise t.error("fortified", "only a fortification has fortified sides: give the place its fortification (axis or allied)")
    return tuple(facings)


def side_bearing(d: Direction) -> int:
    """The bearing a hexside faces outward, from the hex's centre (north-east 30, east 90 ... north-west 330)."""
    return 30 + 60 * int(d)


def facing_directions(facings: Sequence[str]) -> list[Direction]:
    """The hexsides of a pointy-topped hex (north up) that defences facing ``facings`` cover."""

    def apart(a: int, b: int) -> int:
        return min((a - b) % 360, (b - a) % 360)

    return [d for d in Direction if any(apart(side_bearing(d), FACINGS[f]) <= FACING_SPREAD for f in facings)]


def add_fortified_sides(
    name: str,
    h: Hex,
    facings: Sequence[str],
    owner: Side,
    is_open_to: Callable[[Hex], bool],
    hexsides: dict[Hexside, list[SideFeature]],
    holders: dict[Hexside, str],
) -> None:
    """Put a ``fortified`` feature on each hexside of ``h`` its defences faced, toward a neighbour that
    ``is_open_to`` accepts (land on the board: a side on the sea or off the map defends nothing).

    ``holders`` names the place that fortified each side so far: two fortifications fortifying one side
    would make it inside both, and the data must say which it is.
    """
    for d in facing_directions(facings):
        if not is_open_to(h.neighbour(d)):
            continue
        side = Hexside.of(h, d)
        if side in holders:
            raise ValueError(f"hexside {side}: fortified by both {holders[side]!r} and {name!r}; leave it out of one of them")
        holders[side] = name
        hexsides.setdefault(side, []).append(SideFeature(Feature.FORTIFIED, owner=owner, inside=h))
