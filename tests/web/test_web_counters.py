"""The counters as a player sees them in real headless Chromium (Debian's package): readable at the default zoom, a
badge on each stack with its number of counters, a tooltip with the unit's values and status words, a mark of
each status with a key that explains it, and a face-down enemy counter's tooltip that tells nothing the view does
not send.  What is measured is what is drawn: the bounding boxes of the text on the screen, the tooltip's text."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import retreat_seed, shot
from tests.web.test_web_browser_fog import FACE_DOWN, identities_in
from tests.web.web_server import play_orders, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def counter_tip(page: Page, selector: str) -> str:
    """Rests the pointer on a counter and reads the tooltip that shows."""
    page.mouse.move(0, 0)
    page.hover(selector)
    page.wait_for_selector("#counter-tip", state="visible", timeout=5000)
    return page.inner_text("#counter-tip")


def test_counters_are_readable_and_stacks_say_how_many(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#units .counter")
        shot(page, "counters-default-zoom")
        # at the default zoom, every counter's name is at least 10 px high on the screen and inside its counter
        boxes = page.evaluate("""() => [...document.querySelectorAll('#units .counter')].filter(g => g.dataset.unit).map(g => {
            const t = g.querySelector('text').getBoundingClientRect(), r = g.querySelector('rect').getBoundingClientRect();
            return {unit: g.dataset.unit, text: [t.left, t.top, t.right, t.bottom], counter: [r.left, r.top, r.right, r.bottom]};
        })""")
        assert len(boxes) > 20
        for b in boxes:
            (tl, tt, tr, tb), (cl, ct, cr, cb) = b["text"], b["counter"]
            assert tb - tt >= 10, (b["unit"], "name text under 10 px", tb - tt)
            assert cl - 0.5 <= tl and tr <= cr + 0.5 and ct - 0.5 <= tt and tb <= cb + 0.5, (b["unit"], "name runs off", b)
        # each hex holding more than one counter shows a badge with their number, on the top counter
        units = page.evaluate("tobrukGame.state.view.units")
        held = Counter(u["hex"] for u in units if u.get("hex") and not u.get("eliminated"))
        stacks = {h: n for h, n in held.items() if n > 1}
        assert stacks, "the set-up has stacks"
        for h, n in stacks.items():
            badge = page.locator(f'.stack-badge[data-hex="{h}"]')
            assert badge.is_visible() and (badge.text_content() or "").strip() == str(n), (h, n)
            top = page.locator(f'#units .counter[data-hex="{h}"]').last.bounding_box()
            box = badge.bounding_box()
            assert top and box and box["x"] < top["x"] + top["width"] and top["x"] < box["x"] + box["width"]
            assert box["y"] < top["y"] + top["height"] and top["y"] < box["y"] + box["height"]  # on the top counter
        single = next(h for h, n in held.items() if n == 1)
        assert page.locator(f'.stack-badge[data-hex="{single}"]').count() == 0


def test_a_disrupted_unit_is_marked_explained_and_its_tooltip_says_so(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=retreat_seed) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        # the Panzers attack the Tommies at 3:1 and the Tommies retreat, disrupted (the Duel plays the Gazala rules)
        play_orders(link, "end-phase", "move Pz B3-B4", "end-phase", "attack B5 with Pz", "resolve 1", "no-retreat", "retreat-distance 1")
        state = play_orders(link, "retreat Tommy B5-A6")
        units = {u["id"]: u for u in state["view"]["units"]}
        assert units["Tommy"]["disrupted"] and not units["Pz"]["disrupted"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('[data-unit="Tommy"]')
        shot(page, "counters-disrupted")
        # the disrupted counter carries a mark the other one does not
        mark = page.locator('[data-unit="Tommy"] .status-mark')
        assert mark.count() == 1 and mark.is_visible()
        assert page.locator('[data-unit="Pz"] .status-mark').count() == 0
        letters, fill = (mark.text_content() or "").strip(), mark.locator("circle").get_attribute("fill")
        tommy = page.locator('[data-unit="Tommy"]').bounding_box()
        box = mark.bounding_box()
        assert tommy and box and abs((box["x"] + box["width"] / 2) - (tommy["x"] + tommy["width"])) < box["width"]
        # and the key explains it: the same mark, the system's word
        entry = page.locator('#counter-key li[data-status="disrupted"]')
        assert entry.is_visible() and "disrupted" in entry.inner_text()
        assert (entry.locator(".status-mark").text_content() or "").strip() == letters
        assert entry.locator(".status-mark circle").get_attribute("fill") == fill
        # the selected counter's edge differs from every status's
        assert page.locator('#counter-key li[data-key="selected"]').is_visible()
        # the tooltip gives the unit's values and its status words; the other unit's names none
        tip = counter_tip(page, '[data-unit="Tommy"]')
        assert "Tommy" in tip and units["Tommy"]["factors"] in tip and "disrupted" in tip
        shot(page, "counters-tooltip")
        tip = counter_tip(page, '[data-unit="Pz"]')
        assert units["Pz"]["factors"] in tip and "disrupted" not in tip


def _face_down_tips(url: str, browser: Browser, placements: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """A remote nonhistorical game in which the Allied player sets ``placements`` up face down and ends his set-up:
    the tooltips of every Allied counter the Axis player's page shows in C5 and E6, and the whole page's text."""
    links = httpx.post(
        f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}, timeout=60
    ).json()["links"]
    play_orders(links["allied"], *placements, "end-phase")
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto(links["axis"])
    page.wait_for_selector('#units .counter[data-side="allied"][data-hex="C5"]')
    tips = []
    for h in ("C5", "E6"):
        counters = page.locator(f'#units .counter[data-side="allied"][data-hex="{h}"]')
        tips.append(counter_tip(page, f'#units .counter[data-side="allied"][data-hex="{h}"] >> nth={counters.count() - 1}'))
    shot(page, "counters-face-down-tip")
    text = str(page.evaluate("document.documentElement.outerHTML + document.documentElement.textContent"))
    page.close()
    return tips, [text]


def test_a_face_down_counter_tooltip_tells_nothing_the_view_does_not_send(tmp_path: Path, browser: Browser) -> None:
    """Two games that differ only in which face-down counter is a dummy (GG-V.B.1): the Axis player's tooltips
    are the same, and name the side and the hex alone."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: 7) as url:
        one, page_one = _face_down_tips(url, browser, ("place Dummy1 C5", "place Dummy2 E6", "place 201Gds E6"))
        other, _ = _face_down_tips(url, browser, ("place 201Gds C5", "place Dummy1 E6", "place Dummy2 E6"))
    assert one == other
    for tip in one:
        assert identities_in(tip, FACE_DOWN) == []
        assert "Allied" in tip and "face down" in tip and re.search(r"\bhex [A-Z]+\d+\b", tip)
        assert not re.search(r"\d+-\d+-\d+|status", tip)  # no values, no status: the view sends none for it
    assert identities_in(page_one[0], FACE_DOWN) == []
