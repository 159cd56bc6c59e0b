"""Debian's chromium, which the browser tests drive through Playwright, and the flags it runs with here (no sandbox,
GPU or background work); the ``browser`` fixture is in tests/conftest.py."""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
