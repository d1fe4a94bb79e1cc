"""The dice lattice flattened, for following one position (or one game) through a turn.

The solver walks the lattice level by level for thousands of states at once. A single
position needs other views of the same links, built once here:

* ``FLAT_OFFSET[k]``: where the keeps of size ``k`` start when all 462 keeps are laid end
  to end (level by level, in ``LEVELS`` order; level 5, the rolls, comes last);
* ``REROLL[K, r]``: the chance that keeping ``K`` (flat index) and rolling the rest gives
  roll ``r``, so the value of every keep is one product ``REROLL @ rolls`` and the rolls
  reached from a mixture of keeps are ``mixture @ REROLL``;
* ``SUBKEEPS[r, j]``: the flat index of every distinct keep out of roll ``r`` (up to 32,
  the row padded by repeating its first entry, the empty keep), so the best keep of every
  roll is a gather and a maximum over one axis.
"""

from __future__ import annotations

import numpy as np

from games.strategy.rolls_and_keeps import (
    CHILDREN,
    DICE,
    LEVEL_INDEX,
    LEVELS,
    ROLL_INDEX,
    ROLLS,
    SIDES,
    sub_keeps,
)

FLAT_OFFSET: tuple[int, ...] = tuple(sum(len(LEVELS[k]) for k in range(size)) for size in range(7))
FLAT_KEEPS = FLAT_OFFSET[DICE + 1]  # 462
ROLL_OFFSET = FLAT_OFFSET[DICE]  # the rolls are the last 252 keeps
MAX_SUBKEEPS = 1 << DICE


def flat_index(keep: tuple[int, ...]) -> int:
    """The flat index of a sorted keep."""
    return FLAT_OFFSET[len(keep)] + LEVEL_INDEX[len(keep)][keep]


def _reroll() -> np.ndarray:
    matrix = np.zeros((FLAT_KEEPS, len(ROLLS)))
    matrix[ROLL_OFFSET:] = np.eye(len(ROLLS))
    for size in range(DICE - 1, -1, -1):
        above = matrix[FLAT_OFFSET[size + 1] : FLAT_OFFSET[size + 2]]
        here = matrix[FLAT_OFFSET[size] : FLAT_OFFSET[size + 1]]
        here[:] = above[CHILDREN[size]].sum(axis=1) / SIDES
    return matrix


def _subkeeps() -> tuple[np.ndarray, tuple[tuple[tuple[tuple[int, ...], int], ...], ...]]:
    table = np.zeros((len(ROLLS), MAX_SUBKEEPS), dtype=np.intp)
    listed = []
    for r, roll in enumerate(ROLLS):
        keeps = sub_keeps(roll)
        flat = [flat_index(keep) for keep in keeps]
        table[r, : len(flat)] = flat
        table[r, len(flat) :] = flat[0]
        listed.append(tuple(zip(keeps, flat, strict=True)))
    return table, tuple(listed)


REROLL: np.ndarray = _reroll()
SUBKEEPS, SUBKEEP_LISTS = _subkeeps()
for _array in (REROLL, SUBKEEPS):
    _array.flags.writeable = False

#: Roll index of five sorted dice read as a base-7 number (digits 1..6).
ROLL_OF_CODE: np.ndarray = np.full(7**DICE, -1, dtype=np.intp)
for _roll in ROLLS:
    ROLL_OF_CODE[sum(d * 7**i for i, d in enumerate(_roll))] = ROLL_INDEX[_roll]
ROLL_OF_CODE.flags.writeable = False
