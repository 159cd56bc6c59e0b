"""The supply trace with Numba, for the comparison of compiled-kernel candidates (not used by tobruk)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=False)
def supply(nb, route, land, blocked, extra, sources, limit):  # type: ignore[no-untyped-def]
    n = land.shape[0]
    best = np.zeros(n * 2, np.int32)
    parent = np.full(n * 2, -1, np.int32)
    seen = np.zeros(n * 2, np.uint8)
    found = np.zeros(n, np.uint8)
    fcost = np.zeros(n, np.int32)
    order = np.zeros(n, np.int32)
    heap = np.zeros(n * 12 + 16, np.int64)
    hn = 0
    count = 0
    for s in sources:
        key = s * 2 + 1
        if land[s] and not seen[key]:
            seen[key] = 1
            heap[hn] = key  # cost 0: all sources first, ordered by key
            hn += 1
    heap[:hn].sort()
    while hn:
        top = heap[0]
        hn -= 1
        last = heap[hn]
        k = 0
        while True:
            c = 2 * k + 1
            if c >= hn:
                break
            if c + 1 < hn and heap[c + 1] < heap[c]:
                c += 1
            if heap[c] >= last:
                break
            heap[k] = heap[c]
            k = c
        if hn:
            heap[k] = last
        cost = top >> 32
        key = top & 0xFFFFFFFF
        if best[key] != cost:
            continue
        i = key >> 1
        on_net = key & 1
        if not found[i]:
            found[i] = 1
            order[count] = i
            count += 1
            fcost[i] = cost
        elif cost < fcost[i]:
            fcost[i] = cost
        for d in range(6):
            e = i * 6 + d
            j = nb[e]
            if j < 0 or not land[j] or blocked[e]:
                continue
            along = 1 if (on_net and route[e] >= 0) else 0
            nc = cost + extra[e] + (0 if along else 60)
            if nc > limit:
                continue
            nkey = j * 2 + along
            if not seen[nkey] or nc < best[nkey]:
                seen[nkey] = 1
                best[nkey] = nc
                parent[nkey] = key
                v = np.int64(nc) * 4294967296 + nkey
                kk = hn
                hn += 1
                while kk > 0:
                    up = (kk - 1) // 2
                    if heap[up] <= v:
                        break
                    heap[kk] = heap[up]
                    kk = up
                heap[kk] = v
    return order[:count], fcost, parent
