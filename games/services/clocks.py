"""Writes that keep a table moving: the turn clock, away seats, the coach standing in,
handing a silent player's turn to the coach, and abandoning a table nobody plays.

:func:`plan` is called by every write that changes a game in play (or ends it): it sets
when the turn began, when its clock runs out and when the machine next has something to
do there (``Game.due_at``), all from ``clock.now()``. The processes' sweep
(``games/jobs.py``) finds due games and acts through the services below, each naming the
version it was chosen at, so a late or repeated look is refused as stale.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from .. import engine
from ..clock import clock
from ..models import Connection, Game, Move, Pace, Player, Seat
from .errors import GameError, NotAllowed
from .writes import bump, check_version, locked_game

# A player on turn with no open page for this long may have their turn handed to the coach.
TAKEOVER_AFTER = timedelta(minutes=2)
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


def replan(game: Game, seats: list[Seat], *fields: str, new_turn: bool = False) -> None:
    """Plan the game's timing and bump its version, saving ``fields`` too."""
    plan(game, seats, new_turn=new_turn)
    bump(game, *PLAN_FIELDS, *fields)


def _playing_game(
    code: str, version: int | None, *, any_version: bool = False
) -> tuple[Game, list[Seat], engine.GameState]:
    game = locked_game(code)
    if not any_version:
        check_version(game, version)
    if game.status != Game.Status.PLAYING:
        raise GameError(_("This game is not in play."))
    seats = list(game.seats.order_by("position"))
    return game, seats, game.engine_state(seats)


def _own_seat(seats: list[Seat], player: Player) -> Seat:
    seat = next((s for s in seats if player.owns(s)), None)
    if seat is None:
        raise NotAllowed(_("You have no seat at this table."))
    return seat


@transaction.atomic
def turn_expire(*, code: str, version: int | None) -> Game:
    """The clock of a person's turn ran out: their seat is away and the coach plays on."""
    game, seats, state = _playing_game(code, version)
    assert state.current_seat is not None  # a game in play has a seat on turn
    seat = seats[state.current_seat]
    if seat.bot or seat.coach_plays:
        raise GameError(_("The coach is already playing this turn."))
    if game.turn_deadline is None or game.turn_deadline > clock.now():
        raise GameError(_("This turn still has time on its clock."))
    seat.status = Seat.Status.AWAY
    seat.save(update_fields=["status"])
    replan(game, seats)
    return game


@transaction.atomic
def seat_return(*, code: str, player: Player, version: int | None = None) -> Game:
    """ "I'm back": an away player plays their own turns again, from the next decision.

    Whatever ``version`` the page had: the coach moves for an away seat every few seconds,
    and coming back changes nothing but the seat's own status, so a press is never stale
    (a second one changes nothing)."""
    game, seats, _state = _playing_game(code, version, any_version=True)
    seat = _own_seat(seats, player)
    if seat.status == Seat.Status.LEFT:
        raise GameError(_("You left this game; the coach plays your seat to the end."))
    if seat.status == Seat.Status.PLAYING:
        return game  # back already: nothing to do twice
    seat.status = Seat.Status.PLAYING
    seat.save(update_fields=["status"])
    replan(game, seats)
    return game


def _silent_since(game: Game, seat: Seat) -> datetime | None:
    """Since when the seat's player has had no open page of this game (None: open now)."""
    if Connection.objects.filter(game=game, seat=seat.position).exists():
        return None
    seen = Seat.objects.filter(pk=seat.pk).values_list("last_seen", flat=True).get()
    moments = [m for m in (seen, game.turn_started_at) if m is not None]
    return max(moments) if moments else clock.now()


