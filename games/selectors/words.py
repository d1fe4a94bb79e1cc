"""The boxes' names in the reader's language.

``games/rules.py`` is pure (no Django), so its English labels are translated here, at the
edge: a page shows ``box_name(category)``, never ``category.label``. The names are the ones
Telugu and Uzbek players use, the English one where that is what people say.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from ..rules import Category

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
