"""The replay page by the keyboard alone and for a screen reader, in real headless Chromium.

Nothing is clicked after the page has loaded (but the step buttons found by their names): Tab reaches the "Skip to the
map" link first, Enter on it gives the map the focus and shows its hex cursor, which the arrow keys move hex by hex
without stepping the replay; Enter on a hex shows its counters in the side panel, as a click on it does; , and . step
one action back and on, Page Up and Page Down a game-turn, Home and End go to the start and the end, each from the map
as from anywhere.  What the page shows is checked against the replay's frames as the API gives them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.web.test_web_browser import pytestmark  # noqa: F401  (the skip without chromium)
from tests.web.test_web_keyboard import _cursor, _row_col, _said
from tests.web.test_web_replay_steps import frames
from tests.web.web_server import end_or_first, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def _duel_with_a_move(url: str) -> str:
    """A hotseat duel played out with end-phase and the first legal action, but for one move of the Axis's Pz."""
    r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
    tok: str = r.json()["links"]["both"].rsplit("/", 1)[1]
    moved = False
    for _ in range(80):
        s = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()
        if not s["legal"]["actions"]:
            break
        move = next((a for a in s["legal"]["actions"] if a["verb"] == "move" and a["unit"] == "Pz"), None)
        order = {"id": move["id"]} if move and not moved else end_or_first(s)
        moved = moved or move is not None
        httpx.post(f"{url}/api/g/{tok}/order", json={**order, "version": s["version"]}, timeout=60)
    assert moved
    return tok


def _hex_of(frame: dict[str, Any], uid: str) -> str:
    return str(next(u["hex"] for u in frame["units"] if u.get("id") == uid))


def _step_is(page: Page, k: int, n: int) -> None:
    """The page shows frame ``k`` (from 0) of ``n``."""
    page.wait_for_function(f"document.getElementById('status').textContent.includes('({k + 1}/{n})')")


def _focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement.id"))


def _off_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    assert box
    return box["y"] + box["height"] <= 0 or box["x"] + box["width"] <= 0


def test_the_replay_by_the_keyboard_alone(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        tok = _duel_with_a_move(url)
        steps = frames(url, tok, "both", "action")
        n = len(steps)
        start = _hex_of(steps[0], "Pz")
        moved = next(k for k, f in enumerate(steps) if _hex_of(f, "Pz") != start)  # the frame of Pz's move
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(f"{url}/replay/{tok}")
        _step_is(page, 0, n)

        # Tab's first stop is the skip link, shown only then; Enter on it: the map focused, its cursor shown
        assert _off_screen(page, "#skip-link")
        page.keyboard.press("Tab")
        assert _focused(page) == "skip-link" and not _off_screen(page, "#skip-link")
        page.keyboard.press("Enter")
        assert _focused(page) == "board" and _off_screen(page, "#skip-link")
        assert page.locator("#cursor-layer .hex-cursor").count() == 1
        # the cursor starts on a counter: its hex and what stands there told in the live region, its tooltip shown
        here = _cursor(page)
        standing = [u["id"] for u in steps[0]["units"] if u["hex"] == here]
        assert standing and _said(page).startswith(here) and all(uid in _said(page) for uid in standing)
        assert page.get_attribute("#cursor-said", "aria-live") == "polite"
        page.wait_for_selector("#counter-tip:not([hidden])")
        assert page.inner_text("#counter-tip").startswith(standing[-1])

        # the arrows move the cursor a hex, and leave the replay where it is
        row, col = _row_col(here)
        page.keyboard.press("ArrowRight")
        assert _row_col(_cursor(page)) == (row, col + 1) and _said(page).startswith(_cursor(page))
        page.keyboard.press("ArrowLeft")
        assert _cursor(page) == here
        _step_is(page, 0, n)

        # Enter on the hex shows its counters in the side panel, as a click on it does
        page.keyboard.press("Enter")
        assert page.inner_text("#stack h3") == here
        assert all(uid in page.inner_text("#stack") for uid in standing)
        assert _focused(page) == "board"

        # the cursor on Pz's first hex, the replay stepped on to Pz's move and back by . and ,
        for _ in range(3):
            if _cursor(page) == start:
                break
            page.keyboard.press("ArrowLeft" if _row_col(_cursor(page))[1] > _row_col(start)[1] else "ArrowRight")
        assert _cursor(page) == start
        page.keyboard.press("Enter")
        for k in range(1, moved + 1):
            page.keyboard.press(".")
            _step_is(page, k, n)
            assert _focused(page) == "board"
            assert page.inner_text("#step-news").startswith(steps[k]["label"])
        # Pz has gone from the hex: the cursor's words, its side panel and the step's news say so
        assert "Pz" not in _said(page) and "empty" in _said(page)
        assert "Pz" not in page.inner_text("#stack") and page.inner_text("#stack h3") == start
        assert all(line in page.inner_text("#step-news") for line in steps[moved]["lines"])
        page.keyboard.press(",")
        _step_is(page, moved - 1, n)
        assert "Pz" in _said(page) and "Pz" in page.inner_text("#stack")

        # End and Home, Page Down and Page Up: the end and the start, the end of the first game-turn and back
        page.keyboard.press("End")
        _step_is(page, n - 1, n)
        page.keyboard.press("Home")
        _step_is(page, 0, n)
        first_turn = next(k for k, f in enumerate(steps) if f["label"].startswith("end of turn"))
        page.keyboard.press("PageDown")
        _step_is(page, first_turn, n)
        page.keyboard.press("PageUp")
        _step_is(page, 0, n)
        assert _focused(page) == "board" and _cursor(page) == start

        # from the map, Tab goes on to the log
        page.keyboard.press("Tab")
        assert _focused(page) == "log"


def test_the_replays_controls_are_named_and_its_keys_listed(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        tok = _duel_with_a_move(url)
        n = len(frames(url, tok, "both", "action"))
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(f"{url}/replay/{tok}")
        _step_is(page, 0, n)
        # each step button is found by the name a screen reader says, and does what the name says
        for name, k in (("the end", n - 1), ("one step back", n - 2), ("the start", 0), ("one step on", 1)):
            page.get_by_role("button", name=name, exact=True).click()
            _step_is(page, k, n)
        slider = page.get_by_role("slider", name="the step of the game shown")
        assert slider.count() == 1 and f"step 2 of {n}" in (slider.get_attribute("aria-valuetext") or "")
        # the keys are listed in the page: the replay's steps and the cursor's
        page.locator("body").focus()
        page.keyboard.press("?")
        listed = page.inner_text("#keys-list")
        assert page.is_visible("#keys-list")
        for key in (", .", "Page Up, Page Down", "Home, End", "← →", "↑ ↓", "Enter or Space"):
            assert key in listed
        # M from anywhere: to the map
        page.keyboard.press("m")
        assert _focused(page) == "board"
        # . steps on from a button too, and the slider's own keys are left to it
        page.get_by_role("button", name="one step back", exact=True).focus()
        page.keyboard.press(".")
        _step_is(page, 2, n)
        slider.focus()
        page.keyboard.press("ArrowLeft")
        _step_is(page, 1, n)
