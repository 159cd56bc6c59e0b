"""What a newcomer's trial of the page found, each checked in real headless Chromium (Debian's package) by what the
page draws and says after clicks: the threat warning says which units could come only if activated; a stack's
counters stay within their hex; a counter's tooltip goes when the player clicks or moves on; the page says why a
compulsory-attack phase has no end button; a unit spent at the start says why it is spent; in a sandstorm no target is
lit for units that may not attack together; a button's tooltip is never its notation; a counter's tooltip and its
hex's panel say whether it is a division, as stacking counts it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.conftest import family
from tests.web.test_web_browser import pytestmark, shot  # noqa: F401  (the skip without chromium)
from tests.web.test_web_counters import counter_tip
from tests.web.web_server import play_orders, running_server, state_of
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, Page


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


def _stacks(page: Page) -> dict[str, int]:
    units = page.evaluate("tobrukGame.state.view.units")
    return dict(Counter(u["hex"] for u in units if u.get("hex") and not u.get("eliminated")))


def test_every_counter_of_a_stack_stays_within_its_own_hex(tmp_path: Path, browser: Browser) -> None:
    """Gazala's set-up (stacks of 3 in G3 and H4, the row of the trial's G4): each counter's body, measured on the screen, lies within the
    bounding box of its hex's outline, so none seems to stand in the hex below."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        stacks = {h: n for h, n in _stacks(page).items() if n > 1}
        assert 3 in stacks.values(), stacks
        found = page.evaluate(
            """(hexes) => hexes.map(h => {
                const q = document.querySelector(`#hexes polygon[data-hex="${h}"]`).getBoundingClientRect();
                const bodies = [...document.querySelectorAll(`#units .counter[data-hex="${h}"] rect.body`)].map(r => {
                    const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom];
                });
                return {hex: h, box: [q.left, q.top, q.right, q.bottom], bodies};
            })""",
            sorted(stacks),
        )
        shot(page, "trial-stacks-within-hexes")
        for f in found:
            left, top, right, bottom = f["box"]
            assert len(f["bodies"]) == stacks[f["hex"]]
            for cl, ct, cr, cb in f["bodies"]:
                assert left - 0.5 <= cl and cr <= right + 0.5 and top - 0.5 <= ct and cb <= bottom + 0.5, (
                    f["hex"],
                    f["box"],
                    (cl, ct, cr, cb),
                )


def _overlaps(a: FloatRect, b: FloatRect) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_a_counter_tooltip_goes_when_the_counter_is_clicked_and_when_the_pointer_leaves(tmp_path: Path, browser: Browser) -> None:
    """Resting on a unit the Axis places freely in its set-up (GG-V.A.1), the top counter of its hex, shows its
    tooltip; a click selects it and the tooltip goes, leaving the hexes it may be placed in lit and uncovered; resting
    on it again shows the tooltip where it covers none of them, and moving off the counter hides it."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        tip = page.locator("#counter-tip")
        free = page.evaluate("""() => ['15Pz', '21Pz', '90Lt', 'Ariete', 'Trieste', 'RecceGp'].filter(id => {
            const g = document.querySelector(`#units .counter[data-unit="${id}"]`);
            return g && [...document.querySelectorAll(`#units .counter[data-hex="${g.dataset.hex}"]`)].pop() === g;
        })""")
        assert free
        pz = page.locator(f'#units .counter[data-unit="{free[0]}"]')
        page.mouse.move(0, 0)
        pz.hover()
        tip.wait_for(state="visible", timeout=5000)
        assert free[0] in tip.inner_text()
        pz.click()
        page.wait_for_function(f"tobrukGame.selected === '{free[0]}'")
        page.wait_for_selector("[data-reach]")
        shot(page, "trial-tooltip-after-click")
        assert not tip.is_visible(), "the tooltip stays over the table after the click"
        lit = [b for b in (page.locator("[data-reach]").nth(k).bounding_box() for k in range(page.locator("[data-reach]").count())) if b]
        assert lit
        # resting on the counter again shows it, not over a lit hex; moving off hides it
        page.mouse.move(0, 0)
        pz.hover()
        tip.wait_for(state="visible", timeout=5000)
        box = tip.bounding_box()
        assert box and not any(_overlaps(box, b) for b in lit), "the tooltip covers a hex lit for the selected unit"
        page.mouse.move(5, 5)
        assert not tip.is_visible()


def test_the_page_says_why_a_compulsory_attack_phase_has_no_end_button(tmp_path: Path, browser: Browser) -> None:
    """The Duel (the Gazala rules): the Panzer moves next to the Tommies, and in the attack phase it owes them an
    attack (GG-XIV.A.2): no end button, and the panel says which hex must be attacked and by whom, on which clause;
    with the attack declared it says the attack is still to be resolved or cancelled (GG-XIV.C.1)."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        while "movement" not in page.inner_text("#prompt"):
            page.click('button[data-order="end-phase"]')
            page.wait_for_timeout(300)
        assert not page.locator("#unended").count()  # the movement phase may end
        page.click('[data-unit="Pz"]')
        page.click('[data-reach="B4"]')
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B4'")
        page.click('button[data-order="end-phase"]')
        page.wait_for_function("document.getElementById('prompt').textContent.includes('attacks')")
        shot(page, "trial-compulsory-attack")
        assert page.locator('button[data-order="end-phase"]').count() == 0
        why = page.locator("#unended")
        assert why.is_visible()
        assert "GG-XIV.A.2" in why.inner_text() and "B5 by Pz" in why.inner_text(), why.inner_text()
        page.click('[data-unit="Pz"]')
        page.click('[data-target="B5"]')
        page.click("#declare")
        page.wait_for_selector('button[data-order="resolve 1"]')
        assert "GG-XIV.C.1" in page.inner_text("#unended") and "(1)" in page.inner_text("#unended")
        page.click('button[data-order="cancel 1"]')
        page.wait_for_function("document.getElementById('unended')?.textContent.includes('B5 by Pz')")
        assert page.locator('button[data-order="end-phase"]').count() == 0


