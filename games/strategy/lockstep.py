"""Thousands of solitaire games of optimal play at once: the speed trick behind ``simulate``.

Played one by one through the engine, a game costs some 25 ms of Python (each decision
ranks every choice). In lock step, every game of a batch plays its n-th turn together,
and every step is one numpy operation across the batch:

1. the turn is solved for all the batch's states at once, by the solver's own lattice
   (``solver.turn_values``, the code that builds the table);
2. dice are face counts, one row per game: a roll's index is a lookup of its counts;
3. the best keep of every game is a gather of its roll's 32 keeps (``lattice.SUBKEEPS``)
   and an argmax; the kept dice plus fresh ones give the next roll;
4. the best box of every game is an argmax over the 13 boxes of points, bonuses and the
   table's value of the state it leads to, illegal boxes at -inf.

Every decision is a best choice by the table, as the ``optimal`` bot's (ties may be broken
another way, which changes no expectation). The scorecards are kept as the boxes' points
and the rolls scored, in the order filled, so tests can replay games through
:meth:`Scorecard.score`. Batches are :data:`BATCH` games, so memory stays bounded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from games.strategy.advisor import Advisor
from games.strategy.lattice import FLAT_KEEPS, SUBKEEPS
from games.strategy.rolls_and_keeps import DICE, LEVELS, ROLLS, SIDES, YAHTZEE_ROLLS
from games.strategy.solver import Workspace, turn_values

BATCH = 2048
_COUNT_BASE = DICE + 1


def _counts(dice: tuple[int, ...]) -> np.ndarray:
    return np.bincount(np.array(dice, dtype=np.intp) - 1, minlength=SIDES)


def _code(counts: np.ndarray) -> np.ndarray:
    return counts @ (_COUNT_BASE ** np.arange(SIDES))


KEEP_COUNTS = np.array([_counts(keep) for level in LEVELS for keep in level], dtype=np.intp)
ROLL_OF_COUNTS = np.full(_COUNT_BASE**SIDES, -1, dtype=np.intp)
ROLL_OF_COUNTS[_code(np.array([_counts(roll) for roll in ROLLS]))] = np.arange(len(ROLLS))
YAHTZEE_FACE = np.full(len(ROLLS), -1, dtype=np.intp)
YAHTZEE_FACE[YAHTZEE_ROLLS] = np.arange(SIDES)


@dataclass(frozen=True)
class Batch:
    """Finished games: ``boxes[g, c]`` the points in box ``c``, ``order[g, t]`` the box filled
    at turn ``t`` and ``scored[g, t]`` the roll scored; totals with every bonus."""

    totals: np.ndarray
    boxes: np.ndarray
    order: np.ndarray
    scored: np.ndarray
    upper_bonus: np.ndarray
    yahtzee_bonuses: np.ndarray


def _reroll(rng: np.random.Generator, keep: np.ndarray) -> np.ndarray:
    """The roll after keeping flat keep ``keep[g]`` and rolling the other dice."""
    counts = KEEP_COUNTS[keep].copy()
    missing = DICE - counts.sum(axis=1)
    faces = rng.integers(0, SIDES, size=(len(keep), DICE))
    rolled = np.arange(DICE)[None, :] < missing[:, None]
    np.add.at(counts, (np.nonzero(rolled)[0], faces[rolled]), 1)
    return ROLL_OF_COUNTS[_code(counts)]


def _best_keep(levels: list[np.ndarray], roll: np.ndarray, column: np.ndarray) -> np.ndarray:
    """Each game's best keep out of its roll; game ``g`` reads the solved column ``column[g]``."""
    flat = np.concatenate(levels, axis=0)  # (462, distinct states)
    assert flat.shape[0] == FLAT_KEEPS
    candidates = SUBKEEPS[roll]  # (n, 32)
    worth = flat[candidates, column[:, None]]
    return candidates[np.arange(len(roll)), worth.argmax(axis=1)]


