"""The page's layers over the map and its refusals, in a real headless Chromium, by clicks: one checkbox per layer the
system sends (the page computes none), each drawing exactly that layer; an action made stale by another page is
refused with a short reason, and the page shows the position as it is.

Screenshots are kept in ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import end_or_first, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def drawn(page: Page, key: str) -> list[str]:
    """What the page draws of one layer: the hexes shaded, or each line's points."""
    return list(
        page.evaluate(
            f"[...document.querySelectorAll('#overlay [data-layer=\"{key}\"]')].map(e => e.dataset.hex || e.getAttribute('points'))"
        )
    )


def test_each_layer_the_system_sends_is_a_checkbox_that_draws_it(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        api = link.replace("/g/", "/api/g/")
        # play on (each phase ended) to the first supply determination, so that every layer has something to draw
        s: dict[str, Any] = httpx.get(f"{api}/state", timeout=60).json()
        for _ in range(80):
            layers = {o["key"]: o for o in s["view"]["overlays"]}
            if layers["supply"]["lines"]:
                break
            httpx.post(f"{api}/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
            s = httpx.get(f"{api}/state", timeout=60).json()
        layers = {o["key"]: o for o in s["view"]["overlays"]}
        assert list(layers) == ["zoc", "supply"] and layers["supply"]["lines"]  # (the objectives are rings, not a layer)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#layers input")
        boxes = page.evaluate(
            "[...document.querySelectorAll('#layers input')].map(i => [i.dataset.layer, i.parentElement.textContent.trim()])"
        )
        assert boxes == [[k, o["title"]] for k, o in layers.items()]  # the system's list, in its order, with its titles
        assert page.locator("#overlay [data-layer]").count() == 0  # none drawn until ticked (the threat rings always are)
        for key, layer in layers.items():
            page.check(f'#layers input[data-layer="{key}"]')
            shown = drawn(page, key)
            if layer["kind"] == "hexes":  # (what the layer holds is the rules': tests/mechanics/test_family_overlays.py)
                assert sorted(shown) == sorted(layer["hexes"]) and shown
            else:
                assert len(shown) == len(layer["lines"])
            shot(page, f"layer-{key}")
            page.uncheck(f'#layers input[data-layer="{key}"]')
            assert drawn(page, key) == []


def test_a_stale_action_is_refused_with_a_short_reason_and_changes_nothing(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        api = link.replace("/g/", "/api/g/")
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('[data-unit="Pz"]')
        page.click('button[data-order="end-phase"]')  # to the movement
        page.wait_for_function("document.getElementById('prompt').textContent.includes('movement')")
        page.click('[data-unit="Pz"]')
        stale = int(str(page.get_attribute('[data-reach="B4"]', "data-id")))
        before = httpx.get(f"{api}/state", timeout=60).json()
        page.click('[data-reach="C4"]')
        page.wait_for_selector('[data-unit="Pz"][data-hex="C4"]')
        moved = httpx.get(f"{api}/state", timeout=60).json()
        # the move to B4 as the page listed it before: its id is no longer legal (the Panzer has moved, GG-XIII.A.1);
        # sent as the page sends it, the refusal names the rule and the page shows it
        page.evaluate(f"tobrukGame.send({{id: {stale}}})")
        page.wait_for_selector("#hint .error")
        clause = moved["view"]["decision"]["clause"]
        assert page.inner_text("#hint .error") == f"action {stale} is not legal now [{clause}]"
        assert httpx.get(f"{api}/state", timeout=60).json() == moved  # nothing changed
        # against the position the page saw before the move: the version is stale (409), and nothing changes either
        answer = page.evaluate(
            "fetch('/api/g/' + tobrukGame.token + '/order', {method: 'POST', headers: {'content-type': 'application/json'},"
            f" body: JSON.stringify({{id: {stale}, version: {before['version']}}})}}).then(async r => [r.status, await r.json()])"
        )
        assert answer[0] == 409 and answer[1]["error"] == "the position has changed since you saw it: look again"
        shot(page, "stale-refused")
        assert httpx.get(f"{api}/state", timeout=60).json() == moved
        assert page.get_attribute('[data-unit="Pz"]', "data-hex") == "C4"
