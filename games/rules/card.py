"""The scorecard and the moves on it: :class:`Scorecard`, what a roll may score where
(:func:`options`, :func:`box_points`, :func:`joker_points`), and why not, in English
(:func:`refusal`, :func:`joker_note`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.base import DICE_COUNT, FACES, Breach, Dice, IllegalMove
from games.rules.boxes import Box
from games.rules.rulesets import Rules, _name_of


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
    """Five of a kind (a Yahtzee, a Yatzy, a Yacht)."""
    return len(set(dice)) == 1


def box_points(category: Box | str, dice: Iterable[int] | str, rules: Rules | None = None) -> int:
    """What ``dice`` score in ``category`` by the printed rules, without the Joker. A box
    carries its rule set; a box named by its id is looked up in ``rules`` (Yahtzee's if
    none)."""
    if not isinstance(category, Box):
        category = (rules or Rules()).box(category)
    return category.scoring.points_for(parse_dice(dice))


def joker_points(category: Box | str, dice: Iterable[int] | str, rules: Rules | None = None) -> int:
    """What an extra Yahtzee scores in a lower box played as a Joker: full value."""
    if not isinstance(category, Box):
        category = (rules or Rules()).box(category)
    return category.scoring.full_value(parse_dice(dice))


_NUMBER_WORDS = {12: "twelve", 13: "thirteen", 15: "fifteen"}


@dataclass(frozen=True)
class Scorecard:
    """One player's scorecard, sized by its rule set. Immutable: :meth:`score` returns a
    new card. Boxes are named by the rule set's boxes or by their ids."""

    rules: Rules = field(default_factory=Rules)
    boxes: tuple[int | None, ...] = ()  # () for an empty card of the rule set
    yahtzee_bonus_count: int = 0

    def __post_init__(self) -> None:
        size = len(self.rules.definition.definitions)
        if not self.boxes:
            object.__setattr__(self, "boxes", (None,) * size)
        elif len(self.boxes) != size:
            raise ValueError(
                f"A {self.rules.definition.name} scorecard has {_NUMBER_WORDS[size]} boxes."
            )

    def __getitem__(self, category: Box | str) -> int | None:
        return self.boxes[self.rules.definition.index(category)]

    def is_open(self, category: Box | str) -> bool:
        return self[category] is None

    @property
    def open_boxes(self) -> tuple[Box, ...]:
        return tuple(
            c for c, box in zip(self.rules.definition.boxes, self.boxes, strict=True) if box is None
        )

    @property
    def upper_subtotal(self) -> int:
        return sum(box or 0 for box in self.boxes[: len(FACES)])

    @property
    def upper_bonus(self) -> int:
        definition = self.rules.definition
        threshold = definition.upper_bonus_threshold
        if threshold is None or self.upper_subtotal < threshold:
            return 0
        return definition.upper_bonus

    @property
    def upper_total(self) -> int:
        return self.upper_subtotal + self.upper_bonus

    @property
    def yahtzee_bonus(self) -> int:
        """The bonus for extra five-of-a-kinds (Yahtzee's 100 each; 0 where there is none)."""
        return self.rules.definition.extra_bonus * self.yahtzee_bonus_count

    @property
    def lower_total(self) -> int:
        """The lower section's boxes plus any Yahtzee bonus, as the printed card adds them."""
        return sum(box or 0 for box in self.boxes[len(FACES) :]) + self.yahtzee_bonus

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
        """Five of a kind rolled while the five-of-a-kind box is already filled (50 or 0)."""
        return is_yahtzee(dice) and self[self.rules.definition.five_of_a_kind] is not None

    def earns_extra_bonus(self, dice: Sequence[int]) -> bool:
        """These dice earn the bonus for an extra five of a kind, where the rules pay one:
        the five-of-a-kind box holds points."""
        definition = self.rules.definition
        return (
            definition.extra_bonus > 0
            and self.is_extra_yahtzee(dice)
            and bool(self[definition.five_of_a_kind])
        )

    def score(self, category: Box | str, dice: Iterable[int] | str) -> Scorecard:
        """Fill ``category`` (a box or its id) with ``dice``; raises :class:`IllegalMove`
        naming why not."""
        dice = parse_dice(dice)
        allowed = options(self, dice)
        box = self.rules.definition.find(category)
        if box is None or box not in allowed:
            raise IllegalMove(str(refusal(self, dice, category)), Breach.BOX_REFUSES)
        boxes = list(self.boxes)
        boxes[self.rules.definition.index(box)] = allowed[box]
        return Scorecard(
            rules=self.rules,
            boxes=tuple(boxes),
            yahtzee_bonus_count=self.yahtzee_bonus_count + int(self.earns_extra_bonus(dice)),
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "boxes": {
                c.value: box
                for c, box in zip(self.rules.definition.boxes, self.boxes, strict=True)
                if box is not None
            },
            "yahtzee_bonus_count": self.yahtzee_bonus_count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules | None = None) -> Scorecard:
        rules = rules or Rules()
        filled = data.get("boxes", {})
        assert isinstance(filled, Mapping)
        return cls(
            rules=rules,
            boxes=tuple(filled.get(c.value) for c in rules.definition.boxes),
            yahtzee_bonus_count=int(data.get("yahtzee_bonus_count", 0)),
        )


