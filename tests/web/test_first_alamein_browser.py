"""1st Alamein in a real headless Chromium: the page draws its map and counters from the data it is sent and
plays its first decisions (the generic page, nothing of it written for this system)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from tests.web.test_web_browser import pytestmark, shot  # noqa: F401  (the skip without chromium)
from tests.web.web_server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_a_hotseat_game_in_the_browser(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "first-alamein", "mode": "hotseat"}, timeout=60)
        assert r.status_code == 200, r.text
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(r.json()["links"]["both"])
        page.wait_for_selector('[data-unit="1SADiv"]')
        assert page.get_attribute('[data-unit="1SADiv"]', "data-hex") == "D5"
        assert "set up" in page.inner_text("#prompt")
        page.click('button[data-order="end-phase"]')
        page.wait_for_function("document.getElementById('prompt').textContent.includes('reinforcements')")
        shot(page, "first-alamein-reinforcements")
