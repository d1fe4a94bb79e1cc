"""What the rules allow, read from :mod:`games.rules` into arrays the solver can index.

The solver never decides on its own which box a roll may go in or what it scores:
every entry here is the answer of :func:`games.rules.options` on a representative
scorecard. ``options`` depends on the card only through which boxes are open (and
so whether the Yahtzee box is filled, which arms the Joker) and on the rules
profile, and on the dice only through their points and, for an extra Yahtzee,
their face. So one call per filled mask with an ordinary roll gives the boxes an
ordinary roll may use, one call per filled mask and Yahtzee face gives the Joker's
choices, and one call per roll on open cards gives the points. The tests compare
these arrays with ``options`` on random cards and dice.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from games import caches
from games.rules import Box, Rules, Scorecard, options
from games.strategy.rolls_and_keeps import DICE, ROLLS, SIDES

ORDINARY_ROLL = (1, 2, 3, 4, 6)  # not five of a kind: the Joker stays out of it


@dataclass(frozen=True, eq=False)
class Layout:
    """The shape of one rule set's turn-start states, read from its definition.

    A state is (the filled boxes as a mask, bit ``i`` the card's ``i``-th box; the upper
    subtotal capped at the bonus threshold, 0 where there is no upper bonus; whether the
    five-of-a-kind box holds points, which matters only where an extra five of a kind
    earns a bonus). Every part of the solver and the coach reads these figures from here.
    """

    ruleset: str
    boxes: tuple[Box, ...]
    count: int  # boxes on the card: 13 for Yahtzee
    upper_boxes: tuple[int, ...]
    face_of_box: np.ndarray  # (count,) the face an upper box counts, 0 for a lower box
    upper_cap: int  # the upper subtotal is tracked up to this (the bonus threshold)
    upper_bonus: int
    five_box: int  # the five-of-a-kind box's position
    five_points: int  # what five of a kind scores there
    extra_bonus: int  # per extra five of a kind while that box holds points
    most_in_one_turn: int  # the best box's points, the upper bonus it completes, the extra bonus

    @property
    def masks(self) -> int:
        return 1 << self.count

    @property
    def full(self) -> int:
        return self.masks - 1

    @property
    def upper_states(self) -> int:
        return self.upper_cap + 1

    @property
    def upper_mask(self) -> int:
        return sum(1 << i for i in self.upper_boxes)

    @property
    def five_bit(self) -> int:
        return 1 << self.five_box

    @property
    def tracks_five(self) -> bool:
        """Whether the five-of-a-kind box's 50 (or 0) changes what follows (a bonus)."""
        return self.extra_bonus > 0


@functools.cache
def _layout(ruleset: str) -> Layout:
    definition = Rules(ruleset=ruleset).definition
    boxes = definition.boxes
    threshold = definition.upper_bonus_threshold
    five = definition.five_of_a_kind
    upper_best = DICE * SIDES + (definition.upper_bonus if threshold is not None else 0)
    lower_best = max(
        max(box.scoring.points_for(roll), box.scoring.full_value(roll))
        for box in definition.lower_boxes
        for roll in ROLLS
    )
    return Layout(
        ruleset=ruleset,
        boxes=boxes,
        count=len(boxes),
        upper_boxes=tuple(i for i, box in enumerate(boxes) if box.is_upper),
        face_of_box=np.array([box.face or 0 for box in boxes], dtype=np.intp),
        upper_cap=threshold if threshold is not None and definition.upper_bonus else 0,
        upper_bonus=definition.upper_bonus if threshold is not None else 0,
        five_box=boxes.index(five),
        five_points=five.scoring.points_for((SIDES,) * DICE),
        extra_bonus=definition.extra_bonus,
        most_in_one_turn=max(upper_best, lower_best) + definition.extra_bonus,
    )


def layout(rules: Rules) -> Layout:
    """The layout of ``rules``' rule set (the same for all its options)."""
    return _layout(rules.ruleset)


YAHTZEE = layout(Rules())
# Yahtzee's figures, as they were named before there were other rule sets.
CATEGORIES: tuple[Box, ...] = YAHTZEE.boxes
BOXES = YAHTZEE.count  # 13
MASKS = YAHTZEE.masks  # 8192
UPPER_CAP = YAHTZEE.upper_cap  # the upper subtotal is tracked up to 63
UPPER_BONUS = YAHTZEE.upper_bonus
YAHTZEE_BONUS = YAHTZEE.extra_bonus
YAHTZEE_POINTS = YAHTZEE.five_points
YAHTZEE_BOX = YAHTZEE.five_box
YAHTZEE_BIT = YAHTZEE.five_bit
UPPER_BOXES = YAHTZEE.upper_boxes
UPPER_MASK = YAHTZEE.upper_mask
FACE_OF_BOX = YAHTZEE.face_of_box

