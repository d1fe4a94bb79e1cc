"""The official rules of Yahtzee, as pure immutable values.

No Django here and no randomness: a scorecard and five dice go in, points or a
new scorecard come out, or an :class:`IllegalMove` says why not.

Rules implemented (Hasbro, with the forced Joker rule):

* Upper boxes score the sum of their face; 35 bonus once the upper subtotal reaches 63.
* Three/Four of a Kind score the sum of all dice, Full House 25, Small Straight 30,
  Large Straight 40, Yahtzee 50, Chance the sum. Any open box may take a zero.
* An extra Yahtzee (Yahtzee box already filled) earns a 100 bonus if the Yahtzee box
  holds 50 and none if it holds 0, and is placed by the forced Joker rule: the
  matching upper box if it is open; otherwise any open lower box at full value;
  only when the lower section is full, a zero in any open upper box.
* ``Rules(upper_first=True)``: the six upper boxes must all be filled before any
  lower box may be used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

DICE_COUNT = 5
FACES = range(1, 7)
UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = 35
YAHTZEE_BONUS = 100
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
YAHTZEE_POINTS = 50

Dice = tuple[int, int, int, int, int]


class Breach(Enum):
    """Which rule a refused move breaks: for a caller that words the refusal in its own
    language (the sentences here are English)."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NO_ROLLS_LEFT = "no_rolls_left"
    KEEP_BEFORE_ROLL = "keep_before_roll"
    SCORE_BEFORE_ROLL = "score_before_roll"
    NOT_FIVE_HOLDS = "not_five_holds"
    BOX_REFUSES = "box_refuses"  # the box is filled, or the Joker or upper-first rule says no


class IllegalMove(ValueError):
    """A move the rules do not allow; ``str(error)`` is a sentence a player can read (in
    English), ``breach`` the rule it breaks, when it is one a player can meet."""

    def __init__(self, message: str, breach: Breach | None = None) -> None:
        super().__init__(message)
        self.breach = breach


class Category(Enum):
    """The thirteen boxes of a scorecard, in the order they are printed."""

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

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def face(self) -> int | None:
        """The die face an upper box counts, or None for a lower box."""
        return _FACE_OF.get(self)

    @property
    def is_upper(self) -> bool:
        return self in _FACE_OF

    @classmethod
    def for_face(cls, face: int) -> Category:
        if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
            raise ValueError(f"No upper box counts {face!r}s; faces run from 1 to 6.")
        return UPPER[face - 1]


# Iterating a tuple is several times cheaper than iterating the Enum class itself.
CATEGORIES: tuple[Category, ...] = tuple(Category)
UPPER: tuple[Category, ...] = CATEGORIES[:6]
LOWER: tuple[Category, ...] = CATEGORIES[6:]
_FACE_OF = {category: face for face, category in enumerate(UPPER, start=1)}
_LABELS = {
    Category.ONES: "Aces",
    Category.TWOS: "Twos",
    Category.THREES: "Threes",
    Category.FOURS: "Fours",
    Category.FIVES: "Fives",
    Category.SIXES: "Sixes",
    Category.THREE_OF_A_KIND: "3 of a kind",
    Category.FOUR_OF_A_KIND: "4 of a kind",
    Category.FULL_HOUSE: "Full House",
    Category.SMALL_STRAIGHT: "Small Straight",
    Category.LARGE_STRAIGHT: "Large Straight",
    Category.YAHTZEE: "Yahtzee",
    Category.CHANCE: "Chance",
}
_INDEX = {category: index for index, category in enumerate(CATEGORIES)}


@dataclass(frozen=True)
class Rules:
    """The rule options a game is played with."""

    upper_first: bool = False

    def to_dict(self) -> dict[str, bool]:
        return {"upper_first": self.upper_first}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        return cls(upper_first=bool(data.get("upper_first", False)))


