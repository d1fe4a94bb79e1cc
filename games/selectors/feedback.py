"""The coach's word after each decision, on tables with "feedback after every decision"
(solo or only against computer players): what the last keep or box cost and what was best."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from games.models import Game, Move
from games.strategy import loaded_advisor
from games.strategy.choices import is_negligible
from games.strategy.review import LoggedMove, review_game
from games.viewmodels.base import DieView, ViewModel, plain_dice
from games.viewmodels.choices import ChoiceView, choice_words, option_views


@dataclass(frozen=True)
class FeedbackView(ViewModel):
    """The last decision of one seat: the dice, what was chosen, its loss and the best."""

    round: int
    kind: str  # "keep" or "box"
    dice: tuple[DieView, ...]
    choice: str
    best: str
    loss: float
    top: tuple[ChoiceView, ...]

    @property
    def was_best(self) -> bool:
        return is_negligible(self.loss)


def decision_feedback(game: Game, position: int | None) -> FeedbackView | None:
    """The coach's view of the last keep or box of the seat at ``position`` (None when the
    table has no feedback, the seat has decided nothing yet or the coach is not ready)."""
    if not game.feedback or position is None or game.status == Game.Status.LOBBY:
        return None
    advisor = loaded_advisor(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:
        return None
    moves = [
        LoggedMove(m.kind, m.seat, m.dice, m.held, m.category, m.by_coach)
        for m in Move.objects.filter(game=game).order_by("version")
        if m.seat is not None
    ]
    review = review_game(advisor, game.rules, game.seat_count, moves, [position])[position]
    if not review.decisions:
        return None
    last = review.decisions[-1]
    return FeedbackView(
        round=last.round,
        kind=last.kind,
        dice=plain_dice(last.dice),
        choice=choice_words(last.choice, game.rules),
        best=choice_words(last.best, game.rules),
        loss=last.loss,
        top=option_views(last.options) if last.options is not None else (),
    )
