"""How many live pages this process keeps open: per visitor, and per table.

A visitor (counted by their session and, separately, by their network address) may have
``WS_MAX_SOCKETS_PER_CLIENT`` pages open at once on a process, and a table
``WS_MAX_SOCKETS_PER_ROOM``; a socket over either limit is refused with
:data:`CLOSE_TOO_MANY_SOCKETS` and a sentence saying why. ``0`` turns a
limit off (the load benchmark, whose hundreds of pages all come from one address).

The counts live in this process's memory and only count its own sockets: a socket is
counted from its admission until its consumer ends, however it ends. Behind a reverse
proxy the address is the visitor's as ``TRUSTED_PROXY_COUNT`` says (games/limits.py),
not the proxy's.
"""

from __future__ import annotations

from collections import Counter

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext

from games.limits import client_address

# Every socket refused here is closed with it; the page stops reconnecting and asks to be
# reloaded (static/js/room/socket.js, static/js/site.js).
CLOSE_TOO_MANY_SOCKETS = 4429

Key = tuple[str, str]

_open: Counter[Key] = Counter()


def _client_keys(scope: dict) -> list[Key]:
    keys = []
    session_key = getattr(scope.get("session"), "session_key", None)
    if session_key:
        keys.append(("session", session_key))
    client = scope.get("client")
    headers = dict(scope.get("headers") or [])
    forwarded_for = headers.get(b"x-forwarded-for", b"").decode("latin-1")
    address = client_address(str(client[0]) if client else "", forwarded_for)
    if address != "unknown":
        keys.append(("address", address))
    return keys


def admit(scope: dict, code: str) -> tuple[list[Key], str | None]:
    """Count a new socket to room ``code``: the keys it holds, to :func:`release` when it
    ends, or no keys and the sentence telling the visitor why it was refused."""
    per_client, per_room = settings.WS_MAX_SOCKETS_PER_CLIENT, settings.WS_MAX_SOCKETS_PER_ROOM
    clients = _client_keys(scope)
    if per_client and any(_open[key] >= per_client for key in clients):
        return [], gettext(
            "You have too many pages of this site open. Close some of them, then reload this one."
        )
    room = ("room", code)
    if per_room and _open[room] >= per_room:
        return [], gettext(
            "This table has as many people watching as it can take. Try again in a while."
        )
    held = [*clients, room]
    _open.update(held)
    return held, None


def release(held: list[Key]) -> None:
    """The socket that held ``held`` has ended."""
    for key in held:
        _open[key] -= 1
        if _open[key] <= 0:
            del _open[key]


def open_count(kind: str, value: str) -> int:
    """How many sockets of this process hold a key (for tests and diagnostics)."""
    return _open[(kind, value)]


class CountedSocket(AsyncWebsocketConsumer):
    """A consumer whose socket holds ``admitted`` (what :func:`admit` gave it) until it
    ends, however it ends (a clean close, a lost network, an error in a handler); then
    :meth:`ended` undoes whatever else it holds."""

    admitted: list[Key] = []

    async def __call__(self, scope: dict, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            release(self.admitted)
            self.admitted = []
            await self.ended()

    async def ended(self) -> None:
        """What the socket still holds when it ends, given up (nothing, unless a consumer
        says)."""
