"""Telling a remote player that it is his turn: an optional webhook per seat (docs/hosting.md, "Turn notifications").

A player who does not keep the game's tab in view still learns that the decision has passed to him: the page
changes its title and shows a browser notification while it is open (``static/notify.js``), and a seat may give a
URL (``PUT /api/g/<token>/webhook``) to which the server POSTs a small JSON message each time the decision passes
to that seat: a chat's incoming webhook, a phone push service, a script of the player's.  Nothing needs e-mail,
and nothing is sent anywhere unless the player asks.

The message says whose turn it is in which game, as ``{"event": "your-turn", "game", "scenario", "side",
"version", "text"}`` (``text`` for chat services that show it as it is).  It carries no link: the seat's link is
its key, and a chat channel is seldom as private as its owner thinks.

The URL is the player's, so the server is careful where it sends: ``http`` or ``https`` only, no user name or
password in it, at most 500 characters of printable ASCII, and by default only to public addresses: the host's
addresses are looked up when the webhook is set and again before each message, and a loopback, private,
link-local or reserved one is refused (the server must not be made to knock on its own database or a cloud's
metadata address).  ``tobruk serve --webhooks-anywhere`` lifts that for a server on a private network.  Messages
go out from a thread of their own, one try each with a five-second time-out, never holding up an order; the
process that stores the change sends the message, so it is sent once whatever the number of processes.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from tobruk.engine.sides import Side
from tobruk.web.referee import Refused, Session
from tobruk.web.store import Store, StoreError

log = logging.getLogger(__name__)
MAX_URL = 500
TIMEOUT = 5.0
_PRINTABLE = re.compile(r"^[!-~]+$")


def check_url(url: str, anywhere: bool) -> str:
    """The URL if a webhook may be sent to it; :class:`Refused` (400) saying why not."""
    if len(url) > MAX_URL or not _PRINTABLE.fullmatch(url):
        raise Refused(400, f"a webhook is a URL of at most {MAX_URL} printable ASCII characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(400, "a webhook is an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise Refused(400, "a webhook URL may not carry a user name or password")
    try:
        port = parts.port
    except ValueError:
        raise Refused(400, "the webhook URL's port is not a number from 0 to 65535") from None
    if not anywhere:
        for address in _addresses(parts.hostname, port or (443 if parts.scheme == "https" else 80)):
            if not address.is_global:
                raise Refused(400, "webhooks go to public addresses only on this server")
    return url


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(400, "the webhook's host name is not known") from None
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]


def message(s: Session, side: Side) -> dict[str, object]:
    return {
        "event": "your-turn",
        "game": s.stored.id,
        "scenario": s.stored.scenario,
        "side": side.value,
        "version": s.version,
        "text": f"tobruk: it is your turn ({side.display}) in game {s.stored.id} ({s.stored.scenario}).",
    }


class Webhooks:
    """Sends the messages of one server process (``anywhere``: private addresses allowed too)."""

    def __init__(self, store: Store, anywhere: bool = False) -> None:
        self.store = store
        self.anywhere = anywhere
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tobruk-webhook")

    def turn(self, s: Session, side: Side) -> None:
        """The decision passed to ``side``: send its seat's webhook a message, if it has one (the referee calls this
        with the game's lock held: the message is made now, sent later)."""
        if side.value not in ("axis", "allied") or s.stored.mode != "remote":
            return  # the hotseat's players sit at one screen; against the computer, the computer answers at once
        try:
            url = self.store.webhook(s.stored.id, side.value)
        except StoreError:
            return
        if url is not None:
            self._pool.submit(self._send, url, message(s, side))

    def _send(self, url: str, body: dict[str, object]) -> None:
        import httpx

        try:
            check_url(url, self.anywhere)  # the host's addresses again: they may have changed since it was set
            httpx.post(url, json=body, timeout=TIMEOUT, follow_redirects=False)
        except (Refused, httpx.HTTPError) as exc:
            log.warning("tobruk: webhook of game %s not sent: %s", body["game"], getattr(exc, "reason", None) or type(exc).__name__)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=False)
