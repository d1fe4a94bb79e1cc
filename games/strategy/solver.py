"""Optimal play by backward induction over turns, for any rule set of :mod:`games.rules`.

A turn starts in a *state*: which boxes are filled (a mask, 13 bits for Yahtzee), the
upper subtotal capped at the bonus threshold (63; 0 where there is no upper bonus), and
whether the Yahtzee box holds 50 (where an extra five of a kind earns a bonus; elsewhere
both halves of the table hold the same values). The rule set's figures are its
:class:`~games.strategy.ruletables.Layout`, read from its definition. Its value is the
expected number of points still to come under optimal play. States with more
filled boxes are solved first (a *layer* is every state with the same number of
filled boxes), and every state of a layer is solved at once, in chunks of
columns of numpy arrays:

1. every final roll (252) is worth its best legal box: points, bonuses earned
   by scoring it, and the value of the state it leads to;
2. every keep (462) is worth the average over one more die of the keeps above it
   (the expectation lattice), and every roll is worth its best keep, a running
   maximum down the lattice of one fewer die; twice, for the second and the
   first reroll;
3. the state is worth the average over the first roll.

Upper subtotals that can no longer reach 63, or already have, all behave like 63
and are solved once; subtotals the filled upper boxes cannot add up to are not
solved at all (:mod:`.upper` works out which; ``known_states()`` says which are).
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from games.rules import Rules
from games.strategy.rolls_and_keeps import (
    CHILDREN,
    DICE,
    DISTINCT_PARENTS,
    ROLL_COUNT,
    ROLL_PROBABILITY,
    SIDES,
    YAHTZEE_ROLLS,
)
from games.strategy.ruletables import (
    UPPER_CAP,
    YAHTZEE,
    Layout,
    RuleTables,
    layout,
    rule_tables,
)
from games.strategy.table import StrategyTable
from games.strategy.transitions import Transitions, transitions
from games.strategy.upper import (
    known_states as known_states,  # re-exported: solver.known_states, as it always was
)
from games.strategy.upper import open_upper_room, settled_upper, upper_reach

UPPER_STATES = UPPER_CAP + 1  # 0..63: Yahtzee's (a layout's own is ``upper_states``)
CHUNK = 256


# -- the states of a layer ----------------------------------------------------------------


def layer_states(
    masks: np.ndarray, reach: np.ndarray, settled: np.ndarray, shape: Layout = YAHTZEE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct states to solve for these masks, as arrays (mask, upper, yahtzee50),
    ordered by mask, then upper, then yahtzee50 (``masks`` ascending)."""
    live = reach[masks] & ~settled[masks]
    # one state at 63 for every mask stands for all its settled subtotals
    live[:, shape.upper_cap] = True
    rows, ups = np.nonzero(live)  # row by row: sorted by (mask, upper)
    del live
    # a filled Yahtzee box holds 0 or 50: two states, side by side (one where 50 or 0 in
    # it changes nothing that follows: no bonus for an extra five of a kind)
    twice = ((masks[rows] & shape.five_bit) != 0).astype(np.intp) * int(shape.tracks_five) + 1
    m = np.repeat(masks[rows], twice)
    del rows
    u = np.repeat(ups, twice)
    del ups
    y = np.ones(len(m), dtype=np.intp)
    y[np.cumsum(twice) - twice] = 0  # the first of each (mask, upper)
    return m, u, y


# -- one turn, for a batch of states -------------------------------------------------------


class Workspace:
    """Reusable scratch arrays, so a chunk allocates nothing (one per thread)."""

    def __init__(self) -> None:
        self._buffers: dict[str, np.ndarray] = {}

    def get(self, name: str, rows: int, n: int) -> np.ndarray:
        buffer = self._buffers.get(name)
        if buffer is None or buffer.size < rows * n:
            buffer = self._buffers[name] = np.empty(rows * n)
        return buffer[: rows * n].reshape(rows, n)


