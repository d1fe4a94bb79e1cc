""" "Play now" live: the waiting page's socket, and the push that takes it to its table.

Each waiting page opens ``ws/play/``. The socket finds its person's waiting ticket, joins
the ticket's group (``play-<ticket id>``, over the channel layer, so a match made on any
process reaches it) and records the page (``services.play_now.play_page_open``, a row per
socket, so the pages of a ticket are counted across processes). When the ticket is
matched, chooses the computer or leaves, every page gets ``{"status", "game", "url"}`` and
goes there (static/js/play.js). However the socket ends, its page is forgotten, and with
the last one the ticket leaves the queue (``play_page_close``).
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.urls import reverse

from games.live import socket_limits
from games.live.broadcast import send_to_group
from games.live.consumers import viewer_of
from games.selectors.play_now import ticket_status, waiting_ticket
from games.services.play_now import play_page_close, play_page_open
from games.services.presence import SERVER_ID


def group_of(ticket_id: int) -> str:
    return f"play-{ticket_id}"


def page_message(status: str, game: str | None) -> str:
    """What a waiting page is told: where it stands, and where to go."""
    if status == "matched" and game:
        return json.dumps({"status": "matched", "game": game, "url": reverse("game", args=[game])})
    if status == "waiting":
        return json.dumps({"status": "waiting", "game": None, "url": None})
    return json.dumps({"status": "idle", "game": None, "url": reverse("play")})


def push(ticket_id: int, status: str, game: str | None) -> None:
    """Listener of services.play_now: tell every page of the ticket, on every process."""
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": "play.status", "status": status, "game": game}
        send_to_group(layer, group_of(ticket_id), message)


class PlayNowConsumer(socket_limits.CountedSocket):
    ticket: int | None = None

    async def ended(self) -> None:
        await self.forget_page()

    async def connect(self) -> None:
        self.admitted, refusal = socket_limits.admit(self.scope, f"play:{self.channel_name}")
        if refusal is not None:
            await self.accept()
            await self.close(code=socket_limits.CLOSE_TOO_MANY_SOCKETS)
            return
        viewer = viewer_of(self.scope)
        ticket = await database_sync_to_async(waiting_ticket)(viewer)
        if ticket is None:
            await self.accept()
            await self.send(text_data=page_message("idle", None))
            return
        # In the ticket's group before the page is recorded (which may match it), so the
        # match's push cannot pass this page by.
        await self.channel_layer.group_add(group_of(ticket), self.channel_name)
        self.ticket = ticket
        status = await database_sync_to_async(play_page_open)(
            server_id=SERVER_ID, ticket_id=ticket, channel_name=self.channel_name
        )
        await self.accept()
        if status != "waiting":
            status, game = await database_sync_to_async(ticket_status)(ticket)
            await self.send(text_data=page_message(status, game))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing; whatever it sends is ignored."""

    async def play_status(self, event: dict) -> None:
        await self.send(text_data=page_message(event["status"], event["game"]))

    async def disconnect(self, code: int) -> None:
        await self.forget_page()

    async def forget_page(self) -> None:
        """Out of the ticket's group and its page forgotten (the last: the queue left)."""
        ticket, self.ticket = self.ticket, None
        if ticket is None:
            return
        try:
            await self.channel_layer.group_discard(group_of(ticket), self.channel_name)
        finally:
            await database_sync_to_async(play_page_close)(channel_name=self.channel_name)
