"""E-mail bookkeeping of daily games: which turn's "your turn" and reminder e-mails went."""

from __future__ import annotations

from django.db import transaction

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
    plan(game, seats, new_turn=False)
    game.save(update_fields=[field, *PLAN_FIELDS])
    return True
