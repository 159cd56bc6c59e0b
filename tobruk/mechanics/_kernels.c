/* The compiled search kernels of tobruk.mechanics: the movement reach search and the supply trace.
 *
 * Both are Dijkstra's algorithm over (hex index, state bits), on the map's integer tables.  They mirror
 * the readable Python statement of the rules in reach.py (_step) and supply.py step for step: the heap
 * pops (cost, state key) pairs in the same order as Python's heapq on the same tuples (the pairs are
 * distinct, so any correct binary heap pops them in the same order), and the best costs, parents and
 * per-hex answers update under the same conditions, so ties break the same way and the same paths come out.
 *
 * The tables that describe a map (neighbours, route kinds, land) are checked once, when a Grid is built;
 * each search checks the lengths of its other tables and the range of its scalars, and raises ValueError
 * on bad input.  Results are flat int32 arrays returned as bytes; paths are stored as a flat list of hex
 * indices with offsets, so the caller builds hex objects only for the paths it asks for.
 *
 * The working arrays (best cost, parent and stop flag per state) are kept between calls and invalidated by
 * a generation stamp, so a call costs what it visits, not the size of the state space.  The GIL is held
 * for the whole call, which also keeps the shared working arrays safe.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MF 60

#define H_ENEMY 2 /* hex flags (reach); land comes from the Grid */
#define H_FRIEND 4
#define H_FORT 8
#define H_ZOC 16
/* edge flags (reach) */
#define E_CLIMB 1
#define E_TOWERING 2
#define E_MINES 4

/* ---------------------------------------------------------------- the map's tables */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;      /* hexes */
    int32_t *nb;       /* n * 6: neighbour hex index or -1 */
    int8_t *route;     /* n * 6: route kind index or -1 */
    uint8_t *land;     /* n: 1 for a land hex */
    int kinds;         /* route kinds: every route value is below it */
} Grid;

static void Grid_dealloc(Grid *self) {
    PyMem_Free(self->nb);
    PyMem_Free(self->route);
    PyMem_Free(self->land);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Grid_init(Grid *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"nb", "route", "land", "kinds", NULL};
    Py_buffer nb, route, land;
    int kinds;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*y*y*i", names, &nb, &route, &land, &kinds))
        return -1;
    int ok = 0;
    Py_ssize_t n = land.len;
    if (kinds < 0 || kinds > 127) {
        PyErr_SetString(PyExc_ValueError, "Grid: kinds must be 0-127");
    } else if (nb.len != n * 6 * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "Grid: nb must hold 6 int32 per hex of land");
    } else if (route.len != n * 6) {
        PyErr_SetString(PyExc_ValueError, "Grid: route must hold 6 int8 per hex of land");
    } else if (n > (1 << 22)) {
        PyErr_SetString(PyExc_ValueError, "Grid: too many hexes");
    } else {
        ok = 1;
        const int32_t *nbv = nb.buf;
        const int8_t *rv = route.buf;
        for (Py_ssize_t e = 0; e < n * 6 && ok; e++) {
            if (nbv[e] < -1 || nbv[e] >= n) {
                PyErr_Format(PyExc_ValueError, "Grid: nb[%zd] = %d is not a hex index", e, (int)nbv[e]);
                ok = 0;
            } else if (rv[e] < -1 || rv[e] >= kinds) {
                PyErr_Format(PyExc_ValueError, "Grid: route[%zd] = %d is not a route kind", e, (int)rv[e]);
                ok = 0;
            }
        }
    }
    if (ok) {
        PyMem_Free(self->nb);
        PyMem_Free(self->route);
        PyMem_Free(self->land);
        self->nb = PyMem_Malloc(n * 6 * sizeof(int32_t) + 1);
        self->route = PyMem_Malloc(n * 6 + 1);
        self->land = PyMem_Malloc(n + 1);
        if (!self->nb || !self->route || !self->land) {
            PyErr_NoMemory();
            ok = 0;
        } else {
            memcpy(self->nb, nb.buf, n * 6 * sizeof(int32_t));
            memcpy(self->route, route.buf, n * 6);
            memcpy(self->land, land.buf, n);
            self->n = n;
            self->kinds = kinds;
        }
    }
    PyBuffer_Release(&nb);
    PyBuffer_Release(&route);
    PyBuffer_Release(&land);
    return ok ? 0 : -1;
}

static PyObject *Grid_size(Grid *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(self->n);
}