def future_values(
    values: np.ndarray, m: np.ndarray, u: np.ndarray, y: np.ndarray, shape: Layout = YAHTZEE
) -> np.ndarray:
    """``W[c, k, s]``: what follows when state ``s`` puts outcome ``k`` in box ``c``: the 35
    if it is earned now plus the value of the next turn.

    Outcomes a box cannot have hold an arbitrary finite value.
    """
    flat = values.reshape(-1)
    n = len(m)
    cap = shape.upper_cap
    uppers = len(shape.upper_boxes)
    stride = shape.upper_states * 2
    upper_bits, lower_bits, upper_added = _bit_arrays(shape.ruleset)
    future = np.empty((shape.count, DICE + 1, n))
    base = u * 2 + y  # (n,)
    # upper boxes: outcome k adds face * k to the subtotal, and maybe the 35
    upper_mask = (m[None, :] | upper_bits[:, None]) * stride  # (6, n)
    raw = u[None, None, :] + upper_added[:, :, None]  # (6, 6, n)
    index = np.minimum(raw, cap)
    index *= 2
    index += y
    index += upper_mask[:, None, :]
    upper = future[:uppers]
    np.take(flat, index, out=upper, mode="clip")
    if shape.upper_bonus:
        upper += shape.upper_bonus * ((raw >= cap) & (u < cap))
    # lower boxes lead to one state (the Yahtzee box to two: 0 or 50 in it)
    lower_index = (m[None, :] | lower_bits[:, None]) * stride + base
    lower = np.take(flat, lower_index, mode="clip")  # (7, n)
    future[uppers:] = lower[:, None, :]
    yahtzee_row = shape.five_box - uppers
    future[shape.five_box, 0] = np.take(flat, lower_index[yahtzee_row] - y, mode="clip")
    future[shape.five_box, 1] = np.take(flat, lower_index[yahtzee_row] - y + 1, mode="clip")
    return future


