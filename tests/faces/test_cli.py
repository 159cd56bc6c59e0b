"""The command line, run as a user would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.web_server import DUEL
from tobruk.cli import main
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.players.base import outcomes_for
from tobruk.view import view


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tobruk.cli", *args], capture_output=True, text=True, cwd=cwd, check=False)


def test_scenarios_lists_gazala(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios"]) == 0
    assert "gazala-gallop" in capsys.readouterr().out


def test_show_text_svg_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
    done = run("play", "gazala-gallop", "--seed", "2", "--record", str(rec))  # a game that goes the 14 turns
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


# --- bad files: one line naming the file and the problem, status 2, never a traceback ----------------------
@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A short recorded Gazala game with moves and dice, as the file's text."""
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side
    from tobruk.loading.scenario import load_scenario
    from tobruk.players import make_player
    from tobruk.record import record_of, save

    game = Game(load_scenario("gazala-gallop"), seed=3)
    players = {Side.AXIS: make_player("greedy", 1), Side.ALLIED: make_player("greedy", 2)}
    while len(game.history) < 40:
        d = game.decision
        assert d is not None
        game.play(players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side)))
    path = tmp_path_factory.mktemp("rec") / "game.json"
    save(record_of(game), path)
    return path.read_text(encoding="utf-8")


def first_move(data: dict[str, Any]) -> int:
    return next(i for i, e in enumerate(data["orders"]) if e["order"].startswith("move "))


def edited(text: str, change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data, indent=1)


def _tamper_order(d: dict[str, Any]) -> None:
    i = first_move(d)
    unit = d["orders"][i]["order"].split()[1]
    d["orders"][i]["order"] = f"move {unit} A1-A2"


def _tamper_hash(d: dict[str, Any]) -> None:
    d["orders"][first_move(d)]["hash"] = "0" * 32


def _tamper_die(d: dict[str, Any]) -> None:
    d["dice"][0][1] = 7


