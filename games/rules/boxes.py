"""The boxes of a scorecard: :class:`Box`, and one enum of boxes per rule set
(:class:`Category` for Yahtzee, :class:`YatzyBox`, :class:`YachtBox`).

What a box is (its label, face, scoring) is read from its rule set's definition; the
tables below that say so are filled by :mod:`.rulesets` once the rule sets exist, so
that this module needs nothing of them to be imported.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from games.rules.base import FACES

if TYPE_CHECKING:
    from games.rules.rulesets import RuleSet
    from games.rules.scoring import Scoring


class Box(Enum):
    """A box of a scorecard; each rule set has its own enum of boxes (its ``value`` is the
    id, e.g. ``"full_house"``). What a box is (its label, face, scoring) is read from its
    rule set's :class:`RuleSet`."""

    @property
    def ruleset(self) -> RuleSet:
        return _RULESET_OF[type(self)]

    @property
    def label(self) -> str:
        """Its English name, as printed on the card."""
        return _LABEL_OF[self]

    @property
    def face(self) -> int | None:
        """The die face an upper box counts, or None for a lower box."""
        return _FACE_OF.get(self)

    @property
    def is_upper(self) -> bool:
        return self in _FACE_OF

    @property
    def scoring(self) -> Scoring:
        return _SCORING_OF[self]


class Category(Box):
    """The thirteen boxes of a Yahtzee scorecard, in the order they are printed."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"

    @classmethod
    def for_face(cls, face: int) -> Category:
        if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
            raise ValueError(f"No upper box counts {face!r}s; faces run from 1 to 6.")
        return UPPER[face - 1]


class YatzyBox(Box):
    """The fifteen boxes of a Scandinavian Yatzy scorecard, in printed order."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    ONE_PAIR = "one_pair"
    TWO_PAIRS = "two_pairs"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    FULL_HOUSE = "full_house"
    CHANCE = "chance"
    YATZY = "yatzy"


class YachtBox(Box):
    """The twelve boxes of a Yacht scorecard, in printed order."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    LITTLE_STRAIGHT = "little_straight"
    BIG_STRAIGHT = "big_straight"
    CHOICE = "choice"
    YACHT = "yacht"


# Iterating a tuple is several times cheaper than iterating the Enum class itself.
CATEGORIES: tuple[Category, ...] = tuple(Category)
UPPER: tuple[Category, ...] = CATEGORIES[:6]
LOWER: tuple[Category, ...] = CATEGORIES[6:]


# What each box is, read from the rule sets (filled by :mod:`.rulesets`, read by :class:`Box`).
_RULESET_OF: dict[type[Box], RuleSet] = {}
_LABEL_OF: dict[Box, str] = {}
_SCORING_OF: dict[Box, Scoring] = {}
_FACE_OF: dict[Box, int] = {}
