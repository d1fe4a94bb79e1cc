"""The boxes' names in the reader's language.

``games/rules.py`` is pure (no Django), so its English labels are translated here, at the
edge: a page shows ``box_name(category)``, never ``category.label``. The names are the ones
Telugu and Uzbek players use, the English one where that is what people say.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy

from .. import rules
from ..rules import Category, Scorecard

BOX_NAMES: dict[Category, Promise] = {
    Category.ONES: pgettext_lazy("scorecard box", "Aces"),
    Category.TWOS: pgettext_lazy("scorecard box", "Twos"),
    Category.THREES: pgettext_lazy("scorecard box", "Threes"),
    Category.FOURS: pgettext_lazy("scorecard box", "Fours"),
    Category.FIVES: pgettext_lazy("scorecard box", "Fives"),
    Category.SIXES: pgettext_lazy("scorecard box", "Sixes"),
    Category.THREE_OF_A_KIND: pgettext_lazy("scorecard box", "3 of a kind"),
    Category.FOUR_OF_A_KIND: pgettext_lazy("scorecard box", "4 of a kind"),
    Category.FULL_HOUSE: pgettext_lazy("scorecard box", "Full House"),
    Category.SMALL_STRAIGHT: pgettext_lazy("scorecard box", "Small Straight"),
    Category.LARGE_STRAIGHT: pgettext_lazy("scorecard box", "Large Straight"),
    Category.YAHTZEE: pgettext_lazy("scorecard box", "Yahtzee"),
    Category.CHANCE: pgettext_lazy("scorecard box", "Chance"),
}


def box_name(category: Category | str) -> str:
    """The name of a box in the active language (a Category or its value)."""
    return str(BOX_NAMES[Category(category)])


def refusal_words(card: Scorecard, dice: Iterable[int] | str, category: Category) -> str | None:
    """Why ``dice`` may not go in ``category`` now, in the reader's language; None if they
    may. The same decisions as ``rules.refusal`` (which stays English), worded here."""
    if rules.refusal(card, dice, category) is None:
        return None
    dice = rules.parse_dice(dice)
    if not card.is_open(category):
        return gettext("The %(box)s box is already filled.") % {"box": box_name(category)}
    if card.is_extra_yahtzee(dice):
        matching = Category.for_face(dice[0])
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
    these dice may go, what it says (and whether the extra Yahtzee earned a bonus)."""
    dice = rules.parse_dice(dice)
    if not card.is_extra_yahtzee(dice):
        return None
    if card[Category.YAHTZEE] == rules.YAHTZEE_POINTS:
        bonus = gettext("Yahtzee bonus +100!")
    else:
        bonus = gettext("No bonus: your Yahtzee box holds 0.")
    matching = Category.for_face(dice[0])
    if card.is_open(matching):
        rule = gettext("Joker rule: it must go in %(box)s.") % {"box": box_name(matching)}
    elif any(not c.is_upper for c in card.open_boxes):
        rule = gettext("Joker rule: any open lower box scores full value.")
    else:
        rule = gettext("Joker rule: only a zero in an open upper box is left.")
    return f"{bonus} {rule}"
