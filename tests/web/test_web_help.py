"""The rules' help served (web/help.py) and used on the game page (static/help.js): a page per clause with its
system, title, text, ruling and neighbours, an index per system, the results tables with every code explained, a 404
with a reason for what does not exist, everything escaped; and in a real headless Chromium, a refusal's clause id is
a link that opens that clause's help, and the CRT button opens the tables with each code's meaning."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import running_server
from tobruk.engine.system import system_for
from tobruk.loading.helpfile import all_help, clause_help

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> object:
    where = tmp_path_factory.mktemp("help")
    with running_server(where / "games.sqlite", where / "scenarios") as served:
        yield served


def test_a_clause_page_says_what_the_clause_does(url: str) -> None:
    system, entry = clause_help("GG-XIV.B.5") or (None, None)
    assert system and entry and entry.ruling
    r = httpx.get(f"{url}/help/GG-XIV.B.5", timeout=60)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    for shown in (system.title, entry.clause, entry.title, entry.text, entry.ruling):
        assert escape(shown) in page, shown
    before, after = system.neighbours("GG-XIV.B.5")
    assert before and after
    assert f'href="/help/{before.clause}"' in page and f'href="/help/{after.clause}"' in page
    assert 'href="/help/system/gazala-gallop"' in page


def test_a_borrowed_clause_opens_its_own_systems_page(url: str) -> None:
    """A 1st Alamein refusal may cite a Gazala clause: its page is Gazala's."""
    page = httpx.get(f"{url}/help/GG-XIII.A.1", timeout=60).text
    assert "The Gazala Gallop" in page and "1st Alamein" not in page
    assert "1st Alamein" in httpx.get(f"{url}/help/FA-CRT.3", timeout=60).text


def test_the_first_and_last_clauses_link_one_way(url: str) -> None:
    clauses = all_help()["OC"].clauses
    first = httpx.get(f"{url}/help/{clauses[0].clause}", timeout=60).text
    last = httpx.get(f"{url}/help/{clauses[-1].clause}", timeout=60).text
    assert 'rel="prev"' not in first and 'rel="next"' in first
    assert 'rel="prev"' in last and 'rel="next"' not in last


def test_each_systems_index_lists_all_its_clauses(url: str) -> None:
    for system in all_help().values():
        r = httpx.get(f"{url}/help/system/{system.system}", timeout=60)
        assert r.status_code == 200
        assert re.findall(r'<li><a href="/help/([^"]+)">', r.text) == [c.clause for c in system.clauses]


@pytest.mark.parametrize("path", ["/help/GG-XIII.Z.9", "/help/system", "/help/system/no-such-game", "/help/system/no-such-game/crt"])
def test_unknown_help_is_a_404_with_a_reason(url: str, path: str) -> None:
    r = httpx.get(url + path, timeout=60)
    assert r.status_code == 404 and '<p class="error">' in r.text and ("no " in r.text)


def test_what_the_address_says_is_escaped(url: str) -> None:
    r = httpx.get(f"{url}/help/%3Cimg%20src=x%20onerror=alert(1)%3E", timeout=60)
    assert r.status_code == 404
    assert "<img" not in r.text and "&lt;img src=x onerror=alert(1)&gt;" in r.text
    # the help's own text is escaped too: an apostrophe is written as an entity
    entry = next(c for s in all_help().values() for c in s.clauses if "'" in c.text)
    page = httpx.get(f"{url}/help/{entry.clause}", timeout=60).text
    assert escape(entry.text) in page and entry.text not in page


@pytest.mark.parametrize("name", ["gazala-gallop", "first-alamein", "operation-compass"])
def test_the_results_tables_with_every_code_explained(url: str, name: str) -> None:
    data = httpx.get(f"{url}/api/help/system/{name}/crt", timeout=60).json()
    meanings = dict(system_for(name).result_meanings())
    assert data["codes"] == meanings and data["tables"]
    crt = data["tables"][0]
    assert len(crt["rows"]) >= 6 and all(len(row["cells"]) == len(crt["columns"]) for row in crt["rows"])
    for row in crt["rows"]:
        for cell in row["cells"]:
            assert cell.rstrip("*") in meanings, (name, cell)
    page = httpx.get(f"{url}/help/system/{name}/crt", timeout=60).text
    for code, meaning in meanings.items():
        assert f"<dt>{escape(code)}</dt><dd>{escape(meaning)}</dd>" in page


