"""Persistence for games: the Game (with its turn in progress), its Seats (each with a
scorecard) and an append-only Move log. Converts to and from the engine's state."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from .engine import NO_HOLDS, TABLE_KEYS, GameState
from .rules import Rules

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i
CODE_LENGTH = 10


@dataclass(frozen=True)
class Player:
    """Who is acting: an account holder, or a guest known by their session token."""

    name: str
    user_id: int | None = None
    guest: str = ""

    @property
    def is_known(self) -> bool:
        return self.user_id is not None or bool(self.guest)

    def owns(self, seat: Seat) -> bool:
        if self.user_id is not None:
            return seat.user_id == self.user_id
        return bool(self.guest) and not seat.user_id and seat.guest == self.guest

    def hosts(self, game: Game) -> bool:
        if self.user_id is not None:
            return game.host_user_id == self.user_id
        return bool(self.guest) and not game.host_user_id and game.host_guest == self.guest


def no_holds() -> list[bool]:
    return list(NO_HOLDS)


def new_game_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", gettext_lazy("Waiting for players")
        PLAYING = "playing", gettext_lazy("In play")
        FINISHED = "finished", gettext_lazy("Finished")

    code = models.CharField(max_length=16, unique=True, default=new_game_code, editable=False)
    status = models.CharField(max_length=10, choices=Status, default=Status.LOBBY)
    seat_count = models.PositiveSmallIntegerField()
    upper_first = models.BooleanField(default=False)
    is_public = models.BooleanField(default=False)
    # None: decided at the start (on when at most one person plays, the rest being bots).
    coach_hints = models.BooleanField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)

    host_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_games",
    )
    host_guest = models.CharField(max_length=64, blank=True)

    # The turn in progress (meaningful once the game has started).
    rolloff = models.JSONField(default=list, blank=True)
    starter = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_number = models.PositiveSmallIntegerField(default=0)
    dice = models.JSONField(null=True, blank=True)  # None before the turn's first roll
    held = models.JSONField(default=no_holds)
    rolls_left = models.PositiveSmallIntegerField(default=3)

    review = models.JSONField(null=True, blank=True)  # the coach's review, once the game is over
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "is_public", "-created_at"])]

    def __str__(self) -> str:
        return f"Game {self.code} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.code])

    @property
    def rules(self) -> Rules:
        return Rules(upper_first=self.upper_first)

    def engine_state(self, seats: list[Seat]) -> GameState:
        """The engine's view of this started game; ``seats`` ordered by position. The row
        holds the engine's own serialisation of the table, the seats that of the cards."""
        table = {key: getattr(self, key) for key in TABLE_KEYS}
        cards = [seat.scorecard for seat in seats]
        return GameState.from_dict({"rules": self.rules.to_dict(), "cards": cards, **table})

    def store_turn(self, state: GameState) -> None:
        """Copy the engine's table fields onto this row (the caller saves)."""
        data = state.to_dict()
        for key in TABLE_KEYS:
            setattr(self, key, data[key])


class BotLevel(models.TextChoices):
    """Computer players, and the strategy each plays (games/strategy/bots.py)."""

    COACH = "coach", gettext_lazy("Coach")
    CASUAL = "casual", gettext_lazy("Casual")
    BEGINNER = "beginner", gettext_lazy("Beginner")

    @property
    def policy(self) -> str:
        return {"coach": "optimal", "casual": "casual", "beginner": "greedy"}[self.value]

    @property
    def seat_name(self) -> str:
        """The name a seat of this level is stored under: the same whoever added it (the
        label itself is in the reader's language)."""
        with translation.override("en"):
            return str(self.label)

    @property
    def description(self) -> str:
        """How this computer player plays, in a few words."""
        return {
            "coach": gettext("plays perfectly"),
            "casual": gettext("strong, sometimes slips"),
            "beginner": gettext("grabs the most points now"),
        }[self.value]


class Seat(models.Model):
    """A place at a game's table, taken by an account holder, a guest or a computer player."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    guest = models.CharField(max_length=64, blank=True)  # the guest's (or bot's) token
    bot = models.CharField(max_length=10, choices=BotLevel, blank=True)
    name = models.CharField(max_length=40)
    scorecard = models.JSONField(default=dict)
    total = models.PositiveIntegerField(default=0)
    yahtzees = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    mean_loss = models.FloatField(null=True, blank=True)  # per decision, from the review
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]
        indexes = [models.Index(fields=["user", "game"])]

    def __str__(self) -> str:
        return f"{self.name} at {self.game.code}#{self.position}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)


class Move(models.Model):
    """The append-only log of everything that happened in a game, enough to replay it."""

    class Kind(models.TextChoices):
        START = "start", "Start"
        ROLL = "roll", "Roll"
        KEEP = "keep", "Keep"
        SCORE = "score", "Score"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    version = models.PositiveIntegerField()  # the game's version this move produced
    kind = models.CharField(max_length=8, choices=Kind)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_number = models.PositiveSmallIntegerField(default=0)
    dice = models.CharField(max_length=5, blank=True)
    held = models.CharField(max_length=5, blank=True)
    category = models.CharField(max_length=20, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_move_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.game.code} v{self.version} {self.kind}"


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
