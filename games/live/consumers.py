"""The live room: one websocket per open game page.

The socket only carries HTML to the page. Moves stay HTTP POSTs (with CSRF); the one
message a page may send is ``{"type": "resync"}`` to ask for the full current state.

* On connect (and so on every reconnect) the page gets the whole table at once.
* After every committed change the room's group gets a snapshot of the new version;
  each consumer pushes it rendered for its own viewer, in version order, once each.
  Renders are shared per (game, version, viewpoint), not made per socket
  (games/live/rendering.py).
* Presence: which seats have the page open and how many people are watching, pushed
  at most once per room per interval (games/live/presence_pushes.py). However a consumer ends,
  its page leaves the presence; sends to a socket that has closed are dropped.
* Refused with a close code and no traceback: a code the site could not have made
  (4404, ``NoGameConsumer``), a visitor or a table over its socket limit (4429,
  games/live/socket_limits.py), a page sending too many frames (4429). A frame that is not a
  resync gets a notice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from games import caches, languages, services
from games.committed import committed
from games.live import rendering, socket_limits
from games.live.broadcast import group_name
from games.live.chat import ChatReader
from games.live.presence_pushes import pushes
from games.live.site import AccountNotices
from games.models import Player
from games.selectors import PresenceView
from games.snapshots import Snapshot

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

logger = logging.getLogger(__name__)

CLOSE_UNKNOWN_GAME = 4404
CLOSE_HIDDEN_DICE = 4403  # a table of shared dice still being played, for its players only
CLOSE_TOO_MANY_MESSAGES = 4429
CLOSE_TOO_MANY_SOCKETS = socket_limits.CLOSE_TOO_MANY_SOCKETS
REORDER_WAIT_SECONDS = 1.0
NO_GAME = gettext_lazy("There is no game with that link.")
HIDDEN_DICE = gettext_lazy("Others are still playing these same dice.")
# Close reasons, in the socket's language. The page itself says what a close code means
# (static/js/room/socket.js); a reason reaches only a browser's developer tools, or none (daphne
# drops it).
TOO_MANY_PAGES = gettext_lazy("Too many open pages.")
TOO_MANY_MESSAGES = gettext_lazy("Too many messages.")


def viewer_of(scope: dict) -> Player:
    """Who a socket's person is: their account, or the guest in their session."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Player(name=user.get_username(), user_id=user.pk)
    session = scope.get("session")
    if session is None:
        return Player(name="")
    return Player(name=session.get("guest_name", ""), guest=session.get("guest_token", ""))


# The last few versions decoded here. The newest of each game is also kept in ``committed``,
# which the sockets ask first; this serves the versions that arrive out of order. Kept
# small: each snapshot is some forty objects for the garbage collector to walk, and a
# thousand of them made full collections visibly longer.
DECODED_VERSIONS = 64
decoded: caches.Cache[tuple[str, int], Snapshot] = caches.lru(
    "snapshots decoded from other processes", maxsize=DECODED_VERSIONS
)


def snapshot_of(code: str, event: dict) -> Snapshot:
    """The event's snapshot, decoded once per version for all the sockets of this process."""
    key = (code, event["version"])
    snapshot = decoded.get(key)
    if snapshot is None:
        snapshot = decoded.setdefault(key, Snapshot.from_wire(event["snapshot"]))
        rendering.adopt(snapshot, event.get("boards", {}), event.get("announcements", {}))
        committed.remember(snapshot)  # a move made against it here need not read it back
    return snapshot


def _seat_of(snapshot: Snapshot, viewer: Player) -> int | None:
    return next((s.position for s in snapshot.seats if viewer.owns(s)), None)


def render_presence(presence: PresenceView) -> str:
    return render_to_string("games/room.html#presence", {"presence": presence})


