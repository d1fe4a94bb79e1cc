"""The whole distribution of a card's final score under optimal (expected-score) play.

The table says what optimal play is worth on average; a player who wants to win must
know how the others' scores may still fall. From a turn-start state the optimal policy
is followed forward through the dice lattice: the first roll's chances, each roll's best
keep (the table's choice), the rolls it leads to, again, then each final roll's best box,
gives the chance of every way the turn can end (points, next state). The distribution
of points still to come is the mixture of the next states' distributions, shifted by the
points of each ending. Exact, up to floating-point sums.

Distributions are numpy vectors: ``d[k]`` is the chance of exactly ``k`` points.
"""

from __future__ import annotations

import numpy as np

from games import caches
from games.rules import Scorecard
from games.strategy.advisor import Advisor
from games.strategy.lattice import FLAT_KEEPS, REROLL, SUBKEEPS
from games.strategy.outcomes import State, box_outcomes, state_of
from games.strategy.quickturn import keep_values
from games.strategy.rolls_and_keeps import ROLL_PROBABILITY

CACHE_BYTES = 8 << 20  # per process, all rules profiles: a few thousand states' vectors
_TO_COME = caches.lru(
    "strategy: points-to-come distributions under optimal play by (rules, state)",
    maxsize=CACHE_BYTES,
    getsizeof=lambda d: d.nbytes + 100,
)


def _follow_keeps(start: np.ndarray, keep_values: np.ndarray) -> np.ndarray:
    """The chance of each roll after keeping, from each roll, its best keep and rerolling."""
    candidates = keep_values[SUBKEEPS]  # (252, 32)
    chosen = SUBKEEPS[np.arange(len(SUBKEEPS)), candidates.argmax(axis=1)]
    mixture = np.bincount(chosen, weights=start, minlength=FLAT_KEEPS)
    return mixture @ REROLL


def turn_endings(advisor: Advisor, state: State) -> dict[tuple[int, State], float]:
    """The chance of each (points scored, next state) ending of ``state``'s turn under
    optimal play (the keeps' values as :meth:`Advisor.rank` reads them, :mod:`.quickturn`)."""
    values = advisor.table.values
    turn = advisor._turn(state, 2)
    assert turn.keeps1 is not None and turn.rolls1 is not None
    after_first = _follow_keeps(ROLL_PROBABILITY, keep_values(turn.rolls1))
    final = _follow_keeps(after_first, turn.keeps1)
    out = box_outcomes(advisor.transitions, state)
    worth = out.gain + values[out.next_mask[:, None], out.next_upper, out.next_yahtzee]
    worth = np.where(out.legal, worth, -np.inf)
    rolls = np.flatnonzero(final > 0)
    box = worth.argmax(axis=0)[rolls]
    # one key per (points, next state), the chances of the rolls that end so added up
    masks, upper_states = advisor.layout.masks, advisor.layout.upper_states
    gain = out.gain[box, rolls]
    key = ((gain * masks + out.next_mask[box]) * upper_states + out.next_upper[box, rolls]) * 2
    key += out.next_yahtzee[box, rolls]
    keys, which = np.unique(key, return_inverse=True)
    chances = np.bincount(which, weights=final[rolls]).tolist()
    endings: dict[tuple[int, State], float] = {}
    for k, p in zip(keys.tolist(), chances, strict=True):
        rest, y = divmod(k, 2)
        rest, u = divmod(rest, upper_states)
        points, m = divmod(rest, masks)
        endings[(points, (m, u, y))] = p
    return endings


def points_to_come(advisor: Advisor, state: State) -> np.ndarray:
    """``d[k]``: the chance that optimal play from turn-start ``state`` adds ``k`` points."""
    if state[0] == advisor.layout.full:
        return np.ones(1)
    key = (advisor.rules, state)
    known = _TO_COME.get(key)
    if known is not None:
        return known
    parts = [
        (gain, points_to_come(advisor, after), p)
        for (gain, after), p in turn_endings(advisor, state).items()
    ]
    size = max(gain + len(d) for gain, d, _ in parts)
    dist = np.zeros(size)
    for gain, d, p in parts:
        dist[gain : gain + len(d)] += p * d
    dist.flags.writeable = False
    _TO_COME.set(key, dist)
    return dist


def final_score_distribution(advisor: Advisor, card: Scorecard) -> np.ndarray:
    """``d[x]``: the chance that ``card`` ends with total ``x`` under optimal play from the
    start of its next turn."""
    to_come = np.ones(1) if card.is_complete else points_to_come(advisor, state_of(card))
    dist = np.zeros(card.total + len(to_come))
    dist[card.total :] = to_come
    return dist
