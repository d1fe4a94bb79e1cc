"""The rule sets, as data: each is one :class:`RuleSet` (its boxes in printed order, how
each box scores, its upper bonus, its bonus for an extra five of a kind and whether the
Joker rule holds), and :class:`Rules` names the one a game is played with.

* ``yahtzee`` (Hasbro, with the forced Joker rule): upper boxes score the sum of their
  face; 35 bonus once the upper subtotal reaches 63. Three/Four of a Kind score the sum
  of all dice, Full House 25, Small Straight 30, Large Straight 40, Yahtzee 50, Chance
  the sum. An extra Yahtzee (Yahtzee box already filled) earns a 100 bonus if the
  Yahtzee box holds 50 and none if it holds 0, and is placed by the forced Joker rule:
  the matching upper box if it is open; otherwise any open lower box at full value;
  only when the lower section is full, a zero in any open upper box.
  ``Rules(upper_first=True)``: the six upper boxes must all be filled before any lower
  box may be used.
* ``yatzy`` (Scandinavian, as the ``yatzy-solver`` package's ``yatzy-scandinavian``):
  One Pair (the highest pair) 2v, Two Pairs (two different faces) 2a+2b, Three and
  Four of a Kind 3v and 4v, Small Straight 1-2-3-4-5 15, Large Straight 2-3-4-5-6 20,
  Full House (three and two of different faces) the sum, Chance, Yatzy 50; 50 bonus at
  63 in the upper boxes; no Joker, no bonus for an extra Yatzy.
* ``yacht`` (as Exercism's ``yacht`` exercise states it): Full House the sum, Four of a
  Kind the four dice (five of a kind counts), Little and Big Straight 30, Choice the
  sum, Yacht 50; no bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.base import (
    FACES,
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    SMALL_STRAIGHT_POINTS,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
)
from games.rules.boxes import (
    _FACE_OF,
    _LABEL_OF,
    _RULESET_OF,
    _SCORING_OF,
    Box,
    Category,
    YachtBox,
    YatzyBox,
)
from games.rules.scoring import (
    CHANCE,
    UPPER_SCORING,
    Pattern,
    Pays,
    Scoring,
    _kind,
    _straight,
)


@dataclass(frozen=True)
class BoxDefinition:
    """One box of a rule set: the box, its English name and how it scores."""

    box: Box
    label: str
    scoring: Scoring


@dataclass(frozen=True)
class RuleSet:
    """One rule set, as data: everything the engine and the solver need to know of it.

    The upper boxes (those scoring one face) come first, faces 1 to 6 in order."""

    id: str
    name: str
    definitions: tuple[BoxDefinition, ...]
    upper_bonus: int
    upper_bonus_threshold: int | None
    extra_bonus: int  # per extra five of a kind, while the five-of-a-kind box holds points
    joker: bool  # the forced Joker rule places an extra five of a kind
    has_upper_first: bool  # offers the upper-section-first option
    five_of_a_kind: Box
    _index: dict[Box | str, int] = field(init=False, repr=False, compare=False, hash=False)
    boxes: tuple[Box, ...] = field(init=False, repr=False, compare=False, hash=False)
    upper_boxes: tuple[Box, ...] = field(init=False, repr=False, compare=False, hash=False)
    lower_boxes: tuple[Box, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        faces = [d.scoring.size for d in self.definitions if d.scoring.pattern is Pattern.FACE]
        if faces != list(FACES) or any(
            d.scoring.pattern is Pattern.FACE for d in self.definitions[len(FACES) :]
        ):
            raise ValueError("A rule set's upper boxes are its first six, ones to sixes.")
        index: dict[Box | str, int] = {}
        for position, definition in enumerate(self.definitions):
            index[definition.box] = index[definition.box.value] = position
        object.__setattr__(self, "_index", index)
        # the boxes in printed order, the upper section's and the lower's (read on every move)
        boxes = tuple(d.box for d in self.definitions)
        object.__setattr__(self, "boxes", boxes)
        object.__setattr__(self, "upper_boxes", boxes[: len(FACES)])
        object.__setattr__(self, "lower_boxes", boxes[len(FACES) :])

    def index(self, box: Box | str) -> int:
        """Where ``box`` (a box or its id) sits on the card; ValueError if it is not one."""
        try:
            return self._index[box]
        except (KeyError, TypeError):
            raise ValueError(f"There is no {_name_of(box)} box on a {self.name} card.") from None

    def box(self, box: Box | str) -> Box:
        """The box named by ``box`` (a box of this rule set or its id)."""
        return self.definitions[self.index(box)].box

    def find(self, box: object) -> Box | None:
        """The box named by ``box``, or None if this rule set has no such box."""
        position = self._index.get(box) if isinstance(box, Box | str) else None
        return None if position is None else self.definitions[position].box

    def for_face(self, face: int) -> Box:
        """The upper box that counts ``face``."""
        return self.definitions[face - 1].box


def _name_of(box: object) -> str:
    return repr(box.value) if isinstance(box, Box) else repr(box)


def _ruleset(
    id: str,
    name: str,
    boxes: type[Box],
    lower: Sequence[tuple[str, Scoring]],
    upper_labels: Sequence[str] = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes"),
    **rest: Any,
) -> RuleSet:
    members = tuple(boxes)
    labelled = zip(members, (*upper_labels, *(label for label, _ in lower)), strict=True)
    scorings = (*UPPER_SCORING, *(scoring for _, scoring in lower))
    return RuleSet(
        id=id,
        name=name,
        definitions=tuple(
            BoxDefinition(box, label, scoring)
            for (box, label), scoring in zip(labelled, scorings, strict=True)
        ),
        **rest,
    )


YAHTZEE_RULES = _ruleset(
    "yahtzee",
    "Yahtzee",
    Category,
    [
        ("3 of a kind", _kind(3, Pays.ALL_DICE)),
        ("4 of a kind", _kind(4, Pays.ALL_DICE)),
        ("Full House", Scoring(Pattern.FULL_HOUSE, Pays.FIXED, points=FULL_HOUSE_POINTS)),
        ("Small Straight", Scoring(Pattern.RUN, Pays.FIXED, size=4, points=SMALL_STRAIGHT_POINTS)),
        ("Large Straight", Scoring(Pattern.RUN, Pays.FIXED, size=5, points=LARGE_STRAIGHT_POINTS)),
        ("Yahtzee", _kind(5, Pays.FIXED, YAHTZEE_POINTS)),
        ("Chance", CHANCE),
    ],
    upper_labels=("Aces", "Twos", "Threes", "Fours", "Fives", "Sixes"),
    upper_bonus=UPPER_BONUS,
    upper_bonus_threshold=UPPER_BONUS_THRESHOLD,
    extra_bonus=YAHTZEE_BONUS,
    joker=True,
    has_upper_first=True,
    five_of_a_kind=Category.YAHTZEE,
)

YATZY_RULES = _ruleset(
    "yatzy",
    "Yatzy",
    YatzyBox,
    [
        ("One Pair", _kind(2, Pays.MATCHED_DICE)),
        ("Two Pairs", Scoring(Pattern.TWO_PAIRS, Pays.MATCHED_DICE)),
        ("Three of a Kind", _kind(3, Pays.MATCHED_DICE)),
        ("Four of a Kind", _kind(4, Pays.MATCHED_DICE)),
        ("Small Straight", _straight((1, 2, 3, 4, 5), 15)),
        ("Large Straight", _straight((2, 3, 4, 5, 6), 20)),
        ("Full House", Scoring(Pattern.FULL_HOUSE, Pays.ALL_DICE)),
        ("Chance", CHANCE),
        ("Yatzy", _kind(5, Pays.FIXED, 50)),
    ],
    upper_bonus=50,
    upper_bonus_threshold=63,
    extra_bonus=0,
    joker=False,
    has_upper_first=False,
    five_of_a_kind=YatzyBox.YATZY,
)

YACHT_RULES = _ruleset(
    "yacht",
    "Yacht",
    YachtBox,
    [
        ("Full House", Scoring(Pattern.FULL_HOUSE, Pays.ALL_DICE)),
        ("Four of a Kind", _kind(4, Pays.MATCHED_DICE)),
        ("Little Straight", _straight((1, 2, 3, 4, 5), 30)),
        ("Big Straight", _straight((2, 3, 4, 5, 6), 30)),
        ("Choice", CHANCE),
        ("Yacht", _kind(5, Pays.FIXED, 50)),
    ],
    upper_bonus=0,
    upper_bonus_threshold=None,
    extra_bonus=0,
    joker=False,
    has_upper_first=False,
    five_of_a_kind=YachtBox.YACHT,
)

RULESET_IDS = ("yahtzee", "yatzy", "yacht")
RULESETS: dict[str, RuleSet] = {r.id: r for r in (YAHTZEE_RULES, YATZY_RULES, YACHT_RULES)}

# What each box is, for :class:`Box` to read (the tables live in :mod:`.boxes`).
_RULESET_OF.update({type(r.boxes[0]): r for r in RULESETS.values()})
_LABEL_OF.update({d.box: d.label for r in RULESETS.values() for d in r.definitions})
_SCORING_OF.update({d.box: d.scoring for r in RULESETS.values() for d in r.definitions})
_FACE_OF.update(
    {box: face for r in RULESETS.values() for face, box in enumerate(r.upper_boxes, start=1)}
)


@dataclass(frozen=True)
class Rules:
    """The rules a game is played with: its rule set, and the options that set offers."""

    upper_first: bool = False
    ruleset: str = "yahtzee"

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise ValueError(
                f"There is no rule set {self.ruleset!r}; there are {', '.join(RULESET_IDS)}."
            )
        if self.upper_first and not RULESETS[self.ruleset].has_upper_first:
            raise ValueError(f"{RULESETS[self.ruleset].name} has no upper-first option.")

    @property
    def definition(self) -> RuleSet:
        return RULESETS[self.ruleset]

    @property
    def boxes(self) -> tuple[Box, ...]:
        return self.definition.boxes

    @property
    def upper_boxes(self) -> tuple[Box, ...]:
        return self.definition.upper_boxes

    @property
    def lower_boxes(self) -> tuple[Box, ...]:
        return self.definition.lower_boxes

    def box(self, box: Box | str) -> Box:
        """The box named by ``box`` (a box or its id); ValueError if this game has none."""
        return self.definition.box(box)

    def to_dict(self) -> dict[str, object]:
        return {"upper_first": self.upper_first, "ruleset": self.ruleset}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """Reads :meth:`to_dict`; rules stored before there were rule sets are Yahtzee's."""
        return cls(
            upper_first=bool(data.get("upper_first", False)),
            ruleset=str(data.get("ruleset") or "yahtzee"),
        )
