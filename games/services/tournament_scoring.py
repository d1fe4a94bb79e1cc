"""An arena tournament's game ended: each player's points, written exactly once.

Called by the game's services in the transaction that ends a game (``turns._play`` when
the last box is filled, ``absence.abandon`` when a table is abandoned). A game that is no
tournament's costs one query. The tournament's row is locked first, and the unique
``Result`` row per (tournament, game, player) makes a second call change nothing.

Points: at a table of n, place k earns n - k. Shared places share the best place: two
players tied for first at a table of three both earn 3 - 1 = 2. A win (place 1) after two
wins in a row counts double, until a game that is not a win ends the streak. An abandoned
table earns nobody anything. A player who made no move of their own in the whole game
(away throughout) is withdrawn from the tournament.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction

from games.clock import clock
from games.models import Entry, Game, Move, Result, Seat, Tournament, TournamentTable

logger = logging.getLogger(__name__)

# Told a tournament's id once a change to its standings has committed; the live side
# (games/live/tournaments.py) hooks in from GamesConfig.ready.
listeners: list[Callable[[int], None]] = []

# Run (tournament id) after a game of it ended and that has committed: the pairing of
# whoever is free now, and the end of the tournament. games/services/tournaments.py adds it.
after_game: list[Callable[[int], None]] = []


def on_standings_changed(listener: Callable[[int], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def tell(tournament_id: int) -> None:
    """Tell the listeners once this transaction commits."""

    def send() -> None:
        for listener in list(listeners):
            listener(tournament_id)

    if listeners:
        transaction.on_commit(send)


def points_for(*, place: int | None, players: int, streak: int) -> tuple[int, bool]:
    """What place ``place`` at a table of ``players`` earns, on a streak of ``streak`` wins
    before it: (points, doubled)."""
    if place is None:
        return 0, False
    points = max(players - place, 0)
    doubled = place == 1 and streak >= 2
    return (points * 2 if doubled else points), doubled


def _played(game: Game) -> set[int]:
    """The seats that made at least one move of their own in ``game``."""
    moves = Move.objects.filter(game=game, by_coach=False).exclude(kind=Move.Kind.START)
    return {seat for seat in moves.values_list("seat", flat=True).distinct() if seat is not None}


def game_ended(game: Game, seats: list[Seat]) -> None:
    """``game`` has just finished or been abandoned (in the caller's transaction)."""
    table = TournamentTable.objects.filter(game_id=game.pk, scored=False).first()
    if table is None:
        return
    tournament = Tournament.objects.select_for_update().get(pk=table.tournament_id)
    now = clock.now()
    finished = game.status == Game.Status.FINISHED
    played = _played(game)
    accounts = [seat.user_id for seat in seats if seat.user_id]
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament, user__in=accounts)}
    running = tournament.status_at(now) == Tournament.Status.RUNNING
    for seat in seats:
        entry = entries.get(seat.user_id) if seat.user_id else None
        if entry is None:
            continue
        place = seat.place if finished else None
        points, doubled = points_for(place=place, players=len(seats), streak=entry.streak)
        _, made = Result.objects.get_or_create(
            tournament=tournament,
            game=game,
            user_id=entry.user_id,
            defaults={"place": place, "points": points, "doubled": doubled},
        )
        if not made:  # scored already
            continue
        entry.points += points
        entry.games += 1
        entry.streak = entry.streak + 1 if place == 1 else 0
        entry.last_opponents = [user for user in accounts if user != entry.user_id]
        if seat.position not in played:
            entry.withdrawn = True  # away for the whole game
        entry.waiting_since = now if running and not entry.withdrawn else None
        entry.save()
    table.scored = True
    table.save(update_fields=["scored"])
    tell(tournament.pk)
    transaction.on_commit(lambda: _after(tournament.pk))


def _after(tournament_id: int) -> None:
    for follow in list(after_game):
        try:
            follow(tournament_id)
        except Exception:  # the move has committed; the sweep pairs them later
            logger.exception("Pairing after a game of tournament %s failed", tournament_id)
