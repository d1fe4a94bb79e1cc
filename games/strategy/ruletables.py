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

from dataclasses import dataclass

import numpy as np

from games import caches
from games.rules import (
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
    Box,
    Category,
    Rules,
    Scorecard,
    options,
)
from games.strategy.rolls_and_keeps import ROLLS, SIDES

CATEGORIES: tuple[Category, ...] = tuple(Category)
BOXES = len(CATEGORIES)  # 13
MASKS = 1 << BOXES  # 8192
UPPER_CAP = UPPER_BONUS_THRESHOLD  # the upper subtotal is tracked up to 63
YAHTZEE_BOX = CATEGORIES.index(Category.YAHTZEE)
YAHTZEE_BIT = 1 << YAHTZEE_BOX
UPPER_BOXES = tuple(i for i, c in enumerate(CATEGORIES) if c.is_upper)
UPPER_MASK = sum(1 << i for i in UPPER_BOXES)
FACE_OF_BOX = np.array([c.face or 0 for c in CATEGORIES], dtype=np.intp)
ORDINARY_ROLL = (1, 2, 3, 4, 6)  # not a Yahtzee: the Joker stays out of it

__all__ = [
    "BOXES",
    "CATEGORIES",
    "MASKS",
    "UPPER_BONUS",
    "UPPER_CAP",
    "YAHTZEE_BONUS",
    "YAHTZEE_BOX",
    "YAHTZEE_POINTS",
    "RuleTables",
    "card_for_mask",
    "mask_of",
    "rule_tables",
]


def mask_of(card: Scorecard) -> int:
    """The filled boxes of ``card`` as a 13-bit mask (bit i is ``list(Category)[i]``)."""
    return sum(1 << i for i, box in enumerate(card.boxes) if box is not None)


def card_for_mask(rules: Rules, mask: int, yahtzee: int = 0) -> Scorecard:
    """A card with the boxes of ``mask`` filled: 0 in each, ``yahtzee`` in the Yahtzee box."""
    boxes = tuple(
        (yahtzee if i == YAHTZEE_BOX else 0) if mask >> i & 1 else None for i in range(BOXES)
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


def _points(rules: Rules) -> np.ndarray:
    # Every box is open on one of these cards, whatever the profile restricts.
    representatives = [card_for_mask(rules, 0), card_for_mask(rules, UPPER_MASK)]
    points = np.full((BOXES, len(ROLLS)), -1, dtype=np.int64)
    for r, roll in enumerate(ROLLS):
        for card in representatives:
            for category, value in options(card, roll).items():
                c = CATEGORIES.index(category)
                if points[c, r] not in (-1, value):
                    raise AssertionError(f"{category} scores {roll} two ways")
                points[c, r] = value
    if (points < 0).any():
        raise AssertionError("some box was never open on the representative cards")
    return points


# Asked while solving (a table being built): some 2 MB per rules profile, of which there
# are two. The site's coach reads its tables from disk and never fills this.
@caches.memoize("solver: what the rules allow, by rules", maxsize=2)
def rule_tables(rules: Rules) -> RuleTables:
    """Ask :func:`games.rules.options` all the solver needs for ``rules`` (cached, read only)."""
    points = _points(rules)
    legal = np.zeros((MASKS, BOXES), dtype=bool)
    joker_legal = np.zeros((MASKS, SIDES, BOXES), dtype=bool)
    joker_points = np.zeros((MASKS, SIDES, BOXES), dtype=np.int16)  # at most 50: 1.3 MB
    index: dict[Box, int] = {category: i for i, category in enumerate(CATEGORIES)}
    yahtzees = [(face,) * 5 for face in range(1, SIDES + 1)]
    for mask in range(MASKS - 1):  # the full card has no options
        card = card_for_mask(rules, mask)
        for category in options(card, ORDINARY_ROLL):
            legal[mask, index[category]] = True
        if mask & YAHTZEE_BIT:
            for f, roll in enumerate(yahtzees):
                for category, value in options(card, roll).items():
                    joker_legal[mask, f, index[category]] = True
                    joker_points[mask, f, index[category]] = value
    for array in (points, legal, joker_legal, joker_points):
        array.flags.writeable = False
    return RuleTables(rules, points, legal, joker_legal, joker_points)
