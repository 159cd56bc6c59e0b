"""The score of the last mutation run (``python3 run.py mutate``, docs/testing.md), read from ``mutants/``.

A mutant counts as caught when a test failed on it, the strict type check refused it (``run.py test`` runs
mypy before the tests) or it ran past its time limit (a search that no longer ends).  Prints the score per
file, per package and overall among the mutants checked so far (a run of only some mutants leaves the others unchecked), then
the mutants that survived or that no test reaches (``mutmut show NAME`` shows one).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from fnmatch import fnmatch
from pathlib import Path

CAUGHT = {1: "killed", 3: "killed", 37: "type check", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout"}
MISSED = {0: "survived", 33: "no tests", 5: "no tests"}


def status(code: int | None) -> str:
    if code is None:
        return "not checked"
    return CAUGHT.get(code) or MISSED.get(code) or "suspicious"


def alive(root: Path = Path("mutants")) -> list[str]:
    """The names of the mutants the last run left alive (survived, or reached by no test): those to try again once
    tests are added, as mutmut keeps a mutant's result until its function changes, whatever the tests do."""
    names: list[str] = []
    for meta in sorted(root.glob("tobruk/**/*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        names += [key for key, code in codes.items() if status(code) in MISSED.values()]
    return names


def unchecked(root: Path = Path("mutants"), patterns: Sequence[str] = ()) -> list[str]:
    """The names of the mutants not checked yet (of those whose names match one of ``patterns``, mutmut's globs, if
    any): a run in several sittings goes on with the part it chooses, as mutmut itself would try every mutant named
    to it again, checked or not."""
    names: list[str] = []
    for meta in sorted(root.glob("tobruk/**/*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        names += [key for key, code in codes.items() if code is None and (not patterns or any(fnmatch(key, p) for p in patterns))]
    return names


def by_part(root: Path = Path("mutants")) -> dict[str, tuple[int, int, int]]:
    """Each package's mutants, checked and caught (``systems/gazala``, ``mechanics`` ...): the figures
    docs/testing.md gives per game system."""
    parts: dict[str, list[int]] = {}
    for meta in sorted(root.glob("tobruk/**/*.py.meta")):
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        row = parts.setdefault(meta.parent.relative_to(root / "tobruk").as_posix(), [0, 0, 0])
        row[0] += len(codes)
        row[1] += sum(code is not None for code in codes.values())
        row[2] += sum(status(code) in CAUGHT.values() for code in codes.values())
    return {part: (total, checked, caught) for part, (total, checked, caught) in parts.items()}


def main(root: Path = Path("mutants")) -> int:
    if sys.argv[1:] == ["--missed"]:
        print("\n".join(alive(root)))
        return 0
    if sys.argv[1:2] == ["--unchecked"]:
        print("\n".join(unchecked(root, sys.argv[2:])))
        return 0
    metas = sorted(root.glob("tobruk/**/*.py.meta"))
    if not metas:
        print(f"no mutation results under {root}/: run `python3 run.py mutate` first")
        return 1
    total: Counter[str] = Counter()
    missed: list[tuple[str, str]] = []
    print(f"{'file':40} {'mutants':>8} {'checked':>8} {'caught':>8} {'score':>7}")
    for meta in metas:
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        here = Counter(status(c) for c in codes.values())
        total += here
        caught = sum(here[s] for s in set(CAUGHT.values()))
        checked = len(codes) - here["not checked"]
        name = str(meta.relative_to(root))[: -len(".meta")]
        print(f"{name:40} {len(codes):8} {checked:8} {caught:8} {caught / max(checked, 1):7.1%}")
        missed += [(key, status(code)) for key, code in codes.items() if status(code) not in (*CAUGHT.values(), "not checked")]
    caught = sum(total[s] for s in set(CAUGHT.values()))
    count = sum(total.values())
    checked = count - total["not checked"]
    for part, (in_part, checked_there, caught_there) in by_part(root).items():
        print(f"{part + '/':40} {in_part:8} {checked_there:8} {caught_there:8} {caught_there / max(checked_there, 1):7.1%}")
    print(f"{'all':40} {count:8} {checked:8} {caught:8} {caught / max(checked, 1):7.1%}")
    print(", ".join(f"{k}: {v}" for k, v in sorted(total.items())))
    typed = checked - total["type check"]  # the mutants that pass mypy: what the tests alone must catch
    print(f"caught by the tests among the {typed} that type-check: {(caught - total['type check']) / max(typed, 1):.1%}")
    for key, what in sorted(missed):
        print(f"  {what:12} {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
