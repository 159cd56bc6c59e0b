"""The mutation run's results kept with the project (``tests/mutation-record.json``), so that a run resumes in a fresh
clone where the last one stopped.

A whole run of the rule code takes longer than a working day on two cores (docs/testing.md).  mutmut keeps each
mutant's result in ``mutants/**/*.py.meta`` and, when it generates the mutants again, keeps the results of every
function whose code has not changed (it compares a hash of the function).  The record is those files reduced to what
that needs: for each mutated file, each function's hash and the exit code of each of its mutants in order (``null``:
not checked yet).  ``save`` writes it from a run's folder; ``restore`` writes the ``.meta`` files back into a folder
that has none, before mutmut runs (``python3 run.py mutate`` does it), and mutmut then checks only what is left and
whatever changed since.  A record is restored only under the mutmut version that wrote it: another version may
number a function's mutants otherwise.

Results kept are those of the tests of their day: ``python3 run.py mutate --again`` tries the survivors again with
today's tests.

    python3 tests/mutation_record.py save       (in the checkout, after or during a run)
    python3 tests/mutation_record.py restore    (done by run.py mutate when ``mutants/`` holds no results)
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("mutation-record.json")
MARK = "__mutmut_"


def _functions(meta: dict[str, Any]) -> tuple[str, dict[str, list[Any]]]:
    """One ``.meta`` file as its module's name and, by function, the hash and the exit codes of mutants 1, 2, ..."""
    hashes: dict[str, str] = meta["hash_by_function_name"]
    codes: dict[str, dict[int, int | None]] = {}
    module = ""
    for key, code in meta["exit_code_by_key"].items():
        qualified, _, number = key.rpartition(MARK)
        module, _, function = qualified.rpartition(".")
        codes.setdefault(function, {})[int(number)] = code
    out: dict[str, list[Any]] = {}
    for function, by_number in sorted(codes.items()):
        if sorted(by_number) != list(range(1, len(by_number) + 1)):
            raise ValueError(f"mutants of {module}.{function} are not numbered 1 to {len(by_number)}")
        out[function] = [hashes.get(function, ""), [by_number[n] for n in range(1, len(by_number) + 1)]]
    return module, out


def save(root: Path = Path("mutants"), record: Path = RECORD) -> int:
    """Write the record of the results under ``root``; returns how many mutants it holds."""
    files: dict[str, Any] = {}
    count = 0
    for meta_path in sorted(root.glob("tobruk/**/*.py.meta")):
        module, functions = _functions(json.loads(meta_path.read_text(encoding="utf-8")))
        if functions:
            files[meta_path.relative_to(root).as_posix()[: -len(".meta")]] = {"module": module, "functions": functions}
            count += sum(len(codes) for _, codes in functions.values())
    lines = ["{", f'  "mutmut": {json.dumps(version("mutmut"))},', '  "files": {']
    for n, (path, entry) in enumerate(files.items()):
        lines.append(f"    {json.dumps(path)}: {{")
        lines.append(f'      "module": {json.dumps(entry["module"])},')
        lines.append('      "functions": {')
        names = list(entry["functions"])
        for k, name in enumerate(names):
            comma = "," if k < len(names) - 1 else ""
            lines.append(f"        {json.dumps(name, ensure_ascii=False)}: {json.dumps(entry['functions'][name])}{comma}")
        lines.append("      }")
        lines.append("    }" + ("," if n < len(files) - 1 else ""))
    lines += ["  }", "}"]
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return count


def restore(root: Path = Path("mutants"), record: Path = RECORD) -> int:
    """Write the recorded results as mutmut's ``.meta`` files under ``root`` when it holds none (a run's own results
    are newer); returns how many mutants were restored (0: nothing recorded, another mutmut, or results already)."""
    if not record.is_file() or any(root.glob("tobruk/**/*.py.meta")):
        return 0
    data = json.loads(record.read_text(encoding="utf-8"))
    if data["mutmut"] != version("mutmut"):
        print(f"{record.name}: written by mutmut {data['mutmut']}, not {version('mutmut')}: not restored", flush=True)
        return 0
    count = 0
    for path, entry in data["files"].items():
        exit_codes: dict[str, int | None] = {}
        hashes: dict[str, str] = {}
        for function, (digest, codes) in entry["functions"].items():
            hashes[function] = digest
            for number, code in enumerate(codes, start=1):
                exit_codes[f"{entry['module']}.{function}{MARK}{number}"] = code
        meta = {
            "exit_code_by_key": exit_codes,
            "hash_by_function_name": hashes,
            "type_check_error_by_key": {},
            "durations_by_key": {},
            "estimated_durations_by_key": {},
        }
        target = root / f"{path}.meta"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
        count += len(exit_codes)
    return count


def main(argv: list[str]) -> int:
    if argv == ["save"]:
        print(f"{RECORD.name}: {save()} mutants recorded")
        return 0
    if argv == ["restore"]:
        print(f"{RECORD.name}: {restore()} mutants restored")
        return 0
    print("usage: python3 tests/mutation_record.py save|restore", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