def parse_dice(dice: Iterable[int] | str) -> Dice:
    """Five dice as a tuple of ints 1..6; accepts any sequence, or a string like "11123"."""
    if isinstance(dice, str):
        if not (dice.isascii() and dice.isdigit()):
            raise IllegalMove(f"Dice must be five digits from 1 to 6, not {dice!r}.")
        dice = [int(ch) for ch in dice]
    try:
        values = tuple(dice)
    except TypeError:
        raise IllegalMove("Dice must be a sequence of five numbers.") from None
    if len(values) != DICE_COUNT:
        raise IllegalMove(f"A roll has five dice, not {len(values)}.")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in FACES:
            raise IllegalMove(f"A die shows a number from 1 to 6, not {value!r}.")
    return values  # type: ignore[return-value]


def is_yahtzee(dice: Sequence[int]) -> bool:
    return len(set(dice)) == 1


def _longest_run(dice: Sequence[int]) -> int:
    faces = set(dice)
    best = run = 0
    for face in FACES:
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


def box_points(category: Category, dice: Sequence[int]) -> int:
    """What ``dice`` score in ``category`` by the printed rules, without the Joker."""
    counts = Counter(dice)
    most = max(counts.values())
    face = category.face
    if face is not None:
        return face * counts[face]
    if category is Category.THREE_OF_A_KIND:
        return sum(dice) if most >= 3 else 0
    if category is Category.FOUR_OF_A_KIND:
        return sum(dice) if most >= 4 else 0
    if category is Category.FULL_HOUSE:
        return FULL_HOUSE_POINTS if sorted(counts.values()) == [2, 3] else 0
    if category is Category.SMALL_STRAIGHT:
        return SMALL_STRAIGHT_POINTS if _longest_run(dice) >= 4 else 0
    if category is Category.LARGE_STRAIGHT:
        return LARGE_STRAIGHT_POINTS if _longest_run(dice) == 5 else 0
    if category is Category.YAHTZEE:
        return YAHTZEE_POINTS if most == 5 else 0
    return sum(dice)  # Chance


def joker_points(category: Category, dice: Sequence[int]) -> int:
    """What an extra Yahtzee scores in a lower box played as a Joker: full value."""
    if category is Category.FULL_HOUSE:
        return FULL_HOUSE_POINTS
    if category is Category.SMALL_STRAIGHT:
        return SMALL_STRAIGHT_POINTS
    if category is Category.LARGE_STRAIGHT:
        return LARGE_STRAIGHT_POINTS
    return box_points(category, dice)


@dataclass(frozen=True)
class Scorecard:
    """One player's scorecard. Immutable: :meth:`score` returns a new card."""

    rules: Rules = field(default_factory=Rules)
    boxes: tuple[int | None, ...] = (None,) * len(Category)
    yahtzee_bonus_count: int = 0

    def __post_init__(self) -> None:
        if len(self.boxes) != len(Category):
            raise ValueError("A scorecard has thirteen boxes.")

    def __getitem__(self, category: Category) -> int | None:
        return self.boxes[_INDEX[category]]

    def is_open(self, category: Category) -> bool:
        return self[category] is None

    @property
    def open_boxes(self) -> tuple[Category, ...]:
        return tuple(c for c, box in zip(CATEGORIES, self.boxes, strict=True) if box is None)

    @property
    def upper_subtotal(self) -> int:
        return sum(box or 0 for box in self.boxes[:6])

    @property
    def upper_bonus(self) -> int:
        return UPPER_BONUS if self.upper_subtotal >= UPPER_BONUS_THRESHOLD else 0

    @property
    def upper_total(self) -> int:
        return self.upper_subtotal + self.upper_bonus

    @property
    def yahtzee_bonus(self) -> int:
        return YAHTZEE_BONUS * self.yahtzee_bonus_count

    @property
    def lower_total(self) -> int:
        """The lower section's boxes plus any Yahtzee bonus, as the printed card adds them."""
        return sum(box or 0 for box in self.boxes[6:]) + self.yahtzee_bonus

    @property
    def total(self) -> int:
        return self.upper_total + self.lower_total

    @property
    def is_complete(self) -> bool:
        return all(box is not None for box in self.boxes)

    @property
    def filled_count(self) -> int:
        return sum(box is not None for box in self.boxes)

    def is_extra_yahtzee(self, dice: Sequence[int]) -> bool:
        """Five of a kind rolled while the Yahtzee box is already filled (50 or 0)."""
        return is_yahtzee(dice) and self[Category.YAHTZEE] is not None

    def score(self, category: Category, dice: Iterable[int] | str) -> Scorecard:
        """Fill ``category`` with ``dice``; raises :class:`IllegalMove` naming why not."""
        dice = parse_dice(dice)
        allowed = options(self, dice)
        if category not in allowed:
            raise IllegalMove(str(refusal(self, dice, category)), Breach.BOX_REFUSES)
        bonus = self.is_extra_yahtzee(dice) and self[Category.YAHTZEE] == YAHTZEE_POINTS
        boxes = list(self.boxes)
        boxes[_INDEX[category]] = allowed[category]
        return Scorecard(
            rules=self.rules,
            boxes=tuple(boxes),
            yahtzee_bonus_count=self.yahtzee_bonus_count + int(bonus),
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "boxes": {
                c.value: box
                for c, box in zip(CATEGORIES, self.boxes, strict=True)
                if box is not None
            },
            "yahtzee_bonus_count": self.yahtzee_bonus_count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules | None = None) -> Scorecard:
        filled = data.get("boxes", {})
        assert isinstance(filled, Mapping)
        return cls(
            rules=rules or Rules(),
            boxes=tuple(filled.get(c.value) for c in CATEGORIES),
            yahtzee_bonus_count=int(data.get("yahtzee_bonus_count", 0)),
        )