# (what is wrong, how to make the file from a good record's text, what the message must say)
BAD_RECORDS: list[tuple[str, Callable[[str], str | bytes], str]] = [
    ("bad JSON", lambda t: "this is not JSON", "line 1 column 1: not JSON: Expecting value"),
    ("truncated JSON", lambda t: t[: len(t) // 2], "cut short?"),
    ("a JSON list", lambda t: "[1, 2]", "(top level): expected a JSON object (a tobruk game record), got list"),
    ("seed of the wrong type", lambda t: edited(t, lambda d: d.update(seed="four")), "seed: expected an integer, got 'four'"),
    (
        "orders of the wrong type",
        lambda t: edited(t, lambda d: d.update(orders={"a": 1})),
        "orders: expected a list of orders, got {'a': 1}",
    ),
    (
        "an order entry of the wrong type",
        lambda t: edited(t, lambda d: d["orders"].__setitem__(2, "end-phase")),
        'orders[2]: expected {"order": text, "hash": text}, got \'end-phase\'',
    ),
    (
        "players of the wrong type",
        lambda t: edited(t, lambda d: d.update(players=["greedy"])),
        "players: expected an object naming each side's player, got ['greedy']",
    ),
    ("a missing field", lambda t: edited(t, lambda d: d.pop("start_hash")), "start_hash: expected text, got nothing (missing)"),
    (
        "unknown format",
        lambda t: edited(t, lambda d: d.update(format="chess-pgn")),
        "format: expected 'tobruk-record', got 'chess-pgn': not a tobruk game record",
    ),
    ("unknown version", lambda t: edited(t, lambda d: d.update(version=2)), "version: this program reads record version 1, got 2"),
    (
        "a path for a scenario",
        lambda t: edited(t, lambda d: d.update(scenario="/dev/zero")),
        "scenario: expected a scenario name (letters, digits, '-' and '_'), got '/dev/zero'",
    ),
    ("an unknown scenario", lambda t: edited(t, lambda d: d.update(scenario="tobruk-1941")), "scenario: "),
    ("a tampered order", lambda t: edited(t, _tamper_order), "the path must start where the unit is"),
    ("a tampered hash", lambda t: edited(t, _tamper_hash), "the state after it differs from the record"),
    (
        "a tampered start",
        lambda t: edited(t, lambda d: d.update(seed=d["seed"] + 1)),
        "start_hash: the starting position differs from the record",
    ),
    ("a tampered die", lambda t: edited(t, _tamper_die), "dice[0]: recorded"),
    ("a binary file", lambda t: bytes(range(256)) * 4, "(file): not a text file (a game record is JSON in UTF-8)"),
]


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], name: str) -> str:
    """Run the command; it must end with status 2 and exactly one line, naming the file; that line is returned."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "", out
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"tobruk: {name}: "), lines[0]
    return lines[0]


@pytest.mark.parametrize("command", ["replay", "form"])
@pytest.mark.parametrize("what, make, problem", BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_a_bad_record_is_one_line_and_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    record_text: str,
    command: str,
    what: str,
    make: Callable[[str], str | bytes],
    problem: str,
) -> None:
    path = write(tmp_path / "game.json", make(record_text))
    line = refused(capsys, [command, str(path)], str(path))
    assert problem in line
    assert not (tmp_path / "game-form.md").exists()


def test_a_tampered_order_or_hash_names_the_order(tmp_path: Path, capsys: pytest.CaptureFixture[str], record_text: str) -> None:
    i = first_move(json.loads(record_text))
    path = write(tmp_path / "game.json", edited(record_text, _tamper_order))
    unit = json.loads(record_text)["orders"][i]["order"].split()[1]
    for command in ("replay", "form"):
        line = refused(capsys, [command, str(path)], str(path))
        assert f"orders[{i}] ('move {unit} A1-A2'): " in line and line.endswith("[GG-XIII.A.1]")
    original = json.loads(record_text)["orders"][i]["order"]
    path = write(tmp_path / "game.json", edited(record_text, _tamper_hash))
    for command in ("replay", "form"):
        assert f"orders[{i}] ({original!r}): the state after it differs" in refused(capsys, [command, str(path)], str(path))


@pytest.mark.parametrize("command", ["replay", "form", "show"])
def test_a_missing_file_a_folder_or_a_device_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    missing = tmp_path / "missing.json"
    assert refused(capsys, [command, str(missing)], str(missing)).endswith("(file): No such file or directory")
    folder = tmp_path / "folder.json"
    folder.mkdir()
    line = refused(capsys, [command, str(folder)], str(folder))
    assert line.endswith("is a folder, not a game record" if command != "show" else "(file): Is a directory")
    assert refused(capsys, [command, "/dev/zero"], "/dev/zero").endswith("(file): not a regular file")


def test_form_verifies_by_default_and_no_verify_skips(tmp_path: Path, capsys: pytest.CaptureFixture[str], record_text: str) -> None:
    path = write(tmp_path / "game.json", edited(record_text, _tamper_hash))
    refused(capsys, ["form", str(path)], str(path))
    assert not (tmp_path / "game-form.md").exists()
    assert main(["form", str(path), "--no-verify"]) == 0
    assert (tmp_path / "game-form.md").read_text(encoding="utf-8").startswith("# The Gazala Gallop")
    assert main(["replay", str(path), "--no-verify"]) == 0
    assert "(not verified)" in capsys.readouterr().out
    good = write(tmp_path / "good.json", record_text)
    assert main(["form", str(good)]) == 0 and main(["replay", str(good)]) == 0
    n = len(json.loads(record_text)["orders"])  # (about 40: a whole attack is several orders)
    assert n >= 40 and f"{n} of {n} orders replayed and every state hash verified" in capsys.readouterr().out


def test_replay_step_refuses_a_tampered_record_before_stepping(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record_text: str
) -> None:
    path = write(tmp_path / "game.json", edited(record_text, _tamper_order))
    assert "the path must start where the unit is" in refused(capsys, ["replay", str(path), "--step"], str(path))
    assert "the path must start where the unit is" in refused(capsys, ["replay", str(path), "--step", "--no-verify"], str(path))


SHOW_FILES: list[tuple[str, Callable[[], str | bytes], str]] = [
    ("a field of the wrong type", lambda: DUEL.replace("turns = 2", 'turns = "two"'), "turns: expected an integer, got 'two'"),
    (
        "a unit with bad factors",
        lambda: DUEL.replace('factors = "6-3-4"', 'factors = "six"'),
        "unit[0].factors: expected attack-defence-movement",
    ),
    ("an unknown field", lambda: DUEL.replace("turns = 2", "turns = 2\nturn = 3"), "turn: unknown field (misspelt?)"),
    ("bad TOML", lambda: "title = = 1", "(syntax): "),
    ("truncated TOML", lambda: DUEL[: DUEL.index('name = "Panzer"') + 10], "(syntax): "),
    ("unknown format", lambda: DUEL.replace('format = "tobruk-scenario"', 'format = "vassal"'), "format: expected 'tobruk-scenario'"),
    ("unknown version", lambda: DUEL.replace("version = 1", "version = 9"), "version: this program reads scenario format version 1"),
    ("a binary file", lambda: bytes(range(256)) * 4, "(file): not a text file (a scenario is TOML in UTF-8)"),
]


@pytest.mark.parametrize("what, make, problem", SHOW_FILES, ids=[s[0] for s in SHOW_FILES])
def test_show_a_bad_scenario_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, make: Callable[[], str | bytes], problem: str
) -> None:
    path = write(tmp_path / "duel.toml", make())
    assert problem in refused(capsys, ["show", str(path)], str(path))


def test_show_a_scenario_file_and_an_unknown_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "duel.toml", DUEL)
    assert main(["show", str(path)]) == 0 and "Duel (duel)" in capsys.readouterr().out
    line = refused(capsys, ["show", "tobruk-1941"], "tobruk-1941")
    assert "(scenario): no such file, nor a packaged scenario (" in line
    named = line.rsplit("(", 1)[1].rstrip(")").split(", ")
    assert {"gazala-gallop", "na-el-agheila-1", "na-alamein", "na-campaign"} <= set(named)


def test_a_real_process_prints_no_traceback(tmp_path: Path, record_text: str) -> None:
    path = write(tmp_path / "game.json", edited(record_text, _tamper_order))
    for args in (["form", str(path)], ["replay", str(tmp_path)], ["show", str(write(tmp_path / "x.toml", b"\xff\xfe"))]):
        done = run(*args)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith(f"tobruk: {args[1]}: ")


def test_the_position_names_statuses_in_each_systems_words() -> None:
    """1st Alamein's charts call a disrupted unit Spent (S); The Gazala Gallop says disrupted and marks the
    Allied units not yet activated (GG-V.A.2)."""
    from tobruk.cli import position_text

    alamein = Game(load_scenario("first-alamein"))
    uid = next(u for u in alamein.unit_ids if family_unit(alamein, u).hex is not None and not family_defs(alamein)[u].is_air)
    family_unit(alamein, uid).disrupted = True
    line = next(x for x in position_text(alamein).splitlines() if f" {uid} " in x)
    assert line.endswith(" spent") and "disrupted" not in line
    gazala = Game(load_scenario("gazala-gallop"))
    family_unit(gazala, "1SA").disrupted = True
    line = next(x for x in position_text(gazala).splitlines() if " 1SA " in x)
    assert line.endswith(" disrupted inactive")
