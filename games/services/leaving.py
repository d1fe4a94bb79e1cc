"""Leaving rated games: an account that left (or was away to the end of) ``RATED_LEAVES`` of
its last 10 rated games may not sit down at a rated table for ``RATED_LEAVE_PAUSE`` after
the end of the last of those games. Casual tables stay open to it.

A game counts once it is over (finished, or abandoned): until then the coach plays the
seat and the player may still come back from "away"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import ngettext

from games.clock import clock
from games.models import Game, Player, Seat
from games.services.errors import NotAllowed

RECENT_RATED_GAMES = 10
LEFT_OR_AWAY = (Seat.Status.LEFT, Seat.Status.AWAY)


@dataclass(frozen=True)
class RatedPause:
    """An account's pause from rated tables: how many of its recent rated games it left,
    and until when it may not sit down at a rated table."""

    left: int
    until: datetime


def rated_pause(user_id: int, now: datetime | None = None) -> RatedPause | None:
    """The account's pause from rated tables, if one runs at ``now``."""
    if settings.RATED_LEAVES <= 0:
        return None
    recent = (
        Seat.objects.filter(
            user_id=user_id,
            game__rated=True,
            game__status__in=(Game.Status.FINISHED, Game.Status.ABANDONED),
            game__finished_at__isnull=False,
        )
        .order_by("-game__finished_at")
        .values_list("status", "game__finished_at")[:RECENT_RATED_GAMES]
    )
    left = [ended for status, ended in recent if status in LEFT_OR_AWAY and ended is not None]
    if len(left) < settings.RATED_LEAVES:
        return None
    until = left[0] + settings.RATED_LEAVE_PAUSE
    return RatedPause(len(left), until) if until > (now or clock.now()) else None


def pause_sentence(pause: RatedPause, name: str | None = None) -> str:
    """Why and until when, in the active language."""
    moment = timezone.localtime(pause.until)
    until = f"{formats.date_format(moment, 'DATETIME_FORMAT')} {moment.tzname()}"
    figures = {"left": pause.left, "games": RECENT_RATED_GAMES, "until": until, "name": name}
    if name is not None:
        return (
            ngettext(
                "%(name)s left %(left)d of their last %(games)d rated games and may not play a "
                "rated game until %(until)s. Make the table casual, or play without them.",
                "%(name)s left %(left)d of their last %(games)d rated games and may not play a "
                "rated game until %(until)s. Make the table casual, or play without them.",
                pause.left,
            )
            % figures
        )
    return (
        ngettext(
            "You left %(left)d of your last %(games)d rated games, so you may not sit down at "
            "a rated table until %(until)s. Casual tables are open to you.",
            "You left %(left)d of your last %(games)d rated games, so you may not sit down at "
            "a rated table until %(until)s. Casual tables are open to you.",
            pause.left,
        )
        % figures
    )


def check_may_sit_rated(player: Player) -> None:
    """Refuse ``player`` a seat at a rated table while their pause runs (guests are never
    rated: they are not counted)."""
    if player.user_id is None:
        return
    pause = rated_pause(player.user_id)
    if pause is not None:
        raise NotAllowed(pause_sentence(pause))


def may_sit_rated(player: Player) -> bool:
    """Whether ``player`` may sit down at a rated table now (guests are never rated: they
    are not counted)."""
    return player.user_id is None or rated_pause(player.user_id) is None


def check_seats_may_play_rated(seats: Iterable[Seat]) -> None:
    """At the start of a rated game (a rematch seats everyone at once): refuse it while one
    of the seated accounts is paused."""
    for seat in seats:
        if seat.user_id and not seat.bot:
            pause = rated_pause(seat.user_id)
            if pause is not None:
                raise NotAllowed(pause_sentence(pause, seat.display_name))
