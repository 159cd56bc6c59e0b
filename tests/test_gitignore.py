"""The files the server makes in a checkout are ignored by git (issue 35: the SQLite WAL's -wal and -shm files were
not, so ``git status`` showed them while a server ran and ``git add .`` would have committed a live database)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
@pytest.mark.parametrize("name", [f"tobruk-games.sqlite{tail}" for tail in ("", "-wal", "-shm", "-journal")])
def test_the_servers_database_files_are_ignored(name: str) -> None:
    r = subprocess.run(["git", "check-ignore", "--no-index", "-q", name], cwd=ROOT)
    assert r.returncode == 0, f"{name} is not in .gitignore"
