"""The supply trace as it was in pure Python (heapq over (cost, state) tuples), for the comparison of
compiled-kernel candidates: the baseline they replace (not used by tobruk)."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

MF = 60


def supply(
    nb: Sequence[int],
    route: Sequence[int],
    land: Sequence[bool],
    blocked: Sequence[bool],
    extra: Sequence[int],
    sources: Sequence[int],
    limit: int,
) -> tuple[list[int], list[int], dict[int, int]]:
    best: dict[int, int] = {}
    parent: dict[int, int] = {}
    queue: list[tuple[int, int]] = []
    for i in sources:
        if land[i]:
            best[i * 2 + 1] = 0
            parent[i * 2 + 1] = -1
            queue.append((0, i * 2 + 1))
    heapq.heapify(queue)
    found: dict[int, tuple[int, int]] = {}
    while queue:
        cost, key = heapq.heappop(queue)
        if best[key] != cost:
            continue
        i, on_net = key >> 1, key & 1
        if i not in found or cost < found[i][0]:
            found[i] = (cost, key)
        base = i * 6
        for d in range(6):
            e = base + d
            j = nb[e]
            if j < 0 or not land[j] or blocked[e]:
                continue
            along = on_net and route[e] >= 0
            new = cost + extra[e] + (0 if along else MF)
            if new > limit:
                continue
            nkey = j * 2 + along
            if new < best.get(nkey, 1 << 30):
                best[nkey] = new
                parent[nkey] = key
                heapq.heappush(queue, (new, nkey))
    return list(found), [c for c, _ in found.values()], parent
