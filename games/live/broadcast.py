"""Push each committed change of a game to its room, over the channel layer.

``games/services/`` calls :func:`announce` (registered in ``GamesConfig.ready``) after
every commit with a snapshot of the new version; every consumer in the room renders
that snapshot for its own viewer. Nothing here decides anything about the game.

The server tells this module which event loop it serves on (:func:`serve_from`, at each
request). A change committed on another thread (a request's, the background jobs') is
handed to that loop to send, and the thread goes on at once (answering its request)
instead of waiting for the send: a move's push and its HTTP answer go out side by side.
Changes reach the loop in the order they were committed, and a page puts any versions
that arrive out of order back in order (``GameConsumer``). Without a running loop (a
command, a test without a server, a server stopping) :func:`announce` sends and waits.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer

from games.live import rendering
from games.snapshots import Snapshot

logger = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None
_sending: set[asyncio.Task[None]] = set()  # pushes under way (asyncio keeps weak references)


def group_name(code: str) -> str:
    return f"game-{code}"


def serve_from(loop: asyncio.AbstractEventLoop | None) -> None:
    """Send this process's pushes from ``loop`` (the one its requests and sockets run on);
    ``None``: send each on the thread that committed it, and wait."""
    global _server_loop
    _server_loop = loop


def announce(snapshot: Snapshot) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = group_name(snapshot.game.code)
    message = {
        "type": "game.changed",
        "version": snapshot.game.version,
        "snapshot": snapshot.to_wire(),
        # Rendered once here (and kept in this process's caches), not on every process.
        "boards": rendering.prerender(snapshot),
        "announcements": rendering.preannounce(snapshot),
    }
    send_to_group(layer, group, message)


def send_to_group(layer: BaseChannelLayer, group: str, message: dict) -> None:
    """Send ``message`` to ``group`` from the server's loop without waiting, in the order
    of the calls; with no loop running, send it here and wait."""
    loop = _server_loop
    if loop is not None and loop.is_running() and not _running_on(loop):
        try:
            loop.call_soon_threadsafe(_start_sending, layer, group, message)
            return
        except RuntimeError:  # the loop closed just now (the server is stopping)
            pass
    async_to_sync(layer.group_send)(group, message)


def _running_on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop runs on this thread
        return False


def _start_sending(layer: BaseChannelLayer, group: str, message: dict) -> None:
    """On the server's loop, in the order the changes were committed."""
    task = asyncio.get_running_loop().create_task(layer.group_send(group, message))
    _sending.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Task[None]) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        # The change is committed: pages that missed it catch up at their next push or
        # when they reconnect.
        logger.error("pushing a change to its room failed", exc_info=task.exception())
