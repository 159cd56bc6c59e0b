"""Pixel layout of pointy-topped hexes, for drawing only (grid maths lives in :mod:`tobruk.board.hexes`).

Screen coordinates: x grows east, y grows south.  ``size`` is the centre-to-corner
distance; neighbouring centres are ``sqrt(3) * size`` apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tobruk.board.hexes import Direction, Hex, Hexside, round_axial

SQRT3 = math.sqrt(3.0)
# Screen angle (degrees, y down) from a hex centre toward each neighbour, by Direction.
_DIRECTION_ANGLE = {
    Direction.NE: -60.0,
    Direction.E: 0.0,
    Direction.SE: 60.0,
    Direction.SW: 120.0,
    Direction.W: 180.0,
    Direction.NW: 240.0,
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Where hexes fall on a drawing: hex ``size`` and the pixel position of A1's centre."""

    size: float
    origin_x: float = 0.0
    origin_y: float = 0.0

    def centre(self, h: Hex) -> tuple[float, float]:
        x = self.size * SQRT3 * (h.q + h.r / 2.0)
        y = self.size * 1.5 * h.r
        return self.origin_x + x, self.origin_y + y

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex whose area contains the pixel ``(x, y)``."""
        px, py = (x - self.origin_x) / self.size, (y - self.origin_y) / self.size
        q = SQRT3 / 3.0 * px - py / 3.0
        r = 2.0 / 3.0 * py
        return round_axial(q, r)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        return [
            (cx + self.size * math.cos(math.radians(60 * i - 30)), cy + self.size * math.sin(math.radians(60 * i - 30))) for i in range(6)
        ]

    def side_segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of a hexside."""
        cx, cy = self.centre(side.hex)
        angle = _DIRECTION_ANGLE[side.direction]
        a = math.radians(angle - 30.0)
        b = math.radians(angle + 30.0)
        return (
            (cx + self.size * math.cos(a), cy + self.size * math.sin(a)),
            (cx + self.size * math.cos(b), cy + self.size * math.sin(b)),
        )
