"""The site-wide socket of a signed-in account (``ws/site/``), opened by every page but a
table's, and the same service on a table page's own socket (:class:`AccountNotices`).

It carries only what the server pushes: the header's inbox badge (on connect, and after
each change of the inbox) and a notice with a Join button for each new invitation, each
rendered in the socket's language and swapped by id into the page (static/js/site.js, or
htmx's ws extension on a table page). While it is open the account is "on the site"
(a ``SiteConnection`` row, gone with its process if that dies); when it closes, the
account's ``LastSeen`` moves to now.

A table page does not open a second socket: its ``GameConsumer`` joins the account's group
too. A guest's table socket (the load benchmark's are all guests') does nothing more.
"""

from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import Error as DatabaseError
from django.template.loader import render_to_string
from django.utils import translation

from games import languages, selectors, services
from games.live import socket_limits
from games.live.site_pushes import user_group

logger = logging.getLogger(__name__)

CLOSE_NOT_SIGNED_IN = 4403
CLOSE_TOO_MANY_SOCKETS = socket_limits.CLOSE_TOO_MANY_SOCKETS


def render_badge(unread: int) -> str:
    return render_to_string("friends/live.html#badge", {"inbox_unread": unread, "oob": True})


def render_invitation(sender: str, code: str) -> str:
    return render_to_string("friends/live.html#invitation", {"sender": sender, "code": code})


def _signed_in(scope: dict) -> int | None:
    user = scope.get("user")
    return user.pk if user is not None and user.is_authenticated else None


class AccountNotices(AsyncWebsocketConsumer):
    """The account's group on a socket: joined on open, left (with ``LastSeen``) on close;
    ``inbox.changed`` pushes the new badge and any invitation's notice."""

    account: int | None = None  # the signed-in account whose group this socket is in
    notices_language = "en"

    async def open_account_notices(self, language: str) -> None:
        user_id = _signed_in(self.scope)
        if user_id is None:
            return
        self.account, self.notices_language = user_id, language
        await self.channel_layer.group_add(user_group(user_id), self.channel_name)
        await database_sync_to_async(services.site_presence_open)(
            server_id=services.presence.SERVER_ID, user_id=user_id, channel_name=self.channel_name
        )

    async def close_account_notices(self) -> None:
        user_id, self.account = self.account, None
        if user_id is None:
            return
        try:
            await self.channel_layer.group_discard(user_group(user_id), self.channel_name)
        finally:
            try:
                await database_sync_to_async(services.site_presence_close)(
                    user_id=user_id, channel_name=self.channel_name
                )
            except DatabaseError as error:
                logger.warning("the site page %s could not close: %s", self.channel_name, error)

    async def badge_html(self) -> str:
        assert self.account is not None
        unread = await database_sync_to_async(selectors.inbox_unread)(self.account)
        with translation.override(self.notices_language):
            return render_badge(unread)

    async def inbox_changed(self, event: dict) -> None:
        if self.account is None:
            return
        html = await self.badge_html()
        invitation = event.get("invitation")
        if isinstance(invitation, dict):
            with translation.override(self.notices_language):
                html += render_invitation(str(invitation["from"]), str(invitation["game"]))
        await self.send(text_data=html)


class SiteConsumer(socket_limits.CountedSocket, AccountNotices):
    """``ws/site/``: a signed-in account's page (any page but a table's)."""

    async def ended(self) -> None:
        await self.close_account_notices()

    async def connect(self) -> None:
        await self.accept()
        user_id = _signed_in(self.scope)
        language = languages.of_scope(self.scope)
        if user_id is None:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        with translation.override(language):
            self.admitted, refusal = socket_limits.admit(self.scope, f"site-{user_id}")
        if refusal is not None:
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        await self.open_account_notices(language)
        await self.send(text_data=await self.badge_html())

    async def disconnect(self, code: int) -> None:
        await self.close_account_notices()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing; whatever it sends is ignored."""
