"""Who is connected: the running server processes and the game pages open on each."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models

from games.models.tables import Game


class LiveServer(models.Model):
    """A running server process; its heartbeat tells whose connections are still real."""

    id = models.CharField(max_length=32, primary_key=True)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return self.id

    @staticmethod
    def stale_after() -> timedelta:
        """A process not heard of for three heartbeats is gone, and its open pages with it."""
        return timedelta(seconds=3 * max(settings.PRESENCE_HEARTBEAT_SECONDS, 10))


class Connection(models.Model):
    """An open game page (a websocket): who is at the table and how many are watching."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    server = models.ForeignKey(LiveServer, on_delete=models.CASCADE, related_name="connections")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.game_id}:{self.channel_name}"


class SiteConnection(models.Model):
    """An open page of the site for a signed-in account (the site-wide socket that carries
    the inbox badge and invitations): whether a friend is "on the site"."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="site_connections"
    )
    channel_name = models.CharField(max_length=200, unique=True)
    server = models.ForeignKey(
        LiveServer, on_delete=models.CASCADE, related_name="site_connections"
    )
    opened_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id}:{self.channel_name}"


class LastSeen(models.Model):
    """When an account was last on the site: its last page closed, or its last request."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="last_seen"
    )
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"
