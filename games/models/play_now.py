""" "Play now": the queue of people waiting for a table, the lock row each matching key
serialises on, and the waiting pages open on each server process."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models.options import Pace, Ruleset
from games.models.presence import LiveServer
from games.models.tables import Game

# The paces one may queue for: a table that starts at once and is played in one sitting.
QUEUE_PACES = (Pace.BLITZ, Pace.LIVE, Pace.RELAXED)
QUEUE_PLAYERS = (2, 3, 4)


def matching_key(*, pace: str, players: int, rated: bool, ruleset: str = "yahtzee") -> str:
    """The one value people must share to be matched together, built from their choices:
    the rule set, the pace, the table's size, rated or casual."""
    parts = [ruleset, pace, str(players), "rated" if rated else "casual"]
    return "/".join(parts)


class QueueLock(models.Model):
    """One row per matching key: every write to that key's queue (a post, a cancel, a page
    that closes, the sweep) locks it first, so matches happen one at a time per key, on
    PostgreSQL as on SQLite (whose IMMEDIATE transactions already run one at a time)."""

    key = models.CharField(max_length=100, primary_key=True)

    def __str__(self) -> str:
        return self.key


class Ticket(models.Model):
    """One person's place in the queue, from their post until they are matched, play the
    computer, or leave."""

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting"
        MATCHED = "matched", "matched"  # ``game`` is their table (people or the computer)
        # cancelled, every page of it closed, or a rated one whose pause began while it waited
        LEFT = "left", "left"

    key = models.CharField(max_length=100, db_index=True)
    ruleset = models.CharField(max_length=10, choices=Ruleset, default=Ruleset.YAHTZEE)
    pace = models.CharField(max_length=10, choices=Pace)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="play_tickets",
    )
    guest = models.CharField(max_length=64, blank=True)
    name = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status, default=Status.WAITING)
    joined_at = models.DateTimeField()
    # The last time a waiting page asked over HTTP (the post, the page, its no-script
    # reload, status.json): a page without a socket counts as open for a few seconds after.
    seen_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="play_tickets"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="waiting", user__isnull=False),
                name="one_waiting_ticket_per_account",
            ),
            models.UniqueConstraint(
                fields=["guest"],
                condition=Q(status="waiting", user__isnull=True) & ~Q(guest=""),
                name="one_waiting_ticket_per_guest",
            ),
        ]
        indexes = [models.Index(fields=["key", "status", "joined_at"], name="queue_order")]

    def __str__(self) -> str:
        return f"{self.name} in {self.key}: {self.status}"


class TicketPage(models.Model):
    """An open waiting page (a websocket) of a ticket, on one server process. A dead
    process's rows go with its LiveServer row (the heartbeat's sweep)."""

    ticket = models.ForeignKey(Ticket, on_delete=models.CASCADE, related_name="pages")
    channel_name = models.CharField(max_length=200, unique=True)
    server = models.ForeignKey(LiveServer, on_delete=models.CASCADE, related_name="ticket_pages")
    opened_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.ticket_id}:{self.channel_name}"
