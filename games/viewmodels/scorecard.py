"""The scorecard's pieces as a board shows them: rows, boxes, column heads and sums, and the
roll-off that decided who starts."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules import Category
from games.viewmodels.base import ViewModel
from games.viewmodels.coach import BoxHint


@dataclass(frozen=True)
class RowView(ViewModel):
    """One scorecard row: the box, and each seat's cell in it."""

    value: str
    label: str
    boxes: tuple[BoxView, ...]
    short: str = ""  # the box's name on a narrow screen

    def __hash__(self) -> int:
        # Looked up in the rows' memo by both boards of a version: hashed once.
        try:
            return int(self.__dict__["_hash"])
        except KeyError:
            value = hash((self.value, self.label, self.boxes, self.short))
            object.__setattr__(self, "_hash", value)
            return value


@dataclass(frozen=True)
class BoxView(ViewModel):
    category: Category
    value: int | None  # filled value
    option: int | None  # points if scored now (active seat only)
    forbidden: str | None = None  # why not, when the box is open but unavailable
    hint: BoxHint | None = None  # the coach's view of filling it now

    def __hash__(self) -> int:
        # A box recurs move after move (kept in the boxes' memo): hashed once.
        try:
            return int(self.__dict__["_hash"])
        except KeyError:
            value = hash((self.category.value, self.value, self.option, self.forbidden, self.hint))
            object.__setattr__(self, "_hash", value)
            return value


@dataclass(frozen=True)
class RollOffView(ViewModel):
    # Each round's entries: (name, dice, total, leads).
    rounds: tuple[tuple[tuple[str, tuple[int, ...], int, bool], ...], ...]
    starter_name: str


@dataclass(frozen=True)
class ColumnView(ViewModel):
    """One seat's column head and sums in the scorecard."""

    position: int
    name: str
    is_current: bool
    upper_subtotal: int
    upper_bonus: int
    upper_remaining: int
    yahtzee_bonus_count: int
    total: int
    bonus_open: bool = False  # the upper bonus can still be reached: say how far it is


class Columns(tuple[ColumnView, ...]):
    """The scorecard's columns, and each sum row's figures on their own: a row's markup is
    looked up by its figures alone (``{% fragment %}``), so a row no move changed (the
    Yahtzee bonuses, mostly none) is found again at every table."""

    __slots__ = ()

    @property
    def upper_sums(self) -> tuple[tuple[int, int, int], ...]:
        """Each seat's upper subtotal, bonus, and points still needed for the bonus (0 once
        it is won or out of reach)."""
        return tuple(
            (c.upper_subtotal, c.upper_bonus, c.upper_remaining if c.bonus_open else 0)
            for c in self
        )

    @property
    def yahtzee_bonus_counts(self) -> tuple[int, ...]:
        return tuple(c.yahtzee_bonus_count for c in self)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(c.total for c in self)
