"""Computer players and the coach's review, driven by committed changes.

After every committed change (``services.on_game_changed``) this module looks at the
new version: if a computer player is on turn it plays one action, through the same
services people use, after a human pace of ``settings.BOT_DELAY_SECONDS``; if the game
just finished it writes the coach's review. Every action names the version it was
chosen at, so a duplicate (another process, a restart) is refused as stale and harmless.

A bot turn or a review left pending by a server restart is picked up again by the
process's periodic sweep (:mod:`games.jobs`).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections

from . import engine, services
from .models import BotLevel, Game, Move, Seat
from .services import GameError, Player
from .snapshots import Snapshot
from .strategy import advisor_if_ready
from .strategy.bots import choose_action
from .strategy.review import LoggedMove, review_game

logger = logging.getLogger(__name__)

WARMUP_RETRY_SECONDS = 2.0

Job = tuple[str, int, Callable[[str, int], None]]  # a game's code, its version, what to do
_scheduled: set[tuple[str, int]] = set()  # (code, version) with an action pending here
_lock = threading.Lock()
_local = threading.local()


def on_change(snapshot: Snapshot) -> None:
    """Listener for services: schedule whatever the machine has to do at this version."""
    game = snapshot.game
    if game.status == Game.Status.PLAYING:
        if game.coach_hints:  # the coach must be ready to hint: build its table if need be
            advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)
        seat = _seat_on_turn(snapshot)
        if seat is not None and seat.bot:
            schedule(game.code, game.version, bot_acts, settings.BOT_DELAY_SECONDS)
    elif game.status == Game.Status.FINISHED and game.review is None:
        schedule(game.code, game.version, _write_review, 0)


def _seat_on_turn(snapshot: Snapshot) -> Seat | None:
    position = snapshot.state.current_seat if snapshot.state else None
    return snapshot.seats[position] if position is not None else None


def schedule(code: str, version: int, job: Callable[[str, int], None], delay: float) -> None:
    with _lock:
        if (code, version) in _scheduled:
            return
        _scheduled.add((code, version))
    if delay <= 0:
        _run_now(code, version, job)
    else:
        timer = threading.Timer(delay, _run_in_thread, (code, version, job))
        timer.daemon = True
        timer.start()


def _run_now(code: str, version: int, job: Callable[[str, int], None]) -> None:
    """Run in this thread; a job that leads to another (a bot's next action) is queued
    rather than nested, so a whole game of bots does not grow the stack."""
    queue: deque[tuple[str, int, Callable[[str, int], None]]] | None = getattr(
        _local, "queue", None
    )
    if queue is not None:
        queue.append((code, version, job))
        return
    _local.queue = queue = deque([(code, version, job)])
    try:
        while queue:
            _run(*queue.popleft())
    finally:
        _local.queue = None


def _run_in_thread(code: str, version: int, job: Callable[[str, int], None]) -> None:
    close_old_connections()
    try:
        _run(code, version, job)
    finally:
        close_old_connections()


def _run(code: str, version: int, job: Callable[[str, int], None]) -> None:
    try:
        job(code, version)
    except GameError as error:  # someone else moved first: nothing to do
        logger.info("Automatic action on %s at v%s skipped: %s", code, version, error)
    except Exception:
        logger.exception("Automatic action on %s at v%s failed", code, version)
    finally:
        with _lock:
            _scheduled.discard((code, version))


def bot_acts(code: str, version: int) -> None:
    snapshot = Snapshot.load(code)
    if snapshot is None or snapshot.game.version != version:
        return
    game = snapshot.game
    seat = _seat_on_turn(snapshot) if game.status == Game.Status.PLAYING else None
    if seat is None or not seat.bot:
        return
    advisor = advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:  # the coach is warming up: look again shortly
        with _lock:
            _scheduled.discard((code, version))
        schedule(code, version, bot_acts, max(WARMUP_RETRY_SECONDS, settings.BOT_DELAY_SECONDS))
        return
    state = snapshot.state
    assert state is not None  # the game is in play
    action = choose_action(
        advisor, state, seat.position, services.dice.source, BotLevel(seat.bot).policy
    )
    bot = Player(seat.name, guest=seat.guest)
    if isinstance(action, engine.Roll):
        services.turn_roll(code=code, player=bot, version=version)
    elif isinstance(action, engine.Keep):
        services.turn_keep(code=code, player=bot, version=version, held=action.held)
    else:
        services.turn_score(code=code, player=bot, version=version, category=action.category)


def _write_review(code: str, version: int) -> None:
    game = Game.objects.filter(code=code).first()
    if game is None or game.status != Game.Status.FINISHED or game.review is not None:
        return
    advisor = advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:
        with _lock:
            _scheduled.discard((code, version))
        schedule(code, version, _write_review, WARMUP_RETRY_SECONDS)
        return
    seats = list(game.seats.order_by("position"))
    people = [seat.position for seat in seats if not seat.bot]
    moves = [
        LoggedMove(m.kind, m.seat, m.dice, m.held, m.category)
        for m in Move.objects.filter(game=game).order_by("version")
        if m.seat is not None
    ]
    reviews = review_game(advisor, game.rules, len(seats), moves, people)
    services.review_store(
        code=code,
        review={"seats": {str(p): r.to_dict() for p, r in reviews.items()}},
        mean_losses={p: r.mean_loss for p, r in reviews.items()},
    )
