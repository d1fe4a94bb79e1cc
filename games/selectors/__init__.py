"""Every read for a page, one module per page area. Reads never write or schedule.

* :mod:`.board`: a game as one viewer sees it (the board's view model);
* :mod:`.coach`: the coach's hints for the player on turn;
* :mod:`.ratings`: the leaderboard, an account's rating and its trend;
* :mod:`.series`: a series of games on one score pad;
* :mod:`.replay`: a game move by move, with everyone's card and the coach's verdicts;
* :mod:`.review`: the coach's review of a finished game;
* :mod:`.fairness`: a game's published move log and the check of its dice;
* :mod:`.history`: a player's statistics, charts and finished games;
* :mod:`.presence`: who has the page open;
* :mod:`.tables`: lists of tables and a game's public state;
* :mod:`.accounts`: the language an account chose;
* ``games/words.py`` (re-exported here): the boxes' names in the reader's language;
* :mod:`.viewmodel`: what the view models share, and dice as pages draw them.
"""

from ..words import BOX_NAMES, box_name
from .accounts import account_language
from .announcements import announcement
from .board import (
    GameView,
    SeatView,
    action_urls,
    snapshot_view,
)
from .coach import BoxHint, Hints, choice_words, hints_for
from .fairness import RollRow, VerifyView, moves_json, verify_view
from .feedback import FeedbackView, decision_feedback
from .history import (
    History,
    HistoryEntry,
    NoSuchPage,
    line_chart,
    loss_chart,
    score_chart,
    user_history,
)
from .presence import PresenceView, presence_view
from .ratings import (
    MIN_RATED_GAMES,
    BotRating,
    LeaderRow,
    RatingView,
    bot_ratings,
    leaderboard,
    user_rating,
)
from .replay import ReplayView, Step, Verdict, replay_steps, replay_view
from .review import MomentView, SeatReviewView, review_views
from .scorecard import BoxView, ColumnView, RollOffView, RowView
from .series import SeriesLine, SeriesView, player_series, series_view
from .tables import (
    get_game,
    load_snapshot,
    player_games,
    public_lobbies,
    state_json,
    your_turn_games,
)
from .viewmodel import DieView, ViewModel, plain_dice

__all__ = [
    "BOX_NAMES",
    "MIN_RATED_GAMES",
    "BotRating",
    "BoxHint",
    "BoxView",
    "ColumnView",
    "DieView",
    "FeedbackView",
    "GameView",
    "Hints",
    "History",
    "HistoryEntry",
    "LeaderRow",
    "MomentView",
    "NoSuchPage",
    "PresenceView",
    "RatingView",
    "ReplayView",
    "RollOffView",
    "RollRow",
    "RowView",
    "SeatReviewView",
    "SeatView",
    "SeriesLine",
    "SeriesView",
    "Step",
    "Verdict",
    "VerifyView",
    "ViewModel",
    "account_language",
    "action_urls",
    "announcement",
    "bot_ratings",
    "box_name",
    "choice_words",
    "decision_feedback",
    "get_game",
    "hints_for",
    "leaderboard",
    "line_chart",
    "load_snapshot",
    "loss_chart",
    "moves_json",
    "plain_dice",
    "player_games",
    "player_series",
    "presence_view",
    "public_lobbies",
    "replay_steps",
    "replay_view",
    "review_views",
    "score_chart",
    "series_view",
    "snapshot_view",
    "state_json",
    "user_history",
    "user_rating",
    "verify_view",
    "your_turn_games",
]
