"""Persistence: a game's tables (the game, its seats, its move log), the choices a table is
opened with, accounts (profile, rating, practice) and who is connected."""

from games.models.accounts import PracticeAnswer, PracticeRecord, Profile, Rating
from games.models.options import BotLevel, Pace
from games.models.presence import Connection, LiveServer
from games.models.tables import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ENDED_STATUSES,
    Game,
    Move,
    Player,
    Seat,
    new_game_code,
    no_holds,
)

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ENDED_STATUSES",
    "BotLevel",
    "Connection",
    "Game",
    "LiveServer",
    "Move",
    "Pace",
    "Player",
    "PracticeAnswer",
    "PracticeRecord",
    "Profile",
    "Rating",
    "Seat",
    "new_game_code",
    "no_holds",
]
