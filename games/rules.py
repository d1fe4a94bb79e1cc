"""The rule sets the site plays, as pure immutable values.

No Django here and no randomness: a scorecard and five dice go in, points or a
new scorecard come out, or an :class:`IllegalMove` says why not.

Each rule set is one :class:`RuleSet`, a value: its boxes in printed order, how each
box scores (a :class:`Scoring`: a pattern the dice must show and what they then pay),
its upper bonus, its bonus for an extra five of a kind and whether the Joker rule
holds. Nothing else here knows which rule set it is reading; neither do the engine
and the solver above it.

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

In every rule set any open box may take a zero, and a box is named by its id (the
enum member's value, e.g. ``"full_house"``) wherever a box is taken.
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


# -- how a box scores -------------------------------------------------------------------


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


# -- the boxes ---------------------------------------------------------------------------


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


# -- the rule sets -----------------------------------------------------------------------


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
_RULESET_OF: dict[type[Box], RuleSet] = {type(r.boxes[0]): r for r in RULESETS.values()}
_LABEL_OF: dict[Box, str] = {d.box: d.label for r in RULESETS.values() for d in r.definitions}
_SCORING_OF: dict[Box, Scoring] = {
    d.box: d.scoring for r in RULESETS.values() for d in r.definitions
}
_FACE_OF: dict[Box, int] = {
    box: face for r in RULESETS.values() for face, box in enumerate(r.upper_boxes, start=1)
}


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
