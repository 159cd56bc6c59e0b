"""``tobruk serve`` with the time of every order request measured inside the server, for benchmarks/load.py.

    python benchmarks/served.py --port 8000 --db-url sqlite:///load.sqlite --timings out.json

The same application as ``tobruk serve`` (``create_app``), wrapped in two measurements that the server itself
does not make (it sends no timing to a client: a time can say something about what the client may not see):
"in server", from the moment the request reaches the application to the moment its last byte is handed to the
connection, and "work", the part of that spent in the worker thread on the game (opening it, the engine, the
database), without the encoding.  The difference between the client's latency and "in server" is the network,
the client's own process and the wait for the event loop; between "in server" and "work", the hand-over to and
from the thread pool and the encoding.  The times are written to ``--timings`` when the server shuts down (SIGTERM).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import Message, Receive, Scope, Send

from tobruk.web import server

ORDER_SUFFIX = "/order"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--db-url", required=True)
    p.add_argument("--timings", required=True, help="file to write the times to, JSON, when the server stops")
    args = p.parse_args()
    in_server: list[tuple[float, float]] = []  # (when it ended, monotonic clock: the client's too on Linux; ms)
    work: list[tuple[float, float]] = []
    plain = server.computed

    async def timed_computed(request: Any, job: Callable[[], Any]) -> Any:
        def measured() -> Any:
            t0 = time.perf_counter()
            try:
                return job()
            finally:
                if request.url.path.endswith(ORDER_SUFFIX):
                    work.append((time.monotonic(), (time.perf_counter() - t0) * 1000))

        return await plain(request, measured)

    server.computed = timed_computed  # type: ignore[assignment]  # the handlers look the name up when called
    app = server.create_app(args.db_url)

    def write() -> None:
        Path(args.timings).write_text(json.dumps({"in_server": in_server, "work": work}))

    async def timed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":  # the times are written as the server shuts down (uvicorn then re-raises SIGTERM)

            async def shutting(message: Message) -> None:
                if message["type"] == "lifespan.shutdown.complete":
                    write()
                await send(message)

            await app(scope, receive, shutting)
            return
        if scope["type"] != "http" or not scope["path"].endswith(ORDER_SUFFIX):
            await app(scope, receive, send)
            return
        t0 = time.perf_counter()

        async def sent(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                in_server.append((time.monotonic(), (time.perf_counter() - t0) * 1000))

        await app(scope, receive, sent)

    config = uvicorn.Config(timed, host="127.0.0.1", port=args.port, log_level="warning", timeout_keep_alive=65)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
