"""The coach's hints for the player on turn (when the game has hints on)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings

from ..engine import GameState
from ..models import Game
from ..rules import Category
from ..strategy import loaded_advisor
from ..strategy.bots import held_flags
from .viewmodel import ViewModel


def _keep_words(keep: tuple[int, ...]) -> str:
    return "keep " + " ".join(map(str, keep)) if keep else "reroll all five"


def choice_words(choice: object) -> str:
    """A coach's choice in a player's words: "keep 5 5", or the box's name."""
    if isinstance(choice, Category):
        return choice.label
    if isinstance(choice, str):
        return Category(choice).label
    return _keep_words(tuple(choice))  # type: ignore[arg-type]


@dataclass(frozen=True)
class BoxHint(ViewModel):
    expected: float  # expected final total if this box is filled now
    loss: float  # expected points lost against the best choice


@dataclass(frozen=True)
class Hints(ViewModel):
    """What the coach tells the player on turn (only when the game has hints on)."""

    ready: bool
    best: str = ""
    best_expected: float = 0.0
    suggested: tuple[bool, ...] = ()  # dice the best keep holds
    boxes: dict[Category, BoxHint] = field(default_factory=dict)
    keep_cost: float | None = None  # rolling with the dice held now, against the best


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
    boxes = {
        o.choice: BoxHint(o.expected_total, top - o.expected_total)
        for o in ranking
        if isinstance(o.choice, Category)
    }
    suggested: tuple[bool, ...] = ()
    keep_cost = None
    if isinstance(best.choice, Category):
        words = f"score {best.choice.label} now"
    else:
        words = f"{_keep_words(best.choice)} and roll"
        suggested = held_flags(state.dice, best.choice, state.held)
    if state.rolls_left:
        kept = state.kept_dice()
        keep_cost = next((top - o.expected_total for o in ranking if o.choice == kept), None)
    return Hints(
        ready=True,
        best=words,
        best_expected=top,
        suggested=suggested,
        boxes=boxes,
        keep_cost=keep_cost,
    )
