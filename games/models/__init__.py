"""Persistence: a game's tables (the game, its seats, its move log), the choices a table is
opened with, accounts (profile, rating, practice, retired usernames), fair-play reviews and
who is connected."""

from games.models.accounts import PracticeAnswer, PracticeRecord, Profile, Rating, RetiredUsername
from games.models.fair_play import OFF_THE_LEADERBOARD, FairPlayReview
from games.models.options import BotLevel, Pace, Ruleset
from games.models.presence import Connection, LiveServer
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
    "BotLevel",
    "Connection",
    "FairPlayReview",
    "Game",
    "LiveServer",
    "Move",
    "Pace",
    "Player",
    "PracticeAnswer",
    "PracticeRecord",
    "Profile",
    "Rating",
    "RetiredUsername",
    "Ruleset",
    "Seat",
    "new_game_code",
    "no_holds",
    "seat_name",
]
