"""Fair-play review: an account whose rated play agreed with the coach far more often than
strong people do is flagged for a moderator, who clears it or confirms it
(games/services/fair_play.py; the rule and its figures: docs/fair-play.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import Game


class FairPlayReview(models.Model):
    """One flag on an account, over the rated games it was raised on, and what a moderator
    decided. While ``flagged`` or once ``confirmed`` the account is off the leaderboard;
    ``cleared`` puts it back, and those games never raise a flag again. No rating changes."""

    class Status(models.TextChoices):
        FLAGGED = "flagged", _("Flagged: waiting for a moderator")
        CLEARED = "cleared", _("Cleared by a moderator")
        CONFIRMED = "confirmed", _("Confirmed by a moderator")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="fair_play_reviews",
        verbose_name=_("account"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status, default=Status.FLAGGED, db_index=True
    )
    games = models.ManyToManyField(Game, related_name="+", verbose_name=_("rated games"))
    # The figures the flag was raised on, summed over ``games``.
    choices = models.PositiveIntegerField(_("real choices"))
    agreed = models.PositiveIntegerField(_("agreed with the coach"))
    flagged_at = models.DateTimeField(_("flagged at"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        verbose_name = _("fair-play review")
        verbose_name_plural = _("fair-play reviews")
        ordering = ["-flagged_at"]

    def __str__(self) -> str:
        return f"{self.user} ({self.status}, {self.agreed}/{self.choices})"

    @property
    def agreement(self) -> float:
        return self.agreed / self.choices if self.choices else 0.0


# A flag in one of these states keeps the account off the leaderboard.
OFF_THE_LEADERBOARD = (FairPlayReview.Status.FLAGGED, FairPlayReview.Status.CONFIRMED)