__all__ = [
    "BOXES",
    "CATEGORIES",
    "MASKS",
    "UPPER_BONUS",
    "UPPER_CAP",
    "YAHTZEE",
    "YAHTZEE_BONUS",
    "YAHTZEE_BOX",
    "YAHTZEE_POINTS",
    "Layout",
    "RuleTables",
    "card_for_mask",
    "layout",
    "mask_of",
    "rule_tables",
]


def mask_of(card: Scorecard) -> int:
    """The filled boxes of ``card`` as a mask (bit i is the card's i-th box)."""
    return sum(1 << i for i, box in enumerate(card.boxes) if box is not None)


def card_for_mask(rules: Rules, mask: int, yahtzee: int = 0) -> Scorecard:
    """A card with the boxes of ``mask`` filled: 0 in each, ``yahtzee`` in the
    five-of-a-kind box."""
    shape = layout(rules)
    boxes = tuple(
        (yahtzee if i == shape.five_box else 0) if mask >> i & 1 else None
        for i in range(shape.count)
    )
    return Scorecard(rules=rules, boxes=boxes)


@dataclass(frozen=True)
class RuleTables:
    """The rules of one profile as arrays.

    ``points[c, r]``: what roll ``r`` scores in box ``c`` (no Joker).
    ``legal[m, c]``: on mask ``m``, box ``c`` may take an ordinary roll (not an extra Yahtzee).
    ``joker_legal[m, f - 1, c]`` and ``joker_points[m, f - 1, c]``: where an extra Yahtzee of
    ``f`` may go on mask ``m`` (Yahtzee box filled) and what it scores there.
    """

    rules: Rules
    points: np.ndarray
    legal: np.ndarray
    joker_legal: np.ndarray
    joker_points: np.ndarray

    @property
    def layout(self) -> Layout:
        return layout(self.rules)


def _points(rules: Rules) -> np.ndarray:
    # Every box is open on one of these cards, whatever the profile restricts.
    shape = layout(rules)
    representatives = [card_for_mask(rules, 0), card_for_mask(rules, shape.upper_mask)]
    points = np.full((shape.count, len(ROLLS)), -1, dtype=np.int64)
    for r, roll in enumerate(ROLLS):
        for card in representatives:
            for category, value in options(card, roll).items():
                c = shape.boxes.index(category)
                if points[c, r] not in (-1, value):
                    raise AssertionError(f"{category} scores {roll} two ways")
                points[c, r] = value
    if (points < 0).any():
        raise AssertionError("some box was never open on the representative cards")
    return points


# Asked while solving (a table being built): some 2 MB per rules profile (8 MB for Yatzy's
# fifteen boxes), of which there are four. The site's coach reads its tables from disk and
# never fills this.
@caches.memoize("solver: what the rules allow, by rules", maxsize=4)
def rule_tables(rules: Rules) -> RuleTables:
    """Ask :func:`games.rules.options` all the solver needs for ``rules`` (cached, read only)."""
    shape = layout(rules)
    points = _points(rules)
    legal = np.zeros((shape.masks, shape.count), dtype=bool)
    joker_legal = np.zeros((shape.masks, SIDES, shape.count), dtype=bool)
    # at most 50: 1.3 MB for Yahtzee
    joker_points = np.zeros((shape.masks, SIDES, shape.count), dtype=np.int16)
    index: dict[Box, int] = {category: i for i, category in enumerate(shape.boxes)}
    yahtzees = [(face,) * 5 for face in range(1, SIDES + 1)]
    for mask in range(shape.masks - 1):  # the full card has no options
        card = card_for_mask(rules, mask)
        for category in options(card, ORDINARY_ROLL):
            legal[mask, index[category]] = True
        if mask & shape.five_bit:
            for f, roll in enumerate(yahtzees):
                for category, value in options(card, roll).items():
                    joker_legal[mask, f, index[category]] = True
                    joker_points[mask, f, index[category]] = value
    for array in (points, legal, joker_legal, joker_points):
        array.flags.writeable = False
    return RuleTables(rules, points, legal, joker_legal, joker_points)
