"""The coach's hints for the player on turn (when the game has hints on)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import gettext as _

from games.engine import GameState
from games.models import Game
from games.rules import Box
from games.strategy import loaded_advisor
from games.strategy.advisor import alternatives
from games.strategy.bots import held_flags
from games.strategy.choices import is_negligible
from games.strategy.winning import plays_to_win, rank_to_win
from games.viewmodels.base import ViewModel
from games.viewmodels.choices import TOP, ChoiceView, choice_words, option_views, win_views
from games.words import box_name

__all__ = ["BoxHint", "Hints", "choice_words", "hints_for"]


@dataclass(frozen=True)
class BoxHint(ViewModel):
    expected: float  # expected final total if this box is filled now
    loss: float  # expected points lost against the best choice

    @property
    def is_best(self) -> bool:
        return is_negligible(self.loss)


@dataclass(frozen=True)
class Hints(ViewModel):
    """What the coach tells the player on turn (only when the game has hints on)."""

    ready: bool
    best: str = ""
    best_expected: float = 0.0
    suggested: tuple[bool, ...] = ()  # dice the best keep holds
    boxes: dict[Box, BoxHint] = field(default_factory=dict)
    keep_cost: float | None = None  # rolling with the dice held now, against the best
    top: tuple[ChoiceView, ...] = ()  # the five best choices (keeps and boxes)
    to_win: tuple[ChoiceView, ...] = ()  # the five best to finish first (last rounds, 2+ seats)

    @property
    def keep_is_best(self) -> bool:
        """Rolling with the dice held now gives nothing away (worth showing)."""
        return self.keep_cost is not None and is_negligible(self.keep_cost)


def hints_for(game: Game, state: GameState | None) -> Hints | None:
    if state is None or state.dice is None or state.current_seat is None:
        return None
    advisor = loaded_advisor(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:
        return Hints(ready=False)
    card = state.cards[state.current_seat]
    ranking = advisor.rank(card, state.dice, state.rolls_left)
    best = ranking[0]
    top = best.expected_total
    boxes: dict[Box, BoxHint] = {
        o.choice: BoxHint(o.expected_total, top - o.expected_total)
        for o in ranking
        if isinstance(o.choice, Box)
    }
    suggested: tuple[bool, ...] = ()
    keep_cost = None
    if isinstance(best.choice, Box):
        words = _("score %(box)s now") % {"box": box_name(best.choice)}
    else:
        words = _("%(keep)s and roll") % {"keep": choice_words(best.choice)}
        suggested = held_flags(state.dice, best.choice, state.held)
    if state.rolls_left:
        kept = state.kept_dice()
        keep_cost = next((top - o.expected_total for o in ranking if o.choice == kept), None)
    to_win: tuple[ChoiceView, ...] = ()
    if plays_to_win(card, state.seat_count):
        opponents = [c for i, c in enumerate(state.cards) if i != state.current_seat]
        to_win = win_views(rank_to_win(advisor, card, state.dice, state.rolls_left, opponents))
    return Hints(
        ready=True,
        top=option_views(alternatives(ranking, TOP)),
        to_win=to_win,
        best=words,
        best_expected=top,
        suggested=suggested,
        boxes=boxes,
        keep_cost=keep_cost,
    )
