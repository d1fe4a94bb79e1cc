"""The dice lattice the solver works on: rolls, keeps and their links.

A *roll* is a sorted multiset of five dice (252 of them); a *keep* is a sorted
multiset of zero to five dice (462). Keeps are grouped in levels by size; level
5 is the rolls themselves. Two links make the solver cheap:

* ``CHILDREN[k]``: the keep of size ``k + 1`` reached by adding one die of each
  face, so the value of rerolling around a keep is the average over its six
  children (rolling the missing dice one at a time).
* ``DISTINCT_PARENTS[k]``: the keeps of size ``k - 1`` reached by dropping one die, so the
  best keep out of a roll is a running maximum down the lattice.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import factorial

import numpy as np

DICE = 5
SIDES = 6

#: Keeps of each size as sorted tuples, those with more distinct faces first (so the
#: keeps with at least j distinct faces are a prefix of their level); ``LEVELS[5]`` are the rolls.
LEVELS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        sorted(
            combinations_with_replacement(range(1, SIDES + 1), size),
            key=lambda keep: (-len(set(keep)), keep),
        )
    )
    for size in range(DICE + 1)
)
ROLLS: tuple[tuple[int, ...], ...] = LEVELS[DICE]
ROLL_COUNT = len(ROLLS)  # 252
KEEP_COUNT = sum(len(level) for level in LEVELS)  # 462

#: Position of a keep inside its level.
LEVEL_INDEX: tuple[dict[tuple[int, ...], int], ...] = tuple(
    {keep: i for i, keep in enumerate(level)} for level in LEVELS
)
ROLL_INDEX = LEVEL_INDEX[DICE]


def _children(size: int) -> np.ndarray:
    upper = LEVEL_INDEX[size + 1]
    return np.array(
        [
            [upper[tuple(sorted((*keep, face)))] for face in range(1, SIDES + 1)]
            for keep in LEVELS[size]
        ],
        dtype=np.intp,
    )


def _distinct_parents(size: int) -> tuple[tuple[np.ndarray, ...], tuple[int, ...]]:
    """For each j, the keep reached by dropping the j-th distinct face, for the prefix of
    keeps that have more than j distinct faces; and the length of each prefix."""
    lower = LEVEL_INDEX[size - 1]
    columns: list[list[int]] = [[] for _ in range(size)]
    for keep in LEVELS[size]:
        faces = sorted(set(keep))
        for j, face in enumerate(faces):
            i = keep.index(face)
            columns[j].append(lower[keep[:i] + keep[i + 1 :]])
    return tuple(np.array(c, dtype=np.intp) for c in columns if c), tuple(
        len(c) for c in columns if c
    )


CHILDREN: tuple[np.ndarray, ...] = tuple(_children(size) for size in range(DICE))
DISTINCT_PARENTS: dict[int, tuple[tuple[np.ndarray, ...], tuple[int, ...]]] = {
    size: _distinct_parents(size) for size in range(1, DICE + 1)
}


def _probability(roll: tuple[int, ...]) -> float:
    ways = factorial(len(roll))
    for count in Counter(roll).values():
        ways //= factorial(count)
    return ways / SIDES ** len(roll)


#: Chance of each roll of five fresh dice.
ROLL_PROBABILITY: np.ndarray = np.array([_probability(roll) for roll in ROLLS])

#: How many dice of each face a roll shows, shape (6, 252): ``FACE_COUNTS[f - 1, r]``.
FACE_COUNTS: np.ndarray = np.array(
    [[roll.count(face) for roll in ROLLS] for face in range(1, SIDES + 1)], dtype=np.intp
)
#: Whether each roll is five of a kind, and the roll index of each Yahtzee by face.
IS_YAHTZEE: np.ndarray = np.array([len(set(roll)) == 1 for roll in ROLLS])
YAHTZEE_ROLLS: np.ndarray = np.array(
    [ROLL_INDEX[(face,) * DICE] for face in range(1, SIDES + 1)], dtype=np.intp
)


def sub_keeps(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct sorted multiset that can be kept out of ``dice``, small first."""
    ordered = tuple(sorted(dice))
    found = {keep for size in range(len(ordered) + 1) for keep in combinations(ordered, size)}
    return sorted(found, key=lambda keep: (len(keep), keep))
