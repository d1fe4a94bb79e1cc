"""What the site remembers about an account beyond Django's user: its language, its rating
and its practice answers; and the usernames of deleted accounts, which nobody may take."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.options import Ruleset
from games.models.tables import Game


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Blank: never chosen (the browser's language, else English, applies).
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'})"


class Rating(models.Model):
    """An account's skill at one rule set (openskill's Plackett-Luce: mu and sigma), moved
    by every rated game of that rule set; ``ordinal`` (mu - 3 sigma) is the conservative
    rating the leaderboard ranks by. One row per account and rule set: skill at Yahtzee is
    not skill at Yacht."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    ruleset = models.CharField(max_length=10, choices=Ruleset, default=Ruleset.YAHTZEE)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)  # rated games
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="one_rating_per_ruleset"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} ({self.ruleset}): {self.ordinal:.1f}"


class PracticeRecord(models.Model):
    """A person's answers on the practice page: how many, and how many were the best play."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice"
    )
    answered = models.PositiveIntegerField(default=0)
    best = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user} practice: {self.best} of {self.answered}"

    @property
    def accuracy(self) -> float | None:
        return self.best / self.answered if self.answered else None


class PracticeAnswer(models.Model):
    """A person's first answer to one practice position (a decision of a reviewed game):
    only the first answer counts toward their accuracy."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_answers"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    decision = models.PositiveSmallIntegerField()  # its place in the seat's review
    best = models.BooleanField()
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "seat", "decision"], name="one_answer_per_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.game_id}#{self.seat}/{self.decision}"


class RetiredUsername(models.Model):
    """The username of a deleted account. Nobody may sign up under it again (compared as
    Django's sign-up compares usernames, ignoring case), so no one can pass for the old
    player in the games and links that once named them."""

    username = models.CharField(max_length=150, unique=True)
    retired_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.username

    @classmethod
    def is_retired(cls, username: str) -> bool:
        return cls.objects.filter(username__iexact=username).exists()
