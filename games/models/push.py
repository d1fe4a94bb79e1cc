"""Web Push: the devices an account asked to be notified on, what it wants to hear of and
how, and the notifications due to go (rows, so a push survives a restart and goes once)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import Game
from games.models.tournaments import Tournament


class PushSubscription(models.Model):
    """One device (a browser's push subscription) of an account."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=800, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:40]}"

    def info(self) -> dict[str, object]:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Channel(models.TextChoices):
    """How an account hears of one kind of news."""

    PUSH = "push", _("Notification on my devices")
    EMAIL = "email", _("E-mail")
    BOTH = "both", _("Both")
    NONE = "none", _("Neither")


class PushKind(models.TextChoices):
    """What a notification is about."""

    YOUR_TURN = "your_turn", _("Your turn")
    LAST_HOUR = "last_hour", _("An hour left on a daily turn")
    INVITATION = "invitation", _("An invitation to a table")
    FRIEND_REQUEST = "friend_request", _("A friend request")
    FRIEND_ACCEPTED = "friend_accepted", _("A friend request accepted")
    TOURNAMENT = "tournament", _("The winner of a tournament you played in")
    TEST = "test", _("A test notification")


# What an account without a row hears: push and e-mail for daily turns, push for the rest.
DEFAULT_CHANNELS = {
    PushKind.YOUR_TURN: Channel.BOTH,
    PushKind.LAST_HOUR: Channel.BOTH,
    PushKind.INVITATION: Channel.PUSH,
    PushKind.FRIEND_REQUEST: Channel.PUSH,
    PushKind.FRIEND_ACCEPTED: Channel.PUSH,
    PushKind.TOURNAMENT: Channel.PUSH,
}


def _channel_field(kind: PushKind) -> models.CharField:
    return models.CharField(
        kind.label, max_length=5, choices=Channel, default=DEFAULT_CHANNELS[kind]
    )


class NotificationSettings(models.Model):
    """How an account hears of each kind of news (e-mail only goes for daily turns)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    your_turn = _channel_field(PushKind.YOUR_TURN)
    last_hour = _channel_field(PushKind.LAST_HOUR)
    invitation = _channel_field(PushKind.INVITATION)
    friend_request = _channel_field(PushKind.FRIEND_REQUEST)
    friend_accepted = _channel_field(PushKind.FRIEND_ACCEPTED)
    tournament = _channel_field(PushKind.TOURNAMENT)

    def __str__(self) -> str:
        return f"notifications of {self.user_id}"


class PushDelivery(models.Model):
    """One notification for one device: due (``due_at`` set) until it went or was given up
    (``sent_at``); kept a day after, for the limits. A process claims it by moving
    ``due_at`` a lease ahead with its own ``claim`` mark in one atomic update."""

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=PushKind)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # The tournament whose winner it announces (the winner is ``sender``).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    turn = models.IntegerField(default=0)  # a turn's number; 0 for news of people
    created_at = models.DateTimeField()
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    claim = models.CharField(max_length=32, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "kind", "game", "turn"],
                condition=models.Q(game__isnull=False),
                name="one_push_a_turn_a_device",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.subscription_id}"
