"""Advice for a position: every choice with the expected final total it leads to.

An :class:`Advisor` holds one solved :class:`~games.strategy.solver.StrategyTable` and
answers for any scorecard of its rules. It solves the turn being played on demand (one
state, tens of microseconds: :mod:`.quickturn`, remembered in a shared bounded cache) and
reads what comes after from the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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

from .choices import (
    TIE_TOLERANCE,
    Alternatives,
    Choice,
    Option,
    alternatives,
    loss_between,
)
from .dice import DICE, ROLL_INDEX
from .lattice import SUBKEEP_LISTS
from .quickturn import (
    SUBKEEP_INDICES,
    TURNS,
    TurnPieces,
    best_keeps,
    box_future,
    final_values,
    keep_values,
    new_token,
)
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
    known_states,
    transitions,
)

MAX_ROLLS_LEFT = 2  # after the first roll of a turn
_INDEX = {category: i for i, category in enumerate(CATEGORIES)}


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
        self._token = new_token()  # this table's part of the shared turn cache's keys
        self._cache_size = cache_size  # kept for callers; the shared cache is bounded by weight
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

    def _turn(self, state: tuple[int, int, int], rolls_left: int) -> TurnPieces:
        """The pieces of ``state``'s turn that ``rolls_left`` needs (see :mod:`.quickturn`)."""
        key = (self._token, state)
        turn = TURNS.get(key)
        if turn is None:
            turn = TURNS.setdefault(key, TurnPieces(box_future(self._values, state)))
        if rolls_left and turn.final is None:  # two threads may both fill it in: same values
            turn.final = final_values(self._trans, turn.future, state)
        if rolls_left == MAX_ROLLS_LEFT and turn.rolls1 is None:
            turn.rolls1 = best_keeps(turn.final)
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
        turn = self._turn(state, rolls_left)
        base = card.total
        scored = self._box_values(card, dice, state, turn)
        ranked: list[tuple[float, int, int, Option]] = [
            (value, 0, _INDEX[c], Option(c, base + value)) for c, value in scored.items()
        ]
        if rolls_left:
            best_box = max(scored.values())
            after = turn.final if rolls_left == 1 else turn.rolls1
            assert after is not None  # _turn filled in what rolls_left needs
            roll = ROLL_INDEX[tuple(sorted(dice))]
            values = keep_values(after, SUBKEEP_INDICES[roll]).tolist()
            for order, ((keep, _), value) in enumerate(
                zip(SUBKEEP_LISTS[roll], values, strict=True)
            ):
                if rolls_left == 1 and len(keep) == DICE:
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
        turn: TurnPieces,
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


def _outcome(c: int, points: int) -> int:
    """Which next state scoring ``points`` in box ``c`` leads to (see ``Transitions``)."""
    face = int(FACE_OF_BOX[c])
    if face:
        return points // face
    if c == YAHTZEE_BOX:
        return int(points == YAHTZEE_POINTS)
    return 0


__all__ = [
    "TIE_TOLERANCE",
    "Advisor",
    "Alternatives",
    "Choice",
    "Option",
    "alternatives",
    "loss_between",
]
