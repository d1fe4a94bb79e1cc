"""Durable timing: this process's heartbeat, and the automatic work found in the database.

Whatever the machine has to do in a game (a computer player's or the coach's move at a
human pace, a turn whose clock ran out, a daily game's e-mail, the review of a finished
game) is stored as ``Game.due_at`` by the services that change the game. Every process
runs one background thread (:func:`ensure_running`) that, every ``JOBS_TICK_SECONDS``,
:func:`sweep`\\ s: it **claims** the due games in one short transaction (rows locked with
``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two processes take different
games; SQLite's immediate write lock serialises the claim) by moving their ``due_at`` a
lease (``LEASE``) ahead, then acts on each through :func:`games.jobs.autoplay.act`. Every
action names the version the game was claimed at, so two processes, a restart or a late
look act once: a duplicate is refused as stale and changes nothing. A process killed
with -9 mid-work leaves its claimed games due again when the lease ends; one killed
before the deadline leaves them due as they were: the next process to look acts.

Every ``PRESENCE_HEARTBEAT_SECONDS`` the same thread also marks this process alive, so
that its open pages count as present, and drops the pages of processes that died
(:func:`beat`).

With ``BOT_DELAY_SECONDS=0`` (the tests) there is no waiting: work that is due at once is
done on the thread that committed the change (:func:`on_change`), one piece after the
other rather than nested, so a whole game of computer players does not grow the stack.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, connection, transaction

from games import services
from games.clock import clock
from games.jobs import autoplay, pushes
from games.models import Game
from games.services import GameError
from games.services.daily import daily_reminders_send
from games.services.play_now import play_queue_sweep
from games.services.tournaments import tournaments_sweep
from games.snapshots import Snapshot

logger = logging.getLogger(__name__)

SERVER_ID = services.presence.SERVER_ID

# Told the code of each game whose pages a dead process left behind, once they are
# forgotten; the live layer (games/live/presence_pushes.py) hooks in here, in
# GamesConfig.ready, so background work knows nothing of websockets.
presence_listeners: list[Callable[[str], None]] = []


def on_presence_lost(listener: Callable[[str], None]) -> None:
    if listener not in presence_listeners:
        presence_listeners.append(listener)


# How long a claimed game stays with the process that claimed it before it is due again.
LEASE = timedelta(seconds=60)
CLAIMED_PER_SWEEP = 50


def claim(now: datetime, code: str | None = None, limit: int = CLAIMED_PER_SWEEP):
    """The due games (``code``: only that one) as (code, version), each now leased to
    this process: no other process finds it due until the lease runs out.

    A plain read looks first: most looks find nothing due, and on SQLite the claim's
    transaction takes the database's one write lock, which every move also needs."""
    due = Game.objects.filter(due_at__lte=now).order_by("due_at")
    if code is not None:
        due = due.filter(code=code)
    if not due.exists():
        return []
    with transaction.atomic():
        if connection.features.has_select_for_update_skip_locked:
            due = due.select_for_update(skip_locked=True)
        rows = list(due.values_list("pk", "code", "version")[:limit])
        if rows:
            Game.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(due_at=now + LEASE)
    return [(found, version) for _, found, version in rows]


def run(code: str, version: int) -> None:
    """Do the work due in one claimed game, then plan its next due moment."""
    try:
        retry = autoplay.act(code, version)
    except GameError as error:  # someone else moved first: their change planned the next
        logger.info("Automatic work on %s at v%s skipped: %s", code, version, error)
        retry = None
    except Exception:  # left leased: tried again when the lease runs out
        logger.exception("Automatic work on %s at v%s failed", code, version)
        return
    services.reschedule(code=code, version=version, after=retry)


def sweep(now: datetime | None = None) -> int:
    """Claim every game due by ``now`` and act on it; how many were found."""
    work = claim(now or clock.now())
    for code, version in work:
        run(code, version)
    return len(work)


_local = threading.local()


def on_change(snapshot: Snapshot) -> None:
    """Listener for services: a change may make work due; look now or soon."""
    autoplay.warm_up(snapshot)
    if settings.BOT_DELAY_SECONDS > 0:
        due = snapshot.game.due_at  # as the committing process planned it
        if due is not None and due <= clock.now() + timedelta(seconds=settings.JOBS_TICK_SECONDS):
            _wake.set()  # due before the next tick: the background thread looks at once
        return
    due = snapshot.game.due_at  # as the committing process planned it
    if due is None or due > clock.now():
        return
    queue: deque[str] | None = getattr(_local, "queue", None)
    if queue is not None:
        queue.append(snapshot.game.code)
        return
    _local.queue = queue = deque([snapshot.game.code])
    try:
        while queue:
            for code, version in claim(clock.now(), code=queue.popleft()):
                run(code, version)
    finally:
        _local.queue = None


def beat() -> None:
    """One heartbeat of this process, the one its background thread beats: marked alive,
    and when another process is found dead, its pages dropped and their rooms shown who
    is really there; then the "Play now" queue swept and the daily game's reminders sent."""
    for code in services.server_heartbeat(SERVER_ID):
        for listener in list(presence_listeners):
            listener(code)
    # "Play now": tickets whose pages all went (with a dead process too) leave the queue,
    # and any queue that can be matched is.
    play_queue_sweep()
    # The daily game: the accounts that asked are reminded, once a day, if not played.
    daily_reminders_send()
    # Arena tournaments: whoever waits is paired, and those whose clock ran out end.
    tournaments_sweep()


_wake = threading.Event()
_started = threading.Lock()
_thread: threading.Thread | None = None


def _run_forever(heartbeat: float, tick: float) -> None:
    last_beat = float("-inf")
    while True:
        try:
            if time.monotonic() - last_beat >= heartbeat:
                beat()
                last_beat = time.monotonic()
            while sweep() >= CLAIMED_PER_SWEEP:
                pass
            while pushes.sweep() >= CLAIMED_PER_SWEEP:  # notifications due (Web Push)
                pass
        except Exception:  # a passing database hiccup must not stop the heartbeat
            logger.exception("the process's periodic task failed")
            close_old_connections()
        _wake.wait(tick)
        _wake.clear()


def ensure_running() -> None:
    """Start this process's background thread, once (``PRESENCE_HEARTBEAT_SECONDS=0``:
    never, as in tests, which call :func:`sweep` and :func:`beat` themselves, the same
    functions the thread calls). Called when the ASGI application is loaded, and again by
    each request and socket."""
    global _thread
    heartbeat = settings.PRESENCE_HEARTBEAT_SECONDS
    if not heartbeat or _thread is not None:
        return
    with _started:
        if _thread is None:
            _thread = threading.Thread(
                target=_run_forever,
                args=(heartbeat, settings.JOBS_TICK_SECONDS),
                name="games.jobs",
                daemon=True,
            )
            _thread.start()
