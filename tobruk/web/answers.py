"""How the server's answers are made: the work, the JSON encoding and the compression in one trip to a worker
thread, never on the event loop.

The event loop serves every game's requests and event streams; anything it computes, every other request waits
for.  So a request's whole work (opening the game, the engine, the database, encoding the answer and gzipping it)
runs in the thread pool in one call, and the loop only reads the request and writes the bytes it is handed.  One
trip, not one per step: under load each hand-over between the loop and a thread waits for the interpreter's lock
and for a core, and those waits, not the work, made the tail of the latency (docs/performance.md).  Answers of
1,000 bytes or more are gzipped (level 6) for a client that accepts it; smaller ones are not worth it.  zlib
lets go of the interpreter's lock while it compresses, so other threads run meanwhile.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

GZIP_MIN = 1000
GZIP_LEVEL = 6


@dataclass(frozen=True)
class Answer:
    """What a handler's work gives when the answer is not plain JSON with status 200: its own headers (a file
    name), or a body that is already text (an HTML page)."""

    data: Any
    headers: dict[str, str] = field(default_factory=dict)
    media_type: str = "application/json"


def accepts_gzip(request: Request) -> bool:
    """Whether the client takes gzip (``Accept-Encoding``; ``gzip;q=0`` refuses it)."""
    for part in request.headers.get("accept-encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().removeprefix("q=")
            return not (params.strip().startswith("q=") and _is_zero(q))
    return False


def _is_zero(q: str) -> bool:
    try:
        return float(q) == 0
    except ValueError:
        return False


def encoded(result: Any, gzip_ok: bool) -> tuple[bytes, dict[str, str], str]:
    """The body, headers and media type of a result (an :class:`Answer` or data to send as JSON)."""
    answer = result if isinstance(result, Answer) else Answer(result)
    data = answer.data
    body = data.encode() if isinstance(data, str) else data if isinstance(data, bytes) else msgspec.json.encode(data)
    headers = dict(answer.headers)
    if gzip_ok and len(body) >= GZIP_MIN:
        body = gzip.compress(body, GZIP_LEVEL, mtime=0)
        headers["content-encoding"] = "gzip"
        headers["vary"] = "Accept-Encoding"
    return body, headers, answer.media_type


async def computed(request: Request, work: Callable[[], Any]) -> Response:
    """Run ``work`` and make its answer in one trip to the thread pool; the loop writes the bytes."""
    gzip_ok = accepts_gzip(request)
    body, headers, media_type = await run_in_threadpool(lambda: encoded(work(), gzip_ok))
    return Response(body, media_type=media_type, headers=headers)