static PyGetSetDef Grid_getset[] = {
    {"size", (getter)Grid_size, NULL, "the number of hexes", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GridType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tobruk.mechanics._kernels.Grid",
    .tp_doc = "A map's neighbour, route-kind and land tables, checked once.",
    .tp_basicsize = sizeof(Grid),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Grid_init,
    .tp_dealloc = (destructor)Grid_dealloc,
    .tp_getset = Grid_getset,
};

/* ---------------------------------------------------------------- working arrays kept between calls */

static struct {
    size_t states, hexes;
    int32_t *best, *parent, *depth;
    uint32_t *stamp;
    uint8_t *stop;
    uint32_t gen;
    int32_t *found_key, *found_cost, *found_left, *order;
    uint32_t *found_stamp;
    int64_t *heap;
    size_t heap_cap;
} W;

static int reserve(size_t states, size_t hexes) {
    if (states > W.states) {
        int32_t *best = PyMem_Realloc(W.best, states * sizeof(int32_t));
        if (best) W.best = best;
        int32_t *parent = PyMem_Realloc(W.parent, states * sizeof(int32_t));
        if (parent) W.parent = parent;
        int32_t *depth = PyMem_Realloc(W.depth, states * sizeof(int32_t));
        if (depth) W.depth = depth;
        uint8_t *stop = PyMem_Realloc(W.stop, states);
        if (stop) W.stop = stop;
        uint32_t *stamp = PyMem_Realloc(W.stamp, states * sizeof(uint32_t));
        if (stamp) W.stamp = stamp;
        if (!best || !parent || !depth || !stop || !stamp) {
            PyErr_NoMemory();
            return -1;
        }
        memset(W.stamp + W.states, 0, (states - W.states) * sizeof(uint32_t));
        W.states = states;
    }
    if (hexes > W.hexes) {
        int32_t *a = PyMem_Realloc(W.found_key, hexes * sizeof(int32_t));
        if (a) W.found_key = a;
        int32_t *b = PyMem_Realloc(W.found_cost, hexes * sizeof(int32_t));
        if (b) W.found_cost = b;
        int32_t *c = PyMem_Realloc(W.found_left, hexes * sizeof(int32_t));
        if (c) W.found_left = c;
        int32_t *o = PyMem_Realloc(W.order, hexes * sizeof(int32_t));
        if (o) W.order = o;
        uint32_t *s = PyMem_Realloc(W.found_stamp, hexes * sizeof(uint32_t));
        if (s) W.found_stamp = s;
        if (!a || !b || !c || !o || !s) {
            PyErr_NoMemory();
            return -1;
        }
        memset(W.found_stamp + W.hexes, 0, (hexes - W.hexes) * sizeof(uint32_t));
        W.hexes = hexes;
    }
    W.gen++;
    if (W.gen == 0) { /* the stamps wrapped around: forget them all */
        memset(W.stamp, 0, W.states * sizeof(uint32_t));
        memset(W.found_stamp, 0, W.hexes * sizeof(uint32_t));
        W.gen = 1;
    }
    return 0;
}

/* a binary min-heap of cost * 2^32 + key: ordered as the (cost, key) tuples heapq compares */
static size_t heap_len;

static int heap_push(int64_t v) {
    if (heap_len == W.heap_cap) {
        size_t cap = W.heap_cap ? W.heap_cap * 2 : 1024;
        int64_t *h = PyMem_Realloc(W.heap, cap * sizeof(int64_t));
        if (!h) {
            PyErr_NoMemory();
            return -1;
        }
        W.heap = h;
        W.heap_cap = cap;
    }
    size_t k = heap_len++;
    while (k > 0) {
        size_t up = (k - 1) / 2;
        if (W.heap[up] <= v) break;
        W.heap[k] = W.heap[up];
        k = up;
    }
    W.heap[k] = v;
    return 0;
}

static int64_t heap_pop(void) {
    int64_t top = W.heap[0], last = W.heap[--heap_len];
    size_t k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= heap_len) break;
        if (c + 1 < heap_len && W.heap[c + 1] < W.heap[c]) c++;
        if (W.heap[c] >= last) break;
        W.heap[k] = W.heap[c];
        k = c;
    }
    if (heap_len) W.heap[k] = last;
    return top;
}

#define PACK(cost, key) ((int64_t)(cost) * 4294967296LL + (int64_t)(key))

/* the answer: ends, their costs, one more int32 per end, and the paths as offsets and hex indices (a state's
 * hex is its key >> shift; ``depth`` holds every state's number of steps from its start) */