@transaction.atomic
def turn_takeover(*, code: str, player: Player, version: int | None) -> Game:
    """Anyone still at the table (playing, or away) hands the turn of a player who has gone
    silent to the coach."""
    game, seats, state = _playing_game(code, version)
    if _own_seat(seats, player).status == Seat.Status.LEFT:
        raise NotAllowed(_("You left this game; the coach plays your seat to the end."))
    assert state.current_seat is not None  # a game in play has a seat on turn
    seat = seats[state.current_seat]
    if seat.bot or seat.coach_plays:
        raise GameError(_("The coach is already playing this turn."))
    if Pace(game.pace).turn_time is not None:
        raise GameError(_("This table has a clock: the coach steps in when it runs out."))
    since = _silent_since(game, seat)
    if since is None or clock.now() - since < TAKEOVER_AFTER:
        raise GameError(
            _("%(name)s was at the table in the last two minutes; give them a little longer.")
            % {"name": seat.display_name}
        )
    seat.status = Seat.Status.AWAY
    seat.save(update_fields=["status"])
    replan(game, seats)
    return game


def unattended(game: Game, seats: list[Seat], state: engine.GameState) -> bool:
    """Every person at the table has left, or is away and has not played for a whole
    round: the table ends as abandoned rather than play on for nobody."""
    people = [s for s in seats if not s.bot]
    if any(s.status == Seat.Status.PLAYING for s in people):
        return False
    if all(s.status == Seat.Status.LEFT for s in people):
        return True
    last = (
        Move.objects.filter(game=game, by_coach=False, seat__in=[s.position for s in people])
        .exclude(kind=Move.Kind.START)
        .order_by("-version")
        .values_list("turn_number", flat=True)
        .first()
    )
    return state.turn_number - (last + 1 if last is not None else 0) >= len(seats)


def abandon(game: Game, seats: list[Seat], *fields: str) -> None:
    """End the game as abandoned (the caller holds the lock; saved and announced here)."""
    game.status = Game.Status.ABANDONED
    game.finished_at = clock.now()
    replan(game, seats, "status", "finished_at", *fields)


def pass_host(game: Game, seats: list[Seat], leaving: Seat) -> None:
    """The host role goes to the next person round the table who has not left."""
    n = len(seats)
    for step in range(1, n):
        other = seats[(leaving.position + step) % n]
        if not other.bot and other.status != Seat.Status.LEFT:
            game.host_user_id = other.user_id
            game.host_guest = "" if other.user_id else other.guest
            return


@transaction.atomic
def game_leave_playing(*, game: Game, player: Player) -> Game:
    """Leave a game in play (``game`` locked, its version checked): the coach plays the
    seat to the end and the final ranking places it below everyone who stayed."""
    seats = list(game.seats.order_by("position"))
    seat = _own_seat(seats, player)
    if seat.status == Seat.Status.LEFT:
        raise GameError(_("You have already left this game."))
    state = game.engine_state(seats)
    seat.status, seat.left_round = Seat.Status.LEFT, state.round
    seat.save(update_fields=["status", "left_round"])
    if player.hosts(game):
        pass_host(game, seats, seat)
    if unattended(game, seats, state):
        abandon(game, seats, "host_user", "host_guest")
        return game
    replan(game, seats, "host_user", "host_guest")
    return game


@transaction.atomic
def coach_stands_in(*, code: str, version: int | None) -> tuple[Game, bool]:
    """Before the coach plays an away or left seat's turn: end the table as abandoned if
    nobody has played for a whole round. True when the coach may play on."""
    game, seats, state = _playing_game(code, version)
    assert state.current_seat is not None  # a game in play has a seat on turn
    if not seats[state.current_seat].coach_plays:
        raise GameError(_("A person plays this turn."))
    if unattended(game, seats, state):
        abandon(game, seats)
        return game, False
    return game, True


@transaction.atomic
def mail_marked(*, code: str, version: int, field: str, turn: int) -> bool:
    """Note that a daily game's e-mail of ``turn`` went (``mailed_turn`` or
    ``reminded_turn``); False if it was noted already or the game moved on. Scheduling, not
    game state: no version bump."""
    game = locked_game(code)
    if game.version != version or getattr(game, field) == turn:
        return False
    setattr(game, field, turn)
    seats = list(game.seats.order_by("position"))
    plan(game, seats, new_turn=False)
    game.save(update_fields=[field, *PLAN_FIELDS])
    return True


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