def test_a_system_whose_combat_is_not_played_says_so(url: str) -> None:
    data = httpx.get(f"{url}/api/help/system/north-africa-campaign/crt", timeout=60).json()
    assert data["tables"] == [] and data["note"]
    assert httpx.get(f"{url}/api/help/system/no-such-game/crt", timeout=60).status_code == 404


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_a_refusals_clause_opens_its_help_and_the_crt_panel_explains_codes(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as served:
        link = httpx.post(f"{served}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('[data-unit="Pz"]')
        page.click('button[data-order="end-phase"]')  # to the movement
        page.wait_for_function("document.getElementById('prompt').textContent.includes('movement')")
        decision = page.evaluate("tobrukGame.state.view.decision")
        page.wait_for_selector(f'#prompt a.clause[data-clause="{decision["clause"]}"]')  # the prompt's rule, a link too
        page.click('[data-unit="Pz"]')
        stale = int(str(page.get_attribute('[data-reach="B4"]', "data-id")))
        page.click('[data-reach="C4"]')
        page.wait_for_selector('[data-unit="Pz"][data-hex="C4"]')
        # the move as the page listed it before is refused, naming its rule; the rule's id is a link
        page.evaluate(f"tobrukGame.send({{id: {stale}}})")
        page.wait_for_selector("#hint .error a.clause")
        clause = page.get_attribute("#hint .error a.clause", "data-clause") or ""
        found = clause_help(clause)
        assert found, clause
        assert page.inner_text("#hint .error").endswith(f"[{clause}]")  # the refusal's words are unchanged
        with page.expect_popup() as opened:
            page.click("#hint .error a.clause")
        help_page = opened.value
        help_page.wait_for_selector("p.text")
        assert help_page.inner_text("h1") == f"{clause} {found[1].title}"
        assert help_page.inner_text("p.text") == found[1].text
        shot(help_page, "help-clause")
        help_page.close()
        # the CRT panel: the tables, and each code with its meaning
        page.click("#crt-button")
        page.wait_for_selector('#crt-panel table.crt[data-table="gcrt"]')
        meanings = dict(system_for("gazala-gallop").result_meanings())
        assert page.inner_text('#crt-panel dt[data-code="DE"] + dd') == meanings["DE"]
        assert page.get_attribute('#crt-panel table.crt abbr[data-code="DE"]', "title") == f"DE: {meanings['DE']}"
        assert page.locator('#crt-panel table.crt[data-table="gcrt"] tr').count() == 7  # the columns' row and a die's six
        shot(page, "help-crt-panel")
        page.click("#crt-panel .close")
        assert page.locator("#crt-panel").is_hidden()


def test_a_sections_id_opens_the_page_of_its_clauses(url: str) -> None:
    """A scenario's option may cite a section (GG-V.B): its page lists the clauses under it."""
    r = httpx.get(f"{url}/help/GG-V.B", timeout=60)
    assert r.status_code == 200
    assert re.findall(r'<li><a href="/help/([^"]+)">', r.text) == ["GG-V.B.1", "GG-V.B.2", "GG-V.B.3"]
    assert httpx.get(f"{url}/help/GG-V.Z", timeout=60).status_code == 404


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_clause_ids_are_links_in_the_log_the_lobby_and_never_hex_links(url: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto(url)
    page.select_option("#scenario", "gazala-gallop")
    page.wait_for_selector('#options a.clause[data-clause="GG-V.B"]')
    assert page.get_attribute('#options a.clause[data-clause="GG-V.B"]', "href") == "/help/GG-V.B"
    # the log's hex links leave a clause id whole (GG-XI.B2 is no hex B2), and help.js links it
    html = page.evaluate("import('/static/log.js').then(m => m.linked({hexes: {B2: [0, 0]}}, '[GG-XI.B2] B2 R-OC-ROAD'))")
    assert html == '[GG-XI.B2] <a data-hex="B2">B2</a> R-OC-ROAD'
    made = page.evaluate(
        """(html) => import('/static/help.js').then(m => {
            const li = document.createElement('li'); li.innerHTML = html; document.body.appendChild(li);
            m.linkClauses(li); return [...li.querySelectorAll('a.clause')].map(a => a.dataset.clause);
        })""",
        html,
    )
    assert made == ["GG-XI.B2"]  # (not OC-ROAD: a ruling's name R-OC-ROAD is no clause)
