"""The Game Log and Analysis Form, pictures, and stepping through a replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import EndPhase
from tobruk.players import make_player, play_game
from tobruk.record import load, record_of, save
from tobruk.tools import form


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tobruk.loading.scenario import load_scenario

    game = play_game(
        Game(load_scenario("gazala-gallop"), seed=2),  # a game that goes the 14 turns
        {Side.AXIS: make_player("greedy", 1), Side.ALLIED: make_player("greedy", 2)},
    )
    path = tmp_path_factory.mktemp("rec") / "game.json"
    save(record_of(game, {"axis": "greedy", "allied": "greedy"}), path)
    return path


def test_form_has_the_facts_and_room_for_analysis(finished: Path) -> None:
    rec = load(finished)
    log = form.build(rec, game_number="7", date="22 Nov 2026")
    md = form.to_markdown(log)
    assert "Game No.: 7" in md and "22 Nov 2026" in md and "Axis greedy, Allied greedy" in md
    for line in log.final.system.result_lines(log.final):
        assert line in md
    assert len(log.turns) == 14 and all(f"### Turn {t} " in md for t in range(1, 15))
    battles = [b for t in log.turns for b in t.battles]
    assert battles and all(": " in b and "die" in b for b in battles if b.startswith("Attack on"))
    assert "Players' analysis" in md and md.count("_____") >= 20
    html = form.to_html(log)
    assert html.startswith("<!doctype html>") and "<h3>Turn 14" in html


def test_pdf_and_pictures(finished: Path, tmp_path: Path) -> None:
    log = form.build(load(finished))
    form.to_pdf(log, tmp_path / "form.pdf")
    assert (tmp_path / "form.pdf").read_bytes().startswith(b"%PDF")
    pictures = form.plots(log, tmp_path / "pics") + form.turn_maps(log, tmp_path / "pics")
    assert len(pictures) == 3 + 14
    assert (tmp_path / "pics" / "gvp.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "pics" / "turn-14.svg").read_text().startswith("<svg")


def test_replay_steps_turn_by_turn(finished: Path) -> None:
    from tobruk.cli import step_through

    shown: list[str] = []
    answers = iter(["", "q"])
    step_through(load(finished), str(finished), read=lambda _p: next(answers), write=shown.append)
    assert any(s.startswith("Turn 2,") for s in shown) and not any(s.startswith("Turn 4,") for s in shown)


def test_form_of_an_unfinished_game(gazala: Scenario, tmp_path: Path) -> None:
    game = Game(gazala)
    game.play(EndPhase())
    save(record_of(game), tmp_path / "short.json")
    md = form.to_markdown(form.build(load(tmp_path / "short.json")))
    assert "(the game was not finished)" in md