def _split(states: np.ndarray, upper_states: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    upper_and_mask, y = np.divmod(states, 2)
    m, u = np.divmod(upper_and_mask, upper_states)
    return m, u, y


def play_batch(
    advisor: Advisor, games: int, rng: np.random.Generator, turns: int | None = None
) -> Batch:
    """``games`` solitaire games of optimal play in lock step, the first ``turns`` turns of
    them (all of them by default, 13 for Yahtzee; ``order`` and ``scored`` then hold -1 past
    the last)."""
    trans, values = advisor.transitions, advisor.table.values
    tables = trans.tables
    shape = trans.layout
    count, cap = shape.count, shape.upper_cap
    bits = np.array([1 << c for c in range(count)], dtype=np.intp)
    is_upper = np.arange(count) < SIDES
    g = np.arange(games)
    m = np.zeros(games, dtype=np.intp)
    u = np.zeros(games, dtype=np.intp)
    y = np.zeros(games, dtype=np.intp)
    boxes = np.zeros((games, count), dtype=np.intp)
    order = np.full((games, count), -1, dtype=np.intp)
    scored = np.full((games, count), -1, dtype=np.intp)
    bonus35 = np.zeros(games, dtype=bool)
    extra = np.zeros(games, dtype=np.intp)
    work = Workspace()
    for t in range(count if turns is None else turns):
        # games in the same state share one solved column (all of them on the first turn)
        states, column = np.unique((m * shape.upper_states + u) * 2 + y, return_inverse=True)
        turn = turn_values(trans, values, *_split(states, shape.upper_states), work)
        roll = _reroll(rng, np.zeros(games, dtype=np.intp))  # keep nothing: five fresh dice
        roll = _reroll(rng, _best_keep(turn.keeps[2], roll, column))
        roll = _reroll(rng, _best_keep(turn.keeps[1], roll, column))
        # the best box: points (Joker included), bonuses, and the value of the state after
        armed = (m & shape.five_bit) != 0
        face = YAHTZEE_FACE[roll]
        is_yahtzee = face >= 0
        points = tables.points[:, roll].T.copy()  # (n, 13)
        legal = tables.legal[m].copy()
        if is_yahtzee.any():
            w = np.flatnonzero(is_yahtzee)
            f = face[w]
            points[w] = (trans.yahtzee_points[:, f] + trans.joker_extra[:, f] * armed[w]).T
            legal[w] = ~trans.yahtzee_illegal[m[w], :, f]
        legal &= (m[:, None] & bits[None, :]) == 0
        raw = np.where(is_upper[None, :], u[:, None] + points, u[:, None])
        next_u = np.minimum(raw, cap)
        crossed = is_upper[None, :] & (u[:, None] < cap) & (raw >= cap)
        gain = points + shape.upper_bonus * crossed
        gain += (shape.extra_bonus * (is_yahtzee & armed & (y == 1)))[:, None]
        next_y = np.repeat(y[:, None], count, axis=1)
        if shape.tracks_five:
            next_y[:, shape.five_box] |= points[:, shape.five_box] == shape.five_points
        next_m = m[:, None] | bits[None, :]
        worth = np.where(legal, gain + values[next_m, next_u, next_y], -np.inf)
        c = worth.argmax(axis=1)
        boxes[g, c] = points[g, c]
        order[:, t], scored[:, t] = c, roll
        bonus35 |= crossed[g, c]
        extra += is_yahtzee & armed & (y == 1)
        m, u, y = next_m[g, c], next_u[g, c], next_y[g, c]
    totals = boxes.sum(axis=1) + shape.upper_bonus * bonus35 + shape.extra_bonus * extra
    return Batch(totals, boxes, order, scored, bonus35, extra)


def simulate_lockstep(advisor: Advisor, games: int, seed: int | None = None) -> tuple[Batch, float]:
    """``games`` optimal games in batches of :data:`BATCH`; the games and the seconds taken."""
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    parts = [play_batch(advisor, min(BATCH, games - i), rng) for i in range(0, games, BATCH)]
    joined = Batch(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in Batch.__dataclass_fields__)
    )
    return joined, time.perf_counter() - started
