"""The replay action by action (`/api/replay/TOKEN?by=action`, the replay page's slider and steps): the frames agree
with the replay by game-turn at the end of each turn, each action's frame brings the log lines that action added
(its combat's odds and dice among them), an action a side saw nothing of makes no frame of that side's, and the page
steps through them by clicks, the slider and the keyboard."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.web.web_server import end_or_first, running_server
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.record import record_of, save

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def played_duel(url: str) -> str:
    """A hotseat duel (the test scenario of web_server.py) played out with end-phase and the first legal action."""
    r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
    tok: str = r.json()["links"]["both"].rsplit("/", 1)[1]
    for _ in range(80):
        s = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()
        if not s["legal"]["actions"]:
            break
        httpx.post(f"{url}/api/g/{tok}/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
    return tok


def frames(url: str, tok: str, side: str, by: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{url}/api/replay/{tok}", params={"side": side, "by": by}, timeout=60)
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["frames"]
    return found


def test_the_frames_by_action_meet_the_frames_by_turn_at_each_turns_end(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        tok = played_duel(url)
        for side in ("both", "axis", "allied"):
            by_turn, by_action = frames(url, tok, side, "turn"), frames(url, tok, side, "action")
            ends = [f for f in by_action if f["label"].startswith("end of turn")]
            assert [f["label"] for f in ends] == [f["label"] for f in by_turn[1:]]
            assert [f["units"] for f in ends] == [f["units"] for f in by_turn[1:]]
            assert by_action[0]["label"] == "start" and by_action[0]["units"] == by_turn[0]["units"]
            assert by_action[-1]["summary"] == by_turn[-1]["summary"] and by_action[-1]["summary"] is not None
            # the lines added up are the side's whole log, the last turn frame's last lines at their end
            log = [line for f in by_action for line in f["lines"]]
            assert log[-len(by_turn[-1]["log"]) :] == by_turn[-1]["log"]
            # a frame within a turn is there because something the side sees changed
            for before, f in itertools.pairwise(by_action):
                assert f["label"].startswith("end of turn") or f["lines"] or f["units"] != before["units"]
                assert f["label"].startswith(("turn ", "end of turn"))


def test_an_attacks_frame_brings_its_odds_and_dice_and_a_bad_by_is_refused(tmp_path: Path) -> None:
    game = Game(load_scenario("gazala-gallop"), seed=2)
    rng = random.Random(2)
    while game.decision is not None:  # a random game: its attacks are resolved with odds and a die
        game.play(rng.choice(game.legal_orders()))
    save(record_of(game), tmp_path / "rec.json")
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/replays", content=(tmp_path / "rec.json").read_bytes(), timeout=120)
        tok = r.json()["link"].rsplit("/", 1)[1]
        steps = frames(url, tok, "both", "action")
        resolved = [line for line in game.state.log if line.startswith("Attack on ")]
        assert resolved  # (the game had attacks)
        for line in resolved:  # each in the frame of the action that resolved it, its odds and die in the line
            (found,) = [f for f in steps if line in f["lines"]]
            assert re.search(r"\d+:\d+; die \d", line) and found["label"].startswith(("turn ", "end of turn"))
        r = httpx.get(f"{url}/api/replay/{tok}", params={"side": "both", "by": "move"}, timeout=60)
        assert r.status_code == 400 and "by" in r.text


def test_the_replay_page_steps_by_action_with_buttons_the_slider_and_the_keyboard(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        tok = played_duel(url)
        steps = frames(url, tok, "both", "action")
        n = len(steps)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(f"{url}/replay/{tok}")
        page.wait_for_function(f"document.getElementById('status').textContent.includes('(1/{n})')")
        page.click("#forward")
        page.wait_for_function(f"document.getElementById('status').textContent.includes('(2/{n})')")
        assert page.inner_text("#frame-label") == steps[1]["label"]
        assert [li.inner_text() for li in page.locator("#step-lines li").all()] == steps[1]["lines"]
        page.click("#back")
        page.wait_for_function(f"document.getElementById('status').textContent.includes('(1/{n})')")
        page.keyboard.press("End")
        page.wait_for_function(f"document.getElementById('status').textContent.includes('({n}/{n})')")
        page.keyboard.press(",")  # one step back (the arrows are the map's cursor's)
        page.wait_for_function(f"document.getElementById('status').textContent.includes('({n - 1}/{n})')")
        middle = n // 2
        page.locator("#slider").fill(str(middle))  # (a range input takes its value as typed, firing input)
        page.wait_for_function(f"document.getElementById('status').textContent.includes('({middle + 1}/{n})')")
        shown_log = [li.inner_text() for li in page.locator("#log li").all()]
        assert shown_log == [line for f in steps[: middle + 1] for line in f["lines"]]
        page.click("#next")  # to the end of the game-turn
        label = page.inner_text("#frame-label")
        assert label.startswith("end of turn") or label == steps[-1]["label"]
