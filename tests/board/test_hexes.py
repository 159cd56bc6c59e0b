"""Hex geometry: labels, offsets, neighbours, distance, hexsides, lines and pixel layout."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tobruk.board.hexes import Direction, Hex, Hexside, line
from tobruk.board.layout import Layout

rows = st.integers(0, 60)
cols = st.integers(0, 120)
hexes = st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50))


@given(rows, cols)
def test_offset_round_trip(r: int, c: int) -> None:
    h = Hex.from_offset(r, c)
    assert (h.row, h.col) == (r, c)
    assert Hex.parse(h.label) == h


@given(hexes)
def test_axial_is_cube(h: Hex) -> None:
    assert h.q + h.r + h.s == 0


def test_labels_follow_the_printed_map() -> None:
    assert Hex.parse("A1").label == "A1"
    assert Hex.parse("c13") == Hex.parse("C13")
    assert Hex.parse(" N17 ").label == "N17"
    assert Hex.from_offset(26, 0).label == "AA1"


@pytest.mark.parametrize("bad", ["", "13", "C", "C0", "C-1", "1C", "C13x", "ABC1"])
def test_bad_labels_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        Hex.parse(bad)


def test_rows_b_d_f_are_shifted_half_a_hex_east() -> None:
    # pointy tops: C13's north-west neighbour is B12 and its north-east B13 (row B shifted east)
    c13 = Hex.parse("C13")
    assert c13.neighbour(Direction.NW) == Hex.parse("B12")
    assert c13.neighbour(Direction.NE) == Hex.parse("B13")
    assert c13.neighbour(Direction.E) == Hex.parse("C14")
    assert c13.neighbour(Direction.W) == Hex.parse("C12")
    assert c13.neighbour(Direction.SW) == Hex.parse("D12")
    assert c13.neighbour(Direction.SE) == Hex.parse("D13")
    # and from a shifted row: B5 touches C5 and C6 below it
    b5 = Hex.parse("B5")
    assert b5.neighbour(Direction.SW) == Hex.parse("C5")
    assert b5.neighbour(Direction.SE) == Hex.parse("C6")


@given(hexes, st.sampled_from(list(Direction)))
def test_neighbour_and_direction_round_trip(h: Hex, d: Direction) -> None:
    n = h.neighbour(d)
    assert h.direction_to(n) == d
    assert n.neighbour(d.opposite) == h
    assert h.distance(n) == 1


@given(hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)


def test_known_distances() -> None:
    assert Hex.parse("A1").distance(Hex.parse("A18")) == 17
    assert Hex.parse("A1").distance(Hex.parse("B1")) == 1
    assert Hex.parse("C13").distance(Hex.parse("J7")) == 9


@given(hexes, st.integers(0, 4))
def test_ring_and_within(h: Hex, r: int) -> None:
    ring = h.ring(r)
    assert len(ring) == (1 if r == 0 else 6 * r)
    assert all(h.distance(x) == r for x in ring)
    assert len(h.within(r)) == 1 + 3 * r * (r + 1)


@given(hexes, st.sampled_from(list(Direction)))
def test_hexside_is_the_same_from_both_sides(h: Hex, d: Direction) -> None:
    n = h.neighbour(d)
    side = Hexside.of(h, d)
    assert side == Hexside.of(n, d.opposite) == Hexside.between(n, h)
    assert hash(side) == hash(Hexside.between(h, n))
    assert set(side.hexes) == {h, n}
    assert side.other(h) == n


def test_hexside_labels_round_trip() -> None:
    side = Hexside.parse("C5|B5")
    assert side.label == "B5|C5"
    assert Hexside.parse(side.label) == side
    with pytest.raises(ValueError):
        Hexside.parse("B5|D5")


@given(hexes, hexes)
def test_line_is_a_chain_of_adjacent_hexes(a: Hex, b: Hex) -> None:
    path = line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == a.distance(b) + 1
    assert all(x.is_adjacent(y) for x, y in itertools.pairwise(path))


@given(hexes, st.floats(5, 50))
def test_pixel_round_trip(h: Hex, size: float) -> None:
    layout = Layout(size, 3.0, 7.0)
    assert layout.hex_at(*layout.centre(h)) == h
    for cx, cy in layout.corners(h):  # points just inside each corner still fall in the hex
        x0, y0 = layout.centre(h)
        assert layout.hex_at(x0 + (cx - x0) * 0.9, y0 + (cy - y0) * 0.9) == h


def test_neighbour_centres_are_sqrt3_size_apart() -> None:
    layout = Layout(10.0)
    a, b = Hex.parse("C5"), Hex.parse("C6")
    (x1, y1), (x2, y2) = layout.centre(a), layout.centre(b)
    assert ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 == pytest.approx(10.0 * 3**0.5)
    # the side segment between them is shared
    (p, q) = layout.side_segment(Hexside.between(a, b))
    corners_a = {(round(x, 6), round(y, 6)) for x, y in layout.corners(a)}
    assert (round(p[0], 6), round(p[1], 6)) in corners_a and (round(q[0], 6), round(q[1], 6)) in corners_a
