"""Every write to a game, one module per job. One transaction each: lock the game row (or
name the version in the write), check the version the action was made against, let the
engine decide, save, log the move, and announce the new version once it has committed.

* :mod:`.lobby`: opening a table, seats, computer players, the start, the rematch;
* :mod:`.player_names`: the names people sit down under, none two alike at a table;
* :mod:`.turns`: rolling, keeping, scoring;
* :mod:`.turn_clock`: when a turn began, when its clock runs out, the table's next due work;
* :mod:`.absence`: away seats, the coach standing in, leaving mid-game, abandoned tables;
* :mod:`.mail_marks`: which turn's e-mails of a daily game went;
* :mod:`.presence`: open pages (bookkeeping, no version); :mod:`.site_presence`: accounts'
  open pages of the site;
* :mod:`.presence`: open pages (bookkeeping, no version);
* :mod:`.play_now`: the "Play now" queue, its exactly-once match, the computer instead;
* :mod:`.review`: the coach's review of a finished game;
* :mod:`.ratings`: ratings moved by a rated game's end (casual games move none);
* :mod:`.leaving`: the pause from rated tables for an account that leaves them too often;
* :mod:`.fair_play`: the fair-play check after a rated game's review, a moderator's decision;
* :mod:`.practice`: a practice answer;
* :mod:`.accounts`: a guest's seats follow them into their account; the account's language;
  deleting an account;
* :mod:`.dice_supply`: where the dice come from (each game's fair stream, the same-dice
  draw of a seed several games share, or a test's);
* :mod:`.friends`: friend requests, friends, blocks, who may reach an account;
* :mod:`.invitations`: invitations to a table, ended when it starts or closes;
* :mod:`.inbox`: an account's inbox (its entries, read and dismissed) and its live notices;
* :mod:`.writes`: what they share (lock, version check, announcement);
* :mod:`.errors`: the refusals, sentences for the player and free of HTTP.
"""

from games.models import Player
from games.services.absence import coach_stands_in, seat_return, turn_takeover
from games.services.accounts import (
    account_delete,
    account_email_change,
    account_language_set,
    guest_seats_claim,
)
from games.services.errors import (
    STALE,
    GameError,
    GameNotFound,
    NotAllowed,
    OutOfTime,
    StaleAction,
)
from games.services.friends import (
    PersonNotFound,
    friend_accept,
    friend_cancel,
    friend_decline,
    friend_remove,
    friend_request,
    social_settings_set,
    user_block,
    user_unblock,
)
from games.services.inbox import InboxNotice, inbox_dismiss, inbox_mark_read, on_inbox_changed
from games.services.invitations import invitation_send, invitations_send
from games.services.lobby import (
    game_add_bot,
    game_create,
    game_join,
    game_leave,
    game_rematch,
    game_remove_bot,
    game_start,
    seat_set_client_seed,
)
from games.services.mail_marks import mail_marked
from games.services.player_names import MAX_NAME, clean_name
from games.services.practice import practice_answer
from games.services.presence import presence_close, presence_open, server_heartbeat
from games.services.review import review_store
from games.services.site_presence import site_presence_close, site_presence_open
from games.services.turn_clock import reschedule, turn_expire
from games.services.turns import turn_coach, turn_keep, turn_roll, turn_score
from games.services.writes import on_game_changed

__all__ = [
    "MAX_NAME",
    "STALE",
    "GameError",
    "GameNotFound",
    "InboxNotice",
    "NotAllowed",
    "OutOfTime",
    "PersonNotFound",
    "Player",
    "StaleAction",
    "account_delete",
    "account_email_change",
    "account_language_set",
    "clean_name",
    "coach_stands_in",
    "friend_accept",
    "friend_cancel",
    "friend_decline",
    "friend_remove",
    "friend_request",
    "game_add_bot",
    "game_create",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_remove_bot",
    "game_start",
    "guest_seats_claim",
    "inbox_dismiss",
    "inbox_mark_read",
    "invitation_send",
    "invitations_send",
    "mail_marked",
    "on_game_changed",
    "on_inbox_changed",
    "practice_answer",
    "presence_close",
    "presence_open",
    "reschedule",
    "review_store",
    "seat_return",
    "seat_set_client_seed",
    "server_heartbeat",
    "site_presence_close",
    "site_presence_open",
    "social_settings_set",
    "turn_coach",
    "turn_expire",
    "turn_keep",
    "turn_roll",
    "turn_score",
    "turn_takeover",
    "user_block",
    "user_unblock",
]
