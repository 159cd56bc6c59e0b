"""The campaign's map and geography as the tests read them: loaded once per test process (the map has 3,260 hexes)."""

from __future__ import annotations

from functools import cache

from tobruk.board.maps import Map
from tobruk.geography.geo import Geography, load_geography
from tobruk.loading.mapfile import load_packaged_map


@cache
def campaign() -> Map:
    return load_packaged_map("north-africa")


@cache
def geography() -> Geography:
    return load_geography("north-africa")
