"""A remote player learns that it is his turn without keeping the tab in view (issue 35): the tab's title and a
browser notification while the page is open (real headless Chromium), and his seat's webhook, told by the server
(a real receiver on this machine); none of it by e-mail, and a webhook only where the player gives one."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.chromium import CHROMIUM, FLAGS
from tests.web.web_server import end_or_first, running_server


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def remote_duel(url: str) -> dict[str, str]:
    r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "remote"}, timeout=60)
    return {side: token(link) for side, link in r.json()["links"].items()}


def play_until(url: str, seats: dict[str, str], side: str) -> None:
    """The other side ends its phases until ``side`` decides."""
    for _ in range(20):
        s = httpx.get(f"{url}/api/g/{seats['axis']}/state", timeout=60).json()
        decider = s["view"]["decision"]["side"]
        if decider == side:
            return
        mine = httpx.get(f"{url}/api/g/{seats[decider]}/state", timeout=60).json()
        r = httpx.post(f"{url}/api/g/{seats[decider]}/order", json={**end_or_first(mine), "version": mine["version"]}, timeout=60)
        assert r.status_code == 200, r.text
    raise AssertionError(f"the {side} side never decided")


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A real HTTP server on this machine that keeps every JSON body POSTed to it."""
    got: list[dict[str, Any]] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            got.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook", got
    server.shutdown()


def wait_for(got: list[dict[str, Any]], count: int) -> None:
    for _ in range(100):
        if len(got) >= count:
            return
        threading.Event().wait(0.05)


def test_a_seats_webhook_is_told_when_the_decision_passes_to_it(tmp_path: Path, receiver) -> None:  # type: ignore[no-untyped-def]
    hook, got = receiver
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", webhooks_anywhere=True) as url:
        seats = remote_duel(url)
        assert httpx.get(f"{url}/api/g/{seats['allied']}/webhook", timeout=60).json() == {"url": None}  # none unless asked
        r = httpx.put(f"{url}/api/g/{seats['allied']}/webhook", json={"url": hook}, timeout=60)
        assert r.status_code == 200 and r.json() == {"url": hook}
        play_until(url, seats, "allied")
        wait_for(got, 1)
        threading.Event().wait(0.3)  # (nothing more comes)
        version = httpx.get(f"{url}/api/g/{seats['allied']}/state", timeout=60).json()["version"]
        assert len(got) == 1
        message = got[0]
        assert message["event"] == "your-turn" and message["side"] == "allied" and message["version"] == version
        assert message["scenario"] == "duel" and "your turn (Allied)" in message["text"]
        assert all(t not in json.dumps(message) for t in seats.values())  # no link: the link is the seat's key
        play_until(url, seats, "axis")  # the Axis has no webhook: nobody is told
        threading.Event().wait(0.3)
        assert len(got) == 1
        assert httpx.put(f"{url}/api/g/{seats['allied']}/webhook", json={"url": None}, timeout=60).json() == {"url": None}
        play_until(url, seats, "allied")
        threading.Event().wait(0.3)
        assert len(got) == 1  # removed: not told again


@pytest.mark.parametrize(
    "bad",
    ["ftp://example.org/x", "http://user:secret@example.org/", "javascript:alert(1)", "http://exämple.org/", "x" * 600, "http:///nohost"],
)
def test_a_bad_webhook_url_is_refused_and_nothing_stored(tmp_path: Path, bad: str) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", webhooks_anywhere=True) as url:
        seats = remote_duel(url)
        r = httpx.put(f"{url}/api/g/{seats['axis']}/webhook", json={"url": bad}, timeout=60)
        assert r.status_code == 400 and len(r.json()["error"]) <= 200, r.text
        assert httpx.get(f"{url}/api/g/{seats['axis']}/webhook", timeout=60).json() == {"url": None}


def test_by_default_a_webhook_may_not_point_into_the_servers_own_network(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        seats = remote_duel(url)
        for inside in (
            "http://127.0.0.1:5432/",
            "http://localhost/x",
            "http://169.254.169.254/latest/meta-data",
            "http://10.0.0.1/",
            "http://[::1]/",
        ):
            r = httpx.put(f"{url}/api/g/{seats['axis']}/webhook", json={"url": inside}, timeout=60)
            assert r.status_code == 400 and "public addresses" in r.json()["error"], (inside, r.text)
        hotseat = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()
        r = httpx.put(f"{url}/api/g/{token(hotseat['links']['both'])}/webhook", json={"url": "https://example.org/"}, timeout=60)
        assert r.status_code == 403


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_tab_title_and_a_browser_notification_say_it_is_your_turn(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url, sync_playwright() as p:
        seats = remote_duel(url)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            context = browser.new_context()
            context.grant_permissions(["notifications"], origin=url)
            # the page's own Notification calls are kept (the real constructor still runs): what the player is shown
            context.add_init_script(
                "const Real = window.Notification; window.__shown = [];"
                "window.Notification = class extends Real { constructor(t, o) { super(t, o); window.__shown.push([t, o && o.body]); } };"
                "Object.defineProperty(window.Notification, 'permission', {get: () => Real.permission});"
            )
            # headless Chromium shows every tab as visible and focused, so the tab being out of view is told to the
            # page here (the only stand-in in this test: what the page then does runs as in a browser)
            context.add_init_script(
                "window.__away = false;"
                "Object.defineProperty(document, 'visibilityState', {get: () => window.__away ? 'hidden' : 'visible'});"
                "document.hasFocus = () => !window.__away;"
            )
            page = context.new_page()
            page.goto(f"{url}/g/{seats['allied']}")
            page.wait_for_selector("#title:not(:empty)")
            assert page.title() == "tobruk"  # not his turn: the set-up is the Axis player's
            assert page.is_visible("#notify-me") is False  # permission already given: no button to ask for it
            page.evaluate("window.__away = true")  # the player looks at another tab
            play_until(url, seats, "allied")
            page.wait_for_function("document.title.startsWith('Your turn')", timeout=15_000)
            page.wait_for_function("window.__shown.length > 0", timeout=15_000)
            shown = page.evaluate("window.__shown")
            assert shown[0][0] == "tobruk: your turn" and shown[0][1]  # the decision's prompt as the body
            play_until(url, seats, "axis")
            page.wait_for_function("document.title === 'tobruk'", timeout=15_000)
            assert page.evaluate("window.__shown.length") == 1
        finally:
            browser.close()