class GameConsumer(ChatReader, AccountNotices, AsyncWebsocketConsumer):
    admitted: list[socket_limits.Key] = []  # what the socket counts against (socket_limits)
    present = False  # its Connection row is written
    joined = False  # in the room's group, with (soon) a Connection row: leave_room undoes it
    gone = False  # the socket is closed: nothing more is sent to it
    resync: asyncio.Task | None = None  # reading the whole table after a missed version

    async def __call__(self, scope: dict, receive, send) -> None:
        """Run the consumer; however it ends (a clean close, a lost network, an error in a
        handler), its page leaves the room, so nobody is shown present who is not."""

        async def send_while_open(message: dict) -> None:
            if self.gone:
                return
            try:
                await send(message)
            except Disconnected:  # daphne: the socket closed while we were sending
                self.gone = True

        try:
            await super().__call__(scope, receive, send_while_open)
        finally:
            socket_limits.release(self.admitted)
            self.admitted = []
            await self.leave_room()
            await self.close_account_notices()

    async def dispatch(self, message: dict) -> None:
        """Room messages go straight to their handler.

        Channels first closes stale database connections in a worker thread before every
        message, a thread hop per socket per push. ``game.changed`` and
        ``presence.changed`` carry all they show and never touch the database; everything
        that does goes through ``database_sync_to_async``, which tidies connections itself.
        """
        if message["type"] == "game.changed":
            await self.game_changed(message)
        elif message["type"] == "presence.changed":
            await self.presence_changed(message)
        else:
            await super().dispatch(message)

    async def connect(self) -> None:
        self.code: str = self.scope["url_route"]["kwargs"]["code"]
        self.group = group_name(self.code)
        self.viewer = viewer_of(self.scope)
        self.language = languages.of_scope(self.scope)  # every push is rendered in it
        self.version = 0
        self.seat: int | None = None
        self.pending: dict[int, Snapshot] = {}
        self.gap_timer: asyncio.TimerHandle | None = None
        self.allowance = float(settings.WS_MESSAGE_BURST)
        self.last_message = time.monotonic()
        with translation.override(self.language):
            self.admitted, refusal = socket_limits.admit(self.scope, self.code)
            notice = _notice(refusal) if refusal is not None else ""
        if refusal is not None:
            await self.accept()
            await self.send(text_data=notice)
            # The notice is for the visitor; the reason (at most 123 bytes) for the tools.
            await self.close(code=CLOSE_TOO_MANY_SOCKETS, reason=self.said(TOO_MANY_PAGES))
            return

        # Join the room before reading its state, so that no version committed in between
        # can slip past this page: what the read already shows is then skipped as old.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        snapshot = await database_sync_to_async(Snapshot.load)(self.code)
        await self.accept()
        if snapshot is None:
            self.joined = False
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=CLOSE_UNKNOWN_GAME, reason=self.said(NO_GAME))
            return
        if snapshot.game.dice_hidden_from(self.viewer, snapshot.seats):
            # As its pages are: whoever is not seated would see everyone's dice early.
            self.joined = False
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=CLOSE_HIDDEN_DICE, reason=self.said(HIDDEN_DICE))
            return
        # A signed-in account's notices come on this socket too, not on a second one.
        await self.open_account_notices(self.language)
        await self.push_full(snapshot)  # and so records the page's presence

    def said(self, sentence: StrOrPromise) -> str:
        """``sentence`` in this socket's language."""
        with translation.override(self.language):
            return str(sentence)

    async def disconnect(self, code: int) -> None:
        self.gone = True
        await self.leave_room()
        await self.close_account_notices()

    async def leave_room(self) -> None:
        """Out of the room's group, its presence row gone, the others told. Once only."""
        if not self.joined:
            return
        self.joined = False
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None
        if self.resync is not None:
            self.resync.cancel()  # its read may still finish: update_presence ignores it
            self.resync = None
        self.pending.clear()
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        finally:
            await self.close_presence()
        pushes.request(self.code)

    async def close_presence(self) -> None:
        """Remove the page's presence row. A write that fails (a database busy or gone for
        a moment) is tried once more, then logged: the socket still ends cleanly."""
        for attempt in (1, 2):
            try:
                await database_sync_to_async(services.presence_close)(
                    channel_name=self.channel_name
                )
                return
            except DatabaseError as error:
                if attempt == 2:
                    logger.warning(
                        "the page %s of game %s could not leave its presence: %s",
                        self.channel_name,
                        self.code,
                        error,
                    )

    # -- from the page ------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        now = time.monotonic()
        rate, burst = settings.WS_MESSAGES_PER_SECOND, settings.WS_MESSAGE_BURST
        self.allowance = min(burst, self.allowance + (now - self.last_message) * rate)
        self.last_message = now
        if self.allowance < 1:
            await self.close(code=CLOSE_TOO_MANY_MESSAGES, reason=self.said(TOO_MANY_MESSAGES))
            return
        self.allowance -= 1
        try:
            message = json.loads(text_data or "")
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read
            message = None
        if isinstance(message, dict) and message.get("type") == "resync":
            snapshot = await database_sync_to_async(Snapshot.load)(self.code)
            if snapshot is not None:
                await self.push_full(snapshot)
            return
        with translation.override(self.language):
            html = _notice(gettext("Moves are made with the buttons on the page."))
        await self.send(text_data=html)

    # -- from the room's group ----------------------------------------------------
    async def game_changed(self, event: dict) -> None:
        version = event["version"]
        if version <= self.version or version in self.pending:
            return  # already shown: a duplicate or an old message
        self.pending[version] = committed.at(self.code, version) or snapshot_of(self.code, event)
        await self.flush_in_order()
        if self.pending and self.gap_timer is None:
            # A version is missing: wait a moment for it, then resynchronise.
            loop = asyncio.get_running_loop()
            self.gap_timer = loop.call_later(REORDER_WAIT_SECONDS, self.start_resync)

    async def flush_in_order(self) -> None:
        while self.version + 1 in self.pending:
            snapshot = self.pending.pop(self.version + 1)
            await self.push(snapshot)
        if not self.pending and self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    def start_resync(self) -> None:
        self.resync = asyncio.ensure_future(self.resync_after_gap())

    async def resync_after_gap(self) -> None:
        self.gap_timer = None
        if not self.pending:
            return
        snapshot = await database_sync_to_async(Snapshot.load)(self.code)
        self.pending.clear()
        if snapshot is not None and snapshot.game.version > self.version:
            await self.push_full(snapshot)

    async def presence_changed(self, event: dict) -> None:
        with translation.override(self.language):
            html = render_presence(PresenceView.from_wire(event["presence"]))
        await self.send(text_data=html)

    # -- pushing ------------------------------------------------------------------
    async def push(self, snapshot: Snapshot) -> None:
        self.version = snapshot.game.version
        with translation.override(self.language):
            html = rendering.live_message(snapshot, self.viewer)
        await self.send(text_data=html)
        seat = _seat_of(snapshot, self.viewer)
        if seat != self.seat or not self.present:  # new here, or sat down or left
            sat_down_or_left = self.present
            await self.update_presence(seat)
            if sat_down_or_left:  # the chat's controls are a seated person's
                await self.chat_setting({})

    async def push_full(self, snapshot: Snapshot) -> None:
        """The whole current state: on connect, on reconnect, and on request."""
        self.pending = {v: s for v, s in self.pending.items() if v > snapshot.game.version}
        await self.push(snapshot)
        await self.flush_in_order()

    async def update_presence(self, seat: int | None) -> None:
        """Record the page as open (at ``seat``); nothing once it has left the room, which
        a resync still under way when the socket closed may try."""
        if not self.joined:
            return
        self.seat, self.present = seat, True
        await database_sync_to_async(_open_presence)(self.code, self.channel_name, seat)
        pushes.request(self.code)


class NoGameConsumer(AsyncWebsocketConsumer):
    """A socket to a link whose code the site could not have made (games/live/routing.py):
    refused with ``CLOSE_UNKNOWN_GAME`` without touching the room or the database."""

    async def connect(self) -> None:
        await self.accept()
        with translation.override(languages.of_scope(self.scope)):
            reason = str(NO_GAME)
        await self.close(code=CLOSE_UNKNOWN_GAME, reason=reason)


def _open_presence(code: str, channel_name: str, seat: int | None) -> None:
    services.presence_open(
        server_id=services.presence.SERVER_ID, code=code, channel_name=channel_name, seat=seat
    )


def _notice(text: str) -> str:
    return render_to_string("games/room.html#notice", {"text": text})
