"""Advice for a position: every choice with the expected final total it leads to.

An :class:`Advisor` holds one solved :class:`~games.strategy.solver.StrategyTable` and
answers for any scorecard of its rules. It solves the turn being played on demand (one
state, a millisecond or so, remembered) and reads what comes after from the table.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from games.rules import (
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
    Category,
    IllegalMove,
    Rules,
    Scorecard,
    options,
    parse_dice,
)

from .dice import DICE, LEVEL_INDEX, sub_keeps
from .ruletables import (
    CATEGORIES,
    FACE_OF_BOX,
    UPPER_CAP,
    YAHTZEE_BOX,
    mask_of,
)
from .solver import (
    StrategyTable,
    Transitions,
    TurnValues,
    Workspace,
    future_values,
    known_states,
    transitions,
    turn_values,
)

Choice = tuple[int, ...] | Category
MAX_ROLLS_LEFT = 2  # after the first roll of a turn
#: Two expected totals closer than this are equal: the solver adds the same points up in
#: different orders, so options equal in fact can differ by ~1e-14 (never by 1e-9 for real).
TIE_TOLERANCE = 1e-9
_INDEX = {category: i for i, category in enumerate(CATEGORIES)}


@dataclass(frozen=True)
class Option:
    """One choice in a position and the expected final total of the card if it is taken.

    ``choice`` is a sorted tuple of the dice kept for the next roll, or the
    :class:`~games.rules.Category` to score now.
    """

    choice: Choice
    expected_total: float

    @property
    def is_keep(self) -> bool:
        return isinstance(self.choice, tuple)

    def to_dict(self, best: Option | None = None) -> dict[str, object]:
        """The option for the wire: ``choice`` a box name or the list of dice kept, and its
        ``loss`` against ``best`` (ties under :data:`TIE_TOLERANCE` count as 0)."""
        return {
            "kind": "keep" if self.is_keep else "box",
            "choice": list(self.choice) if isinstance(self.choice, tuple) else self.choice.value,
            "expected_total": round(self.expected_total, 3),
            "loss": round(loss_between(best, self), 3) if best is not None else 0.0,
        }


@dataclass(frozen=True)
class Alternatives:
    """The best few choices of a position, and the one a player chose among all of them.

    ``top`` holds up to ``n`` options best first, without "keep all five" (a roll spent
    on nothing); ``chosen`` is the chosen option, ``place`` its 1-based place in the full
    ranking and ``loss`` what it gave away against the best (0 for a tie).
    """

    top: tuple[Option, ...]
    chosen: Option | None = None
    place: int | None = None
    loss: float = 0.0

    def to_dict(self) -> dict[str, object]:
        best = self.top[0] if self.top else None
        return {
            "top": [option.to_dict(best) for option in self.top],
            "chosen": self.chosen.to_dict(best) if self.chosen is not None else None,
            "place": self.place,
            "loss": round(self.loss, 3),
        }


def alternatives(
    ranking: Sequence[Option], n: int = 5, chosen: Choice | Sequence[int] | None = None
) -> Alternatives:
    """The top ``n`` of a ranking (from :meth:`Advisor.rank`) and the chosen option's place."""
    top = tuple(o for o in ranking if not (o.is_keep and len(o.choice) == DICE))[:n]
    if chosen is None or not ranking:
        return Alternatives(top)
    wanted = chosen if isinstance(chosen, Category) else tuple(sorted(chosen))
    for place, option in enumerate(ranking, start=1):
        if option.choice == wanted:
            return Alternatives(top, option, place, loss_between(ranking[0], option))
    raise IllegalMove(f"{wanted} is not a choice in this position.")


@dataclass(frozen=True)
class _Turn:
    values: TurnValues
    future: np.ndarray  # (13, 6): bonus + value of the next turn per box and outcome


