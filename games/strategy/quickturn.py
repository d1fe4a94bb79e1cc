"""One position's turn in a handful of numpy calls: the speed trick behind ``Advisor.rank``.

The solver's lattice (``solver.turn_values``) is built for thousands of states at once:
some sixty numpy calls per turn, each cheap per column but a microsecond or more of
overhead each, which is all there is when the batch is one state. Ranking one position
needs much less than the whole turn:

* with no roll left, only the value after each box: ``W[c, k]``, the table's value of the
  state that outcome ``k`` in box ``c`` leads to (13 x 6 numbers);
* with one roll left, the value of each keep out of the dice on the table: the average,
  over the rolls it can reach, of each final roll's best box. The final rolls' values
  ``S`` are one gather and one maximum over 13 x 252; each keep is a row of the dense
  reroll matrix ``REROLL`` (462 x 252, :mod:`.lattice`) times ``S``;
* with two rolls left, the same over ``B``, each roll's best keep with one roll left:
  ``REROLL @ S`` for every keep, then a gather and a maximum over each roll's 32 keeps.

So a cold ranking costs a few tens of microseconds instead of half a millisecond, and
only the pieces asked for are computed. The values are the lattice's up to rounding
(sums taken in another order, ~1e-13); a keep equal to a box in fact stays equal, as
"keep all five with one roll left" is given the best box's value outright.

Pieces are remembered per (table, state) in one named, weight-bounded cache shared by
every advisor of the process (:data:`CACHE_BYTES`, ~5 KB a state).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from games import caches

from .dice import YAHTZEE_ROLLS
from .lattice import REROLL, SUBKEEP_LISTS, SUBKEEPS
from .ruletables import BOXES, YAHTZEE_BIT, YAHTZEE_BONUS
from .solver import Transitions, future_values

CACHE_BYTES = 16 << 20  # all advisors of the process, every rules profile together
_ENTRY_OVERHEAD = 400  # the dataclass, its dict slot and the key, roughly

_tokens = itertools.count()


def new_token() -> int:
    """A key part unique to one table in this process (ids may be reused; this is not)."""
    return next(_tokens)


@dataclass
class TurnPieces:
    """What ranking positions of one turn-start state needs, filled in as asked."""

    future: np.ndarray  # (13, 6): bonus + value of the next turn per box and outcome
    final: np.ndarray | None = None  # (252,): each final roll's best box
    rolls1: np.ndarray | None = None  # (252,): each roll's best keep with one roll left


def _weight(pieces: TurnPieces) -> int:
    """Weighed as if complete, so filling an entry in never outgrows the bound."""
    return _ENTRY_OVERHEAD + 13 * 6 * 8 + 2 * 252 * 8


#: Flat indices of the keeps out of each roll (``lattice.SUBKEEP_LISTS`` order), as arrays.
SUBKEEP_INDICES: tuple[np.ndarray, ...] = tuple(
    np.array([flat for _, flat in listed], dtype=np.intp) for listed in SUBKEEP_LISTS
)


TURNS = caches.lru(
    "strategy: turn pieces by (table, state)", maxsize=CACHE_BYTES, getsizeof=_weight
)


@dataclass(frozen=True)
class _Gather:
    """Per-rules constants for :func:`final_values`."""

    points: np.ndarray  # (13, 252) float
    flat_kind: np.ndarray  # (13, 252) index into W.ravel()
    yahtzee_flat_kind: np.ndarray  # (13, 6)


#: Keyed by ``id(trans)``; an entry holds its ``trans.points``, so an id reused by another
#: object is told apart (``points is``). ~50 KB an entry: a few per rules profile in use.
_GATHERS = caches.lru("strategy: final-roll gathers by transitions", maxsize=16)


def _gather(trans: Transitions) -> _Gather:
    known = _GATHERS.get(id(trans))
    if known is None or known.points is not trans.points:
        rows = np.arange(BOXES)[:, None] * trans.outcome_points.shape[1]
        known = _Gather(trans.points, rows + trans.kind, rows + trans.yahtzee_kind)
        _GATHERS.set(id(trans), known)
    return known


def box_future(values: np.ndarray, state: tuple[int, int, int]) -> np.ndarray:
    m, u, y = (np.array([v], dtype=np.intp) for v in state)
    return np.ascontiguousarray(future_values(values, m, u, y)[:, :, 0])


def final_values(trans: Transitions, future: np.ndarray, state: tuple[int, int, int]) -> np.ndarray:
    """``S[r]``: the value of ending the turn with roll ``r`` in its best legal box."""
    m, _, y = state
    g = _gather(trans)
    flat = future.ravel()
    choice = flat[g.flat_kind]
    choice += g.points
    choice += trans.penalty[:, m][:, None]
    best = choice.max(axis=0)
    armed = bool(m & YAHTZEE_BIT)
    reached = flat[g.yahtzee_flat_kind] + trans.yahtzee_points
    if armed:
        reached += trans.joker_extra
    reached += trans.yahtzee_penalty[:, :, m]
    best[YAHTZEE_ROLLS] = reached.max(axis=0) + (YAHTZEE_BONUS if armed and y else 0)
    return best


def keep_values(after: np.ndarray, keeps: np.ndarray | None = None) -> np.ndarray:
    """The value of each keep (flat indices ``keeps``, default all 462) before rolling the
    rest, given the value ``after[r]`` of holding each roll afterwards."""
    matrix = REROLL if keeps is None else REROLL[keeps]
    return matrix @ after


def best_keeps(after: np.ndarray) -> np.ndarray:
    """``B[r]``: the best keep out of roll ``r`` (keeping all five included)."""
    return keep_values(after)[SUBKEEPS].max(axis=1)
