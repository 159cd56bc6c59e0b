"""The compiled loop of the legal-action mask (tobruk/engine/_mask.c): it sets exactly the bytes of the ids given,
refuses an id outside the mask without writing past it, and its typed stub names what the module holds."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tobruk.engine import _mask

ROOT = Path(__file__).resolve().parents[2]


def test_the_bytes_of_every_id_of_every_block_are_set_and_no_other() -> None:
    mask = bytearray(12)
    _mask.mark(mask, [(3, 1), (), [7, 3], (11, 0)])
    assert [i for i, b in enumerate(mask) if b] == [0, 1, 3, 7, 11]
    assert set(mask) == {0, 1}


def test_an_id_outside_the_mask_is_refused_and_a_block_that_is_not_ids_too() -> None:
    mask = bytearray(4)
    with pytest.raises(ValueError, match="action id 4 is outside the mask"):
        _mask.mark(mask, [(4,)])
    with pytest.raises(ValueError, match="action id -1 is outside the mask"):
        _mask.mark(mask, [(-1,)])
    for not_ids in ([("2",)], [5]):  # (what the stub's types refuse, tried as a caller without them would)
        blocks: list[Any] = not_ids
        with pytest.raises(TypeError):
            _mask.mark(mask, blocks)
    with pytest.raises(TypeError):
        _mask.mark(b"read-only", [(1,)])  # (the mask is written: a bytes object is refused)


def test_the_stub_names_what_the_module_holds() -> None:
    stub = ast.parse((ROOT / "tobruk" / "engine" / "_mask.pyi").read_text())
    declared = {n.name for n in stub.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    assert declared == {name for name in dir(_mask) if not name.startswith("_")}
