"""The computer players' brains: pure functions from a game state to an engine action.

``choose_action(advisor, state, seat, rng, policy)`` returns the next
:mod:`games.engine` action for ``seat`` (whose turn it must be): ``Roll`` at the start
of a turn, ``Keep`` to set the held dice, ``Roll`` again once they are held, ``Score``
to end the turn. Calling it and applying the action until the turn passes plays one turn.

Policies:

* ``optimal``: the best choice by the solved table.
* ``greedy``: the best expected points of the turn being played, nothing after it.
* ``win``: in games of two or more, the last :data:`~games.strategy.winning.HORIZON`
  rounds played for the best chance of finishing first against the other seats' cards
  (each taken to play for expected score) wherever the coach can solve that in a hint's
  time (see :mod:`.winning`); before that, and alone, like ``optimal``.
* ``casual``: mostly the best choice, now and then a slightly weaker one (within
  ``CASUAL_SLACK`` expected points), like a decent human.

``rng`` is anything with ``randint(a, b)`` (``random.Random`` will do). No policy
needs it today: the casual player's slips are drawn from the position itself (seat,
turn, dice, rolls left), so holding the dice and then rolling them agree with each other.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Callable, Sequence

from games.engine import Action, DiceSource, GameState, Keep, Roll, Score
from games.rules import Box, IllegalMove, Scorecard
from games.strategy.advisor import Advisor, Option
from games.strategy.winning import HORIZON, WinOption, plays_to_win, rank_to_win

CASUAL_MISTAKE_PERCENT = 20
CASUAL_SLACK = 8.0  # a casual player's second choice costs at most this many expected points
CASUAL_ALTERNATIVES = 3


def _ranking(advisor: Advisor, state: GameState, seat: int) -> list[Option]:
    """The choices, best first, without "keep all five": spending a roll to change nothing
    is never better than the best other choice (at most equal, up to rounding)."""
    if state.is_finished:
        raise IllegalMove("The game is over.")
    if state.current_seat != seat:
        raise IllegalMove("It is not this seat's turn.")
    assert state.dice is not None
    ranking = advisor.rank(state.cards[seat], state.dice, state.rolls_left)
    return [
        option
        for option in ranking
        if not (isinstance(option.choice, tuple) and len(option.choice) == 5)
    ]


def held_flags(dice: Sequence[int], keep: Sequence[int], held: Sequence[bool]) -> tuple[bool, ...]:
    """Which of ``dice`` to hold so the held ones are ``keep``, moving as few holds as possible."""
    wanted = Counter(keep)
    flags = [False] * len(dice)
    for prefer_held in (True, False):
        for i, die in enumerate(dice):
            if not flags[i] and bool(held[i]) == prefer_held and wanted[die] > 0:
                wanted[die] -= 1
                flags[i] = True
    if sum(wanted.values()):
        raise IllegalMove(f"Cannot keep {tuple(keep)} out of {tuple(dice)}.")
    return tuple(flags)


def action_for(state: GameState, seat: int, option: Option | WinOption) -> Action:
    """The engine action that carries out ``option`` (holding the dice first if need be)."""
    if isinstance(option.choice, Box):
        return Score(seat, option.choice)
    keep = option.choice
    if state.kept_dice() == tuple(sorted(keep)):
        return Roll(seat)
    assert state.dice is not None
    return Keep(seat, held_flags(state.dice, keep, state.held))


def keeping_held_action(advisor: Advisor, state: GameState, seat: int) -> Action:
    """Optimal play that keeps at least the dice held now: the best keep among those that
    hold every die held (more may join them), or the best box. The coach finishing a
    person's turn starts from the position as they left it."""
    if state.is_finished or state.current_seat != seat:
        _ranking(advisor, state, seat)  # raises the reason
    if state.dice is None:
        return Roll(seat)
    held = Counter(state.kept_dice())
    return action_for(
        state,
        seat,
        next(
            option
            for option in _ranking(advisor, state, seat)
            if isinstance(option.choice, Box) or not held - Counter(option.choice)
        ),
    )


