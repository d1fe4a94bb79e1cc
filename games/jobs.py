"""This process's own timing: its heartbeat, and automatic work that nobody is doing.

One task per event loop, started by the first page that connects (:func:`ensure_running`).
Every ``PRESENCE_HEARTBEAT_SECONDS`` it marks this process alive, so that its open pages
count as present, and it :func:`sweep`\\ s: a computer player on turn or a finished game
awaiting its review that no process is working on (a restart, or a process that died,
left it pending) is handed to :mod:`games.autoplay`. Every automatic action names the
version it was chosen at, so two processes that find the same work act on it once: the
second is refused as stale and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid

from channels.db import database_sync_to_async
from django.conf import settings

from . import autoplay, services
from .models import Game
from .snapshots import Snapshot

logger = logging.getLogger(__name__)

SERVER_ID = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"


def pending_work() -> list[Snapshot]:
    """Games where the machine has to act: a computer player on turn, or a finished game
    with people at it and no review yet."""
    playing = Game.objects.filter(status=Game.Status.PLAYING, seats__bot__gt="").distinct()
    unreviewed = Game.objects.filter(
        status=Game.Status.FINISHED, review__isnull=True, seats__bot=""
    ).distinct()
    found = []
    for game in [*playing, *unreviewed]:
        snapshot = Snapshot.of(game)
        state = snapshot.state
        on_turn = state.current_seat if state is not None else None
        if game.status == Game.Status.FINISHED or (
            on_turn is not None and snapshot.seats[on_turn].bot
        ):
            found.append(snapshot)
    return found


def sweep() -> int:
    """Hand every piece of pending automatic work to the computer players; how many."""
    work = pending_work()
    for snapshot in work:
        autoplay.on_change(snapshot)
    return len(work)


def beat() -> None:
    """One tick of this process: alive, and nothing automatic left waiting."""
    services.server_heartbeat(SERVER_ID)
    sweep()


_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def ensure_running() -> None:
    """Start this event loop's periodic task, once (``PRESENCE_HEARTBEAT_SECONDS=0``: never,
    as in tests, which call :func:`beat` themselves)."""
    interval = settings.PRESENCE_HEARTBEAT_SECONDS
    loop = asyncio.get_running_loop()
    if not interval or loop in _tasks:
        return

    async def run() -> None:
        while True:
            try:
                await database_sync_to_async(beat)()
            except Exception:  # a passing database hiccup must not stop the heartbeat
                logger.exception("the process's periodic task failed")
            await asyncio.sleep(interval)

    _tasks[loop] = loop.create_task(run())
