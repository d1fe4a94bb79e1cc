"""The rule tables turned into the indices the solver gathers with (see :class:`Transitions`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.strategy.rolls_and_keeps import DICE, ROLL_COUNT, YAHTZEE_ROLLS
from games.strategy.ruletables import Layout, RuleTables


@dataclass(frozen=True)
class Transitions:
    """The rule tables turned into the indices the solver gathers with.

    A box's *outcome* ``k`` (0..5) names the state scoring it leads to: for an upper box
    the number of dice counted, for the Yahtzee box whether it scores 50, otherwise 0.
    ``kind[c, r]`` is the outcome of roll ``r`` in box ``c``; ``outcome_points[c, k]`` the
    points of that outcome where they depend only on it (upper boxes, Yahtzee), else 0.
    ``yahtzee_*[c, f - 1]``: five ``f`` in box ``c``: outcome and points, what the Joker
    adds, and (per mask) whether they may go there at all.

    Shapes are given for Yahtzee's 13 boxes; another rule set has its own box count.

    ``illegal`` and ``yahtzee_illegal`` are booleans, one mask's contiguous: a single
    position reads its mask's 13 + 78 entries in one place, and the two take 0.7 MB where
    float penalties (0 or -inf, added) took 5.9 MB (the build's peak memory,
    docs/benchmarks.md #18). Illegal choices are set to -inf where they are.
    """

    tables: RuleTables
    points: np.ndarray  # (13, 252) float
    kind: np.ndarray  # (13, 252) intp
    outcome_points: np.ndarray  # (13, 6) float
    constant: np.ndarray  # (13,) bool: every roll leads to outcome 0
    dense: tuple[int, ...]
    sparse: tuple[int, ...]
    sparse_rows: dict[int, np.ndarray]
    illegal: np.ndarray  # (MASKS, 13) bool: an ordinary roll may not go in the box
    yahtzee_kind: np.ndarray  # (13, 6) outcome of five of a face in each box
    yahtzee_points: np.ndarray  # (13, 6) their points, Joker aside
    joker_extra: np.ndarray  # (13, 6) what the Joker adds (Full House, straights)
    yahtzee_illegal: np.ndarray  # (MASKS, 13, 6) bool: five of a face may not go in the box

    @property
    def layout(self) -> Layout:
        return self.tables.layout


def _kind(points: np.ndarray, box_axis: int, layout: Layout) -> np.ndarray:
    """Outcome index of each (box, points) pair; see :class:`Transitions`."""
    shape = [1] * points.ndim
    shape[box_axis] = layout.count
    faces = layout.face_of_box.reshape(shape)
    is_yahtzee_box = (np.arange(layout.count) == layout.five_box).reshape(shape)
    upper = faces > 0
    safe = np.where(upper, faces, 1)
    counted = points // safe
    if (upper & (points % safe != 0)).any() or (upper & (counted > DICE)).any():
        raise AssertionError("an upper box scored something other than face x count")
    kind = np.where(upper, counted, np.where(is_yahtzee_box, points == layout.five_points, 0))
    return kind.astype(np.intp)


def transitions(tables: RuleTables) -> Transitions:
    layout = tables.layout
    boxes = layout.count
    points = tables.points.astype(np.float64)
    kind = _kind(tables.points, 0, layout)
    outcome_points = np.zeros((boxes, DICE + 1))
    for c in range(boxes):
        if kind[c].any():
            for k in np.unique(kind[c]):
                scored = np.unique(points[c, kind[c] == k])
                if len(scored) != 1:
                    raise AssertionError("one outcome, several scores")
                outcome_points[c, k] = scored[0]
    constant = np.asarray(~kind.any(axis=1))  # (13,): numpy's stubs allow a scalar here
    ordinary = np.ones(ROLL_COUNT, dtype=bool)
    ordinary[YAHTZEE_ROLLS] = False
    sparse = []
    sparse_rows = {}
    for c in range(boxes):
        scoring = (points[c] > 0) & ordinary
        # a box that scores on few ordinary rolls, and whose outcome is the same on all of them
        if scoring.sum() * 3 < ROLL_COUNT and not (kind[c] & ordinary).any():
            sparse.append(c)
            sparse_rows[c] = np.flatnonzero(scoring)
    dense = tuple(c for c in range(boxes) if c not in sparse)
    if not dense or not sparse:
        raise AssertionError("unexpected shape of the scoring table")
    # The Yahtzee rolls: ordinary rules while the Yahtzee box is open, the Joker once it is
    # filled. Which boxes may take five of a face depends on the mask; what each scores there
    # only on whether the Joker is in play.
    armed = (np.arange(layout.masks) & layout.five_bit) != 0
    ordinary_points = tables.points[:, YAHTZEE_ROLLS]  # (13, 6)
    joker_points = _the_one_value(tables.joker_points[armed], tables.joker_legal[armed])
    joker_points = np.where(joker_points < 0, ordinary_points, joker_points)
    yahtzee_kind = _kind(ordinary_points, 0, layout)
    other = np.arange(boxes) != layout.five_box
    if (_kind(joker_points, 0, layout) != yahtzee_kind)[other].any():
        raise AssertionError("the Joker leads to other states than ordinary scoring")
    legal = np.where(
        armed[:, None, None],
        tables.joker_legal,
        np.broadcast_to(tables.legal[:, None, :], tables.joker_legal.shape),
    )  # (MASKS, 6, 13)
    return Transitions(
        tables=tables,
        points=points,
        kind=kind,
        outcome_points=outcome_points,
        constant=constant,
        dense=dense,
        sparse=tuple(sparse),
        sparse_rows=sparse_rows,
        illegal=~tables.legal,
        yahtzee_kind=yahtzee_kind,
        yahtzee_points=ordinary_points.astype(np.float64),
        joker_extra=(joker_points - ordinary_points).astype(np.float64),
        yahtzee_illegal=~np.ascontiguousarray(legal.transpose(0, 2, 1)),
    )


def _the_one_value(points: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The points of each (box, face) wherever it is legal, -1 if never; they must agree."""
    high = np.where(legal, points, -1).max(axis=0)
    low = np.where(legal, points, np.iinfo(points.dtype).max).min(axis=0)
    if (legal.any(axis=0) & (high != low)).any():
        raise AssertionError("the Joker scores the same dice differently on different cards")
    return high.T  # (13, 6)
