"""The daily game (issue 32): one seed and one rule set per UTC day, played once a day by
anyone, solo, with the same-dice draw (docs/fair-dice.md); the day's entries, and the
inbox reminder an account may ask for."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import dice
from games.models.options import Ruleset
from games.models.tables import Game


def day_start(day: date) -> datetime:
    """The first moment of a UTC day."""
    return datetime.combine(day, time.min, tzinfo=UTC)


# The rule set of each weekday (Monday 0): Yahtzee on most days, Yatzy on Saturdays, Yacht
# on Sundays (the ids of games.rules.RULESETS).
RULESET_OF_WEEKDAY = {5: "yatzy", 6: "yacht"}


def ruleset_of(day: date) -> str:
    return RULESET_OF_WEEKDAY.get(day.weekday(), "yahtzee")


class DailyDay(models.Model):
    """One UTC day of the daily game: its rule set and its secret seed. Made on demand a day
    ahead (the commitment is public from then); the seed is public once the day is over."""

    date = models.DateField(unique=True)
    ruleset = models.CharField(max_length=10, choices=Ruleset)
    seed = models.CharField(max_length=64, editable=False)  # hex; secret until the day ends
    # The coach's own game on the day's dice (best play), played once and kept.
    coach_card = models.JSONField(null=True, blank=True)
    coach_total = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"Daily {self.date.isoformat()} ({self.ruleset})"

    @property
    def commitment(self) -> str:
        return dice.commitment(bytes.fromhex(self.seed))

    @property
    def ends(self) -> datetime:
        """UTC midnight after the day: the seed is published, no game counts after."""
        return day_start(self.date + timedelta(days=1))

    def is_over(self, now: datetime) -> bool:
        return now >= self.ends

    def revealed_seed(self, now: datetime) -> str | None:
        return self.seed if self.is_over(now) else None


class DailyEntry(models.Model):
    """Someone's game of a day: an account's (ranked) or a guest's (unranked), one each."""

    day = models.ForeignKey(DailyDay, on_delete=models.CASCADE, related_name="entries")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="daily_entry")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="daily_entries",
    )
    guest = models.CharField(max_length=64, blank=True)  # the guest's session token
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "user"],
                condition=Q(user__isnull=False),
                name="one_daily_game_per_account",
            ),
            models.UniqueConstraint(
                fields=["day", "guest"], condition=~Q(guest=""), name="one_daily_game_per_guest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.user_id or 'guest'}"


class DailyReminder(models.Model):
    """An account that asked to be reminded in its inbox when the day's game is not played
    (off unless asked), and the last day it was reminded (one entry a day at most)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_reminder"
    )
    remind = models.BooleanField(default=False)
    last_reminded = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {'on' if self.remind else 'off'}"
