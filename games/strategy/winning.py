"""Playing to win: the choice that maximises the chance of finishing first.

Near the end of a game the best expected score is not the best chance of winning: far
behind, a player must gamble; far ahead, take the sure points. In the last rounds this
is solved exactly. The opponents' final scores are distributions under optimal play from
their current cards (:mod:`.scoredist`); the best of them is below ``x`` with the product
of their chances. Winning with final total ``x`` is worth ``U(x)`` = P(best opponent < x)
+ 1/2 P(best opponent = x) (a tie counts half). The player's own states then carry, besides
the usual (mask, upper, yahtzee50), the total so far ``t``: ``V(s, t)`` is the chance of
winning from turn-start state ``s`` with total ``t``. Each state's turn is solved for a whole
range of totals at once, the totals as the columns of the solver's lattice
(:func:`~games.strategy.solver.keep_values`, :func:`~games.strategy.solver.best_keep`);
ending the turn in box ``c`` with roll ``r`` reads ``V(next, t + gain)``, a shifted row.

Each state reachable from the one being played is solved for the totals it can have: from
``t0`` to ``t0`` plus the most its path can have added (a first pass finds it), so the work
grows with the rounds left, and is known before the lattice runs: the number of columns,
summed over the states (~15 microseconds of CPU each). The last :data:`ALWAYS_SOLVED`
rounds are always solved; with :data:`HORIZON` rounds left, only a position whose plan fits
in :data:`WORK_BOUND` columns (a decision within the time a hint may take; most positions
do); otherwise that decision is played for expected score. See docs/benchmarks.md (#18)
for the time a decision takes and the win rate at each horizon.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from games import caches
from games.rules import Box, Scorecard, parse_dice
from games.strategy.advisor import Advisor
from games.strategy.outcomes import BoxOutcomes, State, box_outcomes, state_of
from games.strategy.rolls_and_keeps import LEVEL_INDEX, ROLL_INDEX, ROLL_PROBABILITY, sub_keeps
from games.strategy.scoredist import final_score_distribution
from games.strategy.solver import TurnValues, Workspace, best_keep, keep_values

HORIZON = 4  # the most rounds solved to win (the last ones); before, play for expected score
ALWAYS_SOLVED = 3  # rounds solved to win whatever the work
WORK_BOUND = 5000  # lattice columns a plan of more rounds may take (~75 ms of CPU)
PROBABILITY_TIE = 1e-12  # chances closer than this are equal: the expected score decides


@dataclass(frozen=True)
class WinOption:
    """A choice and the chance of winning if it is taken (then played to win)."""

    choice: tuple[int, ...] | Box
    win_probability: float
    expected_total: float

    @property
    def is_keep(self) -> bool:
        return isinstance(self.choice, tuple)


def win_utility(opponents: Sequence[np.ndarray], size: int) -> np.ndarray:
    """``U[x]`` for x in 0..size-1: the chance that a final total of ``x`` beats the best of the
    opponents' final-score distributions (ties count half)."""
    below = np.ones(size)  # P(best opponent < x)
    at_or_below = np.ones(size)  # P(best opponent <= x)
    for dist in opponents:
        cdf = np.cumsum(dist)
        padded = np.ones(size + 1)  # padded[x] = P(opponent < x)
        padded[0] = 0.0
        n = min(len(cdf), size)
        padded[1 : n + 1] = cdf[:n]
        below *= padded[:size]
        at_or_below *= padded[1:]
    return below + 0.5 * (at_or_below - below)


