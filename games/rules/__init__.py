"""The rule sets the site plays, as pure immutable values.

No Django here and no randomness: a scorecard and five dice go in, points or a
new scorecard come out, or an :class:`IllegalMove` says why not.

Each rule set is one :class:`RuleSet`, a value: its boxes in printed order, how each
box scores (a :class:`Scoring`: a pattern the dice must show and what they then pay),
its upper bonus, its bonus for an extra five of a kind and whether the Joker rule
holds. Nothing else here knows which rule set it is reading; neither do the engine
and the solver above it.

In every rule set any open box may take a zero, and a box is named by its id (the
enum member's value, e.g. ``"full_house"``) wherever a box is taken.

Every name is imported from here, ``games.rules``; each file holds one part:

* ``base.py``: the dice (``DICE_COUNT``, ``FACES``, ``Dice``), Yahtzee's printed
  figures, :class:`IllegalMove` and the :class:`Breach` it names;
* ``scoring.py``: how a box scores (:class:`Pattern`, :class:`Pays`, :class:`Scoring`);
* ``boxes.py``: the boxes (:class:`Box`; :class:`Category`, :class:`YatzyBox`,
  :class:`YachtBox`; ``CATEGORIES``, ``UPPER``, ``LOWER``);
* ``rulesets.py``: the rule sets (:class:`RuleSet`, ``YAHTZEE_RULES``, ``YATZY_RULES``,
  ``YACHT_RULES``, ``RULESETS``) and :class:`Rules`; what each rule set scores is told
  there;
* ``card.py``: the scorecard and the moves on it (:class:`Scorecard`, :func:`options`,
  :func:`refusal`, :func:`joker_note`, :func:`parse_dice`, :func:`box_points`).
"""

from __future__ import annotations

from games.rules.base import (
    DICE_COUNT,
    FACES,
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    SMALL_STRAIGHT_POINTS,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
    Breach,
    Dice,
    IllegalMove,
)
from games.rules.boxes import (
    _FACE_OF,
    _LABEL_OF,
    _RULESET_OF,
    _SCORING_OF,
    CATEGORIES,
    LOWER,
    UPPER,
    Box,
    Category,
    YachtBox,
    YatzyBox,
)
from games.rules.card import (
    _NUMBER_WORDS,
    Scorecard,
    box_points,
    is_yahtzee,
    joker_note,
    joker_points,
    options,
    parse_dice,
    refusal,
)
from games.rules.rulesets import (
    RULESET_IDS,
    RULESETS,
    YACHT_RULES,
    YAHTZEE_RULES,
    YATZY_RULES,
    BoxDefinition,
    Rules,
    RuleSet,
    _name_of,
    _ruleset,
)
from games.rules.scoring import (
    CHANCE,
    FIVE_OF_A_KIND_50,
    FULL_HOUSE_SUM,
    UPPER_SCORING,
    Pattern,
    Pays,
    Scoring,
    _face,
    _kind,
    _longest_run,
    _straight,
)

__all__ = [
    "CATEGORIES",
    "CHANCE",
    "DICE_COUNT",
    "FACES",
    "FIVE_OF_A_KIND_50",
    "FULL_HOUSE_POINTS",
    "FULL_HOUSE_SUM",
    "LARGE_STRAIGHT_POINTS",
    "LOWER",
    "RULESETS",
    "RULESET_IDS",
    "SMALL_STRAIGHT_POINTS",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "UPPER_SCORING",
    "YACHT_RULES",
    "YAHTZEE_BONUS",
    "YAHTZEE_POINTS",
    "YAHTZEE_RULES",
    "YATZY_RULES",
    "_FACE_OF",
    "_LABEL_OF",
    "_NUMBER_WORDS",
    "_RULESET_OF",
    "_SCORING_OF",
    "Box",
    "BoxDefinition",
    "Breach",
    "Category",
    "Dice",
    "IllegalMove",
    "Pattern",
    "Pays",
    "RuleSet",
    "Rules",
    "Scorecard",
    "Scoring",
    "YachtBox",
    "YatzyBox",
    "_face",
    "_kind",
    "_longest_run",
    "_name_of",
    "_ruleset",
    "_straight",
    "box_points",
    "is_yahtzee",
    "joker_note",
    "joker_points",
    "options",
    "parse_dice",
    "refusal",
]