static PyObject *answer(size_t count, const int32_t *extra_per_end, int shift) {
    const int32_t *order = W.order, *found_key = W.found_key, *parent = W.parent, *depth = W.depth;
    size_t total = 0;
    for (size_t m = 0; m < count; m++) total += (size_t)depth[found_key[order[m]]] + 1;
    PyObject *ends = PyBytes_FromStringAndSize(NULL, count * 4);
    PyObject *costs = PyBytes_FromStringAndSize(NULL, count * 4);
    PyObject *more = PyBytes_FromStringAndSize(NULL, count * 4);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (count + 1) * 4);
    PyObject *paths = PyBytes_FromStringAndSize(NULL, total * 4);
    if (!ends || !costs || !more || !offsets || !paths) {
        Py_XDECREF(ends);
        Py_XDECREF(costs);
        Py_XDECREF(more);
        Py_XDECREF(offsets);
        Py_XDECREF(paths);
        return NULL;
    }
    int32_t *ev = (int32_t *)PyBytes_AS_STRING(ends), *cv = (int32_t *)PyBytes_AS_STRING(costs);
    int32_t *mv = (int32_t *)PyBytes_AS_STRING(more), *ov = (int32_t *)PyBytes_AS_STRING(offsets);
    int32_t *pv = (int32_t *)PyBytes_AS_STRING(paths);
    size_t at = 0;
    for (size_t m = 0; m < count; m++) {
        int32_t i = order[m];
        ev[m] = i;
        cv[m] = W.found_cost[i];
        mv[m] = extra_per_end ? extra_per_end[i] : 0;
        ov[m] = (int32_t)at;
        at += (size_t)depth[found_key[i]] + 1;
        size_t p = at;
        for (int32_t k = found_key[i]; k >= 0; k = parent[k]) pv[--p] = k >> shift;
    }
    ov[count] = (int32_t)at;
    return Py_BuildValue("(NNNNN)", ends, costs, more, offsets, paths);
}

/* ---------------------------------------------------------------- the supply step tables */

/* entry_steps(grid, state, not_across, cost): the supply search's step tables from rules about the hex a line
   enters.  state: a byte per hex, 0 open, 1 costly (cost more, and closed across a hexside marked in not_across),
   2 closed; not_across: a byte per hexside (6 a hex), or empty for none.  A step off the board is closed. */
static PyObject *entry_steps(PyObject *module, PyObject *args) {
    (void)module;
    Grid *g;
    Py_buffer state, across;
    int cost;
    if (!PyArg_ParseTuple(args, "O!y*y*i", &GridType, &g, &state, &across, &cost)) return NULL;
    PyObject *result = NULL, *blocked = NULL, *extra = NULL;
    Py_ssize_t n = g->n;
    if (state.len != n) {
        PyErr_SetString(PyExc_ValueError, "entry_steps: state must hold a byte per hex");
        goto done;
    }
    if (across.len != 0 && across.len != n * 6) {
        PyErr_SetString(PyExc_ValueError, "entry_steps: not_across must hold a byte per hexside, or none");
        goto done;
    }
    if (cost < 0 || cost > (1 << 30)) {
        PyErr_SetString(PyExc_ValueError, "entry_steps: cost must be 0 to 2**30");
        goto done;
    }
    const uint8_t *st = state.buf, *ac = across.len ? across.buf : NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (st[i] > 2) {
            PyErr_Format(PyExc_ValueError, "entry_steps: state[%zd] = %d must be 0, 1 or 2", i, (int)st[i]);
            goto done;
        }
    }
    blocked = PyBytes_FromStringAndSize(NULL, n * 6);
    extra = PyBytes_FromStringAndSize(NULL, n * 6 * 4);
    if (!blocked || !extra) goto done;
    uint8_t *bl = (uint8_t *)PyBytes_AS_STRING(blocked);
    int32_t *ex = (int32_t *)PyBytes_AS_STRING(extra);
    for (Py_ssize_t e = 0; e < n * 6; e++) {
        int32_t j = g->nb[e];
        if (j < 0) {
            bl[e] = 1;
            ex[e] = 0;
            continue;
        }
        uint8_t s = st[j];
        bl[e] = s == 2 || (s == 1 && ac && ac[e]);
        ex[e] = s == 1 ? cost : 0;
    }
    result = Py_BuildValue("(OO)", blocked, extra);
done:
    Py_XDECREF(blocked);
    Py_XDECREF(extra);
    PyBuffer_Release(&state);
    PyBuffer_Release(&across);
    return result;
}

