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

Three details keep a first sight cheap (measured in docs/benchmarks.md, #18): ``W`` is
one gather from precomputed offsets per upper subtotal instead of the solver's batch
function; the value of every keep with one roll left (``REROLL @ S``, 462 numbers) is
kept, so ranking with one roll left is a gather; and each roll's best keep is one
``maximum.reduceat`` over the 4,368 (roll, keep) pairs laid end to end instead of a
gather padded to 252 x 32.

Pieces are remembered per (table, state) in one named, weight-bounded cache shared by
every advisor of the process (:data:`CACHE_BYTES`, ~7 KB a state); the per-rules
constants (:class:`FinalRolls`) belong to each advisor.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from games import caches
from games.rules import Rules
from games.strategy.lattice import FLAT_KEEPS, REROLL, ROLL_OFFSET, SUBKEEP_LISTS
from games.strategy.rolls_and_keeps import DICE, YAHTZEE_ROLLS
from games.strategy.ruletables import YAHTZEE, Layout, layout
from games.strategy.solver import Transitions

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
    keeps1: np.ndarray | None = None  # (462,): each keep's value with one roll left
    rolls1: np.ndarray | None = None  # (252,): each roll's best keep with one roll left


def _weight(pieces: TurnPieces) -> int:
    """Weighed as if complete, so filling an entry in never outgrows the bound."""
    return _ENTRY_OVERHEAD + (15 * 6 + 462 + 252) * 8  # up to fifteen boxes (Yatzy)


#: Flat indices of the keeps out of each roll (``lattice.SUBKEEP_LISTS`` order), as arrays.
SUBKEEP_INDICES: tuple[np.ndarray, ...] = tuple(
    np.array([flat for _, flat in listed], dtype=np.intp) for listed in SUBKEEP_LISTS
)
#: The keeps themselves, per roll, in the same order (the whole roll comes last).
SUBKEEP_CHOICES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(keep for keep, _ in listed) for listed in SUBKEEP_LISTS
)
assert all(len(keeps[-1]) == DICE for keeps in SUBKEEP_CHOICES)
#: Every roll's keeps laid end to end, and where each roll's run starts (for reduceat).
_SUBKEEPS_FLAT = np.concatenate(SUBKEEP_INDICES)
_SUBKEEP_STARTS = np.cumsum([0] + [len(i) for i in SUBKEEP_INDICES[:-1]])


TURNS = caches.lru(
    "strategy: turn pieces by (table, state)", maxsize=CACHE_BYTES, getsizeof=_weight
)


@dataclass(frozen=True)
class FutureOffsets:
    """``offset[u, y, c, k]``: where (upper, yahtzee50) of the state that outcome ``k`` of box
    ``c`` leads to sits within a mask's block of the table; ``bonus[u, c, k]``: the 35 it
    earns. As :func:`.solver.future_values` reads them (outcomes a box cannot have included).
    ``mask_bits`` and ``stride`` place a mask's block. One per rule set."""

    offset: np.ndarray
    bonus: np.ndarray
    mask_bits: np.ndarray
    stride: int


def _future_offsets(shape: Layout) -> FutureOffsets:
    cap = shape.upper_cap
    offset = np.empty((shape.upper_states, 2, shape.count, DICE + 1), dtype=np.intp)
    bonus = np.zeros((shape.upper_states, shape.count, DICE + 1))
    k = np.arange(DICE + 1)
    for u in range(shape.upper_states):
        for y in (0, 1):
            offset[u, y] = u * 2 + y
            offset[u, y, shape.five_box, :2] = u * 2 + k[:2]  # 0 or 50 in it
            for c in shape.upper_boxes:
                raw = u + int(shape.face_of_box[c]) * k
                offset[u, y, c] = np.minimum(raw, cap) * 2 + y
                bonus[u, c] = shape.upper_bonus * ((raw >= cap) & (u < cap))
    mask_bits = (1 << np.arange(shape.count))[:, None]
    return FutureOffsets(offset, bonus, mask_bits, shape.upper_states * 2)


