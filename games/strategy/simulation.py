"""Solitaire games played by a bot through the engine, and their statistics."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass

from games import engine
from games.rules import Category, Scorecard

from .advisor import Advisor
from .bots import choose_action

MAX_ACTIONS_PER_GAME = 13 * 8  # a turn takes at most Roll, Keep, Roll, Keep, Roll, Score


@dataclass(frozen=True)
class SimulationResult:
    policy: str
    scores: tuple[int, ...]
    upper_bonuses: int  # games that earned the 35
    yahtzees: int  # games with 50 in the Yahtzee box
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def stdev(self) -> float:
        return statistics.stdev(self.scores) if len(self.scores) > 1 else 0.0

    @property
    def standard_error(self) -> float:
        return self.stdev / len(self.scores) ** 0.5

    @property
    def median(self) -> float:
        return statistics.median(self.scores)

    @property
    def upper_bonus_rate(self) -> float:
        return self.upper_bonuses / self.games

    @property
    def yahtzee_rate(self) -> float:
        return self.yahtzees / self.games


def play_game(advisor: Advisor, rng: engine.DiceSource, policy: str = "optimal") -> Scorecard:
    """One solitaire game; the final scorecard."""
    state = engine.start(1, advisor.rules, rng)
    for _ in range(MAX_ACTIONS_PER_GAME):
        if state.is_finished:
            return state.cards[0]
        state = engine.apply(state, choose_action(advisor, state, 0, rng, policy), rng)
    raise RuntimeError("The bot did not finish its game.")


def simulate(
    advisor: Advisor,
    games: int,
    policy: str = "optimal",
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` solitaire games with ``policy``, seeded by ``seed``."""
    import time

    started = time.perf_counter()
    rng = random.Random(seed)
    scores: list[int] = []
    bonuses = yahtzees = 0
    for number in range(games):
        card = play_game(advisor, rng, policy)
        scores.append(card.total)
        bonuses += card.upper_bonus > 0
        yahtzees += card[Category.YAHTZEE] == 50
        if progress:
            progress(number + 1)
    return SimulationResult(
        policy=policy,
        scores=tuple(scores),
        upper_bonuses=bonuses,
        yahtzees=yahtzees,
        seconds=time.perf_counter() - started,
    )
