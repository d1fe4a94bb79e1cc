"""Solitaire games played by a bot through the engine, and their statistics."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from games import engine
from games.rules import Scorecard
from games.strategy.advisor import Advisor
from games.strategy.bots import choose_action
from games.strategy.lockstep import play_batch, simulate_lockstep
from games.strategy.rolls_and_keeps import ROLLS
from games.strategy.winning import HORIZON

LOCKSTEP_POLICIES = frozenset({"optimal", "greedy"})
ACTIONS_PER_TURN = 8  # a turn takes at most Roll, Keep, Roll, Keep, Roll, Score
MAX_ACTIONS_PER_GAME = 13 * ACTIONS_PER_TURN  # Yahtzee's; a game's own is ``_most_actions``


@dataclass(frozen=True)
class SimulationResult:
    policy: str
    scores: tuple[int, ...]
    upper_bonuses: int  # games that earned the upper bonus
    yahtzees: int  # games with points in the five-of-a-kind box (Yahtzee, Yatzy, Yacht)
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


def _most_actions(advisor: Advisor) -> int:
    return ACTIONS_PER_TURN * advisor.layout.count


def play_game(advisor: Advisor, rng: engine.DiceSource, policy: str = "optimal") -> Scorecard:
    """One solitaire game; the final scorecard."""
    state = engine.start(1, advisor.rules, rng)
    for _ in range(_most_actions(advisor)):
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
    lockstep: bool = True,
) -> SimulationResult:
    """Play ``games`` solitaire games with ``policy``, seeded by ``seed``.

    ``optimal`` and ``greedy`` (optimal play on the one-turn table) are played in lock step,
    all games at once (:mod:`.lockstep`); other policies, or ``lockstep=False``, one game
    after the other through the engine.
    """
    started = time.perf_counter()
    if lockstep and policy in LOCKSTEP_POLICIES:
        player = advisor.myopic() if policy == "greedy" else advisor
        batch, _ = simulate_lockstep(player, games, seed)
        if progress:
            progress(games)
        return SimulationResult(
            policy=policy,
            scores=tuple(int(total) for total in batch.totals),
            upper_bonuses=int(batch.upper_bonus.sum()),
            yahtzees=int((batch.boxes[:, advisor.layout.five_box] > 0).sum()),
            seconds=time.perf_counter() - started,
        )
    rng = random.Random(seed)
    scores: list[int] = []
    bonuses = yahtzees = 0
    for number in range(games):
        card = play_game(advisor, rng, policy)
        scores.append(card.total)
        bonuses += card.upper_bonus > 0
        yahtzees += bool(card[advisor.rules.definition.five_of_a_kind])
        if progress:
            progress(number + 1)
    return SimulationResult(
        policy=policy,
        scores=tuple(scores),
        upper_bonuses=bonuses,
        yahtzees=yahtzees,
        seconds=time.perf_counter() - started,
    )


# -- heads-up matches ------------------------------------------------------------------------

Z_99 = 2.5758293035489  # two-sided 99 % normal quantile


@dataclass(frozen=True)
class MatchResult:
    """Heads-up games of ``bot`` against ``versus``; a tie counts half a win."""

    bot: str
    versus: str
    wins: int
    ties: int
    losses: int
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.ties + self.losses

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games

    def confidence_interval(self, z: float = Z_99) -> tuple[float, float]:
        """Wilson score interval of the win rate (99 % by default)."""
        n, p = self.games, self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
        return centre - half, centre + half


#: Policies that play like ``optimal`` until the last HORIZON rounds (so those rounds can be
#: played for every game at once in lock step, see :func:`_early_cards`).
OPTIMAL_UNTIL_THE_END = frozenset({"optimal", "win"})


def simulate_match(
    advisor: Advisor,
    games: int,
    bot: str = "win",
    versus: str = "optimal",
    seed: int | None = None,
    first: int = 0,
) -> MatchResult:
    """Play games ``first`` .. ``first + games - 1`` of a seeded series (seeded by ``seed``
    and ``first``, so a series split among processes is reproducible); the bot takes seat 0
    in even games and seat 1 in odd ones, and seat 0 starts.

    When both sides play like ``optimal`` before the last :data:`~.winning.HORIZON` rounds,
    those first rounds are played for all the games at once (:mod:`.lockstep`): neither
    side looks at the other there. The cards they leave are rebuilt through
    :meth:`Scorecard.score` and the last rounds are played through the engine.
    """
    started = time.perf_counter()
    wins = ties = losses = 0
    early = None
    if bot in OPTIMAL_UNTIL_THE_END and versus in OPTIMAL_UNTIL_THE_END:
        early = _early_cards(advisor, games, np.random.default_rng([seed or 0, first]))
    for i, number in enumerate(range(first, first + games)):
        rng = random.Random(f"{seed} {number}")
        seat = number % 2
        policies = {seat: bot, 1 - seat: versus}
        if early is None:
            state = engine.start(2, advisor.rules, rng)
        else:
            state = engine.GameState(
                rules=advisor.rules,
                cards=(early[0][i], early[1][i]),
                rolloff=(),
                starter=0,
                turn_number=2 * early[0][i].filled_count,
            )
        final = _play_out(advisor, state, rng, policies).cards
        mine, theirs = final[seat].total, final[1 - seat].total
        wins += mine > theirs
        ties += mine == theirs
        losses += mine < theirs
    return MatchResult(bot, versus, wins, ties, losses, time.perf_counter() - started)


def _early_cards(
    advisor: Advisor, games: int, rng: np.random.Generator
) -> tuple[list[Scorecard], list[Scorecard]]:
    """Each seat's card after the rounds before the horizon, played in lock step."""
    turns = advisor.layout.count - HORIZON
    seats = []
    for _ in range(2):
        batch = play_batch(advisor, games, rng, turns)
        cards = []
        for g in range(games):
            card = Scorecard(rules=advisor.rules)
            for t in range(turns):
                box = advisor.layout.boxes[batch.order[g, t]]
                card = card.score(box, ROLLS[batch.scored[g, t]])
            cards.append(card)
        seats.append(cards)
    return seats[0], seats[1]


