#!/usr/bin/env python3
"""Bootstrap and run tobruk from a fresh checkout, needing only ``python3`` and ``pip``.

``python3 run.py``        installs what is needed (once) and serves the game at http://127.0.0.1:8000/.
``python3 run.py test``   installs what is needed (once) and runs ruff (lint and format check), mypy, the type check
                          (tsc) and lint (ESLint) of the page's JavaScript, and the test suite (on every core).
``python3 run.py mutate`` mutation testing of the rule code (docs/testing.md; long, not part of ``test``).

Everything goes into ``.venv`` inside the checkout; it is reinstalled whenever
``pyproject.toml``, ``setup.py`` or a C source of a compiled module changes, so a stale environment never hides
a missing dependency and an edited kernel is always rebuilt.

``test`` also makes ``.venv/vassal-reader``, a small environment of a Python 3.12 or newer found on the machine
(on the PATH, or through pyenv) with the ``pywargame`` package, whose VASSAL reader needs that Python: the tests
open the VASSAL modules this program writes with it (docs/vassal.md).  Without such a Python those checks are
skipped, and everything else runs on the ``python3`` that ran this script.

``test`` also installs the JavaScript checks' tools (``package.json``, pinned by ``package-lock.json``) into
``node_modules`` with ``npm ci``, again whenever those two files change.  Without node and npm (18 or newer) it says so
in one line and skips the JavaScript checks, as the browser tests are skipped without chromium; nobody needs node to
play: the page's modules are served as they are.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / "tobruk-installed.sha256"
READER = VENV / "vassal-reader"
READER_PACKAGE = "pywargame==0.8.0"


def _build_inputs() -> list[Path]:
    """The files the installation is built from: the project's metadata and the compiled modules' sources."""
    return [ROOT / "pyproject.toml", ROOT / "setup.py", *sorted((ROOT / "tobruk").rglob("*.[ch]"))]


def _ensure_environment() -> None:
    digest = hashlib.sha256()
    for path in _build_inputs():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    wanted = digest.hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and PY.exists():
        return
    if not PY.exists():
        print("run.py: creating the virtual environment in .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("run.py: installing tobruk and its development tools", flush=True)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[dev]"], check=True)
    STAMP.write_text(wanted)


def _newer_python() -> str | None:
    """A Python 3.12 or newer on this machine: ``python3.N`` on the PATH, or one that pyenv has installed."""
    check = "import sys; sys.exit(sys.version_info < (3, 12))"
    candidates = [shutil.which(f"python3.{minor}") for minor in range(20, 11, -1)]
    pyenv = shutil.which("pyenv")
    if pyenv:
        listed = subprocess.run([pyenv, "versions", "--bare"], capture_output=True, text=True).stdout.split()
        for version in sorted((v for v in listed if v.count(".") == 2 and v.replace(".", "").isdigit()), key=_version, reverse=True):
            prefix = subprocess.run([pyenv, "prefix", version], capture_output=True, text=True).stdout.strip()
            candidates.append(str(Path(prefix) / "bin" / "python3") if prefix else None)
    for exe in candidates:
        if exe and subprocess.run([exe, "-c", check], capture_output=True).returncode == 0:
            return exe
    return None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _ensure_reader() -> None:
    """The VASSAL reader's environment (see the top of this file); quietly left out where it cannot be made."""
    python = READER / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
    stamp = READER / "installed"
    if stamp.exists() and stamp.read_text() == READER_PACKAGE and python.exists():
        return
    newer = _newer_python()
    if newer is None:
        print("run.py: no Python 3.12 or newer here: the VASSAL modules will not be opened with pywargame's reader", flush=True)
        return
    made = subprocess.run([newer, "-m", "venv", "--clear", str(READER)], capture_output=True).returncode == 0
    # the reader needs none of pywargame's dependencies (they draw and convert pictures)
    command = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", READER_PACKAGE]
    if made and subprocess.run(command, capture_output=True).returncode == 0:
        stamp.write_text(READER_PACKAGE)
    else:
        print("run.py: could not install pywargame's VASSAL reader: those checks will be skipped", flush=True)


NODE_MODULES = ROOT / "node_modules"
NODE_STAMP = NODE_MODULES / "tobruk-installed.sha256"
NODE_OLDEST = 18  # the oldest node the pinned tools run on (Debian 12's)
# the type check of the page's modules and of the JavaScript tests' node script, then the lint of both
JS_CHECKS = (("tsc", "-p", "tsconfig.json"), ("tsc", "-p", "tests/web/js/tsconfig.json"), ("eslint", "--max-warnings", "0"))


def _node_major(node: str) -> int:
    out = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()  # "v20.19.2"
    head = out.lstrip("v").split(".")[0]
    return int(head) if head.isdigit() else 0


