"""The scorecard's pieces as a page shows them: rows, boxes, column heads and sums, the
whole card (:class:`Card`, what ``room.html#scorecard`` draws on every page that shows
one: the table, the replay, a practice position), and the roll-off that decided who
starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from games import caches, render_language
from games.rules import Box, Rules, Scorecard
from games.viewmodels.base import ViewModel
from games.viewmodels.coach import BoxHint
from games.viewmodels.move_log import SHORT_LABELS
from games.words import box_name


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
    category: Box
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


@dataclass(frozen=True)
class Bonuses(ViewModel):
    """The bonuses a rule set's card has, as its definition gives them: the upper bonus
    and the subtotal that earns it (no row for it when there is none), and the bonus for
    each extra five of a kind with that box's name (no row when it is 0)."""

    upper_bonus: int
    upper_threshold: int | None
    extra_bonus: int
    five_of_a_kind: str  # the five-of-a-kind box's name, in the render's language


def bonuses_of(rules: Rules) -> Bonuses:
    definition = rules.definition
    return Bonuses(
        definition.upper_bonus,
        definition.upper_bonus_threshold,
        definition.extra_bonus,
        box_name(definition.five_of_a_kind),
    )


@dataclass(frozen=True)
class Card(ViewModel):
    """A scorecard as ``room.html#scorecard`` draws it: a column per seat, the upper and
    the lower section's rows, its rule set's bonuses, and who the boxes the dice could
    fill are drawn for (the player on turn, everyone else; neither where nothing can be
    scored)."""

    columns: Columns
    upper_rows: Sequence[RowView]
    lower_rows: Sequence[RowView]
    bonuses: Bonuses
    for_turn: bool = False
    for_others: bool = False


def column_of(
    position: int, name: str, card: Scorecard, *, is_current: bool = False, in_play: bool = True
) -> ColumnView:
    """One seat's column head and sums; while the game is ``in_play``, how far the upper
    bonus still is, as long as its rule set has one and it can be reached."""
    threshold = card.rules.definition.upper_bonus_threshold
    return ColumnView(
        position,
        name,
        is_current,
        card.upper_subtotal,
        card.upper_bonus,
        max(0, threshold - card.upper_subtotal) if threshold else 0,
        card.yahtzee_bonus_count,
        card.total,
        bonus_open=bool(threshold)
        and in_play
        and not card.upper_bonus
        and any(card[box] is None for box in card.rules.upper_boxes),
    )


def rows_of(boxes: Sequence[Mapping[Box, BoxView]], rules: Rules) -> list[RowView]:
    """The rows of a card of ``rules`` in printed order, each with every column's box
    (``boxes``: one mapping per column)."""
    return [
        RowView(box.value, label, tuple(column[box] for column in boxes), short)
        for box, label, short in _row_labels(render_language.current(), rules.ruleset)
    ]


@caches.memoize("scorecard row labels by language and rule set", maxsize=16)
def _row_labels(language: str, ruleset: str) -> tuple[tuple[Box, str, str], ...]:
    """Each box of ``ruleset`` with its name and its short name, in ``language`` (the one
    active)."""
    boxes = Rules(ruleset=ruleset).boxes
    return tuple((box, box_name(box), str(SHORT_LABELS.get(box.label, box.label))) for box in boxes)


def filled_boxes(card: Scorecard) -> Mapping[Box, BoxView]:
    """A card's boxes as they stand, with nothing to score in them now."""
    return MappingProxyType({box: BoxView(box, card[box], None) for box in card.rules.boxes})


def card_of(
    cards: Sequence[Scorecard],
    names: Sequence[str],
    *,
    current: int | None = None,
    in_play: bool = True,
) -> Card:
    """The card of a page where nothing can be scored (a replay's moment, a practice
    position): one column per scorecard, headed by its name; ``current`` marks the
    column of the seat that moved."""
    rules = cards[0].rules if cards else Rules()
    rows = rows_of([filled_boxes(card) for card in cards], rules)
    columns = Columns(
        column_of(position, name, card, is_current=position == current, in_play=in_play)
        for position, (card, name) in enumerate(zip(cards, names, strict=True))
    )
    upper = len(rules.upper_boxes)
    return Card(columns, tuple(rows[:upper]), tuple(rows[upper:]), bonuses_of(rules))
