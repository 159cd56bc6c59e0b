# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The supply trace in Cython, for the comparison of compiled-kernel candidates (not used by tobruk)."""

from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc


cdef inline void push(int64_t* heap, Py_ssize_t* n, int64_t v) noexcept nogil:
    cdef Py_ssize_t k = n[0]
    cdef Py_ssize_t up
    n[0] += 1
    while k > 0:
        up = (k - 1) // 2
        if heap[up] <= v:
            break
        heap[k] = heap[up]
        k = up
    heap[k] = v


cdef inline int64_t pop(int64_t* heap, Py_ssize_t* n) noexcept nogil:
    cdef int64_t top = heap[0]
    n[0] -= 1
    cdef int64_t last = heap[n[0]]
    cdef Py_ssize_t k = 0, c
    while True:
        c = 2 * k + 1
        if c >= n[0]:
            break
        if c + 1 < n[0] and heap[c + 1] < heap[c]:
            c += 1
        if heap[c] >= last:
            break
        heap[k] = heap[c]
        k = c
    if n[0]:
        heap[k] = last
    return top


def supply(const int32_t[::1] nb, const signed char[::1] route, const uint8_t[::1] land, const uint8_t[::1] blocked,
           const int32_t[::1] extra, const int32_t[::1] sources, long limit):
    """(ends, costs, parents): the hexes reached in order, their least costs, the parent state of every state."""
    cdef Py_ssize_t n = land.shape[0]
    if nb.shape[0] != n * 6 or route.shape[0] != n * 6 or blocked.shape[0] != n * 6 or extra.shape[0] != n * 6:
        raise ValueError("table lengths")
    cdef int32_t[::1] bestv = memoryview(bytearray(n * 2 * 4)).cast("i")
    cdef int32_t[::1] parent = memoryview(bytearray(n * 2 * 4)).cast("i")
    cdef uint8_t[::1] seen = bytearray(n * 2)
    cdef uint8_t[::1] found = bytearray(n)
    cdef int32_t[::1] fcost = memoryview(bytearray(n * 4)).cast("i")
    cdef int32_t[::1] order = memoryview(bytearray(n * 4)).cast("i")
    cdef int64_t* heap = <int64_t*>malloc(sizeof(int64_t) * (n * 12 + 16))
    cdef Py_ssize_t hn = 0, count = 0, s, e
    cdef int32_t key, i, j, nkey, cost, d, on_net, along
    cdef int64_t top, nc
    cdef int64_t mask = 0xFFFFFFFF
    cdef int64_t shift = mask + 1
    for s in range(sources.shape[0]):
        if sources[s] < 0 or sources[s] >= n:
            free(heap)
            raise ValueError("source")
        key = sources[s] * 2 + 1
        if land[sources[s]] and not seen[key]:
            seen[key] = 1
            bestv[key] = 0
            parent[key] = -1
            push(heap, &hn, key)
    with nogil:
        while hn:
            top = pop(heap, &hn)
            cost = <int32_t>(top >> 32)
            key = <int32_t>(top & mask)
            if bestv[key] != cost:
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
                along = on_net and route[e] >= 0
                nc = cost + extra[e] + (0 if along else 60)
                if nc > limit:
                    continue
                nkey = j * 2 + along
                if not seen[nkey] or nc < bestv[nkey]:
                    seen[nkey] = 1
                    bestv[nkey] = <int32_t>nc
                    parent[nkey] = key
                    push(heap, &hn, nc * shift + nkey)
    free(heap)
    return order[:count], [fcost[order[m]] for m in range(count)], parent
