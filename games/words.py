"""The game's words in the reader's language: the boxes' names, why a move is refused,
what the Joker rule says.

``games/rules/`` and ``games/engine.py`` are pure (no Django), so their English labels
and sentences are translated here, at the edge: a page shows ``box_name(category)``, never
``category.label``, and a refused move is worded from the rule it breaks, never passed on
from the engine. The names are the ones Telugu and Uzbek players use, the English one
where that is what people say. Pages (selectors) and refusals (services) both use it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games import rules
from games.engine import Action, GameState, Score
from games.rules import Box, Breach, IllegalMove, Rules, Scorecard

# The rule sets' names, by id, in the reader's language (``models.Ruleset`` takes its
# labels from here).
RULESET_NAMES: dict[str, Promise] = {
    "yahtzee": gettext_lazy("Yahtzee"),
    "yatzy": gettext_lazy("Yatzy (Scandinavian)"),
    "yacht": gettext_lazy("Yacht"),
}

# Every rule set's box names, keyed by the box's English label in games/rules/rulesets.py
# (rule sets share the names they share: "Full House", "Chance"). A page reads a box's label
# from its rule set's definition and shows this name for it.
BOX_NAMES: dict[str, Promise] = {
    "Aces": pgettext_lazy("scorecard box", "Aces"),
    "Ones": pgettext_lazy("scorecard box", "Ones"),
    "Twos": pgettext_lazy("scorecard box", "Twos"),
    "Threes": pgettext_lazy("scorecard box", "Threes"),
    "Fours": pgettext_lazy("scorecard box", "Fours"),
    "Fives": pgettext_lazy("scorecard box", "Fives"),
    "Sixes": pgettext_lazy("scorecard box", "Sixes"),
    "3 of a kind": pgettext_lazy("scorecard box", "3 of a kind"),
    "4 of a kind": pgettext_lazy("scorecard box", "4 of a kind"),
    "Full House": pgettext_lazy("scorecard box", "Full House"),
    "Small Straight": pgettext_lazy("scorecard box", "Small Straight"),
    "Large Straight": pgettext_lazy("scorecard box", "Large Straight"),
    "Yahtzee": pgettext_lazy("scorecard box", "Yahtzee"),
    "Chance": pgettext_lazy("scorecard box", "Chance"),
    # Scandinavian Yatzy
    "One Pair": pgettext_lazy("scorecard box", "One Pair"),
    "Two Pairs": pgettext_lazy("scorecard box", "Two Pairs"),
    "Three of a Kind": pgettext_lazy("scorecard box", "Three of a Kind"),
    "Four of a Kind": pgettext_lazy("scorecard box", "Four of a Kind"),
    "Yatzy": pgettext_lazy("scorecard box", "Yatzy"),
    # Yacht
    "Little Straight": pgettext_lazy("scorecard box", "Little Straight"),
    "Big Straight": pgettext_lazy("scorecard box", "Big Straight"),
    "Choice": pgettext_lazy("scorecard box", "Choice"),
    "Yacht": pgettext_lazy("scorecard box", "Yacht"),
}


def box_name(box: Box | str, rules: Rules | None = None) -> str:
    """The name of a box in the active language: a box of any rule set, or a box's id in
    ``rules`` (Yahtzee's when none is given)."""
    if not isinstance(box, Box):
        box = (rules or Rules()).box(box)
    return str(BOX_NAMES.get(box.label, box.label))


def refusal_words(card: Scorecard, dice: Iterable[int] | str, category: Box | str) -> str | None:
    """Why ``dice`` may not go in ``category`` now, in the reader's language; None if they
    may. The same decisions as ``rules.refusal`` (which stays English), worded here. The
    Joker's sentences are met only where the card's rule set has the Joker (Yahtzee)."""
    if rules.refusal(card, dice, category) is None:
        return None
    dice = rules.parse_dice(dice)
    definition = card.rules.definition
    box = definition.find(category)
    if box is None:
        return gettext("A %(ruleset)s scorecard has no such box.") % {
            "ruleset": RULESET_NAMES.get(definition.id, definition.name)
        }
    if not card.is_open(box):
        return gettext("The %(box)s box is already filled.") % {"box": box_name(box)}
    if definition.joker and card.is_extra_yahtzee(dice):
        matching = definition.for_face(dice[0])
        if card.is_open(matching):
            return gettext(
                "Joker rule: an extra Yahtzee of %(face)ss must go in the %(box)s box while "
                "it is open."
            ) % {"face": dice[0], "box": box_name(matching)}
        return gettext(
            "Joker rule: an extra Yahtzee goes in an open lower box; an upper box only takes "
            "it once the lower section is full."
        )
    return gettext("Fill all six upper boxes before using the lower section.")


def joker_words(card: Scorecard, dice: Iterable[int] | str) -> str | None:
    """``rules.joker_note`` in the reader's language: when the Joker rule decides where
    these dice may go, what it says (and whether the extra Yahtzee earned a bonus). None
    where the card's rule set has no Joker."""
    dice = rules.parse_dice(dice)
    definition = card.rules.definition
    if not definition.joker or not card.is_extra_yahtzee(dice):
        return None
    if card.earns_extra_bonus(dice):
        bonus = gettext("Yahtzee bonus +100!")
    else:
        bonus = gettext("No bonus: your Yahtzee box holds 0.")
    matching = definition.for_face(dice[0])
    if card.is_open(matching):
        rule = gettext("Joker rule: it must go in %(box)s.") % {"box": box_name(matching)}
    elif any(not c.is_upper for c in card.open_boxes):
        rule = gettext("Joker rule: any open lower box scores full value.")
    else:
        rule = gettext("Joker rule: only a zero in an open upper box is left.")
    return f"{bonus} {rule}"


# The engine's refusals a player can meet (a second tab, a replayed form, a key pressed at
# the wrong moment), as sentences for them.
BREACHES: dict[Breach, Promise] = {
    Breach.GAME_OVER: gettext_lazy("This game is over."),
    Breach.NOT_YOUR_TURN: gettext_lazy("It is not your turn."),
    Breach.NO_ROLLS_LEFT: gettext_lazy("No rolls left this turn: choose a box to score."),
    Breach.KEEP_BEFORE_ROLL: gettext_lazy("Roll the dice before keeping any."),
    Breach.SCORE_BEFORE_ROLL: gettext_lazy("Roll the dice before choosing a box."),
    Breach.NOT_FIVE_HOLDS: gettext_lazy("Choose which of the five dice to keep."),
}


def refused_move_words(error: IllegalMove, state: GameState, action: Action) -> str:
    """Why the engine refused ``action`` in ``state``, in the reader's language (never the
    engine's own English): from the rule it names, and for a box, which box and why."""
    if error.breach is Breach.BOX_REFUSES and isinstance(action, Score) and state.dice:
        words = refusal_words(state.cards[action.seat], state.dice, action.category)
        if words is not None:
            return words
    if error.breach in BREACHES:
        return str(BREACHES[error.breach])
    return gettext("That move is not allowed now.")
