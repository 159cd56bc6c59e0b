"""Compare the compiled-kernel candidates on one kernel: the supply trace on the Gazala map.

    python benchmarks/candidates/compare.py

Needs ``cython`` (3.x) and ``numba`` in the environment (``pip install "cython>=3" numba``; they are not
dependencies of tobruk) and a C compiler. Prints, for the C extension (tobruk.mechanics._kernels), Cython, Numba,
the former pure-Python search and networkx: the time to build, the time to import (and, for Numba, to compile
on the first call) in a fresh process, and the time per call, best of three runs; and checks that all of them
reach the same hexes at the same costs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from array import array
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics import _kernels
from tobruk.mechanics.searches import grid

HERE = Path(__file__).resolve().parent
LIMIT = 7 * 60


def per_call(fn: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def fresh_process(code: str, env: dict[str, str] | None = None) -> float:
    """Wall-clock seconds a new interpreter takes to run ``code``, less an empty interpreter's start."""

    def run(c: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", c], check=True, env=env)
        return time.perf_counter() - start

    return min(run(code) for _ in range(3)) - min(run("pass") for _ in range(3))


def build_cython(out: Path) -> float:
    """Cythonize and compile supply_cython.pyx into ``out``; seconds taken."""
    start = time.perf_counter()
    c_file = out / "supply_cython.c"
    subprocess.run([sys.executable, "-m", "cython", "-3", str(HERE / "supply_cython.pyx"), "-o", str(c_file)], check=True)
    so = out / f"supply_cython{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", f"-I{include}", str(c_file), "-o", str(so)], check=True)
    return time.perf_counter() - start


def build_c(out: Path) -> float:
    """Compile tobruk's kernel module on its own into ``out`` (as setup.py does); seconds taken."""
    start = time.perf_counter()
    src = HERE.parent.parent / "tobruk" / "mechanics" / "_kernels.c"
    include = sysconfig.get_paths()["include"]
    so = out / f"_kernels{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-shared", "-fPIC", f"-I{include}", str(src), "-o", str(so)], check=True)
    return time.perf_counter() - start


def main() -> None:
    m = load_scenario("gazala-gallop").map
    n = len(m.hexes)
    sources = sorted(m.index[h] for h in m.supply_sources[Side.AXIS])
    nb, route, land = m.neighbour_table, m.route_table, m.land_table
    blocked, extra = (False,) * (6 * n), (0,) * (6 * n)
    rows: list[tuple[str, str, str, float, str]] = []

    # the C extension, as tobruk uses it
    g = grid(m)
    bb, eb, sb = bytes(blocked), array("i", extra).tobytes(), array("i", sources).tobytes()
    c_ends = list(memoryview(_kernels.supply(g, bb, eb, sb, LIMIT)[0]).cast("i"))
    with tempfile.TemporaryDirectory() as tmp:
        c_build = build_c(Path(tmp))
        c_import = fresh_process("import _kernels", env=dict(os.environ, PYTHONPATH=tmp))
    c_time = per_call(lambda: _kernels.supply(g, bb, eb, sb, LIMIT), 2000)
    rows.append(("C extension (Python C API)", f"{c_build:.1f} s gcc", f"{c_import * 1e3:.0f} ms", c_time, "setuptools + gcc"))

    # Cython
    with tempfile.TemporaryDirectory() as tmp:
        cy_build = build_cython(Path(tmp))
        sys.path.insert(0, tmp)
        import supply_cython  # type: ignore[import-not-found]

        nbv, rv = array("i", nb), array("b", route)
        lv, blv, exv, srcv = array("B", land), array("B", blocked), array("i", extra), array("i", sources)
        cy_ends = list(supply_cython.supply(nbv, rv, lv, blv, exv, srcv, LIMIT)[0])
        cy_time = per_call(lambda: supply_cython.supply(nbv, rv, lv, blv, exv, srcv, LIMIT), 2000)
        cy_import = fresh_process("import supply_cython", env=dict(os.environ, PYTHONPATH=tmp))
    rows.append(("Cython 3", f"{cy_build:.1f} s cython + gcc", f"{cy_import * 1e3:.0f} ms", cy_time, "Cython at build time + gcc"))

    # Numba
    sys.path.insert(0, str(HERE))
    nb_import = fresh_process("import numba")
    jit = fresh_process(
        "import numpy as np, supply_numba as s; a = np.zeros(6, np.int32); "
        "s.supply(a, np.zeros(6, np.int8), np.ones(1, np.uint8), np.zeros(6, np.uint8), a, np.zeros(1, np.int32), 60)",
        env=dict(os.environ, PYTHONPATH=str(HERE)),
    )
    import supply_numba  # type: ignore[import-not-found]

    args = (
        np.array(nb, np.int32), np.array(route, np.int8), np.array(land, np.uint8), np.array(blocked, np.uint8),
        np.array(extra, np.int32), np.array(sources, np.int32), LIMIT,
    )  # fmt: skip
    nu_ends = list(supply_numba.supply(*args)[0])
    nu_time = per_call(lambda: supply_numba.supply(*args), 2000)
    rows.append(
        (
            "Numba",
            "none (JIT)",
            f"{nb_import * 1e3:.0f} ms + {(jit - nb_import) * 1e3:.0f} ms JIT",
            nu_time,
            "numba + llvmlite wheels (~210 MB)",
        )
    )

    # the former pure-Python search and networkx
    import supply_python  # type: ignore[import-not-found]

    py_ends = supply_python.supply(nb, route, land, blocked, extra, sources, LIMIT)[0]
    py_time = per_call(lambda: supply_python.supply(nb, route, land, blocked, extra, sources, LIMIT), 100)
    rows.append(("pure Python (heapq), before", "none", "0", py_time, "none"))
    graph = nx.Graph()
    for h in m.hexes:
        for x in m.neighbours(h):
            if m.is_land(h) and m.is_land(x):
                graph.add_edge(h, x, weight=60)
    net = m.road_net(frozenset(m.supply_sources[Side.AXIS]))
    nx_time = per_call(lambda: nx.multi_source_dijkstra_path_length(graph, net, cutoff=LIMIT), 100)
    rows.append(("networkx multi_source_dijkstra", "none", "-", nx_time, "networkx"))

    assert c_ends == cy_ends == nu_ends == py_ends, "the candidates disagree"
    assert {m.hexes[i] for i in c_ends} == set(nx.multi_source_dijkstra_path_length(graph, net, cutoff=LIMIT))
    print(f"supply trace, Gazala map ({n} hexes), Axis sources, {LIMIT // 60} MF; {len(c_ends)} hexes reached by all")
    print("| candidate | build | import (fresh process) | per call | vs networkx | needs on the machine |")
    print("|---|---|---|---|---|---|")
    for name, build, imp, t, needs in rows:
        print(f"| {name} | {build} | {imp} | {t * 1e6:.1f} µs | {nx_time / t:.1f}× | {needs} |")


if __name__ == "__main__":
    main()
