"""A solitaire Operation Compass game in a real headless Chromium, played by clicks as a newcomer would: the page
asks only the Western Desert Force (the rules play the Italians), a bombardment from its button, a move by the unit
then a lit hex, an assault by the stack then the target with its odds shown first, the assault's own choices, then
the phases ended until the game is won or lost and the result is shown.  The generic page: nothing of it written for
this system."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.test_web_browser import pytestmark, shot  # noqa: F401  (the skip without chromium)
from tests.web.web_server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LEVELS = ("Allied decisive victory", "Allied victory", "Allied marginal victory", "Italian marginal victory", "Italian victory")


def prompt(page: Page) -> str:
    return page.inner_text("#prompt")


def hex_of(page: Page, uid: str) -> str | None:
    return page.get_attribute(f'[data-unit="{uid}"]', "data-hex")


def settled(page: Page, before: str) -> None:
    """Wait until the page shows the answer to the order just sent (the prompt or the log changed)."""
    page.wait_for_function(
        "before => document.getElementById('prompt').textContent + document.getElementById('log').textContent !== before",
        arg=before,
    )


def snapshot(page: Page) -> str:
    return page.inner_text("#prompt") + page.inner_text("#log")


@pytest.mark.whole_game
def test_a_solitaire_game_is_won_or_lost_by_clicks(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "operation-compass", "mode": "hotseat"}, timeout=60)
        assert r.status_code == 200, r.text
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(r.json()["links"]["both"])
        page.wait_for_selector('[data-unit="7RTR"]')
        assert prompt(page).startswith("Allied: bombard") and "9 December 1940" in page.inner_text("#status")
        # each counter shows its steps left beside its symbol (the system's rendering): 7 RTR's Matildas, 3 of 3
        assert page.text_content('[data-unit="7RTR"] .corner') == "3"
        # the bombardment: the guns beside Nibeiwa (I17), its hex lit on the map, a click and the words to confirm; the
        # morale checks it causes are logged
        before = snapshot(page)
        page.click('[data-aim="I17"]')
        assert page.inner_text('#chooser button[data-order="bombard I17"]').startswith("Bombard I17")
        page.click('#chooser button[data-order="bombard I17"]')
        settled(page, before)
        page.wait_for_function("document.getElementById('log').textContent.includes('I17')")
        page.click('button[data-order="end-phase"]')
        page.wait_for_function("document.getElementById('prompt').textContent.includes('move your units')")
        # a move: the 11th Hussars, then a lit hex
        page.click('[data-unit="11H"]')
        assert page.locator('[data-reach="I13"]').count() == 1
        page.click('[data-reach="I13"]')
        page.wait_for_function("document.querySelector('[data-unit=\"11H\"]').dataset.hex === 'I13'")
        shot(page, "compass-moved")
        page.click('button[data-order="end-phase"]')
        page.wait_for_function("document.getElementById('prompt').textContent.includes('assault Italian-held hexes')")
        # an assault: 7th Armoured Brigade (J16), then Nibeiwa: the odds and the column first, then declared
        page.click('[data-unit="7ArmdBde"]')
        page.click('[data-target="I17"]')
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('odds')")
        assert "column" in page.inner_text("#attack-info") or "-" in page.inner_text("#attack-info")
        shot(page, "compass-odds")
        page.click("#declare")
        try:
            page.wait_for_function("document.getElementById('log').textContent.includes('Assault on I17')", timeout=15000)
        except Exception as e:
            raise AssertionError(page.inner_text("#attack-info") + " | " + prompt(page) + " | " + page.inner_text("#log")[-500:]) from e
        log = page.inner_text("#log")
        assert "Assault on I17" in log and "morale" in log.lower()
        # then as a newcomer goes on: the assault's own choices (a button each) and the phases ended, to the end
        for _ in range(200):
            # the page draws the next decision's buttons once the order's answer is in: wait for them (or the end)
            # rather than read a panel still being redrawn
            try:
                page.wait_for_function(
                    "!document.getElementById('victory').hidden || "
                    "document.getElementById('prompt').textContent === 'The game is over' || "
                    "document.querySelectorAll('#orders button, #units [data-has-order], [data-aim]').length > 0"
                )
            except Exception as e:  # (what the page shows instead, for the report)
                shown = " | ".join(page.inner_text(f"#{part}") for part in ("prompt", "hint", "status"))
                raise AssertionError(f"no order to click and no end: {shown}") from e
            if page.is_visible("#victory") or prompt(page) == "The game is over":
                break
            buttons = page.locator("#orders button")
            end = page.locator('#orders button[data-order="end-phase"]')
            before = snapshot(page)
            if end.count() or buttons.count():
                (end if end.count() else buttons.first).click()
            else:  # a choice made on the map: a ringed unit's order (a step loss) or a lit hex, then its button in words
                ringed, aims = page.locator("#units [data-has-order]"), page.locator("[data-aim]")
                if not ringed.count() and not aims.count():
                    continue  # (the panel was being drawn again between the wait and the look: wait for it once more)
                (ringed if ringed.count() else aims).first.click()
                chosen = page.locator("#chooser button[data-choose]")
                if chosen.count():  # (a stack: the chooser's counter first)
                    uid = page.get_attribute("#units [data-has-order]", "data-unit")
                    page.click(f'#chooser button[data-choose="{uid}"]')
                page.locator("#chooser button[data-offer]").first.click()
            page.wait_for_function(
                "before => !document.getElementById('victory').hidden || "
                "document.getElementById('prompt').textContent + document.getElementById('log').textContent !== before",
                arg=before,
            )
        page.wait_for_selector("#victory", state="visible")
        result = page.inner_text("#victory-text")
        assert any(level in result for level in LEVELS), result
        assert "Turn 4 of 4, the last" in page.inner_text("#status") and prompt(page) == "The game is over" and errors == []
        shot(page, "compass-over")