def options(card: Scorecard, dice: Iterable[int] | str) -> dict[Category, int]:
    """Every box these dice may go in now, with the points each would score.

    Applies the forced Joker rule to an extra Yahtzee and the upper-first variant.
    A complete card has no options.
    """
    dice = parse_dice(dice)
    open_boxes = card.open_boxes
    if card.is_extra_yahtzee(dice):
        matching = Category.for_face(dice[0])
        if card.is_open(matching):
            return {matching: box_points(matching, dice)}
        open_lower = [c for c in open_boxes if not c.is_upper]
        if open_lower:
            return {c: joker_points(c, dice) for c in open_lower}
        return {c: 0 for c in open_boxes}
    if card.rules.upper_first and any(c.is_upper for c in open_boxes):
        open_boxes = tuple(c for c in open_boxes if c.is_upper)
    return {c: box_points(c, dice) for c in open_boxes}


def refusal(card: Scorecard, dice: Iterable[int] | str, category: Category) -> str | None:
    """Why ``dice`` may not go in ``category`` now, as a sentence; None if they may."""
    dice = parse_dice(dice)
    if not isinstance(category, Category):
        return f"There is no {category!r} box on the scorecard."
    if not card.is_open(category):
        return f"The {category.label} box is already filled."
    if category in options(card, dice):
        return None
    if card.is_extra_yahtzee(dice):
        matching = Category.for_face(dice[0])
        if card.is_open(matching):
            return (
                f"Joker rule: an extra Yahtzee of {dice[0]}s must go in the "
                f"{matching.label} box while it is open."
            )
        return (
            "Joker rule: an extra Yahtzee goes in an open lower box; "
            "an upper box only takes it once the lower section is full."
        )
    return "Fill all six upper boxes before using the lower section."


def joker_note(card: Scorecard, dice: Iterable[int] | str) -> str | None:
    """A one-line explanation when the Joker rule decides where these dice may go."""
    dice = parse_dice(dice)
    if not card.is_extra_yahtzee(dice):
        return None
    bonus = (
        "Yahtzee bonus +100! "
        if card[Category.YAHTZEE] == YAHTZEE_POINTS
        else "No bonus: your Yahtzee box holds 0. "
    )
    matching = Category.for_face(dice[0])
    if card.is_open(matching):
        return f"{bonus}Joker rule: it must go in {matching.label}."
    if any(not c.is_upper for c in card.open_boxes):
        return f"{bonus}Joker rule: any open lower box scores full value."
    return f"{bonus}Joker rule: only a zero in an open upper box is left."
