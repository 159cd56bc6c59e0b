"""Hearing the games other server processes changed: PostgreSQL's ``LISTEN`` on one connection of its own.

Several ``tobruk serve`` processes on one PostgreSQL database (docs/hosting.md) each keep the games they serve in
memory.  Every write of a game's events sends a notice naming the game (:data:`tobruk.web.store.CHANNEL`, sent by
the database when the write commits), and each process listens for them in a thread: a notice wakes the event
streams of that game in this process, which bring the game up to date and tell their pages at once, instead of
finding the change at their next look at the database (every few seconds).  A notice is only a wake-up call:
what changed is read from the database, so a notice lost while the connection was down costs a delay, never a
wrong position (after a reconnection every stream is woken, and the streams' own periodic look stays).

SQLite has no notices: processes on one SQLite file rely on that periodic look alone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from tobruk.web.store import CHANNEL

log = logging.getLogger(__name__)
RETRY_SECONDS = 1.0


class Listener:
    """A thread that calls ``on_change(game_id)`` for each notice, and ``on_change(None)`` after (re)connecting,
    when notices may have been missed.  ``url``: the database's SQLAlchemy URL (``postgresql+psycopg://...``)."""

    def __init__(self, url: str, on_change: Callable[[str | None], None]) -> None:
        from sqlalchemy.engine import make_url

        self.conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tobruk-listen", daemon=True)
        self.connected = threading.Event()  # set while listening (tests wait for it)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    self.on_change(None)  # anything stored while not listening
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=0.25):  # (a stop is seen within this)
                            self.on_change(notice.payload)
            except psycopg.Error as exc:
                self.connected.clear()
                log.warning("tobruk: not hearing other processes' changes (%s); trying again", str(exc).splitlines()[0][:200])
                self._stop.wait(RETRY_SECONDS)
        self.connected.clear()
