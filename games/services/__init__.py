"""Every write to a game, one module per job. One transaction each: lock the game row (or
name the version in the write), check the version the action was made against, let the
engine decide, save, log the move, and announce the new version once it has committed.

* :mod:`.lobby`: opening a table, seats, computer players, the start, the rematch;
* :mod:`.turns`: rolling, keeping, scoring;
* :mod:`.presence`: open pages (bookkeeping, no version);
* :mod:`.reviews`: the coach's review of a finished game;
* :mod:`.clocks`: the turn clock, away seats, the coach standing in, leaving mid-game;
* :mod:`.accounts`: a guest's seats follow them into their account; the account's language;
* :mod:`.writes`: what they share (dice, lock, version check, announcement);
* :mod:`.errors`: the refusals, sentences for the player and free of HTTP.
"""

from ..models import Player
from .accounts import account_email_change, account_language_set, guest_seats_claim
from .clocks import (
    coach_stands_in,
    mail_marked,
    reschedule,
    seat_return,
    turn_expire,
    turn_takeover,
)
from .errors import STALE, GameError, GameNotFound, NotAllowed, StaleAction
from .lobby import (
    MAX_NAME,
    clean_name,
    game_add_bot,
    game_create,
    game_join,
    game_leave,
    game_rematch,
    game_remove_bot,
    game_start,
    seat_set_client_seed,
)
from .practice import practice_answer
from .presence import presence_close, presence_open, server_heartbeat
from .reviews import review_store
from .turns import turn_coach, turn_keep, turn_roll, turn_score
from .writes import dice, on_game_changed

__all__ = [
    "MAX_NAME",
    "STALE",
    "GameError",
    "GameNotFound",
    "NotAllowed",
    "Player",
    "StaleAction",
    "account_email_change",
    "account_language_set",
    "clean_name",
    "coach_stands_in",
    "dice",
    "game_add_bot",
    "game_create",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_remove_bot",
    "game_start",
    "guest_seats_claim",
    "mail_marked",
    "on_game_changed",
    "practice_answer",
    "presence_close",
    "presence_open",
    "reschedule",
    "review_store",
    "seat_return",
    "seat_set_client_seed",
    "server_heartbeat",
    "turn_coach",
    "turn_expire",
    "turn_keep",
    "turn_roll",
    "turn_score",
    "turn_takeover",
]
