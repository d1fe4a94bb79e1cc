"""Looking at a table on the clock: a seat, and whose turn it is (tests of the turn clock,
away seats, the jobs and the home page)."""

from __future__ import annotations

from games.models import Game, Seat


def seat_of(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def on_turn(game: Game) -> int:
    game.refresh_from_db()
    return game.engine_state(list(game.seats.order_by("position"))).current_seat