def options(card: Scorecard, dice: Iterable[int] | str) -> dict[Box, int]:
    """Every box these dice may go in now, with the points each would score.

    Applies the forced Joker rule to an extra Yahtzee (where the rule set has it) and
    the upper-first option. A complete card has no options.
    """
    dice = parse_dice(dice)
    definition = card.rules.definition
    open_boxes = card.open_boxes
    if definition.joker and card.is_extra_yahtzee(dice):
        matching = definition.for_face(dice[0])
        if card.is_open(matching):
            return {matching: matching.scoring.points_for(dice)}
        open_lower = [c for c in open_boxes if not c.is_upper]
        if open_lower:
            return {c: c.scoring.full_value(dice) for c in open_lower}
        return dict.fromkeys(open_boxes, 0)
    if card.rules.upper_first and any(c.is_upper for c in open_boxes):
        open_boxes = tuple(c for c in open_boxes if c.is_upper)
    return {c: c.scoring.points_for(dice) for c in open_boxes}


def refusal(card: Scorecard, dice: Iterable[int] | str, category: Box | str) -> str | None:
    """Why ``dice`` may not go in ``category`` now, as a sentence; None if they may."""
    dice = parse_dice(dice)
    box = card.rules.definition.find(category)
    if box is None:
        return f"There is no {_name_of(category)} box on the scorecard."
    if not card.is_open(box):
        return f"The {box.label} box is already filled."
    if box in options(card, dice):
        return None
    definition = card.rules.definition
    if definition.joker and card.is_extra_yahtzee(dice):
        five = definition.five_of_a_kind.label
        matching = definition.for_face(dice[0])
        if card.is_open(matching):
            return (
                f"Joker rule: an extra {five} of {dice[0]}s must go in the "
                f"{matching.label} box while it is open."
            )
        return (
            f"Joker rule: an extra {five} goes in an open lower box; "
            "an upper box only takes it once the lower section is full."
        )
    return "Fill all six upper boxes before using the lower section."


def joker_note(card: Scorecard, dice: Iterable[int] | str) -> str | None:
    """A one-line explanation when the Joker rule decides where these dice may go."""
    dice = parse_dice(dice)
    definition = card.rules.definition
    if not definition.joker or not card.is_extra_yahtzee(dice):
        return None
    five = definition.five_of_a_kind.label
    bonus = (
        f"{five} bonus +{definition.extra_bonus}! "
        if card.earns_extra_bonus(dice)
        else f"No bonus: your {five} box holds 0. "
    )
    matching = definition.for_face(dice[0])
    if card.is_open(matching):
        return f"{bonus}Joker rule: it must go in {matching.label}."
    if any(not c.is_upper for c in card.open_boxes):
        return f"{bonus}Joker rule: any open lower box scores full value."
    return f"{bonus}Joker rule: only a zero in an open upper box is left."
