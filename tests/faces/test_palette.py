"""A counter's colour tells its side at a glance: every nationality that fights on one side of a packaged scenario is
drawn in a colour clearly apart from every nationality of the other side (a newcomer took an Australian brigade,
drawn olive, for one of the Italian units around it).

"Clearly apart" is a CIE76 colour difference of at least 20 (about twice what a person tells apart side by side on a
screen): the colours are compared in CIE L*a*b*, which is laid out by how different colours look, as RGB is not."""

from __future__ import annotations

import itertools

import pytest

from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario, scenario_names
from tobruk.render.palette import NATIONALITY_COLOUR, SIDE_COLOUR

APART = 20.0


def lab(colour: str) -> tuple[float, float, float]:
    """An sRGB colour ("#rrggbb") in CIE L*a*b* (D65 white)."""

    def linear(c: float) -> float:
        return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def difference(a: str, b: str) -> float:
    return float(sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5)


def colour(nationality: str, side: Side) -> str:
    return NATIONALITY_COLOUR.get(nationality.lower(), SIDE_COLOUR[side])


def test_the_colour_difference_is_cie76() -> None:
    """Known answers: white is L* 100, black 0; pure red is about (53.2, 80.1, 67.2)."""
    assert lab("#ffffff") == pytest.approx((100, 0, 0), abs=0.01)
    assert lab("#000000") == pytest.approx((0, 0, 0), abs=0.01)
    assert lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert difference("#000000", "#ffffff") == pytest.approx(100, abs=0.01)


def test_every_nationality_is_told_from_the_other_sides() -> None:
    sides: dict[Side, set[str]] = {Side.AXIS: set(), Side.ALLIED: set()}
    for name in scenario_names():
        for u in load_scenario(name).units:
            sides[u.side].add(u.nationality.lower())
    assert sides[Side.AXIS] and sides[Side.ALLIED]
    close = [
        (a, b, round(difference(colour(a, Side.AXIS), colour(b, Side.ALLIED)), 1))
        for a, b in itertools.product(sorted(sides[Side.AXIS]), sorted(sides[Side.ALLIED]))
        if difference(colour(a, Side.AXIS), colour(b, Side.ALLIED)) < APART
    ]
    assert close == []