class Advisor:
    """Optimal-play advice for one rules profile, from a solved table."""

    def __init__(
        self,
        table: StrategyTable,
        trans: Transitions | None = None,
        cache_size: int = 4096,
    ) -> None:
        self.table = table
        self.rules: Rules = table.rules
        self._values = table.values
        self._known = known_states()
        self._trans = trans or transitions(table.tables)
        self._turns: OrderedDict[tuple[int, int, int], _Turn] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._myopic: Advisor | None = None

    @property
    def transitions(self) -> Transitions:
        """The rule tables as the solver's indices (shared by the coach's other tools)."""
        return self._trans

    # -- states --------------------------------------------------------------------------
    def _state(self, card: Scorecard) -> tuple[int, int, int]:
        if card.rules != self.rules:
            raise ValueError(f"This advisor plays {self.rules}, not {card.rules}.")
        mask = mask_of(card)
        upper = min(card.upper_subtotal, UPPER_CAP)
        if not self.table.solved[mask]:
            raise ValueError("This advisor's table does not cover that scorecard.")
        if not self._known[mask, upper]:
            raise ValueError("No game reaches this scorecard: its upper boxes cannot add up so.")
        held_50 = int(card[Category.YAHTZEE] == YAHTZEE_POINTS)
        return mask, upper, held_50

    def _future(self, card: Scorecard) -> float:
        if card.is_complete:
            return 0.0
        mask, upper, held_50 = self._state(card)
        return float(self._values[mask, upper, held_50])

    def _turn(self, state: tuple[int, int, int]) -> _Turn:
        with self._lock:
            turn = self._turns.get(state)
            if turn is not None:
                self._turns.move_to_end(state)
                return turn
        m, u, y = (np.array([v], dtype=np.intp) for v in state)
        values = turn_values(self._trans, self._values, m, u, y, Workspace())
        turn = _Turn(values, future_values(self._values, m, u, y)[:, :, 0])
        with self._lock:
            self._turns[state] = turn
            if len(self._turns) > self._cache_size:
                self._turns.popitem(last=False)
        return turn

    # -- the public questions ----------------------------------------------------------------
    def expected_total(self, card: Scorecard) -> float:
        """Expected final total of ``card`` under optimal play from the start of its next turn."""
        return card.total + self._future(card)

    def rank(self, card: Scorecard, dice: Iterable[int] | str, rolls_left: int) -> list[Option]:
        """Every choice with these dice on the table, best first.

        With rolls left, the choices are every distinct set of dice to keep (keeping all
        five spends a roll and changes nothing) and every box the rules allow now. On
        equal values a box comes before a keep.
        """
        dice = parse_dice(dice)
        if not 0 <= rolls_left <= MAX_ROLLS_LEFT:
            raise ValueError(
                f"After a roll 0 to {MAX_ROLLS_LEFT} rolls are left, not {rolls_left}."
            )
        if card.is_complete:
            return []
        state = self._state(card)
        turn = self._turn(state)
        base = card.total
        scored = self._box_values(card, dice, state, turn)
        ranked: list[tuple[float, int, int, Option]] = [
            (value, 0, _INDEX[c], Option(c, base + value)) for c, value in scored.items()
        ]
        if rolls_left:
            best_box = max(scored.values())
            keeps = turn.values.keeps[rolls_left]
            for order, keep in enumerate(sub_keeps(dice)):
                size = len(keep)
                value = float(keeps[size][LEVEL_INDEX[size][keep], 0])
                if size == DICE and rolls_left == 1:
                    value = best_box  # the same thing, added up the same way
                ranked.append((value, 1, order, Option(keep, base + value)))
        ranked.sort(key=lambda item: (-item[0], item[1], item[2]))
        return [option for *_, option in ranked]

    def best(self, card: Scorecard, dice: Iterable[int] | str, rolls_left: int) -> Option:
        """The best choice (the first of :meth:`rank`)."""
        ranking = self.rank(card, dice, rolls_left)
        if not ranking:
            raise IllegalMove("The scorecard is full.")
        return ranking[0]

    def regret(
        self,
        card: Scorecard,
        dice: Iterable[int] | str,
        rolls_left: int,
        choice: Choice | Sequence[int],
    ) -> float:
        """Expected points lost by ``choice`` against the best choice (0 for a best choice)."""
        ranking = self.rank(card, dice, rolls_left)
        if not ranking:
            raise IllegalMove("The scorecard is full.")
        wanted = choice if isinstance(choice, Category) else tuple(sorted(choice))
        for option in ranking:
            if option.choice == wanted:
                return loss_between(ranking[0], option)
        if isinstance(wanted, Category):
            raise IllegalMove(f"These dice may not go in {wanted.label} now.")
        if not rolls_left:
            raise IllegalMove("No rolls left: choose a box to score.")
        raise IllegalMove(f"{wanted} are not among the dice {tuple(sorted(parse_dice(dice)))}.")

    def top(
        self,
        card: Scorecard,
        dice: Iterable[int] | str,
        rolls_left: int,
        n: int = 5,
        chosen: Choice | Sequence[int] | None = None,
    ) -> Alternatives:
        """The ``n`` best choices with their expected final totals (see :class:`Alternatives`),
        and ``chosen`` with its place and loss if given."""
        return alternatives(self.rank(card, dice, rolls_left), n, chosen)

    def myopic(self) -> Advisor:
        """An advisor that only counts the points of the turn being played (the greedy bot)."""
        if self._myopic is None:
            table = StrategyTable(
                rules=self.rules,
                values=np.zeros_like(self._values),
                tables=self.table.tables,
                solved=np.ones_like(self.table.solved),
            )
            self._myopic = Advisor(table, self._trans, self._cache_size)
            self._myopic._known = np.ones_like(self._known)
        return self._myopic

    # -- helpers --------------------------------------------------------------------------------
    def _box_values(
        self,
        card: Scorecard,
        dice: tuple[int, ...],
        state: tuple[int, int, int],
        turn: _Turn,
    ) -> dict[Category, float]:
        """Points now plus everything after, for each box the rules allow these dice in."""
        bonus = (
            YAHTZEE_BONUS
            if card.is_extra_yahtzee(dice) and card[Category.YAHTZEE] == YAHTZEE_POINTS
            else 0
        )
        values: dict[Category, float] = {}
        for category, points in options(card, dice).items():
            c = _INDEX[category]
            value = float(turn.future[c, _outcome(c, points)]) + points
            values[category] = value + bonus if bonus else value
        return values


def loss_between(best: Option, chosen: Option) -> float:
    """Expected points ``chosen`` gives away against ``best``; a gap below
    :data:`TIE_TOLERANCE` is a floating-point tie, not a loss, and counts as 0."""
    gap = best.expected_total - chosen.expected_total
    return gap if gap >= TIE_TOLERANCE else 0.0


def _outcome(c: int, points: int) -> int:
    """Which next state scoring ``points`` in box ``c`` leads to (see ``Transitions``)."""
    face = int(FACE_OF_BOX[c])
    if face:
        return points // face
    if c == YAHTZEE_BOX:
        return int(points == YAHTZEE_POINTS)
    return 0
