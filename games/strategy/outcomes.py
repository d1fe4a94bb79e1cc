"""Where ending a turn leads: for one turn-start state, every (box, final roll) pair's
points, bonuses included, and the next state, read from the rule tables.

A state is ``(mask, upper, yahtzee50)`` as in the solver. The upper subtotal is kept in
canonical form: once the 35 is earned or out of reach it is 63, so states that can no
longer differ are one. The tests compare every entry with :meth:`Scorecard.score`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.rules import Category, Scorecard
from games.strategy.rolls_and_keeps import YAHTZEE_ROLLS
from games.strategy.ruletables import (
    BOXES,
    UPPER_BONUS,
    UPPER_BOXES,
    UPPER_CAP,
    YAHTZEE_BIT,
    YAHTZEE_BONUS,
    YAHTZEE_BOX,
    YAHTZEE_POINTS,
    mask_of,
)
from games.strategy.solver import Transitions, open_upper_room

State = tuple[int, int, int]
FULL = (1 << BOXES) - 1
#: Most one turn can add: five sixes in Sixes (30), the 35 it completes and a 100 bonus.
GAIN_MAX = 30 + UPPER_BONUS + YAHTZEE_BONUS
_ROOM = open_upper_room()
_IS_UPPER = np.zeros(BOXES, dtype=bool)
_IS_UPPER[list(UPPER_BOXES)] = True
_BITS = np.array([1 << c for c in range(BOXES)], dtype=np.intp)


def canonical_upper(mask: int, upper: int) -> int:
    """63 once the 35 can no longer change (earned, or out of reach), else ``upper``."""
    if upper >= UPPER_CAP or upper + int(_ROOM[mask]) < UPPER_CAP:
        return UPPER_CAP
    return upper


def state_of(card: Scorecard) -> State:
    mask = mask_of(card)
    upper = canonical_upper(mask, min(card.upper_subtotal, UPPER_CAP))
    return mask, upper, int(card[Category.YAHTZEE] == YAHTZEE_POINTS)


@dataclass(frozen=True)
class BoxOutcomes:
    """``legal[c, r]``: roll ``r`` may end the turn in box ``c``; ``gain[c, r]``: what it adds
    to the total; ``next_mask[c]``, ``next_upper[c, r]``, ``next_yahtzee[c, r]``: the state
    it leads to (upper canonical)."""

    legal: np.ndarray
    gain: np.ndarray
    next_mask: np.ndarray
    next_upper: np.ndarray
    next_yahtzee: np.ndarray


def box_outcomes(trans: Transitions, state: State) -> BoxOutcomes:
    """Every way ``state``'s turn can end (a few dozen microseconds: not cached)."""
    m, u, y = state
    armed = bool(m & YAHTZEE_BIT)
    points = trans.tables.points.copy()  # (13, 252) int
    faces = trans.yahtzee_points + trans.joker_extra * armed
    points[:, YAHTZEE_ROLLS] = faces.astype(points.dtype)
    legal = np.repeat(trans.tables.legal[m][:, None], points.shape[1], axis=1)
    legal[:, YAHTZEE_ROLLS] = ~trans.yahtzee_illegal[m]
    legal &= ((m & _BITS) == 0)[:, None]
    gain = points.copy()
    raw = np.where(_IS_UPPER[:, None], u + points, u)
    gain += UPPER_BONUS * (_IS_UPPER[:, None] & (u < UPPER_CAP) & (raw >= UPPER_CAP))
    if armed and y:
        gain[:, YAHTZEE_ROLLS] += YAHTZEE_BONUS
    next_mask = m | _BITS
    capped = np.minimum(raw, UPPER_CAP)
    settled = (capped >= UPPER_CAP) | (capped + _ROOM[next_mask][:, None] < UPPER_CAP)
    next_upper = np.where(settled, UPPER_CAP, capped)
    next_yahtzee = np.full(points.shape, y, dtype=np.intp)
    next_yahtzee[YAHTZEE_BOX] = (points[YAHTZEE_BOX] == YAHTZEE_POINTS) | y
    return BoxOutcomes(legal, gain, next_mask, next_upper, next_yahtzee)
