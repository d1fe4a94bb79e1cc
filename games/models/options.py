"""The choices a table is opened with: its rule set, its pace, and the computer players a
host may seat."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from games.words import RULESET_NAMES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class Ruleset(models.TextChoices):
    """The rule sets a table may be played by (``games.rules.RULESETS`` holds each one's
    boxes and scoring; these are their ids and names for a reader). A rating is kept per
    rule set, because skill at one is not skill at another."""

    YAHTZEE = "yahtzee", RULESET_NAMES["yahtzee"]
    YATZY = "yatzy", RULESET_NAMES["yatzy"]
    YACHT = "yacht", RULESET_NAMES["yacht"]

    @property
    def rules_url(self) -> str:
        """Where its rules are explained: Yahtzee's at /rules/ as before rule sets."""
        if self is Ruleset.YAHTZEE:
            return reverse("rules")
        return reverse("rules_of", args=[self.value])

    @classmethod
    def from_query(cls, raw: str | None) -> Ruleset | None:
        """The rule set a query string names; Yahtzee when it names none; None for a
        value that is no rule set's id."""
        if raw is None or raw == "":
            return cls.YAHTZEE
        return cls(raw) if raw in cls.values else None


class DiceDraw(models.TextChoices):
    """How a game's dice are drawn (docs/fair-dice.md)."""

    FAIR = "fair", _("Fair dice: the game's own stream")
    SAME = "same", _("The same dice for everyone")


class Pace(models.TextChoices):
    """How long each turn may take, chosen when the table is opened."""

    BLITZ = "blitz", _("Blitz: 30 seconds a turn")
    LIVE = "live", _("Live: 90 seconds a turn")
    RELAXED = "relaxed", _("Relaxed: 5 minutes a turn")
    DAILY = "daily", _("Daily: 24 hours a turn")
    UNTIMED = "untimed", _("Untimed: no clock")

    @property
    def turn_time(self) -> timedelta | None:
        """The clock of one turn (None: no clock)."""
        seconds = {"blitz": 30, "live": 90, "relaxed": 300, "daily": 86400}.get(self.value)
        return timedelta(seconds=seconds) if seconds else None

    @property
    def short_label(self) -> StrOrPromise:
        """The pace in a few words, for a menu as narrow as a phone ("Blitz · 30 s"); the
        board and the lobby say it in full."""
        return {
            "blitz": _("Blitz · 30 s"),
            "live": _("Live · 90 s"),
            "relaxed": _("Relaxed · 5 min"),
            "daily": _("Daily · 24 h"),
            "untimed": _("No clock"),
        }[self.value]

    @classmethod
    def default_for(cls, people: int) -> Pace:
        """Live for two or more people, untimed for one."""
        return cls.LIVE if people > 1 else cls.UNTIMED


class BotLevel(models.TextChoices):
    """Computer players, and the strategy each plays (games/strategy/bots.py)."""

    COACH = "coach", gettext_lazy("Coach")
    COACH_WIN = "coach_win", gettext_lazy("Coach (to win)")
    CASUAL = "casual", gettext_lazy("Casual")
    BEGINNER = "beginner", gettext_lazy("Beginner")

    @property
    def policy(self) -> str:
        return {
            "coach": "optimal",
            "coach_win": "win",
            "casual": "casual",
            "beginner": "greedy",
        }[self.value]

    @property
    def rating(self) -> tuple[float, float]:
        """The fixed public rating (mu, sigma) this computer player is rated at."""
        return {
            "coach": (32.0, 1.0),
            "coach_win": (32.5, 1.0),  # wins a little over half its heads-up games vs Coach
            "casual": (27.0, 1.0),
            "beginner": (20.0, 1.0),
        }[self.value]

    def seat_name(self, number: int = 1) -> str:
        """The name of a seat of this level, the table's ``number``-th (1: no number
        shown), in the active language: "Coach bot", "Coach bot 2"."""
        if number > 1:
            return gettext("%(level)s bot %(number)d") % {"level": self.label, "number": number}
        return gettext("%(level)s bot") % {"level": self.label}

    def stored_name(self, number: int = 1) -> str:
        """The name a seat of this level is stored under (in English, whoever added it):
        what the table's data and its English readers see. Pages name it per reader."""
        with translation.override("en"):
            return self.seat_name(number)

    @property
    def description(self) -> str:
        """How this computer player plays, in a few words."""
        return {
            "coach": gettext("plays perfectly"),
            "coach_win": gettext(
                "plays perfectly, and in the last rounds for the best chance to win"
            ),
            "casual": gettext("strong, sometimes slips"),
            "beginner": gettext("grabs the most points now"),
        }[self.value]
