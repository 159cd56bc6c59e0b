"""Answers made in the worker thread (web/answers.py): gzip for a client that takes it, from 1,000 bytes on, and the
same JSON either way, over real HTTP; the work, the encoding and the compression in one trip off the event loop."""

from __future__ import annotations

import asyncio
import gzip
import threading
from pathlib import Path

import httpx
import msgspec
from starlette.requests import Request

from tests.web.web_server import running_server
from tobruk.web.answers import GZIP_MIN, Answer, accepts_gzip, computed, encoded


def request(accept: str) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [(b"accept-encoding", accept.encode())]})


def test_which_clients_take_gzip() -> None:
    assert accepts_gzip(request("gzip, deflate, br"))
    assert accepts_gzip(request("br;q=1.0, gzip;q=0.5"))
    assert accepts_gzip(request("*"))
    assert not accepts_gzip(request("gzip;q=0"))
    assert not accepts_gzip(request("identity"))
    assert not accepts_gzip(request(""))


def test_small_answers_are_sent_plain_and_large_ones_gzipped() -> None:
    small = {"a": 1}
    body, headers, media = encoded(small, gzip_ok=True)
    assert msgspec.json.decode(body) == small and "content-encoding" not in headers and media == "application/json"
    large = {"x": "y" * GZIP_MIN}
    body, headers, _ = encoded(large, gzip_ok=True)
    assert headers["content-encoding"] == "gzip" and msgspec.json.decode(gzip.decompress(body)) == large
    body, headers, _ = encoded(large, gzip_ok=False)
    assert "content-encoding" not in headers and msgspec.json.decode(body) == large
    body, headers, media = encoded(Answer("<p>form</p>", {"x-a": "1"}, "text/html"), gzip_ok=True)
    assert body == b"<p>form</p>" and headers == {"x-a": "1"} and media == "text/html"


def test_the_work_and_the_encoding_run_off_the_event_loop() -> None:
    threads: list[int] = []

    def work() -> dict[str, int]:
        threads.append(threading.get_ident())
        return {"n": 1}

    async def main() -> int:
        response = await computed(request("gzip"), work)
        assert msgspec.json.decode(response.body) == {"n": 1}
        return threading.get_ident()

    loop_thread = asyncio.run(main())
    assert threads and threads[0] != loop_thread


def test_a_large_state_comes_gzipped_and_a_client_without_gzip_gets_it_plain(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()
        api = link["links"]["both"].replace("/g/", "/api/g/")
        zipped = httpx.get(f"{api}/state", headers={"accept-encoding": "gzip"}, timeout=60)
        plain = httpx.get(f"{api}/state", headers={"accept-encoding": "identity"}, timeout=60)
        assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
        assert zipped.json() == plain.json() and len(plain.content) >= GZIP_MIN
        small = httpx.get(f"{url}/api/players", headers={"accept-encoding": "gzip"}, timeout=60)
        assert "content-encoding" not in small.headers
