"""Talking to the live room as the socket tests do: the headers of a page, its open pages, the
notices it is pushed."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Connection
from yahtzee_site.asgi import application

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def open_pages() -> int:
    return database_sync_to_async(Connection.objects.count)()


async def receive_notice(comm: WebsocketCommunicator) -> str:
    for _ in range(10):
        html = await comm.receive_from(timeout=3)
        if 'id="flash"' in html:
            return html
    raise AssertionError("no notice was pushed")


async def open_page(code: str, address: str = "203.0.113.7", session=None):
    comm = WebsocketCommunicator(application, f"/ws/g/{code}/", headers=HEADERS)
    comm.scope["client"] = [address, 50000]
    if session is not None:
        comm.scope["cookies"] = {"sessionid": session}
        comm.scope["headers"] = [*HEADERS, (b"cookie", f"sessionid={session}".encode())]
    connected, _ = await comm.connect()
    assert connected
    return comm
