"""A choice of several numbers at once is made as at the table, a row of numbers per field (picker.js), in Chromium.

The British player's weather numbers (GG-VIII.0) are 30 pairs of different numbers: the page shows a sandstorm row
and a rainstorm row of six numbers each instead of 30 buttons, greys out the number already named in the other row,
and sends the pair the two picks name."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.web_server import end_or_first, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)")


@pytest.mark.rule("GG-VIII.0")
def test_the_weather_numbers_are_named_one_row_each(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        tok = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        api = f"{url}/api/g/{tok.rsplit('/', 1)[1]}"
        for _ in range(60):  # turn 1 played out; turn 2 opens with the British player's numbers
            s = httpx.get(f"{api}/state", timeout=60).json()
            if any(a["verb"] == "weather" for a in s["legal"]["actions"]):
                break
            httpx.post(f"{api}/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
        else:
            pytest.fail("the game never reached turn 2's weather")
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(tok)
        picker = page.locator('.picker[data-verb="weather"]')
        picker.wait_for()
        # two rows of the numbers 1-6, and no button per pair
        for field in ("sandstorm", "rainstorm"):
            assert picker.locator(f'button[data-field="{field}"]').all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
        assert page.locator("#orders button").count() == 12 + 1
        confirm = picker.locator("button.confirm")
        assert confirm.is_disabled()
        picker.locator('button[data-field="sandstorm"][data-value="3"]').click()
        # the two numbers must differ: 3 is no longer a rainstorm number, every other one is
        assert picker.locator('button[data-field="rainstorm"][data-value="3"]').is_disabled()
        assert all(picker.locator(f'button[data-field="rainstorm"][data-value="{n}"]').is_enabled() for n in (1, 2, 4, 5, 6))
        assert confirm.is_disabled()
        picker.locator('button[data-field="rainstorm"][data-value="5"]').click()
        assert picker.locator('button[data-field="rainstorm"][data-value="5"]').get_attribute("aria-pressed") == "true"
        assert confirm.inner_text() == "Sandstorm on a 3, rainstorm on a 5"
        # a second click takes a pick back
        picker.locator('button[data-field="rainstorm"][data-value="5"]').click()
        assert confirm.is_disabled()
        picker.locator('button[data-field="rainstorm"][data-value="1"]').click()
        assert confirm.inner_text() == "Sandstorm on a 3, rainstorm on a 1"
        confirm.click()
        page.wait_for_function("!document.querySelector('.picker')")
        log = httpx.get(f"{api}/state", timeout=60).json()["view"]["log"]
        assert any("the British name 3 (sandstorm) and 1 (rainstorm)" in line for line in log)
