"""Persistence: a game's tables (the game, its seats, its move log), the choices a table is
opened with, accounts (profile, rating, practice, retired usernames), fair-play reviews, who
is connected, and the people around a game (friends, blocks, invitations, the inbox)."""

from games.models.accounts import PracticeAnswer, PracticeRecord, Profile, Rating, RetiredUsername
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
from games.models.tournaments import Entry, Result, Tournament, TournamentTable

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ENDED_STATUSES",
    "FORMER_PLAYER",
    "OFF_THE_LEADERBOARD",
    "Block",
    "BotLevel",
    "Connection",
    "DiceDraw",
    "Entry",
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
    "Result",
    "RetiredUsername",
    "Ruleset",
    "Seat",
    "SiteConnection",
    "SocialSettings",
    "Ticket",
    "TicketPage",
    "Tournament",
    "TournamentTable",
    "matching_key",
    "new_game_code",
    "no_holds",
    "seat_name",
]
