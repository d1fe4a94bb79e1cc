"""Persistence: a game's tables (the game, its seats, its move log), the choices a table is
opened with, accounts (profile, rating, practice, retired usernames), fair-play reviews, who
is connected, the people around a game (friends, blocks, invitations, the inbox), and the
daily game."""

from games.models.accounts import PracticeAnswer, PracticeRecord, Profile, Rating, RetiredUsername
from games.models.daily import DailyDay, DailyEntry, DailyReminder, day_start, ruleset_of
from games.models.fair_play import OFF_THE_LEADERBOARD, FairPlayReview
from games.models.options import BotLevel, DiceDraw, Pace, Ruleset
from games.models.play_now import QueueLock, Ticket, TicketPage, matching_key
from games.models.presence import Connection, LastSeen, LiveServer, SiteConnection
from games.models.social import (
    Block,
    FriendRequest,
    FriendRequestsFrom,
    Friendship,
    InboxItem,
    Invitation,
    InvitationsFrom,
    SocialSettings,
)
from games.models.tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ENDED_STATUSES,
    FORMER_PLAYER,
    Game,
    Move,
    Player,
    Seat,
    new_game_code,
    no_holds,
    seat_name,
)

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ENDED_STATUSES",
    "FORMER_PLAYER",
    "OFF_THE_LEADERBOARD",
    "Block",
    "BotLevel",
    "Connection",
    "DailyDay",
    "DailyEntry",
    "DailyReminder",
    "DiceDraw",
    "FairPlayReview",
    "FriendRequest",
    "FriendRequestsFrom",
    "Friendship",
    "Game",
    "InboxItem",
    "Invitation",
    "InvitationsFrom",
    "LastSeen",
    "LiveServer",
    "Move",
    "Pace",
    "Player",
    "PracticeAnswer",
    "PracticeRecord",
    "Profile",
    "QueueLock",
    "Rating",
    "RetiredUsername",
    "Ruleset",
    "Seat",
    "SiteConnection",
    "SocialSettings",
    "Ticket",
    "TicketPage",
    "day_start",
    "matching_key",
    "new_game_code",
    "no_holds",
    "ruleset_of",
    "seat_name",
]
