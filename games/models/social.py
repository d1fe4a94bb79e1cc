"""The people around a game: friends, friend requests, blocks, who may reach whom, invitations
to a table and each account's inbox.

Friendship is mutual and stored as two rows (one per direction), so "my friends" is one
indexed filter. A block is one row, from the person who blocked; it hides both people from
each other (requests, invitations, statuses, "Play now" pairing) whichever of them asks.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models.tables import Game


class FriendRequestsFrom(models.TextChoices):
    """Who may send an account a friend request."""

    EVERYONE = "everyone", _("Everyone")
    NOBODY = "nobody", _("Nobody")


class InvitationsFrom(models.TextChoices):
    """Who may invite an account to a table."""

    FRIENDS = "friends", _("Friends only")
    EVERYONE = "everyone", _("Everyone")
    NOBODY = "nobody", _("Nobody")


class SocialSettings(models.Model):
    """Who may reach an account; an account without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="social_settings"
    )
    friend_requests_from = models.CharField(
        _("who may send you friend requests"),
        max_length=10,
        choices=FriendRequestsFrom,
        default=FriendRequestsFrom.EVERYONE,
    )
    invitations_from = models.CharField(
        _("who may invite you to tables"),
        max_length=10,
        choices=InvitationsFrom,
        default=InvitationsFrom.FRIENDS,
    )

    def __str__(self) -> str:
        return f"{self.user_id}: {self.friend_requests_from}/{self.invitations_from}"


class Friendship(models.Model):
    """One direction of a mutual friendship: ``user`` counts ``friend`` among their friends.
    Every friendship has both rows, written and removed together."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships"
    )
    friend = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="one_friendship_each_way"),
            models.CheckConstraint(condition=~Q(user=models.F("friend")), name="no_self_friend"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} -> {self.friend_id}"


class FriendRequest(models.Model):
    """A friend request waiting for an answer. Accepting it makes the friendship and deletes
    the request; declining or cancelling deletes it."""

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sender", "receiver"], name="one_request_each_way"),
            models.CheckConstraint(
                condition=~Q(sender=models.F("receiver")), name="no_self_request"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} asks {self.receiver_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: neither reaches or sees the other any more."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_each_way"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="no_self_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"

    @classmethod
    def between(cls, a: int, b: int) -> bool:
        """Either of two accounts blocked the other."""
        return cls.objects.filter(
            Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
        ).exists()

    @classmethod
    def pairs_among(cls, user_ids: list[int]) -> set[frozenset[int]]:
        """Every pair of these accounts in which one blocked the other."""
        rows = cls.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids)
        return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


class Invitation(models.Model):
    """An invitation to a table, open until the table starts or closes (``ended_at``)."""

    class Ending(models.TextChoices):
        STARTED = "started", _("The game has started")
        CLOSED = "closed", _("The table was closed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ending = models.CharField(max_length=10, choices=Ending, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "receiver"], name="one_invitation_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} invites {self.receiver_id} to {self.game_id}"


class InboxItem(models.Model):
    """One entry of an account's inbox. Its sentence is written when it is read, in the
    reader's language, from ``kind``, the sender, the game and ``details`` (never stored as
    text, so a reader who changes language reads every entry in the new one)."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", _("Invitation")
        FRIEND_REQUEST = "friend_request", _("Friend request")
        FRIEND_ACCEPTED = "friend_accepted", _("Friend request accepted")
        YOUR_TURN = "your_turn", _("Your turn")
        GAME_OVER = "game_over", _("Game over")
        DAILY = "daily", _("Daily game")
        TOURNAMENT = "tournament", _("Tournament")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="inbox_items"
    )
    kind = models.CharField(max_length=20, choices=Kind)
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    invitation = models.ForeignKey(
        Invitation, on_delete=models.CASCADE, null=True, blank=True, related_name="inbox_items"
    )
    # What the sentence needs beyond the sender and the game: a place and score, a turn number.
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    read = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["user", "read"], name="inbox_unread")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.kind}"
