"""Every read that queries, one module per subject; reads never write or schedule. What
they return is shaped by the view models (``games/viewmodels/``), re-exported here with
them so a view imports one name.

* :mod:`.tables`: lists of tables and a game's public state;
* :mod:`.presence`: who has the page open;
* :mod:`.ratings`: the leaderboard, an account's rating and its trend;
* :mod:`.series`: a series of games on one score pad;
* :mod:`.replay`: a game move by move, with everyone's card and the coach's verdicts;
* :mod:`.feedback`: the coach's word on the last decision;
* :mod:`.fairness`: a game's published move log and the check of its dice;
* :mod:`.history`: a player's statistics, charts and finished games;
* :mod:`.practice`: positions from reviewed games to practise on;
* :mod:`.accounts`: the language an account chose; everything kept about an account;
* :mod:`.account_data`: what else it keeps: table talk, devices, daily games, tournaments;
* ``games/words.py`` (re-exported here): the boxes' names in the reader's language.
"""

from games.selectors.account_data import account_kept
from games.selectors.accounts import account_data, account_language
from games.selectors.fairness import RollRow, VerifyView, moves_json, verify_view
from games.selectors.feedback import FeedbackView, decision_feedback
from games.selectors.history import (
    History,
    HistoryEntry,
    NoSuchPage,
    line_chart,
    loss_chart,
    score_chart,
    user_history,
)
from games.selectors.presence import PresenceView, presence_view
from games.selectors.ratings import (
    MIN_RATED_GAMES,
    BotRating,
    LeaderRow,
    RatingView,
    bot_ratings,
    leaderboard,
    user_rating,
)
from games.selectors.replay import ReplayView, Step, Verdict, replay_steps, replay_view
from games.selectors.series import SeriesLine, SeriesView, player_series, series_view
from games.selectors.social import (
    friends_view,
    inbox_entries,
    inbox_unread,
    open_lobbies_of,
    person_box,
    relation,
    social_data,
    social_settings,
    user_id_named,
)
from games.selectors.tables import (
    get_game,
    load_snapshot,
    player_games,
    public_lobbies,
    state_json,
    your_turn_games,
)
from games.viewmodels.announcements import announcement
from games.viewmodels.base import DieView, ViewModel, plain_dice
from games.viewmodels.board import GameView, SeatView, action_urls, snapshot_view
from games.viewmodels.coach import BoxHint, Hints, choice_words, hints_for
from games.viewmodels.review import MomentView, SeatReviewView, review_views
from games.viewmodels.scorecard import BoxView, ColumnView, RollOffView, RowView
from games.words import BOX_NAMES, box_name

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
    "account_data",
    "account_kept",
    "account_language",
    "action_urls",
    "announcement",
    "bot_ratings",
    "box_name",
    "choice_words",
    "decision_feedback",
    "friends_view",
    "get_game",
    "hints_for",
    "inbox_entries",
    "inbox_unread",
    "leaderboard",
    "line_chart",
    "load_snapshot",
    "loss_chart",
    "moves_json",
    "open_lobbies_of",
    "person_box",
    "plain_dice",
    "player_games",
    "player_series",
    "presence_view",
    "public_lobbies",
    "relation",
    "replay_steps",
    "replay_view",
    "review_views",
    "score_chart",
    "series_view",
    "snapshot_view",
    "social_data",
    "social_settings",
    "state_json",
    "user_history",
    "user_id_named",
    "user_rating",
    "verify_view",
    "your_turn_games",
]
