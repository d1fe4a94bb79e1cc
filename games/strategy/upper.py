"""Which upper subtotals each mask of filled boxes can have, for the solver (:mod:`.solver`).

Upper subtotals that can no longer reach the bonus threshold (63), or already have, all
behave like 63 and are solved once (:func:`settled_upper`); subtotals the filled upper
boxes cannot add up to (:func:`upper_reach`) are not solved at all. :func:`known_states`
says which states a solved table holds.
"""

from __future__ import annotations

import numpy as np

from games.strategy.rolls_and_keeps import DICE
from games.strategy.ruletables import YAHTZEE, Layout


def upper_reach(shape: Layout = YAHTZEE) -> np.ndarray:
    """``reach[m, u]``: the filled upper boxes of mask ``m`` can add up to ``u`` (capped at 63)."""
    uppers = shape.upper_boxes
    cap = shape.upper_cap
    assert uppers == tuple(range(len(uppers)))  # the upper boxes come first
    by_subset = np.zeros((1 << len(uppers), shape.upper_states), dtype=bool)
    for subset in range(1 << len(uppers)):
        sums = {0}
        for i in uppers:
            if subset >> i & 1:
                face = int(shape.face_of_box[i])
                sums = {min(cap, s + face * k) for s in sums for k in range(DICE + 1)}
        by_subset[subset, sorted(sums)] = True
    upper_bits = np.arange(shape.masks) & ((1 << len(uppers)) - 1)
    return by_subset[upper_bits]


def open_upper_room(shape: Layout = YAHTZEE) -> np.ndarray:
    """Most points the open upper boxes of each mask can still add."""
    room = np.zeros(shape.masks, dtype=np.int64)
    for i in shape.upper_boxes:
        room += np.where(np.arange(shape.masks) >> i & 1, 0, DICE * int(shape.face_of_box[i]))
    return room


def settled_upper(room: np.ndarray, shape: Layout = YAHTZEE) -> np.ndarray:
    """``settled[m, u]``: the 35 can no longer change, so the state behaves like ``u = 63``."""
    cap = shape.upper_cap
    u = np.arange(shape.upper_states)
    return (u[None, :] >= cap) | (u[None, :] + room[:, None] < cap)


def known_states(shape: Layout = YAHTZEE) -> np.ndarray:
    """``known[m, u]``: the table holds the value of (m, u): u is settled, or reachable."""
    return upper_reach(shape) | settled_upper(open_upper_room(shape), shape)
