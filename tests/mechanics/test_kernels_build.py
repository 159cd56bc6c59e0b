"""How the compiled kernels are built and described: the environment is rebuilt when their sources change, and
the typed stub names exactly what the module holds."""

from __future__ import annotations

import ast
from pathlib import Path

import run
from tobruk.mechanics import _kernels

ROOT = Path(__file__).resolve().parents[2]


def test_the_install_stamp_covers_setup_and_every_c_source() -> None:
    inputs = set(run._build_inputs())
    assert {ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "tobruk" / "mechanics" / "_kernels.c"} <= inputs
    assert set((ROOT / "tobruk").rglob("*.c")) <= inputs


def test_the_stub_names_what_the_module_holds() -> None:
    stub = ast.parse((ROOT / "tobruk" / "mechanics" / "_kernels.pyi").read_text())
    declared = {n.name for n in stub.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    assert declared == {name for name in dir(_kernels) if not name.startswith("_")}