class Plan:
    """Win chances of every state reachable from one turn-start state, for one opponent field."""

    def __init__(self, advisor: Advisor, root: State, total: int, utility: np.ndarray) -> None:
        self.trans = advisor.transitions
        self.full = advisor.layout.full
        self.boxes = advisor.layout.count
        self.total = total
        self.utility = utility
        self.known: dict[State, np.ndarray] = {}
        self.outcomes: dict[State, BoxOutcomes] = {}
        #: per state, per legal box: its rolls, the next states they lead to, which of them
        #: each roll leads to (found by the first pass, read again by the second)
        self.endings: dict[State, list[tuple[int, np.ndarray, list[State], np.ndarray]]] = {}
        self._scratch = Workspace()  # the lattice's buffers, shared by every state's turn
        self.reach = self._reach(root)

    @property
    def work(self) -> int:
        """Lattice columns the plan solves: one per reachable (state, total)."""
        return sum(width + 1 for state, width in self.reach.items() if state[0] != self.full)

    def _reach(self, root: State) -> dict[State, int]:
        """Most points each state reachable from ``root`` can have added since (its totals run
        from ``total`` to ``total + reach``): the widths of the rows solved."""
        reach = {root: 0}
        layer = [root]
        while layer:
            following: dict[State, int] = {}
            for state in layer:
                if state[0] == self.full:
                    continue
                out = self.outcomes[state] = box_outcomes(self.trans, state)
                endings = self.endings[state] = []
                for c in np.flatnonzero(out.legal.any(axis=1)).tolist():
                    rolls = np.flatnonzero(out.legal[c])
                    code = out.next_upper[c, rolls] * 2 + out.next_yahtzee[c, rolls]
                    m = int(out.next_mask[c])
                    codes, row = np.unique(code, return_inverse=True)
                    nexts = [(m, k // 2, k % 2) for k in codes.tolist()]
                    endings.append((c, rolls, nexts, row))
                    most = np.full(len(nexts), -1, dtype=np.int64)
                    np.maximum.at(most, row, out.gain[c, rolls])
                    for after, gained in zip(nexts, most.tolist(), strict=True):
                        following[after] = max(following.get(after, 0), reach[state] + gained)
            reach.update(following)
            layer = list(following)
        return reach

    def width(self, state: State) -> int:
        return self.reach[state] + 1

    def value(self, state: State) -> np.ndarray:
        """``V(state, t)`` for t = total .. total + width - 1."""
        known = self.known.get(state)
        if known is None:
            if state[0] == self.full:
                known = self.utility[self.total : self.total + self.width(state)]
            else:
                known = self.turn(state)[1].start
            self.known[state] = known
        return known

    def turn(self, state: State, per_box: bool = False) -> tuple[np.ndarray | None, TurnValues]:
        """The turn of ``state`` solved for its range of totals, and with ``per_box`` the chance
        of winning per box and final roll (-inf where not allowed)."""
        width = self.width(state)
        out = self.outcomes[state]
        columns = np.arange(width)
        rolls_count = out.gain.shape[1]
        final = np.full((rolls_count, width), -np.inf)
        boxes = np.full((self.boxes, rolls_count, width), -np.inf) if per_box else None
        for c, rolls, nexts, row in self.endings[state]:
            found = [self.value(after) for after in nexts]
            rows = np.zeros((len(found), max(len(v) for v in found)))
            for i, v in enumerate(found):  # padding is never read: no roll reaches past a row
                rows[i, : len(v)] = v
            chance = rows[row[:, None], out.gain[c, rolls][:, None] + columns[None, :]]
            final[rolls] = np.maximum(final[rolls], chance)
            if boxes is not None:
                boxes[c, rolls] = chance
        # every state this one leads to was solved above: the scratch buffers are free
        scratch = self._scratch
        keeps1 = keep_values(final, scratch, "1")
        rolls1 = best_keep(keeps1, scratch, "1")
        keeps2 = keep_values(rolls1, scratch, "2")
        rolls2 = best_keep(keeps2, scratch, "2")
        start = ROLL_PROBABILITY @ rolls2
        return boxes, TurnValues({1: keeps1, 2: keeps2}, {0: final, 1: rolls1, 2: rolls2}, start)


_Root = tuple[np.ndarray, dict[int, list[np.ndarray]]] | None
ROOT_CACHE_BYTES = 4 << 20
#: The turn being played, solved to win: a turn's two or three decisions share it. Keyed
#: by the rules, the player's state and total and each opponent's; ~30 KB an entry.
_ROOTS = caches.lru(
    "strategy: turns solved to win by (rules, state, total, opponents)",
    maxsize=ROOT_CACHE_BYTES,
    getsizeof=lambda root: (
        100 if root is None else root[0].nbytes + sum(a.nbytes for v in root[1].values() for a in v)
    ),
)
_TOO_MUCH = "too much work"  # cached for a root whose plan exceeds WORK_BOUND


def _root_turn(advisor: Advisor, card: Scorecard, opponents: Sequence[Scorecard]) -> _Root:
    """Per box and final roll, and per keep with 1 or 2 rolls left: the chance of winning."""
    state = state_of(card)
    key = (
        advisor.rules,
        state,
        card.total,
        tuple(sorted((state_of(o), o.total) for o in opponents)),
    )
    known = _ROOTS.get(key, _TOO_MUCH)
    if known is not _TOO_MUCH:
        return known
    dists = [final_score_distribution(advisor, o) for o in opponents]
    gain_max = advisor.layout.most_in_one_turn
    reach = card.total + len(card.open_boxes) * gain_max + 1
    utility = win_utility(dists, max([reach, *(len(d) for d in dists)]) + gain_max)
    plan = Plan(advisor, state, card.total, utility)
    if len(card.open_boxes) > ALWAYS_SOLVED and plan.work > WORK_BOUND:
        _ROOTS.set(key, None)
        return None
    boxes, turn = plan.turn(state, per_box=True)
    assert boxes is not None
    root = (
        np.ascontiguousarray(boxes[:, :, 0]),
        {r: [level[:, 0].copy() for level in turn.keeps[r]] for r in (1, 2)},
    )
    _ROOTS.set(key, root)
    return root


def rank_to_win(
    advisor: Advisor,
    card: Scorecard,
    dice: Sequence[int] | str,
    rolls_left: int,
    opponents: Sequence[Scorecard],
) -> list[WinOption]:
    """Every choice with these dice, by the chance of finishing ahead of every opponent (each
    playing for expected score from their card), the expected total breaking ties.

    Empty when there is nothing to choose, or when the turn is too much work to solve in a
    hint's time (more than :data:`ALWAYS_SOLVED` rounds left and over :data:`WORK_BOUND`):
    then play for the expected score."""
    dice = parse_dice(dice)
    by_score = advisor.rank(card, dice, rolls_left)
    if not by_score:
        return []
    root = _root_turn(advisor, card, opponents)
    if root is None:
        return []
    boxes, keeps = root
    roll = ROLL_INDEX[tuple(sorted(dice))]
    chance: dict[object, float] = {}
    for c in np.flatnonzero(boxes[:, roll] > -np.inf):
        chance[advisor.layout.boxes[c]] = float(boxes[c, roll])
    if rolls_left:
        levels = keeps[rolls_left]
        for keep in sub_keeps(dice):
            chance[keep] = float(levels[len(keep)][LEVEL_INDEX[len(keep)][keep]])
    ranked = [WinOption(o.choice, chance[o.choice], o.expected_total) for o in by_score]
    # by_score is best expected total first: a stable sort keeps that order among equal chances
    ranked.sort(key=lambda o: -round(o.win_probability / PROBABILITY_TIE))
    return ranked


def plays_to_win(card: Scorecard, seat_count: int, horizon: int = HORIZON) -> bool:
    """Whether a player on ``card`` plays to win: two or more seats, the last rounds."""
    return seat_count >= 2 and len(card.open_boxes) <= horizon
