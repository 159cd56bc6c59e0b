"""The game page on the campaign's 3,260-hex map in headless Chromium: loading, zooming, panning, selecting.

    python benchmarks/campaign_page.py [--scenario na-mersa-matruh] [--runs 3]

A server in this process (the application of ``tobruk serve``, an SQLite file in a temporary folder) and Debian's
chromium driven by Playwright, as the browser tests drive it.  For the campaign's scenario and, for comparison, The
Gazala Gallop's map (245 hexes), each the median of ``--runs`` fresh pages:

* **load**: from asking for the page to its counters drawn (the map's SVG and board data, the state, the first
  drawing);
* **zoom**: a click on the zoom button to the second animation frame after it (the new scale drawn), each of six
  steps in and six out;
* **pan**: the frames the browser draws while the map is dragged 40 steps across the pane (the interval between
  animation frames: 16.7 ms is 60 frames a second; above 50 ms a person sees the map jump);
  and the number of frames above 50 ms;
* **select**: a click on a unit that may move to its hexes lit (the legal actions are on the page already: this is
  the page's own work).

The figures are the machine's: compare before and after in one run on one machine.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from playwright.sync_api import Page, sync_playwright

from tobruk.web.server import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))"


@contextmanager
def served(folder: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(f"sqlite:///{folder / 'games.sqlite'}", [])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def measure(page: Page, link: str) -> dict[str, float]:
    t0 = time.perf_counter()
    page.goto(link)
    page.wait_for_selector("#handover-ok:visible, #units .counter[data-unit]")
    if page.is_visible("#handover-ok"):
        page.click("#handover-ok")  # the hotseat's screen: the side whose decision it is (counted in the load)
    page.wait_for_selector("#units .counter[data-unit]")
    page.evaluate(FRAMES)
    out = {"load": (time.perf_counter() - t0) * 1000}
    zooms = []
    for button in ["#zoom-in"] * 6 + ["#zoom-out"] * 6:
        start = page.evaluate("performance.now()")
        page.click(button)
        zooms.append(page.evaluate(FRAMES) - start)
    out["zoom"] = statistics.median(zooms)
    box = page.locator("#board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate("window.__frames = []; (function tick(t) { window.__frames.push(t); requestAnimationFrame(tick); })(performance.now())")
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(40):
        page.mouse.move(x - 10 * i, y - 5 * i)
    page.mouse.up()
    page.evaluate(FRAMES)
    frames: list[float] = page.evaluate("window.__frames")
    gaps = sorted(b - a for a, b in itertools.pairwise(frames[1:]))  # (the first frame started the clock)
    out["pan median"] = statistics.median(gaps)
    out["pan worst"] = gaps[-1]
    out["pan slow"] = sum(g > 50 for g in gaps)  # frames a person sees the map jump in
    unit = page.evaluate(
        "(() => { const a = tobrukGame.state.legal.actions.find(x => x.gesture === 'unit-hex' && x.hex); return a ? a.unit : null; })()"
    )
    if unit:
        hex_ = page.evaluate(f"tobrukGame.state.view.units.find(u => u.id === {unit!r}).hex")
        start = page.evaluate("performance.now()")
        page.locator(f'#units .counter[data-hex="{hex_}"]').last.click()
        if page.is_visible("#chooser"):
            page.click(f'#chooser button[data-choose="{unit}"]')
        page.wait_for_selector("[data-reach]", state="attached")
        out["select"] = page.evaluate("performance.now()") - start
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", default="na-mersa-matruh", help="a campaign scenario (default na-mersa-matruh)")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    if not Path(CHROMIUM).exists():
        print("needs Debian's chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, served(Path(tmp)) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        heads = f"{'load':>8} {'zoom':>8} {'pan median':>11} {'pan worst':>10} {'>50 ms':>7} {'select':>8}"
        print(f"{'map':<28} {heads}   (ms, median of {args.runs})")
        for name in (args.scenario, "gazala-gallop"):
            runs = []
            for _ in range(args.runs):
                made = httpx.post(f"{url}/api/games", json={"scenario": name, "mode": "hotseat"}, timeout=120).json()
                page = browser.new_page(viewport={"width": 1300, "height": 850})
                runs.append(measure(page, made["links"]["both"]))
                page.close()
            keys = ("load", "zoom", "pan median", "pan worst", "pan slow", "select")
            cells = [statistics.median(r.get(k, float("nan")) for r in runs) for k in keys]
            print(f"{name:<28} " + " ".join(f"{c:>{w}.1f}" for c, w in zip(cells, (8, 8, 11, 10, 7, 8), strict=True)))
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