def test_a_unit_spent_at_the_start_of_first_alamein_says_why_it_is_spent(tmp_path: Path, browser: Browser) -> None:
    """CA-SC.7: the Allied units start spent but the 1st South African Division: a spent one's tooltip says why (the
    scenario's list, the system's words), the 1st South African's no such thing."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "first-alamein", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        page.wait_for_selector('[data-unit="18IndBde"]')
        tip = counter_tip(page, '[data-unit="18IndBde"]')
        shot(page, "trial-spent-at-start")
        assert "spent: starts the game spent (CA-SC.7)" in tip, tip
        assert "CA-SC.7" not in counter_tip(page, '[data-unit="1SADiv"]')
        page.click('[data-unit="18IndBde"]')  # the hex's panel says it too
        page.wait_for_function("document.getElementById('stack').textContent.includes('18IndBde')")
        assert "starts the game spent (CA-SC.7)" in page.inner_text("#stack")


def _unit(uid: str, side: str, nationality: str, factors: str, hex_: str) -> str:
    return (
        f'[[unit]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\nnationality = "{nationality}"\nechelon = "division"\n'
        + f'type = "armour"\nfactors = "{factors}"\nhex = "{hex_}"\n'
    )


SANDSTORM_DUEL = (
    'format = "tobruk-scenario"\nversion = 1\ntitle = "Sandstorm Duel"\nsystem = "gazala-gallop"\nturns = 2\n\n'
    '[map]\nname = "sandstorm-duel"\ngrid = { rows = 5, columns = 8 }\n\n'
    + _unit("Pz", "axis", "german", "6-3-4", "B2")
    + _unit("Lt", "axis", "german", "2-1-4", "A3")
    + _unit("Tommy", "allied", "british", "1-2-2", "B4")
)


@pytest.mark.rule("GG-VIII.A.3")
def test_in_a_sandstorm_no_target_is_lit_for_units_of_two_hexes(tmp_path: Path, browser: Browser) -> None:
    """Turn 2 of a duel in a sandstorm (seed 3: the British name 4, the die brings it): Pz (B3) and Lt (A4) may each
    attack Tommy (B4) but not together (GG-VIII.A.3).  Gathering Pz lights B4; Lt joining it lights nothing, and the
    page says why with the clause; Lt taken back lights B4 again."""
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "sandstorm-duel.toml").write_text(SANDSTORM_DUEL, encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", scenarios, seeds=lambda: 3) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "sandstorm-duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        while not any(a["verb"] == "weather" for a in state_of(link)["legal"]["actions"]):  # (no unit may attack on turn 1)
            play_orders(link, "end-phase")
        play_orders(link, "weather 4 1")
        assert "sandstorm" in " ".join(state_of(link)["view"]["log"][-3:])
        play_orders(link, "move Pz B2-B3", "move Lt A3-A4", "end-phase")
        page = _open(browser, link)
        page.wait_for_function("document.getElementById('prompt').textContent.includes('attacks')")
        page.click('#units [data-unit="Pz"]')
        assert page.locator('[data-target="B4"]').count() == 1
        page.click('#units [data-unit="Lt"]')
        assert page.locator("[data-target]").count() == 0
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('No hex may be attacked')")
        shot(page, "trial-sandstorm-apart")
        info = page.inner_text("#attack-info")
        assert info.startswith("Attackers: Pz, Lt. No hex may be attacked by all of them: ") and "[GG-VIII.A.3]" in info, info
        page.click('#units [data-unit="Lt"]')
        assert page.locator('[data-target="B4"]').count() == 1


def test_the_gallop_button_says_what_it_does_and_no_tooltip_shows_its_notation(tmp_path: Path, browser: Browser) -> None:
    """The Allied movement phase of turn 1 offers the Gazala Gallop (GG-XIII.E): its button says what it does, and
    neither it nor any other button of the panel has the order's notation ("gallop") for a tooltip."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        while not any(a["verb"] == "gallop" for a in state_of(link)["legal"]["actions"]):
            play_orders(link, "end-phase")
        page = _open(browser, link)
        gallop = page.locator('#orders button[data-order="gallop"]')
        gallop.wait_for()
        assert gallop.inner_text().startswith("Optional, once a game: call the Gazala Gallop (GG-XIII.E)."), gallop.inner_text()
        gallop.hover()
        shot(page, "trial-gallop-button")
        titles = page.eval_on_selector_all("#orders button", "bs => bs.map(b => [b.dataset.order, b.getAttribute('title')])")
        assert titles and all(title is None or title != order for order, title in titles), titles
        assert gallop.get_attribute("title") is None
        assert page.inner_text("#status").startswith("Turn 1 of 14 · "), page.inner_text("#status")  # (how long the game runs)


