"""The command line, run as a user would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tobruk.cli import main


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tobruk.cli", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def test_scenarios_lists_gazala(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["scenarios"]) == 0
    assert "gazala-gallop" in capsys.readouterr().out


def test_show_text_svg_and_json(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["show", "gazala-gallop"]) == 0
    text = capsys.readouterr().out
    assert "Axis supply sources: A5 B1 G1" in text and "15Pz" in text and "7-6-4" in text
    svg = tmp_path / "map.svg"
    assert main(["show", "gazala-gallop", "--svg", str(svg)]) == 0
    body = svg.read_text()
    assert body.startswith("<svg") and "Tobruk" in body and "Bir Hakeim" in body and "minefield" in body
    capsys.readouterr()
    assert main(["show", "gazala-gallop", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    c13 = next(h for h in data["hexes"] if h["hex"] == "C13")
    assert c13["terrain"] == "town" and "Tobruk" in c13["places"] and c13["units"] == ["2SA"]
    assert data["supply_sources"]["allied"] == ["C13", "G18", "K18", "N17"]
    assert any(u["id"] == "15Pz" and u["factors"] == "7-6-4" for u in data["units"])


def test_play_record_and_replay(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    done = run("play", "gazala-gallop", "--seed", "4", "--record", str(rec))
    assert done.returncode == 0, done.stderr
    assert "Turn 14/14" in done.stdout
    check = run("replay", str(rec), "--verify")
    assert check.returncode == 0 and "every state hash verified" in check.stdout


def test_errors_are_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('format = "tobruk-scenario"\nversion = 1\n', encoding="utf-8")
    done = run("show", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip() == f"tobruk: {bad}: title: missing (required)"
