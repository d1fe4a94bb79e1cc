"""The boxes one roll may end the turn in, read from the rule tables: a speed trick for ``rank``.

Ranking a position needs, for the dice on the table, every box the rules allow and the
value of scoring there: the points plus ``future[c, k]``, the value of the state that
outcome ``k`` of box ``c`` leads to (:mod:`.quickturn`). Asking :func:`games.rules.options`
costs ~30 microseconds a position (a ``Counter`` per box); the same answers are already
in the rule tables the solver was built from (:mod:`.ruletables`, checked against
``options`` by the tests): which boxes an ordinary roll may use on each mask, where an
extra Yahtzee may go (the Joker), what each roll scores in each box. Laid out once per
rules profile as Python lists and small integer arrays, one position's boxes are a loop
over at most 13 entries (~3 microseconds).

The values are added up exactly as before (``future + points``, then the 100 bonus), so
they are the same floats.
"""

from __future__ import annotations

import numpy as np

from games.strategy.choices import Choice
from games.strategy.rolls_and_keeps import ROLLS
from games.strategy.transitions import Transitions

#: The face of each roll if it is five of a kind, else 0.
YAHTZEE_FACE: tuple[int, ...] = tuple(roll[0] if len(set(roll)) == 1 else 0 for roll in ROLLS)


def _bits(legal: np.ndarray) -> np.ndarray:
    """Boolean rows over the boxes (13 for Yahtzee) as integers, bit ``c`` for box ``c``."""
    bits = 1 << np.arange(legal.shape[-1])
    return (legal.astype(np.int64) * bits).sum(axis=-1).astype(np.uint16)


class RollBoxes:
    """For one rules profile: the boxes and their values for any (state, roll)."""

    def __init__(self, trans: Transitions) -> None:
        shape = trans.layout
        self._boxes = shape.boxes
        self._five_bit = shape.five_bit
        self._extra_bonus = shape.extra_bonus
        outcomes = trans.outcome_points.shape[1]
        rows = np.arange(shape.count)[:, None] * outcomes
        #: per roll: each box's points, and its outcome as a flat index into future (13 x 6)
        self._points: list[list[int]] = trans.tables.points.T.tolist()
        self._flat_kind: list[list[int]] = (rows + trans.kind).T.tolist()
        joker = (trans.yahtzee_points + trans.joker_extra).astype(np.int64)
        #: per face (0..5): five of it under the Joker, when the Yahtzee box is filled
        self._joker_points: list[list[int]] = joker.T.tolist()
        self._yahtzee_flat_kind: list[list[int]] = (rows + trans.yahtzee_kind).T.tolist()
        #: per mask: the boxes an ordinary roll may use; five of a face (6 per mask)
        self._legal = _bits(~trans.illegal)  # (MASKS,) uint16
        self._yahtzee_legal = _bits(~trans.yahtzee_illegal.transpose(0, 2, 1))  # (MASKS, 6)

    def values(
        self, future: np.ndarray, state: tuple[int, int, int], roll: int
    ) -> tuple[list[Choice], list[float]]:
        """The boxes roll ``roll`` may go in from ``state`` (in the card's order) and, for
        each, its points plus everything after (``future``: :func:`.quickturn.box_future`)."""
        m, _, y = state
        flat = future.ravel().tolist()
        face = YAHTZEE_FACE[roll]
        bonus = 0
        if face:
            legal = int(self._yahtzee_legal[m, face - 1])
            kinds = self._yahtzee_flat_kind[face - 1]
            if m & self._five_bit:  # an extra Yahtzee: the Joker, the 100 if the box holds 50
                points = self._joker_points[face - 1]
                bonus = self._extra_bonus if y else 0
            else:
                points = self._points[roll]
        else:
            legal = int(self._legal[m])
            kinds = self._flat_kind[roll]
            points = self._points[roll]
        boxes: list[Choice] = []
        values: list[float] = []
        for c, box in enumerate(self._boxes):
            if legal >> c & 1:
                boxes.append(box)
                value = flat[kinds[c]] + points[c]
                values.append(value + bonus if bonus else value)
        return boxes, values
