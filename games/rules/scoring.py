"""How a box scores: a :class:`Scoring` is a :class:`Pattern` the dice must show and what
they then :class:`Pays`. The rule sets (:mod:`.rulesets`) are built of these values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from games.rules.base import FACES


class Pattern(Enum):
    """What the dice must show for a box to pay anything."""

    FACE = "face"  # dice of one face (``size``): always met, the matched dice may be none
    OF_A_KIND = "of_a_kind"  # ``size`` dice of one face, the highest such face
    TWO_PAIRS = "two_pairs"  # two dice each of two different faces
    FULL_HOUSE = "full_house"  # three of one face and two of another
    STRAIGHT = "straight"  # exactly the faces ``faces``
    RUN = "run"  # ``size`` consecutive faces among the dice
    ANY = "any"  # anything


class Pays(Enum):
    """What the dice pay once the pattern is met."""

    ALL_DICE = "all_dice"  # the sum of all five dice
    MATCHED_DICE = "matched_dice"  # the sum of the dice that make the pattern
    FIXED = "fixed"  # ``points``


@dataclass(frozen=True)
class Scoring:
    """How one box scores: a pattern and its pay. A roll without the pattern scores 0."""

    pattern: Pattern
    pays: Pays
    size: int = 0
    faces: tuple[int, ...] = ()
    points: int = 0

    def matched(self, dice: Sequence[int]) -> tuple[int, ...] | None:
        """The dice that make the pattern, or None if the dice do not show it."""
        counts = Counter(dice)
        pattern = self.pattern
        if pattern is Pattern.FACE:
            return (self.size,) * counts[self.size]
        if pattern is Pattern.OF_A_KIND:
            faces = [face for face in FACES if counts[face] >= self.size]
            return (faces[-1],) * self.size if faces else None
        if pattern is Pattern.TWO_PAIRS:
            pairs = [face for face in FACES if counts[face] >= 2]
            return (pairs[-2],) * 2 + (pairs[-1],) * 2 if len(pairs) >= 2 else None
        if pattern is Pattern.FULL_HOUSE:
            return tuple(dice) if sorted(counts.values()) == [2, 3] else None
        if pattern is Pattern.STRAIGHT:
            return tuple(dice) if tuple(sorted(dice)) == self.faces else None
        if pattern is Pattern.RUN:
            return tuple(dice) if _longest_run(dice) >= self.size else None
        return tuple(dice)  # ANY

    def points_for(self, dice: Sequence[int]) -> int:
        """What ``dice`` score in this box."""
        if self.pays is Pays.MATCHED_DICE and self.pattern is Pattern.FACE:  # the upper boxes
            return self.size * sum(1 for die in dice if die == self.size)
        matched = self.matched(dice)
        if matched is None:
            return 0
        return self.pay(dice, matched)

    def full_value(self, dice: Sequence[int]) -> int:
        """What ``dice`` score here as a Joker: as if the pattern were met."""
        return self.pay(dice, self.matched(dice) or tuple(dice))

    def pay(self, dice: Sequence[int], matched: Sequence[int]) -> int:
        if self.pays is Pays.FIXED:
            return self.points
        if self.pays is Pays.MATCHED_DICE:
            return sum(matched)
        return sum(dice)


def _face(face: int) -> Scoring:
    return Scoring(Pattern.FACE, Pays.MATCHED_DICE, size=face)


def _kind(size: int, pays: Pays, points: int = 0) -> Scoring:
    return Scoring(Pattern.OF_A_KIND, pays, size=size, points=points)


def _straight(faces: Iterable[int], points: int) -> Scoring:
    return Scoring(Pattern.STRAIGHT, Pays.FIXED, faces=tuple(faces), points=points)


def _longest_run(dice: Sequence[int]) -> int:
    faces = set(dice)
    best = run = 0
    for face in FACES:
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


UPPER_SCORING = tuple(_face(face) for face in FACES)
CHANCE = Scoring(Pattern.ANY, Pays.ALL_DICE)
FULL_HOUSE_SUM = Scoring(Pattern.FULL_HOUSE, Pays.ALL_DICE)
FIVE_OF_A_KIND_50 = _kind(5, Pays.FIXED, 50)
