"""Arena tournaments (issue 32): anyone free is paired again at once until the clock runs out.

The tournament's own row is its lock row: every pairing and every scoring takes it with
``select_for_update`` first (games/services/tournaments.py), so two server processes pair
one arena exactly once, as "Play now" does per matching key.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models

from games.models.options import Pace, Ruleset
from games.models.tables import Game

ARENA_PACES = (Pace.BLITZ, Pace.LIVE)
MINUTES = (20, 180)
TABLE_SIZES = (2, 3, 4)


class Tournament(models.Model):
    """One arena: from ``starts_at`` for ``minutes``; tables of ``table_size`` people."""

    class Status(models.TextChoices):
        UPCOMING = "upcoming", "upcoming"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"

    name = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_created",
    )
    created_at = models.DateTimeField()
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField()
    pace = models.CharField(max_length=10, choices=Pace)
    table_size = models.PositiveSmallIntegerField()
    ruleset = models.CharField(max_length=10, choices=Ruleset, default=Ruleset.YAHTZEE)
    rated = models.BooleanField(default=True)
    public = models.BooleanField(default=True)
    pinned = models.BooleanField(default=False)  # staff: shown on the home page
    rounds = models.PositiveIntegerField(default=0)  # pairing rounds made so far
    # The winner was announced (every entrant's inbox): the clock ran out, every table ended.
    announced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    def status_at(self, now: datetime) -> str:
        if now < self.starts_at:
            return self.Status.UPCOMING
        if now < self.ends_at:
            return self.Status.RUNNING
        return self.Status.FINISHED


class Entry(models.Model):
    """One account in one tournament: its points, games and winning streak, and whether it
    waits to be paired (``waiting_since``; None while at a table or withdrawn)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField()
    points = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)  # wins in a row, up to now
    withdrawn = models.BooleanField(default=False)
    waiting_since = models.DateTimeField(null=True, blank=True)
    # The accounts of the last table (not the same opponents twice in a row when others wait).
    last_opponents = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_tournament")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentTable(models.Model):
    """A game of a tournament, made in pairing round ``round``; every table of a round
    plays the same-dice draw from the round's ``seed``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_table")
    round = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    scored = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.round}: {self.game_id}"


class Result(models.Model):
    """What one game earned one player in a tournament: written once (the unique row makes
    scoring idempotent, whichever process finishes the game)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField(null=True)  # None: the table was abandoned
    points = models.PositiveSmallIntegerField()
    doubled = models.BooleanField(default=False)  # a win on a streak of two or more

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "game", "user"], name="one_result_per_game_and_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.points} in {self.game_id}"