def _ensure_node_tools() -> bool:
    """The JavaScript checks' tools in ``node_modules`` (see the top of this file); False, said in one line, where node
    or npm is missing or too old."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None or _node_major(node) < NODE_OLDEST:
        print(f"run.py: no node and npm ({NODE_OLDEST} or newer) here: the JavaScript checks (tsc, eslint) are skipped", flush=True)
        return False
    wanted = hashlib.sha256((ROOT / "package.json").read_bytes() + b"\0" + (ROOT / "package-lock.json").read_bytes()).hexdigest()
    if NODE_STAMP.exists() and NODE_STAMP.read_text().strip() == wanted:
        return True
    print("run.py: installing the JavaScript checks' tools in node_modules (npm ci)", flush=True)
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"run.py: npm ci failed (exit {done.returncode}): the JavaScript checks cannot run")
    NODE_STAMP.write_text(wanted)
    return True


def _run_js_checks() -> int:
    for tool, *args in JS_CHECKS:
        code = subprocess.run([str(NODE_MODULES / ".bin" / tool), *args], cwd=ROOT).returncode
        if code:
            return code
    return 0


def _run(*args: str) -> int:
    return subprocess.run([str(PY), *args], cwd=ROOT).returncode


def _refresh_mutants(root: Path = ROOT) -> None:
    """Bring the files mutmut does not mutate up to date in ``mutants/``: it copies the package there on its first run
    and afterwards rewrites only the Python files, so data (maps, scenarios, charts), the page and ``docs/`` would stay
    as they were then and the tests would run against old data."""
    target = root / "mutants"
    if not target.is_dir():
        return
    sources = [p for top in ("tobruk", "docs") for p in (root / top).rglob("*") if p.is_file()] + [root / "run.py"]
    for src in sources:
        if "__pycache__" in src.parts or (src.suffix == ".py" and src.parts[len(root.parts)] == "tobruk"):
            continue
        dst = target / src.relative_to(root)
        if not dst.is_file() or dst.read_bytes() != src.read_bytes():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def _mutate(args: list[str]) -> int:
    """Run mutmut (configured in pyproject.toml) with the environment's tools on PATH, then print the score.  The
    results are kept in ``tests/mutation-record.json`` (tests/mutation_record.py), from which a run in a fresh clone
    goes on.

    ``--again``: the mutants the last run left alive, tried again with the tests mapped afresh (mutmut keeps a result
    until the mutated function changes, so a test added since would otherwise never meet the survivor it catches).
    ``--unchecked [PATTERN ...]``: only the mutants not checked yet (of those the patterns name): a run in several
    sittings goes on with the part it chooses."""
    _run("tests/mutation_record.py", "restore")  # (a fresh clone: the results recorded so far, when it has none)
    _refresh_mutants()
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if "--again" in args:
        listed = subprocess.run([str(PY), "tests/mutation_report.py", "--missed"], cwd=ROOT, capture_output=True, text=True)
        names = listed.stdout.split()
        if listed.returncode or not names:
            print("run.py: no mutants left alive by a previous run to try again", flush=True)
            return listed.returncode
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)  # (the tests mapped afresh: new ones too)
        args = [a for a in args if a != "--again"] + names
    elif "--unchecked" in args:  # the mutants not checked yet, of those the patterns after it name (mutmut's globs)
        patterns = [a for a in args if a != "--unchecked" and not a.startswith("-")]
        listed = subprocess.run([str(PY), "tests/mutation_report.py", "--unchecked", *patterns], cwd=ROOT, capture_output=True, text=True)
        names = listed.stdout.split()
        if listed.returncode or not names:
            print("run.py: no mutant left unchecked there (or no results yet: run `python3 run.py mutate` first)", flush=True)
            return listed.returncode
        args = [a for a in args if a.startswith("-") and a != "--unchecked"] + names
    if not any(a.startswith("--max-children") for a in args):
        args = ["--max-children", "2", *args]
    code = subprocess.run([str(PY), "-m", "mutmut", "run", *args], cwd=ROOT, env=env).returncode
    _run("tests/mutation_record.py", "save")  # (also after an interrupted run: the next one goes on from there)
    return code or _run("tests/mutation_report.py")


def main(argv: list[str]) -> int:
    _ensure_environment()
    if argv[:1] == ["mutate"]:
        return _mutate(argv[1:])
    if argv[:1] == ["test"]:
        _ensure_reader()
        node = _ensure_node_tools()
        for step in (("-m", "ruff", "check", "."), ("-m", "ruff", "format", "--check", "."), ("-m", "mypy")):
            code = _run(*step)
            if code:
                return code
        code = _run_js_checks() if node else 0
        # the suite on every core (pytest-xdist), each test file on one worker: a file's module fixtures (a server, a
        # browser page) are made once, as in a run on one core
        return code or _run("-m", "pytest", "-n", "auto", "--dist", "loadfile", *argv[1:])
    return _run("-m", "tobruk.cli", "serve", *argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