def future_offsets(shape: Layout) -> FutureOffsets:
    """The offsets of ``shape``'s rule set, laid out once per process and rule set."""
    return _offsets_of(shape.ruleset)


@functools.cache
def _offsets_of(ruleset: str) -> FutureOffsets:
    return _future_offsets(layout(Rules(ruleset=ruleset)))


def box_future(
    values: np.ndarray, state: tuple[int, int, int], shape: Layout = YAHTZEE
) -> np.ndarray:
    """``W[c, k]`` of one state (:func:`.solver.future_values` for a batch of one)."""
    m, u, y = state
    at = future_offsets(shape)
    index = (m | at.mask_bits) * at.stride + at.offset[u, y]
    future = values.reshape(-1).take(index)
    future += at.bonus[u]
    return future


class FinalRolls:
    """``S[r]`` of one state, with the per-rules constants laid out once (one per advisor)."""

    def __init__(self, trans: Transitions) -> None:
        shape = trans.layout
        self._five_bit = shape.five_bit
        self._extra_bonus = shape.extra_bonus
        rows = np.arange(shape.count)[:, None] * trans.outcome_points.shape[1]
        self._points = trans.points  # (13, 252) float
        self._flat_kind = rows + trans.kind  # (13, 252) index into W.ravel()
        self._yahtzee_flat_kind = rows + trans.yahtzee_kind  # (13, 6)
        # five of a face in each box: ordinary points, and with the Joker (one of the two
        # terms is always 0, so adding them first changes no rounding)
        self._yahtzee_points = (trans.yahtzee_points, trans.yahtzee_points + trans.joker_extra)
        self._illegal = trans.illegal
        self._yahtzee_illegal = trans.yahtzee_illegal

    def __call__(self, future: np.ndarray, state: tuple[int, int, int]) -> np.ndarray:
        """``S[r]``: the value of ending the turn with roll ``r`` in its best legal box."""
        m, _, y = state
        flat = future.ravel()
        choice = flat.take(self._flat_kind)
        choice += self._points
        np.copyto(choice, -np.inf, where=self._illegal[m, :, None])
        best = choice.max(axis=0)
        armed = bool(m & self._five_bit)
        reached = flat.take(self._yahtzee_flat_kind)
        reached += self._yahtzee_points[armed]
        np.copyto(reached, -np.inf, where=self._yahtzee_illegal[m])
        best[YAHTZEE_ROLLS] = reached.max(axis=0) + (self._extra_bonus if armed and y else 0)
        return best


def final_values(trans: Transitions, future: np.ndarray, state: tuple[int, int, int]) -> np.ndarray:
    """``S[r]``: the value of ending the turn with roll ``r`` in its best legal box."""
    return FinalRolls(trans)(future, state)


#: The reroll matrix without its last 252 rows (keeping all five dice: the identity).
_REROLL_HEAD = np.ascontiguousarray(REROLL[:ROLL_OFFSET])


def keep_values(after: np.ndarray, keeps: np.ndarray | None = None) -> np.ndarray:
    """The value of each keep (flat indices ``keeps``, default all 462) before rolling the
    rest, given the value ``after[r]`` of holding each roll afterwards."""
    if keeps is not None:
        return REROLL[keeps] @ after
    values = np.empty(FLAT_KEEPS)
    np.matmul(_REROLL_HEAD, after, out=values[:ROLL_OFFSET])
    values[ROLL_OFFSET:] = after  # keeping all five: nothing is rolled
    return values


def best_of_keeps(keeps: np.ndarray) -> np.ndarray:
    """``B[r]``: the best of roll ``r``'s keeps, given the value of every keep (all 462)."""
    return np.maximum.reduceat(keeps.take(_SUBKEEPS_FLAT), _SUBKEEP_STARTS)


def best_keeps(after: np.ndarray) -> np.ndarray:
    """``B[r]``: the best keep out of roll ``r`` (keeping all five included)."""
    return best_of_keeps(keep_values(after))
