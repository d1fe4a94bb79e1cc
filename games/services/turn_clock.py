"""The turn clock: when a turn began, when its clock runs out and when the machine next has
something to do at a table.

:func:`plan` is called by every write that changes a game in play (or ends it): it sets
when the turn began, when its clock runs out and when the machine next has something to
do there (``Game.due_at``), all from ``clock.now()``. The processes' sweep
(``games/jobs/``) finds due games and acts through the services, each naming the version
it was chosen at, so a late or repeated look is refused as stale. Away seats and the coach
standing in are in :mod:`games.services.absence`, e-mail bookkeeping in
:mod:`games.services.mail_marks`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games import engine
from games.clock import clock
from games.models import Game, Pace, Player, Seat
from games.services.errors import GameError, NotAllowed
from games.services.inbox import your_turn_noted
from games.services.push import turn_began
from games.services.writes import bump, check_version, locked_game
from games.snapshots import Snapshot

# A daily game's reminder goes this long before the clock runs out.
REMINDER_BEFORE = timedelta(hours=1)


def human_pace() -> timedelta:
    """How long a computer player, or the coach standing in, waits before each action."""
    return timedelta(seconds=settings.BOT_DELAY_SECONDS)


def plan(
    game: Game,
    seats: list[Seat],
    *,
    new_turn: bool,
    now: datetime | None = None,
    state: engine.GameState | None = None,
) -> None:
    """Set the turn's start, its deadline and the game's next due work (the caller saves
    ``turn_started_at``, ``turn_deadline`` and ``due_at``).

    ``state``: the engine's state of ``game`` and ``seats`` as they stand, when the caller
    has it at hand (a move has just worked it out); else it is read from them."""
    now = now or clock.now()
    if game.status != Game.Status.PLAYING:
        game.turn_deadline = None
        reviewing = game.status == Game.Status.FINISHED and game.review is None
        game.due_at = now if reviewing and any(not s.bot for s in seats) else None
        return
    if state is None:
        state = game.engine_state(seats)
    assert state.current_seat is not None  # a game in play has a seat on turn
    seat = seats[state.current_seat]
    if new_turn or game.turn_started_at is None:
        game.turn_started_at = now
    turn_time = Pace(game.pace).turn_time
    if new_turn:
        your_turn_noted(game, seat, state.turn_number)  # a slow table's inbox entry
        turn_began(game, seat, state.turn_number)  # "your turn" pushed to their devices
    if seat.bot or seat.coach_plays:
        game.turn_deadline = None
        game.due_at = now + human_pace()
        return
    if turn_time is None:
        game.turn_deadline = game.due_at = None
        return
    if new_turn or game.turn_deadline is None:
        game.turn_deadline = now + turn_time
    game.due_at = game.turn_deadline
    if game.pace == Pace.DAILY:
        if game.mailed_turn != state.turn_number:
            game.due_at = now
        elif game.reminded_turn != state.turn_number:
            game.due_at = min(game.turn_deadline, game.turn_deadline - REMINDER_BEFORE)


PLAN_FIELDS = ("turn_started_at", "turn_deadline", "due_at")


def replan(game: Game, seats: list[Seat], *fields: str, new_turn: bool = False) -> Snapshot:
    """Plan the game's timing and bump its version, saving ``fields`` too."""
    plan(game, seats, new_turn=new_turn)
    return bump(game, *PLAN_FIELDS, *fields)


def playing_game(
    code: str, version: int | None, *, any_version: bool = False
) -> tuple[Game, list[Seat], engine.GameState]:
    game = locked_game(code)
    if not any_version:
        check_version(game, version)
    if game.status != Game.Status.PLAYING:
        raise GameError(_("This game is not in play."))
    seats = list(game.seats.order_by("position"))
    return game, seats, game.engine_state(seats)


def own_seat(seats: list[Seat], player: Player) -> Seat:
    seat = next((s for s in seats if player.owns(s)), None)
    if seat is None:
        raise NotAllowed(_("You have no seat at this table."))
    return seat


@transaction.atomic
def turn_expire(*, code: str, version: int | None) -> Snapshot:
    """The clock of a person's turn ran out: their seat is away and the coach plays on.

    Done by the sweep when it finds the deadline passed, or by the person's own move when
    it arrives too late (:mod:`games.services.turns`); the version check lets only the
    first of the two happen."""
    game, seats, state = playing_game(code, version)
    assert state.current_seat is not None  # a game in play has a seat on turn
    seat = seats[state.current_seat]
    if seat.bot or seat.coach_plays:
        raise GameError(_("The coach is already playing this turn."))
    if game.turn_deadline is None or game.turn_deadline > clock.now():
        raise GameError(_("This turn still has time on its clock."))
    seat.status = Seat.Status.AWAY
    seat.save(update_fields=["status"])
    return replan(game, seats)


@transaction.atomic
def reschedule(*, code: str, version: int, after: timedelta | None = None) -> None:
    """Set when game ``code`` is next due, if it is still at ``version``: after ``after``
    (work that has to wait), else as planned from the game as it stands. No version bump."""
    game = Game.objects.select_for_update().filter(code=code, version=version).first()
    if game is None:
        return  # moved on: whoever moved planned what comes next
    if after is not None:
        game.due_at = clock.now() + after
    else:
        plan(game, list(game.seats.order_by("position")), new_turn=False)
    game.save(update_fields=list(PLAN_FIELDS))
