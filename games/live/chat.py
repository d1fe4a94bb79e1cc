"""Table talk on the table's socket. After a message, a hidden message or a lowered setting
has committed, :func:`tell` (registered in ``GamesConfig.ready``) sends a small event to the
table's group ``game-<code>`` on every process; each page's consumer (:class:`ChatReader`,
mixed into ``GameConsumer``) renders it for its own reader, in their language, and only if
that reader sees it (not muted, nobody blocked, chat not off for them). The board is never
re-rendered: a message is appended to ``#chat-log`` out of band, a hidden one deleted by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import translation

from games.live.broadcast import group_name, send_to_group
from games.models import ChatReport, Player
from games.selectors import chat as chat_selectors

if TYPE_CHECKING:
    from games.services.chat import ChatEvent


def tell(event: ChatEvent) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send_to_group(layer, group_name(event.code), {"type": f"chat.{event.kind}", **event.data})


def _message_html(code: str, message_id: int, viewer: Player, language: str) -> str | None:
    seen = chat_selectors.chat_message_for(code, message_id, viewer)
    if seen is None:
        return None
    with translation.override(language):
        context = {"m": seen, "code": code, "reasons": ChatReport.Reason.choices}
        return render_to_string("games/chat.html#pushed", context)


def _panel_html(code: str, viewer: Player, language: str) -> str | None:
    with translation.override(language):
        view = chat_selectors.chat_view_of(code, viewer)
        if view is None:
            return None
        return render_to_string("games/chat.html#chat", {"c": view, "oob": True})


class ChatReader(AsyncWebsocketConsumer):
    """The chat events of a table's group, for the one reader of this socket."""

    code: str
    viewer: Player
    language: str

    async def chat_message(self, event: dict) -> None:
        html = await database_sync_to_async(_message_html)(
            self.code, event["id"], self.viewer, self.language
        )
        if html is not None:
            await self.send(text_data=html)

    async def chat_hidden(self, event: dict) -> None:
        await self.send(text_data=render_to_string("games/chat.html#hidden", {"id": event["id"]}))

    async def chat_setting(self, event: dict) -> None:
        """The whole panel again: the table's setting changed, or the reader sat down or left."""
        html = await database_sync_to_async(_panel_html)(self.code, self.viewer, self.language)
        if html is not None:
            await self.send(text_data=html)