def policy_from(
    pick: Callable[[list[Option], GameState], Option],
) -> Callable[[Advisor, GameState, int, DiceSource], Action]:
    """A computer player that rolls when the turn begins and otherwise takes ``pick``'s
    choice among the coach's ranked options (best first)."""

    def choose(advisor: Advisor, state: GameState, seat: int, rng: DiceSource) -> Action:
        if state.is_finished or state.current_seat != seat:
            _ranking(advisor, state, seat)  # raises the reason
        if state.dice is None:
            return Roll(seat)
        return action_for(state, seat, pick(_ranking(advisor, state, seat), state))

    return choose


def _best(ranking: list[Option], state: GameState) -> Option:
    return ranking[0]


def slip(ranking: list[Option], draw: random.Random, percent: int) -> Option:
    """The best option, except on ``percent`` in 100 of ``draw``'s draws: then one of the next
    few, as long as it is close to the best (the best again when none is)."""
    if draw.randint(1, 100) > percent:
        return ranking[0]
    best = ranking[0].expected_total
    nearby = [
        option
        for option in ranking[1 : 1 + CASUAL_ALTERNATIVES]
        if best - option.expected_total <= CASUAL_SLACK
    ]
    if not nearby:
        return ranking[0]
    return nearby[draw.randint(0, len(nearby) - 1)]


def _casual(ranking: list[Option], state: GameState) -> Option:
    position = f"{state.current_seat} {state.turn_number} {state.dice} {state.rolls_left}"
    return slip(ranking, random.Random(zlib.crc32(position.encode())), CASUAL_MISTAKE_PERCENT)


optimal_action = policy_from(_best)
casual_action = policy_from(_casual)


def greedy_action(advisor: Advisor, state: GameState, seat: int, rng: DiceSource) -> Action:
    return optimal_action(advisor.myopic(), state, seat, rng)


def win_action(
    advisor: Advisor,
    state: GameState,
    seat: int,
    rng: DiceSource,
    opponents: Sequence[Scorecard] | None = None,
    horizon: int = HORIZON,
) -> Action:
    """Play for the best chance of finishing first in the last ``horizon`` rounds (against
    ``opponents``, by default every other seat's card); before, for expected score."""
    if state.is_finished or state.current_seat != seat:
        _ranking(advisor, state, seat)  # raises the reason
    card = state.cards[seat]
    if opponents is None:
        opponents = [c for i, c in enumerate(state.cards) if i != seat]
    if not opponents or not plays_to_win(card, len(opponents) + 1, horizon):
        return optimal_action(advisor, state, seat, rng)
    if state.dice is None:
        return Roll(seat)
    ranking = rank_to_win(advisor, card, state.dice, state.rolls_left, opponents)
    sensible = [o for o in ranking if not (isinstance(o.choice, tuple) and len(o.choice) == 5)]
    if not sensible:  # too much to solve in a hint's time: as the coach would hint
        return optimal_action(advisor, state, seat, rng)
    return action_for(state, seat, sensible[0])


POLICIES: dict[str, Callable[[Advisor, GameState, int, DiceSource], Action]] = {
    "optimal": optimal_action,
    "greedy": greedy_action,
    "casual": casual_action,
    "win": win_action,
}


def choose_action(
    advisor: Advisor,
    state: GameState,
    seat: int,
    rng: DiceSource,
    policy: str = "optimal",
    *,
    opponents: Sequence[Scorecard] | None = None,
) -> Action:
    """The next action of ``seat`` under ``policy`` (one of :data:`POLICIES`).

    ``opponents`` (the ``win`` policy only) are the cards to beat; by default every other
    seat's card in ``state``.
    """
    try:
        play = POLICIES[policy]
    except KeyError:
        raise ValueError(
            f"Unknown bot policy {policy!r}; choose from {sorted(POLICIES)}."
        ) from None
    if policy == "win":
        return win_action(advisor, state, seat, rng, opponents)
    return play(advisor, state, seat, rng)