/* ---------------------------------------------------------------- the supply trace */

static PyObject *supply(PyObject *module, PyObject *args) {
    (void)module;
    Grid *g;
    Py_buffer blocked, extra, sources;
    long limit;
    if (!PyArg_ParseTuple(args, "O!y*y*y*l", &GridType, &g, &blocked, &extra, &sources, &limit)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = g->n;
    const uint8_t *bl = blocked.buf;
    const int32_t *ex = extra.buf, *src = sources.buf;
    Py_ssize_t nsrc = sources.len / 4;
    if (blocked.len != n * 6) {
        PyErr_SetString(PyExc_ValueError, "supply: blocked must hold 6 bytes per hex");
        goto done;
    }
    if (extra.len != n * 6 * 4) {
        PyErr_SetString(PyExc_ValueError, "supply: extra must hold 6 int32 per hex");
        goto done;
    }
    if (sources.len % 4) {
        PyErr_SetString(PyExc_ValueError, "supply: sources must be int32 hex indices");
        goto done;
    }
    if (limit < 0 || limit > (1L << 30)) {
        PyErr_SetString(PyExc_ValueError, "supply: limit must be 0 to 2**30");
        goto done;
    }
    for (Py_ssize_t e = 0; e < n * 6; e++) {
        if (ex[e] < 0 || ex[e] > (1 << 30)) {
            PyErr_Format(PyExc_ValueError, "supply: extra[%zd] = %d must be 0 to 2**30", e, (int)ex[e]);
            goto done;
        }
    }
    for (Py_ssize_t s = 0; s < nsrc; s++) {
        if (src[s] < 0 || src[s] >= n) {
            PyErr_Format(PyExc_ValueError, "supply: source %d is not a hex index", (int)src[s]);
            goto done;
        }
    }
    if (reserve((size_t)n * 2, (size_t)n) < 0) goto done;
    heap_len = 0;
    uint32_t gen = W.gen;
    /* the working arrays in locals: the compiler need not reload them after every store */
    int32_t *best = W.best, *parent = W.parent, *depth = W.depth, *found_key = W.found_key, *found_cost = W.found_cost, *order = W.order;
    uint32_t *stamp = W.stamp, *found_stamp = W.found_stamp;
    for (Py_ssize_t s = 0; s < nsrc; s++) {
        int32_t key = src[s] * 2 + 1;
        if (!g->land[src[s]] || stamp[key] == gen) continue;
        stamp[key] = gen;
        best[key] = 0;
        parent[key] = -1;
        depth[key] = 0;
        if (heap_push(PACK(0, key)) < 0) goto done;
    }
    size_t count = 0;
    while (heap_len) {
        int64_t top = heap_pop();
        int32_t cost = (int32_t)(top >> 32), key = (int32_t)(top & 0xffffffff);
        if (best[key] != cost) continue;
        int32_t i = key >> 1, on_net = key & 1;
        if (found_stamp[i] != gen) {
            found_stamp[i] = gen;
            order[count++] = i;
            found_cost[i] = cost;
            found_key[i] = key;
        } else if (cost < found_cost[i]) {
            found_cost[i] = cost;
            found_key[i] = key;
        }
        for (int d = 0; d < 6; d++) {
            Py_ssize_t e = (Py_ssize_t)i * 6 + d;
            int32_t j = g->nb[e];
            if (j < 0 || !g->land[j] || bl[e]) continue;
            int along = on_net && g->route[e] >= 0;
            int64_t nc = (int64_t)cost + ex[e] + (along ? 0 : MF);
            if (nc > limit) continue;
            int32_t nkey = j * 2 + along;
            if (stamp[nkey] != gen || nc < best[nkey]) {
                stamp[nkey] = gen;
                best[nkey] = (int32_t)nc;
                parent[nkey] = key;
                depth[nkey] = depth[key] + 1;
                if (heap_push(PACK(nc, nkey)) < 0) goto done;
            }
        }
    }
    result = answer(count, NULL, 1);
done:
    PyBuffer_Release(&blocked);
    PyBuffer_Release(&extra);
    PyBuffer_Release(&sources);
    return result;
}

/* ---------------------------------------------------------------- the movement reach search */

static int share_bit(const uint64_t *a, const uint64_t *b, Py_ssize_t words) {
    for (Py_ssize_t w = 0; w < words; w++)
        if (a[w] & b[w]) return 1;
    return 0;
}

/* some x in A and y in B with x != y: both non-empty and not the same single member */
static int two_apart(const uint64_t *a, const uint64_t *b, Py_ssize_t words) {
    int a_any = 0, b_any = 0, same = 1, bits = 0;
    for (Py_ssize_t w = 0; w < words; w++) {
        a_any |= a[w] != 0;
        b_any |= b[w] != 0;
        same &= a[w] == b[w];
        bits += __builtin_popcountll(a[w]);
    }
    return a_any && b_any && !(same && bits == 1);
}

static PyObject *reach(PyObject *module, PyObject *args) {
    (void)module;
    Grid *g;
    Py_buffer eflags, hflags, zoc_mask, fort_mask, rates, marks;
    Py_ssize_t zoc_words, fort_words;
    int start, budget, bonus, ascent, vehicle, zoc_stops, dirmask, cc, free_total, low;
    if (!PyArg_ParseTuple(args, "O!y*y*y*ny*niiiiiiiiy*iy*i", &GridType, &g, &eflags, &hflags, &zoc_mask, &zoc_words,
                          &fort_mask, &fort_words, &start, &budget, &bonus, &ascent, &vehicle, &zoc_stops, &dirmask, &cc,
                          &rates, &free_total, &marks, &low))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = g->n;
    const uint8_t *ef = eflags.buf, *hf = hflags.buf, *mk = marks.buf;
    const uint64_t *zm = zoc_mask.buf, *fm = fort_mask.buf;
    const int32_t *rt = rates.buf;
    const char *bad = NULL;
    if (eflags.len != n * 6) bad = "reach: eflags must hold 6 bytes per hex";
    else if (hflags.len != n) bad = "reach: hflags must hold a byte per hex";
    else if (zoc_words < 0 || zoc_mask.len != n * zoc_words * 8) bad = "reach: zoc_mask must hold zoc_words uint64 per hex";
    else if (fort_words < 0 || fort_mask.len != n * fort_words * 8) bad = "reach: fort_mask must hold fort_words uint64 per hex";
    else if (rates.len != (Py_ssize_t)g->kinds * 4) bad = "reach: rates must hold an int32 per route kind";
    else if (marks.len != g->kinds) bad = "reach: marks must hold a byte per route kind";
    else if (start < 0 || start >= n) bad = "reach: start is not a hex index";
    else if (budget < 0 || bonus < 0 || ascent < 0 || cc < 0 || budget > (1 << 28) || bonus > (1 << 28) || ascent > (1 << 28) || cc > (1 << 28))
        bad = "reach: budget, bonus, ascent and cross-country rate must be 0 to 2**28";
    else if (free_total < 0 || free_total > 7 || low < 0 || low > 7) bad = "reach: free_total and low must be 0 to 7";
    else if (dirmask < 0 || dirmask > 63) bad = "reach: dirmask must be a 6-bit mask";
    if (!bad) {
        for (int k = 0; k < g->kinds; k++) {
            if (rt[k] < 0 || rt[k] > (1 << 28)) bad = "reach: rates must be 0 to 2**28";
            if (mk[k] > 2) bad = "reach: marks must be 0, 1 or 2";
        }
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        goto done;
    }
    int32_t S = free_total ? 128 : 2; /* states per hex: bit 0 entered an enemy ZOC; bits 1-3, 4-6 free hexes used */
    if (reserve((size_t)n * S, (size_t)n) < 0) goto done;
    uint32_t gen = W.gen;
    /* the working arrays in locals: the compiler need not reload them after every store */
    int32_t *best = W.best, *parent = W.parent, *depth = W.depth, *found_key = W.found_key, *found_cost = W.found_cost, *order = W.order;
    uint32_t *stamp = W.stamp, *found_stamp = W.found_stamp;
    int32_t *found_left = W.found_left;
    uint8_t *stop = W.stop;
    heap_len = 0;
    int32_t skey = start * S;
    stamp[skey] = gen;
    best[skey] = 0;
    parent[skey] = -1;
    depth[skey] = 0;
    stop[skey] = 0;
    if (heap_push(PACK(0, skey)) < 0) goto done;
    size_t count = 0;
    while (heap_len) {
        int64_t top = heap_pop();
        int32_t spent = (int32_t)(top >> 32), key = (int32_t)(top & 0xffffffff);
        if (best[key] != spent) continue;
        int32_t i = key / S, aux = key % S;
        int entered = aux & 1;
        if (i != start) {
            int32_t left = (entered ? budget : budget + bonus) - spent;
            if (found_stamp[i] != gen) {
                found_stamp[i] = gen;
                order[count++] = i;
                found_left[i] = left;
                found_cost[i] = spent;
                found_key[i] = key;
            } else if (left > found_left[i] || (left == found_left[i] && spent < found_cost[i])) {
                found_left[i] = left;
                found_cost[i] = spent;
                found_key[i] = key;
            }
        }
        if (stop[key]) continue;
        int first = i == start;
        for (int d = 0; d < 6; d++) {
            Py_ssize_t e = (Py_ssize_t)i * 6 + d;
            int32_t j = g->nb[e];
            if (j < 0 || !g->land[j]) continue;
            if (!((dirmask >> d) & 1)) continue;
            if (hf[j] & H_ENEMY) continue;
            int kind = g->route[e];
            if ((ef[e] & E_TOWERING) && kind < 0) continue;
            int zoc_there = (hf[j] & H_ZOC) && (zoc_stops || (ef[e] & E_MINES));
            if (first && zoc_there && zoc_stops && (hf[i] & H_ZOC) && !(hf[j] & H_FRIEND)) {
                if (share_bit(zm + i * zoc_words, zm + j * zoc_words, zoc_words)) continue;
                if (two_apart(fm + i * fort_words, fm + j * fort_words, fort_words)) continue;
            }
            int32_t nc, naux;
            int must_stop;
            int free_step = 0;
            if (free_total && kind >= 0 && !zoc_there) {
                int mark = mk[kind], used = (aux >> 1) & 7, lesser = (aux >> 4) & 7;
                if (mark && used < free_total && (mark == 1 || lesser < low)) {
                    lesser += mark == 2;
                    nc = spent;
                    must_stop = (hf[j] & H_FORT) != 0;
                    naux = (aux & 1) | ((used + 1) << 1) | (lesser << 4);
                    free_step = 1;
                }
            }
            if (!free_step) {
                int32_t rate = kind >= 0 ? rt[kind] : cc;
                if (kind >= 0 && rate < cc && !zoc_there) {
                    nc = spent + rate;
                } else {
                    nc = (vehicle ? (spent + MF - 1) / MF * MF : spent) + cc;
                    if (kind < 0 && (ef[e] & E_CLIMB)) nc += ascent;
                }
                int entered_now = entered || zoc_there;
                if (nc > (entered_now ? budget : budget + bonus)) continue;
                must_stop = (hf[j] & H_FORT) || zoc_there;
                naux = (aux & ~1) | entered_now;
            }
            if (j == start) continue;
            int32_t nkey = j * S + naux;
            if (stamp[nkey] != gen || nc < best[nkey]) {
                stamp[nkey] = gen;
                best[nkey] = nc;
                parent[nkey] = key;
                depth[nkey] = depth[key] + 1;
                stop[nkey] = (uint8_t)must_stop;
                if (heap_push(PACK(nc, nkey)) < 0) goto done;
            }
        }
    }
    /* the entered flag of each end, by hex */
    for (size_t m = 0; m < count; m++) found_left[order[m]] = found_key[order[m]] % S & 1;
    result = answer(count, found_left, S == 2 ? 1 : 7);
done:
    PyBuffer_Release(&eflags);
    PyBuffer_Release(&hflags);
    PyBuffer_Release(&zoc_mask);
    PyBuffer_Release(&fort_mask);
    PyBuffer_Release(&rates);
    PyBuffer_Release(&marks);
    return result;
}

static PyMethodDef methods[] = {
    {"entry_steps", entry_steps, METH_VARARGS,
     "entry_steps(grid, state, not_across, cost) -> (blocked, extra): the supply step tables from the entered hexes' states"},
    {"supply", supply, METH_VARARGS,
     "supply(grid, blocked, extra, sources, limit) -> (ends, costs, zeros, offsets, paths): the multi-source supply trace"},
    {"reach", reach, METH_VARARGS,
     "reach(grid, eflags, hflags, zoc_mask, zoc_words, fort_mask, fort_words, start, budget, bonus, ascent, vehicle, "
     "zoc_stops, dirmask, cc, rates, free_total, marks, low) -> (ends, spent, entered, offsets, paths)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_kernels", "Compiled search kernels: the movement reach search and the supply trace.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernels(void) {
    if (PyType_Ready(&GridType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    Py_INCREF(&GridType);
    if (PyModule_AddObject(m, "Grid", (PyObject *)&GridType) < 0) {
        Py_DECREF(&GridType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
