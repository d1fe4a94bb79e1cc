"""Away seats and the coach standing in: "I am back", handing a silent player's turn to the
coach, leaving a game in play (the host role passes on), and abandoning a table nobody
plays any more."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from games import engine
from games.clock import clock
from games.models import Connection, Game, Invitation, Move, Pace, Player, Seat
from games.services import tournament_scoring
from games.services.errors import GameError, NotAllowed
from games.services.invitations import invitations_end
from games.services.turn_clock import own_seat, playing_game, replan
from games.services.writes import as_it_stands
from games.snapshots import Snapshot

# A player on turn with no open page for this long may have their turn handed to the coach.
TAKEOVER_AFTER = timedelta(minutes=2)


@transaction.atomic
def seat_return(*, code: str, player: Player, version: int | None = None) -> Snapshot:
    """ "I'm back": an away player plays their own turns again, from the next decision.

    Whatever ``version`` the page had: the coach moves for an away seat every few seconds,
    and coming back changes nothing but the seat's own status, so a press is never stale
    (a second one changes nothing)."""
    game, seats, _state = playing_game(code, version, any_version=True)
    seat = own_seat(seats, player)
    if seat.status == Seat.Status.LEFT:
        raise GameError(_("You left this game; the coach plays your seat to the end."))
    if seat.status == Seat.Status.PLAYING:
        return as_it_stands(game, seats)  # back already: nothing to do twice
    seat.status = Seat.Status.PLAYING
    seat.save(update_fields=["status"])
    return replan(game, seats)


def _silent_since(game: Game, seat: Seat) -> datetime | None:
    """Since when the seat's player has had no open page of this game (None: open now)."""
    if Connection.objects.filter(game=game, seat=seat.position).exists():
        return None
    seen = Seat.objects.filter(pk=seat.pk).values_list("last_seen", flat=True).get()
    moments = [m for m in (seen, game.turn_started_at) if m is not None]
    return max(moments) if moments else clock.now()


@transaction.atomic
def turn_takeover(*, code: str, player: Player, version: int | None) -> Snapshot:
    """Anyone still at the table (playing, or away) hands the turn of a player who has gone
    silent to the coach."""
    game, seats, state = playing_game(code, version)
    if own_seat(seats, player).status == Seat.Status.LEFT:
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
    return replan(game, seats)


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


def abandon(game: Game, seats: list[Seat], *fields: str) -> Snapshot:
    """End the game as abandoned (the caller holds the lock; saved and announced here)."""
    game.status = Game.Status.ABANDONED
    game.finished_at = clock.now()
    invitations_end(game, Invitation.Ending.CLOSED)
    tournament_scoring.game_ended(game, seats)  # an arena's table: nobody earns, all are free
    return replan(game, seats, "status", "finished_at", *fields)


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
def game_leave_playing(*, game: Game, player: Player) -> Snapshot:
    """Leave a game in play (``game`` locked, its version checked): the coach plays the
    seat to the end and the final ranking places it below everyone who stayed."""
    seats = list(game.seats.order_by("position"))
    seat = own_seat(seats, player)
    if seat.status == Seat.Status.LEFT:
        raise GameError(_("You have already left this game."))
    return seat_leave_playing(game=game, seats=seats, seat=seat, hosts=player.hosts(game))


def seat_leave_playing(
    *, game: Game, seats: list[Seat], seat: Seat, hosts: bool, fields: tuple[str, ...] = ()
) -> Snapshot:
    """``seat`` leaves ``game`` in play (locked; ``seats`` in order): the coach plays it to
    the end, the host role passes on if ``hosts``; ``fields`` of the seat are saved too."""
    state = game.engine_state(seats)
    if seat.status != Seat.Status.LEFT:
        seat.status, seat.left_round = Seat.Status.LEFT, state.round
    seat.save(update_fields=["status", "left_round", *fields])
    if hosts:
        pass_host(game, seats, seat)
    if unattended(game, seats, state):
        return abandon(game, seats, "host_user", "host_guest")
    return replan(game, seats, "host_user", "host_guest")


@transaction.atomic
def coach_stands_in(*, code: str, version: int | None) -> tuple[Game, bool]:
    """Before the coach plays an away or left seat's turn: end the table as abandoned if
    nobody has played for a whole round. True when the coach may play on."""
    game, seats, state = playing_game(code, version)
    assert state.current_seat is not None  # a game in play has a seat on turn
    if not seats[state.current_seat].coach_plays:
        raise GameError(_("A person plays this turn."))
    if unattended(game, seats, state):
        abandon(game, seats)
        return game, False
    return game, True
