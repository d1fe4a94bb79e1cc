"""Every read for a page, one module per page area. Reads never write or schedule.

* :mod:`.board`: a game as one viewer sees it (the board's view model);
* :mod:`.coach`: the coach's hints for the player on turn;
* :mod:`.review`: the coach's review of a finished game;
* :mod:`.history`: a player's statistics, charts and finished games;
* :mod:`.presence`: who has the page open;
* :mod:`.tables`: lists of tables and a game's public state;
* :mod:`.accounts`: the language an account chose;
* :mod:`.words`: the boxes' names in the reader's language;
* :mod:`.viewmodel`: what the view models share, and dice as pages draw them.
"""

from .accounts import account_language
from .board import (
    BoxView,
    ColumnView,
    GameView,
    RollOffView,
    RowView,
    SeatView,
    action_urls,
    snapshot_view,
)
from .coach import BoxHint, Hints, choice_words, hints_for
from .history import History, HistoryEntry, line_chart, loss_chart, score_chart, user_history
from .presence import PresenceView, presence_view
from .review import MomentView, SeatReviewView, review_views
from .tables import get_game, load_snapshot, player_games, public_lobbies, state_json
from .viewmodel import DieView, ViewModel, plain_dice
from .words import BOX_NAMES, box_name

__all__ = [
    "BOX_NAMES",
    "BoxHint",
    "BoxView",
    "ColumnView",
    "DieView",
    "GameView",
    "Hints",
    "History",
    "HistoryEntry",
    "MomentView",
    "PresenceView",
    "RollOffView",
    "RowView",
    "SeatReviewView",
    "SeatView",
    "ViewModel",
    "account_language",
    "action_urls",
    "box_name",
    "choice_words",
    "get_game",
    "hints_for",
    "line_chart",
    "load_snapshot",
    "loss_chart",
    "plain_dice",
    "player_games",
    "presence_view",
    "public_lobbies",
    "review_views",
    "score_chart",
    "snapshot_view",
    "state_json",
    "user_history",
]