@pytest.mark.rule("GG-XII.A.2")
def test_a_counter_says_whether_it_is_a_division_as_stacking_counts_it(tmp_path: Path, browser: Browser) -> None:
    """At most 2 of a hex's 3 units may be divisions (GG-XII.A.2): each Axis counter on the map at the start says its
    echelon as the scenario's data gives it, in its tooltip and in its hex's panel."""
    echelons = {u.id: u.echelon.value for u in family(load_scenario("gazala-gallop")) if u.side is Side.AXIS}
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        # the counter on top of each Axis stack (drawn last), which the pointer reaches
        on_map = page.evaluate(
            """() => { const top = {};
                for (const c of document.querySelectorAll('#units .counter[data-side="axis"]')) top[c.dataset.hex] = c.dataset.unit;
                return Object.values(top); }"""
        )
        shown = {"division", "subdivisional"}
        for kind in sorted(shown):
            uid = next(u for u in on_map if echelons[u] == kind)
            tip = counter_tip(page, f'#units [data-unit="{uid}"]')
            second = tip.splitlines()[1]
            assert second.endswith(f" · {kind}"), tip
            page.click(f'#units [data-unit="{uid}"]')
            page.wait_for_function(f"document.getElementById('stack').textContent.includes('{uid}')")
            line = next(p for p in page.locator("#stack p").all_inner_texts() if p.startswith(uid))
            assert f" {kind}" in line and not (kind == "division" and "subdivisional" in line), line
            page.keyboard.press("Escape")


def test_status_marks_lie_within_their_counter_and_a_stack_badge_covers_no_name(tmp_path: Path, browser: Browser) -> None:
    """1st Alamein's Allied units start spent (CA-SC.7), each with its mark: every mark lies within its counter's body,
    none over the next hex's counters.  At Gazala's set-up (stacks of 3), each stack's badge covers none of the top
    counter's name."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "first-alamein", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        outside = page.evaluate(
            """() => [...document.querySelectorAll('#units .counter')].flatMap(c => {
                const body = c.querySelector('rect.body').getBoundingClientRect();
                return [...c.querySelectorAll('.status-mark circle')].map(m => m.getBoundingClientRect())
                    .filter(m => m.left < body.left - 0.5 || m.right > body.right + 0.5
                        || m.top < body.top - 0.5 || m.bottom > body.bottom + 0.5)
                    .map(m => [c.dataset.unit, m.right - body.right]); })"""
        )
        marks = page.locator("#units .status-mark").count()
        shot(page, "trial-marks-within")
        assert marks > 5 and outside == [], outside
        page.close()
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = _open(browser, link)
        covered = page.evaluate(
            """() => [...document.querySelectorAll('#units .stack-badge')].map(b => {
                const hex = b.dataset.hex, all = document.querySelectorAll(`#units .counter[data-hex="${hex}"]`);
                const name = all[all.length - 1].querySelector('text.name').getBoundingClientRect();
                const c = b.querySelector('circle').getBoundingClientRect();
                const overlap = Math.min(c.right, name.right) - Math.max(c.left, name.left) > 0.5
                    && Math.min(c.bottom, name.bottom) - Math.max(c.top, name.top) > 0.5;
                return [hex, overlap]; })"""
        )
        shot(page, "trial-badges")
        assert len(covered) >= 2 and not any(overlap for _, overlap in covered), covered
