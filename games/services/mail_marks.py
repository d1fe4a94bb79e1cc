"""E-mail bookkeeping of daily games: which turn's "your turn" and reminder e-mails went."""

from __future__ import annotations

from django.db import transaction

from games.services.push import last_hour_began
from games.services.turn_clock import PLAN_FIELDS, plan
from games.services.writes import locked_game


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
    if field == "reminded_turn":  # "an hour left" pushed to the player's devices
        state = game.engine_state(seats)
        if state.current_seat is not None:
            last_hour_began(game, seats[state.current_seat], turn)
    plan(game, seats, new_turn=False)
    game.save(update_fields=[field, *PLAN_FIELDS])
    return True
