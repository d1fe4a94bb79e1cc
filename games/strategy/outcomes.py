"""Where ending a turn leads: for one turn-start state, every (box, final roll) pair's
points, bonuses included, and the next state, read from the rule tables.

A state is ``(mask, upper, yahtzee50)`` as in the solver. The upper subtotal is kept in
canonical form: once the 35 is earned or out of reach it is 63, so states that can no
longer differ are one. The tests compare every entry with :meth:`Scorecard.score`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from games.rules import Rules, Scorecard
from games.strategy.rolls_and_keeps import YAHTZEE_ROLLS
from games.strategy.ruletables import YAHTZEE, Layout, layout, mask_of
from games.strategy.solver import Transitions, open_upper_room

State = tuple[int, int, int]
FULL = YAHTZEE.full  # Yahtzee's full card; a layout's own is ``full``
#: Most one turn can add: five sixes in Sixes (30), the 35 it completes and a 100 bonus.
GAIN_MAX = YAHTZEE.most_in_one_turn


@functools.cache
def _upper_parts(ruleset: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rule set's room left in the open upper boxes per mask, which boxes are upper, and
    each box's bit."""
    shape = layout(Rules(ruleset=ruleset))
    is_upper = np.zeros(shape.count, dtype=bool)
    is_upper[list(shape.upper_boxes)] = True
    bits = np.array([1 << c for c in range(shape.count)], dtype=np.intp)
    return open_upper_room(shape), is_upper, bits


def canonical_upper(mask: int, upper: int, shape: Layout = YAHTZEE) -> int:
    """63 once the 35 can no longer change (earned, or out of reach), else ``upper``."""
    cap = shape.upper_cap
    room = _upper_parts(shape.ruleset)[0]
    if upper >= cap or upper + int(room[mask]) < cap:
        return cap
    return upper


def state_of(card: Scorecard) -> State:
    shape = layout(card.rules)
    mask = mask_of(card)
    upper = canonical_upper(mask, min(card.upper_subtotal, shape.upper_cap), shape)
    return mask, upper, int(shape.tracks_five and card.boxes[shape.five_box] == shape.five_points)


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
    shape = trans.layout
    cap = shape.upper_cap
    room, is_upper, bits = _upper_parts(shape.ruleset)
    armed = bool(m & shape.five_bit)
    points = trans.tables.points.copy()  # (13, 252) int
    faces = trans.yahtzee_points + trans.joker_extra * armed
    points[:, YAHTZEE_ROLLS] = faces.astype(points.dtype)
    legal = np.repeat(trans.tables.legal[m][:, None], points.shape[1], axis=1)
    legal[:, YAHTZEE_ROLLS] = ~trans.yahtzee_illegal[m]
    legal &= ((m & bits) == 0)[:, None]
    gain = points.copy()
    raw = np.where(is_upper[:, None], u + points, u)
    gain += shape.upper_bonus * (is_upper[:, None] & (u < cap) & (raw >= cap))
    if armed and y:
        gain[:, YAHTZEE_ROLLS] += shape.extra_bonus
    next_mask = m | bits
    capped = np.minimum(raw, cap)
    settled = (capped >= cap) | (capped + room[next_mask][:, None] < cap)
    next_upper = np.where(settled, cap, capped)
    next_yahtzee = np.full(points.shape, y, dtype=np.intp)
    if shape.tracks_five:  # elsewhere 50 or 0 in the box changes nothing that follows
        next_yahtzee[shape.five_box] = (points[shape.five_box] == shape.five_points) | y
    return BoxOutcomes(legal, gain, next_mask, next_upper, next_yahtzee)
