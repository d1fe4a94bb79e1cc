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
    Box,
    IllegalMove,
    Rules,
    Scorecard,
    parse_dice,
)
from games.strategy.choices import (
    TIE_TOLERANCE,
    Alternatives,
    Choice,
    Option,
    alternatives,
    loss_between,
)
from games.strategy.fastoption import made_option
from games.strategy.quickturn import (
    SUBKEEP_CHOICES,
    SUBKEEP_INDICES,
    TURNS,
    FinalRolls,
    TurnPieces,
    best_of_keeps,
    box_future,
    keep_values,
    new_token,
)
from games.strategy.rollboxes import RollBoxes
from games.strategy.rolls_and_keeps import ROLL_INDEX
from games.strategy.ruletables import MASKS, mask_of
from games.strategy.solver import (
    StrategyTable,
    Transitions,
    known_states,
    transitions,
)

MAX_ROLLS_LEFT = 2  # after the first roll of a turn
FULL_MASK = MASKS - 1  # Yahtzee's; an advisor's own is ``layout.full``


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
        self.layout = table.tables.layout
        self._values = table.values
        self._known = known_states(self.layout)
        self._trans = trans or transitions(table.tables)
        self._boxes = RollBoxes(self._trans)
        self._final = FinalRolls(self._trans)
        self._token = new_token()  # this table's part of the shared turn cache's keys
        self._cache_size = cache_size  # kept for callers; the shared cache is bounded by weight
        self._myopic: Advisor | None = None

    @property
    def transitions(self) -> Transitions:
        """The rule tables as the solver's indices (shared by the coach's other tools)."""
        return self._trans

    # -- states --------------------------------------------------------------------------
    def state(self, card: Scorecard, mask: int | None = None) -> tuple[int, int, int]:
        """``card``'s place in this advisor's table: (open boxes mask, upper subtotal up to
        the bonus, whether the Yahtzee box holds 50); ValueError for a card it cannot answer."""
        if card.rules is not self.rules and card.rules != self.rules:
            raise ValueError(f"This advisor plays {self.rules}, not {card.rules}.")
        if mask is None:
            mask = mask_of(card)
        shape = self.layout
        upper = min(card.upper_subtotal, shape.upper_cap)
        if not self.table.solved[mask]:
            raise ValueError("This advisor's table does not cover that scorecard.")
        if not self._known[mask, upper]:
            raise ValueError("No game reaches this scorecard: its upper boxes cannot add up so.")
        held_50 = int(shape.tracks_five and card.boxes[shape.five_box] == shape.five_points)
        return mask, upper, held_50

    def _future(self, card: Scorecard) -> float:
        if card.is_complete:
            return 0.0
        mask, upper, held_50 = self.state(card)
        return float(self._values[mask, upper, held_50])

    def _turn(self, state: tuple[int, int, int], rolls_left: int) -> TurnPieces:
        """The pieces of ``state``'s turn that ``rolls_left`` needs (see :mod:`.quickturn`)."""
        key = (self._token, state)
        turn = TURNS.get(key)
        if turn is None:
            turn = TURNS.setdefault(key, TurnPieces(box_future(self._values, state, self.layout)))
        if rolls_left and turn.keeps1 is None:  # two threads may both fill it in: same values
            turn.keeps1 = keep_values(self._final(turn.future, state))
        if rolls_left == MAX_ROLLS_LEFT and turn.rolls1 is None:
            assert turn.keeps1 is not None
            turn.rolls1 = best_of_keeps(turn.keeps1)
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
        mask = mask_of(card)
        if mask == self.layout.full:
            return []
        state = self.state(card, mask)
        turn = self._turn(state, rolls_left)
        roll = ROLL_INDEX[tuple(sorted(dice))]
        choices, values = self._boxes.values(turn.future, state, roll)
        if rolls_left == 1:
            assert turn.keeps1 is not None  # _turn filled in what rolls_left needs
            keeps = turn.keeps1.take(SUBKEEP_INDICES[roll]).tolist()
            keeps[-1] = max(values)  # keeping all five: the best box, added up the same way
        elif rolls_left:
            assert turn.rolls1 is not None
            keeps = keep_values(turn.rolls1, SUBKEEP_INDICES[roll]).tolist()
        if rolls_left:
            choices += SUBKEEP_CHOICES[roll]
            values += keeps
        base = card.total
        # a stable sort: on equal values the boxes (in the card's order) before the keeps
        order = sorted(range(len(values)), key=values.__getitem__, reverse=True)
        return [made_option(choices[i], base + values[i]) for i in order]

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
        wanted = choice if isinstance(choice, Box) else tuple(sorted(choice))
        for option in ranking:
            if option.choice == wanted:
                return loss_between(ranking[0], option)
        if isinstance(wanted, Box):
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


__all__ = [
    "TIE_TOLERANCE",
    "Advisor",
    "Alternatives",
    "Choice",
    "Option",
    "alternatives",
    "loss_between",
]
