"""Random small boards for the compiled searches' property tests (tests/test_kernels_*.py).

Everything is drawn from one seed with :class:`random.Random`, so a failing example is reproduced from the seed
hypothesis prints: a board of up to 5x5 hexes with some sea, random roads and tracks, escarpments (ordinary and
towering, either side high) and minefields of either side on random hexsides.
"""

from __future__ import annotations

import random

from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import ROUTE_KINDS, Feature, Map, RouteLine, SideFeature, Terrain, build_map
from tobruk.engine.sides import Side


def random_board(rng: random.Random) -> Map:
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    hexes = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    terrain = {h: (Terrain.SEA if rng.random() < 0.12 else "clear") for h in hexes}
    land = [h for h in hexes if terrain[h] != Terrain.SEA]
    if not land:
        terrain[hexes[0]] = "clear"
        land = [hexes[0]]
    routes = []
    for k in range(rng.randint(0, 3)):
        chain = [rng.choice(land)]
        for _ in range(rng.randint(1, 6)):
            nexts = [x for x in chain[-1].neighbours() if terrain.get(x, Terrain.SEA) != Terrain.SEA and x not in chain]
            if not nexts:
                break
            chain.append(rng.choice(nexts))
        if len(chain) >= 2:
            routes.append(RouteLine(rng.choice(ROUTE_KINDS), f"route {k}", tuple(chain)))
    sides: dict[Hexside, list[SideFeature]] = {}
    for h in land:
        for d in Direction:
            n = h.neighbour(d)
            if n not in terrain or not (h.q, h.r) < (n.q, n.r) or rng.random() > 0.35:
                continue
            side = Hexside.between(h, n)
            feats = []
            roll = rng.random()
            if roll < 0.4:
                feats.append(SideFeature(Feature.ESCARPMENT, high=rng.choice((h, n))))
            elif roll < 0.6:
                feats.append(SideFeature(Feature.TOWERING_ESCARPMENT, high=rng.choice((h, n))))
            if rng.random() < 0.4:
                feats.append(SideFeature(Feature.MINEFIELD, owner=rng.choice(list(Side))))
            if feats:
                sides[side] = feats
    return build_map("random", terrain, hexsides=sides, routes=routes)
