"""A bound on the size of request bodies, enforced before a handler reads them (ASGI middleware).

Every request the game takes is a few hundred bytes, so the bound is 64 KiB; an uploaded game record is
the exception (a whole game with the state hash after every order, some tens of kilobytes, a long one a
few hundred), so ``/api/replays`` takes up to 1 MiB.  The declared length is checked first; a body sent in
chunks without one is counted as it arrives and cut off at the bound.  Either way the answer is 413 and
the handler never runs.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_LIMIT = 64 * 1024
UPLOAD_LIMIT = 1024 * 1024
LIMITS = {"/api/replays": UPLOAD_LIMIT}


class TooLarge(Exception):
    pass


class BodyLimit:
    def __init__(self, app: ASGIApp, limits: dict[str, int] | None = None, default: int = DEFAULT_LIMIT) -> None:
        self.app = app
        self.limits = LIMITS if limits is None else limits
        self.default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope["path"], self.default)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise TooLarge()
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except TooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Send, limit: int) -> None:
        body = json.dumps({"error": f"the request is too large (at most {limit // 1024} KiB)"}).encode()
        headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