def _play_out(
    advisor: Advisor, state: engine.GameState, rng: random.Random, policies: dict[int, str]
) -> engine.GameState:
    for _ in range(2 * _most_actions(advisor)):
        if state.is_finished:
            return state
        seat = state.current_seat
        assert seat is not None
        state = engine.apply(state, choose_action(advisor, state, seat, rng, policies[seat]), rng)
    raise RuntimeError("The bots did not finish their game.")


def merge(results: list[MatchResult]) -> MatchResult:
    first = results[0]
    return MatchResult(
        first.bot,
        first.versus,
        sum(r.wins for r in results),
        sum(r.ties for r in results),
        sum(r.losses for r in results),
        max(r.seconds for r in results),
    )


def match_in_process(
    upper_first: bool,
    cache_dir: str,
    games: int,
    bot: str,
    versus: str,
    seed: int | None,
    first: int,
    ruleset: str = "yahtzee",
) -> MatchResult:
    """:func:`simulate_match` in a worker process (loads the stored table there)."""
    from games.rules import Rules
    from games.strategy.store import advisor_for

    advisor = advisor_for(Rules(upper_first=upper_first, ruleset=ruleset), cache_dir, build=False)
    return simulate_match(advisor, games, bot, versus, seed, first)


def simulate_match_parallel(
    upper_first: bool,
    cache_dir: str,
    games: int,
    bot: str,
    versus: str,
    seed: int | None,
    workers: int,
    ruleset: str = "yahtzee",
) -> MatchResult:
    """The same series as :func:`simulate_match`, its games split among ``workers`` processes."""
    from concurrent.futures import ProcessPoolExecutor

    started = time.perf_counter()
    share = -(-games // workers)
    parts = [(first, min(share, games - first)) for first in range(0, games, share)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(
                match_in_process, upper_first, cache_dir, n, bot, versus, seed, first, ruleset
            )
            for first, n in parts
        ]
        results = [future.result() for future in futures]
    merged = merge(results)
    return MatchResult(
        merged.bot,
        merged.versus,
        merged.wins,
        merged.ties,
        merged.losses,
        time.perf_counter() - started,
    )
