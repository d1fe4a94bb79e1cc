"""Presence pushes, coalesced: at most one per room per ``PRESENCE_PUSH_SECONDS`` from each
process, carrying the counts as they stand when it goes out.

Every page that opens or closes changes who is present, and each change used to be pushed
to every page of the room: a crowd of n pages arriving cost n² messages. Now a change
asks for a push (:meth:`PresencePushes.request`); the first goes out at once, and every
request made while the room's push task waits out its interval is folded into one
more push at the end of it. Nothing is lost: the push reads the presence afresh.

Owned by the event loop that asks (one task per room while changes keep coming, none
once they stop). Tests replace :attr:`PresencePushes.sleep` to let the interval pass
without waiting for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games import selectors
from games.live.broadcast import group_name

logger = logging.getLogger(__name__)


async def push_presence(code: str) -> None:
    """Send the room's current presence to every page of it, on every process."""
    layer = get_channel_layer()
    if layer is None:
        return
    presence = await database_sync_to_async(selectors.presence_view)(code)
    await layer.group_send(
        group_name(code), {"type": "presence.changed", "presence": presence.to_wire()}
    )


class PresencePushes:
    def __init__(self) -> None:
        self.sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
        self._due: set[tuple[asyncio.AbstractEventLoop, str]] = set()
        self._tasks: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task[None]] = {}

    def request(self, code: str) -> None:
        """The presence of room ``code`` changed: push it now, or at the end of the
        interval if a push went out less than ``PRESENCE_PUSH_SECONDS`` ago."""
        key = (asyncio.get_running_loop(), code)
        self._due.add(key)
        if key not in self._tasks:
            self._tasks[key] = key[0].create_task(self._run(key))

    async def finished(self, timeout: float = 1.0) -> None:
        """Wait (at most ``timeout`` seconds) for this loop's pushes under way, then stop any
        still waiting for their interval: a test ends with none reading the database."""
        loop = asyncio.get_running_loop()
        running = [task for (on, _), task in self._tasks.items() if on is loop]
        if not running:
            return
        _, late = await asyncio.wait(running, timeout=timeout)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)

    def waiting(self, code: str) -> bool:
        """Whether a push of room ``code`` is due and not yet sent (for tests)."""
        return (asyncio.get_running_loop(), code) in self._due

    async def _run(self, key: tuple[asyncio.AbstractEventLoop, str]) -> None:
        try:
            while key in self._due:
                self._due.discard(key)
                try:
                    await push_presence(key[1])
                except Exception:  # one failed push must not stop the room's later ones
                    logger.exception("presence push to room %s failed", key[1])
                await self.sleep(settings.PRESENCE_PUSH_SECONDS)
        finally:
            self._tasks.pop(key, None)
            self._due.discard(key)


pushes = PresencePushes()


def push_presence_now(code: str) -> None:
    """:func:`push_presence` from synchronous code (the heartbeat of the background work)."""
    async_to_sync(push_presence)(code)