@functools.cache
def _bit_arrays(ruleset: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rule set's upper boxes' bits, its lower boxes' bits, and what outcome ``k`` of each
    upper box adds to the subtotal."""
    shape = layout(Rules(ruleset=ruleset))
    uppers = shape.upper_boxes
    upper_bits = np.array([1 << i for i in uppers], dtype=np.intp)
    lower_bits = np.array([1 << i for i in range(len(uppers), shape.count)], dtype=np.intp)
    added = shape.face_of_box[list(uppers)][:, None] * np.arange(DICE + 1)[None, :]
    for array in (upper_bits, lower_bits, added):
        array.flags.writeable = False
    return upper_bits, lower_bits, added


def final_roll_values(
    trans: Transitions,
    values: np.ndarray,
    m: np.ndarray,
    u: np.ndarray,
    y: np.ndarray,
    work: Workspace | None = None,
) -> np.ndarray:
    """``S[r, s]``: the value of ending the turn with roll ``r`` in state ``s`` (best legal box).

    Dense boxes (upper boxes, Chance, Three of a Kind) are compared on every roll; a sparse
    box (one that scores on few rolls and leads to the same state whatever it scores, once the
    Yahtzees are set apart) is compared on the rolls where it scores, and as a zero on all the
    others. The six Yahtzee rolls are then valued again exactly, with the Joker and the bonus.
    """
    work = work or Workspace()
    n = len(m)
    shape = trans.layout
    future = future_values(values, m, u, y, shape)
    # outcome points folded in, illegal boxes at -inf: choice[c, k, s]
    choice = future + trans.outcome_points[:, :, None]
    np.copyto(choice, -np.inf, where=trans.illegal[m].T[:, None, :])
    best = work.get("final", ROLL_COUNT, n)
    scratch = work.get("scratch", ROLL_COUNT, n)
    for i, c in enumerate(trans.dense):
        target = best if i == 0 else scratch
        if trans.constant[c]:
            np.add.outer(trans.points[c], choice[c, 0], out=target)
        else:
            np.take(choice[c], trans.kind[c], axis=0, out=target, mode="clip")
        if i:
            np.maximum(best, scratch, out=best)
    zero = choice[trans.sparse, 0].max(axis=0)
    np.maximum(best, zero[None, :], out=best)
    for c in trans.sparse:
        rows = trans.sparse_rows[c]
        if len(rows):
            candidate = np.add.outer(trans.points[c, rows], choice[c, 0])
            best[rows] = np.maximum(best[rows], candidate)
    # The Yahtzee rolls, exactly: the Joker when the Yahtzee box is filled, +100 if it holds 50.
    armed = (m & shape.five_bit) != 0
    reached = future[np.arange(shape.count)[:, None], trans.yahtzee_kind]  # (13, 6, n)
    reached += trans.yahtzee_points[:, :, None]
    reached += trans.joker_extra[:, :, None] * armed
    np.copyto(reached, -np.inf, where=trans.yahtzee_illegal[m].transpose(1, 2, 0))
    yahtzee = reached.max(axis=0)  # (6, n)
    if shape.extra_bonus:
        yahtzee += shape.extra_bonus * (y * armed)
    best[YAHTZEE_ROLLS] = yahtzee
    return best


def keep_values(
    rolls: np.ndarray, work: Workspace | None = None, tag: str = ""
) -> list[np.ndarray]:
    """Expectation lattice: ``E[k][K, s]`` for keeps of size k; ``E[5]`` is ``rolls``."""
    work = work or Workspace()
    n = rolls.shape[1]
    levels: list[np.ndarray] = [rolls] * (DICE + 1)
    for size in range(DICE - 1, -1, -1):
        above = levels[size + 1]
        children = CHILDREN[size]
        acc = work.get(f"keep{tag}{size}", len(children), n)
        scratch = work.get("scratch", len(children), n)
        np.take(above, children[:, 0], axis=0, out=acc, mode="clip")
        for face in range(1, SIDES):
            np.take(above, children[:, face], axis=0, out=scratch, mode="clip")
            acc += scratch
        acc *= 1.0 / SIDES
        levels[size] = acc
    return levels


def best_keep(
    levels: list[np.ndarray],
    work: Workspace | None = None,
    tag: str = "",
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Maximum lattice: ``B[r, s]``, the best keep out of roll ``r`` (keeping all included),
    written to ``out`` if given (it must not be one of ``levels``)."""
    work = work or Workspace()
    n = levels[0].shape[1]
    best = levels[0]
    for size in range(1, DICE + 1):
        columns, prefixes = DISTINCT_PARENTS[size]
        if size == DICE and out is not None:
            current = out
        else:
            current = work.get(f"best{tag}{size}", len(levels[size]), n)
        np.take(best, columns[0], axis=0, out=current, mode="clip")
        np.maximum(current, levels[size], out=current)
        scratch = work.get("scratch", len(levels[size]), n)
        for column, rows in zip(columns[1:], prefixes[1:], strict=True):
            np.take(best, column, axis=0, out=scratch[:rows], mode="clip")
            np.maximum(current[:rows], scratch[:rows], out=current[:rows])
        best = current
    return best


@dataclass(frozen=True)
class TurnValues:
    """Everything one turn's decisions need, for a batch of states.

    ``keeps[r][k][K, s]``: the value of keeping ``K`` (size ``k``) with ``r`` rolls left,
    before rerolling; ``rolls[r][R, s]``: the value of holding roll ``R`` with ``r``
    rolls left (``rolls[0]``: scoring it now); ``start[s]``: the state's value.
    """

    keeps: dict[int, list[np.ndarray]]
    rolls: dict[int, np.ndarray]
    start: np.ndarray


def turn_values(
    trans: Transitions,
    values: np.ndarray,
    m: np.ndarray,
    u: np.ndarray,
    y: np.ndarray,
    work: Workspace | None = None,
) -> TurnValues:
    """Solve one turn for a batch of states, given the values of the states after it."""
    work = work or Workspace()
    final = final_roll_values(trans, values, m, u, y, work)
    keeps1 = keep_values(final, work, "1")
    rolls1 = best_keep(keeps1, work, "1")
    keeps2 = keep_values(rolls1, work, "2")
    rolls2 = best_keep(keeps2, work, "2")
    start = ROLL_PROBABILITY @ rolls2
    return TurnValues({1: keeps1, 2: keeps2}, {0: final, 1: rolls1, 2: rolls2}, start)


def start_values(
    trans: Transitions,
    values: np.ndarray,
    m: np.ndarray,
    u: np.ndarray,
    y: np.ndarray,
    work: Workspace,
) -> np.ndarray:
    """Only ``start`` of :func:`turn_values` (the build's need), in a third less memory: the
    second reroll reuses the first one's buffers (each is dead by then) and ends in the
    final rolls' buffer (read for the last time by the first reroll's maximum)."""
    final = final_roll_values(trans, values, m, u, y, work)
    rolls1 = best_keep(keep_values(final, work), work)
    rolls2 = best_keep(keep_values(rolls1, work), work, out=final)
    return ROLL_PROBABILITY @ rolls2


# -- the whole table -------------------------------------------------------------------------


def _share_values(
    values: np.ndarray, masks: np.ndarray, settled: np.ndarray, shape: Layout
) -> None:
    """After a layer: settled subtotals take the value at 63, and a Yahtzee box still open
    (no 50 in it), or whose 50 earns nothing more, the value without."""
    cap = shape.upper_cap
    block = values[masks]  # a copy, changed in place and written back
    np.copyto(block, block[:, cap : cap + 1, :], where=settled[masks][:, :, None])
    single = ((masks & shape.five_bit) == 0) | (not shape.tracks_five)
    block[single, :, 1] = block[single, :, 0]
    values[masks] = block


def solve(
    rules: Rules,
    workers: int | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int, int], None] | None = None,
    tables: RuleTables | None = None,
    from_mask: int = 0,
) -> StrategyTable:
    """Solve every turn-start state of ``rules``; ``progress(layer, states)`` after each layer.

    With ``from_mask``, only the cards on which those boxes are filled (a sub-problem: the
    last few turns of a game) are solved; ``solved`` says which masks.
    """
    started = time.perf_counter()
    tables = tables or rule_tables(rules)
    trans = transitions(tables)
    shape = trans.layout
    upper_states = shape.upper_states
    reach = upper_reach(shape)
    settled = settled_upper(open_upper_room(shape), shape)
    values = np.zeros((shape.masks, upper_states, 2))
    flat = values.reshape(-1)
    popcount = np.array([bin(mask).count("1") for mask in range(shape.masks)])
    solved = (np.arange(shape.masks) & from_mask) == from_mask
    workers = workers or min(2, os.cpu_count() or 1)
    total_states = done = 0
    local = threading.local()

    def workspace() -> Workspace:
        if not hasattr(local, "work"):
            local.work = Workspace()
        return local.work

    def run(part: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        m, u, y = part
        flat[(m * upper_states + u) * 2 + y] = start_values(trans, values, m, u, y, workspace())

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for layer in range(shape.count - 1, -1, -1):
            masks = np.flatnonzero((popcount == layer) & solved)
            if not len(masks):
                continue
            m, u, y = layer_states(masks, reach, settled, shape)
            total_states += len(m)
            parts = [
                (m[i : i + chunk], u[i : i + chunk], y[i : i + chunk])
                for i in range(0, len(m), chunk)
            ]
            list(pool.map(run, parts))
            del m, u, y, parts  # before the next layer's are made: the build's peak memory
            _share_values(values, masks, settled, shape)
            if progress:
                progress(layer, total_states - done)
            done = total_states
    return StrategyTable(
        rules=rules,
        values=values,
        tables=tables,
        seconds=time.perf_counter() - started,
        states=total_states,
        solved=solved,
    )
