"""run.py's JavaScript checks where node cannot be had: one line says so and only those checks are skipped (as the
browser tests are without chromium), never a traceback; a node too old for the pinned tools counts as none."""

from __future__ import annotations

import shutil

import pytest

import run


def test_without_node_the_javascript_checks_are_skipped_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert run._ensure_node_tools() is False
    said = capsys.readouterr().out.strip().splitlines()
    assert len(said) == 1 and "JavaScript checks" in said[0] and "skipped" in said[0]


def test_a_node_older_than_the_tools_need_counts_as_none(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(run, "_node_major", lambda node: run.NODE_OLDEST - 1)
    assert run._ensure_node_tools() is False
    assert "skipped" in capsys.readouterr().out
