"""Persistence for games: the Game (with its turn in progress), its Seats (each with a
scorecard) and an append-only Move log. Converts to and from the engine's state.

``Pace`` and ``BotLevel`` live in games/models/options.py."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from games import dice
from games.clock import clock
from games.engine import NO_HOLDS, TABLE_KEYS, GameState
from games.models.options import BotLevel, DiceDraw, Pace, Ruleset
from games.rules import Rules

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
        ABANDONED = "abandoned", gettext_lazy("Abandoned")

    code = models.CharField(max_length=16, unique=True, default=new_game_code, editable=False)
    status = models.CharField(max_length=10, choices=Status, default=Status.LOBBY)
    seat_count = models.PositiveSmallIntegerField()
    # Which rules the table plays (games.rules.RULESETS); games from before rule sets
    # were Yahtzee.
    ruleset = models.CharField(max_length=10, choices=Ruleset, default=Ruleset.YAHTZEE)
    upper_first = models.BooleanField(default=False)
    is_public = models.BooleanField(default=False)
    # None: decided at the start (on when at most one person plays, the rest being bots).
    coach_hints = models.BooleanField(null=True, blank=True)
    # The coach's word after every keep and box (solo or only against computer players).
    feedback = models.BooleanField(default=False)
    # A rated game moves ratings and shows no coach while it runs; a casual one does
    # neither. Asked for at the creation, settled at the start: a table of one person
    # (alone against computer players included) is always casual.
    rated = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=1)
    pace = models.CharField(max_length=10, choices=Pace, default=Pace.UNTIMED)
    # The pace was left automatic: ``pace`` is the lobby's guess from the seats, decided at
    # the start from who sits down (untimed when one person plays, live otherwise).
    pace_automatic = models.BooleanField(default=False)
    # When the turn in progress began, and when its clock runs out (None: no clock, or
    # not a person's turn). Set by the services with every change of turn.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # When the machine next has something to do here (a computer player's or the coach's
    # move, an expired clock, the review, an e-mail), found by every process's sweep
    # (games/jobs/). Scheduling, not game state: written without a version bump.
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The turn (turn_number) whose "your turn" e-mail, and whose last-hour reminder, went.
    mailed_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    reminded_turn = models.PositiveSmallIntegerField(null=True, blank=True)

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

    # The provably fair dice (games/dice.py): the secret seed drawn at the start (hex;
    # revealed once the game has ended) and how many bytes of its stream have been read.
    server_seed = models.CharField(max_length=64, blank=True, editable=False)
    dice_cursor = models.PositiveIntegerField(default=0)
    # How the dice are drawn: "fair", the game's own stream from its server seed and its
    # seats' seeds; "same", the same-dice draw (games/dice.py, SameDice): ``server_seed``
    # is then the seed shared by every game of the same dice (a daily game, an arena round),
    # set when the game is made.
    dice_draw = models.CharField(max_length=4, choices=DiceDraw, default=DiceDraw.FAIR)
    # The seed stays secret until this moment even once the game has ended (None: revealed
    # at the end): other games still roll the same dice until then.
    seed_secret_until = models.DateTimeField(null=True, blank=True)

    review = models.JSONField(null=True, blank=True)  # the coach's review, once the game is over
    # A series of 1-6 games on one score pad: this is game ``series_game`` of
    # ``series_length``; ``series_first`` is the series' first game (None on the first).
    series_length = models.PositiveSmallIntegerField(default=1)
    series_game = models.PositiveSmallIntegerField(default=1)
    series_first = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="series_games"
    )
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
        return Rules(upper_first=self.upper_first, ruleset=self.ruleset)

    @property
    def rules_url(self) -> str:
        """The page that explains this table's rule set."""
        return Ruleset(self.ruleset).rules_url

    @property
    def in_series(self) -> bool:
        return self.series_length > 1

    @property
    def series_code(self) -> str:
        """The code the series is known by: its first game's."""
        if self.series_first_id is None:
            return self.code
        assert self.series_first is not None
        return self.series_first.code

    @property
    def has_ended(self) -> bool:
        """Finished (or given up): nothing more will be rolled, the seed may be shown."""
        return self.status in ENDED_STATUSES

    # The public commitment carried by a copy of the game that travelled without its secret
    # seed (a snapshot from another process: games/snapshots.py); not a column.
    published_commitment = ""

    @property
    def dice_commitment(self) -> str:
        """The public SHA-256 of the server seed, from the start ("" before it)."""
        if self.server_seed:
            return dice.commitment(bytes.fromhex(self.server_seed))
        return self.published_commitment

    @property
    def seed_is_out(self) -> bool:
        """Ended, and past ``seed_secret_until`` if the seed is shared with other games."""
        if not self.has_ended:
            return False
        return self.seed_secret_until is None or clock.now() >= self.seed_secret_until

    def dice_hidden_from(self, viewer: Player, seats: Iterable[Seat]) -> bool:
        """Whether ``viewer`` may not see this game yet: a game of the same dice as others
        still being played (a daily game before its day ends, an arena round) is shown to
        its own players only, on its pages as over its socket, since its dice would tell
        the others theirs."""
        until = self.seed_secret_until
        if until is None or clock.now() >= until:
            return False
        return not any(viewer.is_known and viewer.owns(seat) for seat in seats)

    @property
    def revealed_seed(self) -> str:
        """The server seed in hex once the game has ended (and, for a seed other games
        share, once they can roll no more with it), else ""."""
        return self.server_seed if self.seed_is_out else ""

    @property
    def same_dice(self) -> bool:
        return self.dice_draw == DiceDraw.SAME

    def engine_state(self, seats: list[Seat]) -> GameState:
        """The engine's view of this started game; ``seats`` ordered by position. The row
        holds the engine's own serialisation of the table, the seats that of the cards."""
        table = {key: getattr(self, key) for key in TABLE_KEYS}
        cards = [seat.scorecard for seat in seats]
        return GameState.from_dict({"rules": self.rules.to_dict(), "cards": cards, **table})

    def store_turn(self, state: GameState) -> None:
        """Copy the engine's table fields onto this row (the caller saves)."""
        data = state.table_dict()
        for key in TABLE_KEYS:
            setattr(self, key, data[key])


# A game in one of these states rolls no more dice: its seed is revealed.
ENDED_STATUSES = frozenset({"finished", "abandoned"})


class Seat(models.Model):
    """A place at a game's table, taken by an account holder, a guest or a computer player."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        AWAY = "away", _("Away: the coach plays for them")
        LEFT = "left", _("Left the game")

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
    # A computer player's place among the table's computer players of its level (1, 2...):
    # with ``bot``, all its name says, so every reader sees it named in their own language.
    bot_number = models.PositiveSmallIntegerField(default=0)
    # A person's display name; a computer player's English name (see ``display_name``);
    # "" for the seat of a deleted account, shown as "A former player".
    name = models.CharField(max_length=40)
    scorecard = models.JSONField(default=dict)
    total = models.PositiveIntegerField(default=0)
    yahtzees = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    mean_loss = models.FloatField(null=True, blank=True)  # per decision, from the review
    # Figures kept once the game is over, so a history sums them in the database instead of
    # reading every scorecard and review: the upper bonus won (set as the game finishes),
    # and from the coach's review the decisions, the points they gave away, what the play
    # was worth and what the dice added (set with the review; None: no skill figures).
    upper_bonus = models.PositiveSmallIntegerField(default=0)
    review_decisions = models.PositiveSmallIntegerField(default=0)
    review_loss = models.FloatField(null=True, blank=True)
    play_worth = models.FloatField(null=True, blank=True)
    luck = models.FloatField(null=True, blank=True)
    # Fair play, from the review of a rated game: the decisions that were real choices and
    # how many of them agreed with the coach's best (None: not reviewed, or casual).
    real_choices = models.PositiveSmallIntegerField(null=True, blank=True)
    coach_agreed = models.PositiveSmallIntegerField(null=True, blank=True)
    # This seat's part of the dice stream's key (games/dice.py): public, frozen at the start.
    client_seed = models.CharField(max_length=64, blank=True)
    # The account's conservative rating right after this game (rated games only).
    rating_after = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status, default=Status.PLAYING)
    left_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # When this person's last open page of the game closed. Presence bookkeeping, written
    # by a queryset update only and never carried by a snapshot (no version bump).
    last_seen = models.DateTimeField(null=True, blank=True)
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

    @property
    def display_name(self) -> str:
        """The name a reader sees: a person's own, a computer player's in the active
        language ("Coach bot 2", "కోచ్ బాట్ 2"); a deleted account's "A former player"."""
        return seat_name(self.name, self.bot, self.bot_number)

    @property
    def coach_plays(self) -> bool:
        """The coach plays this person's turns (away, or left the game)."""
        return not self.bot and self.status != Seat.Status.PLAYING


# The name a deleted account's seats are shown under, in the reader's language.
FORMER_PLAYER = gettext_lazy("A former player")


def seat_name(name: str, bot: str, bot_number: int) -> str:
    """A seat's name as a reader sees it, from its stored name, level and number."""
    if bot:
        return BotLevel(bot).seat_name(bot_number)
    return name or str(FORMER_PLAYER)


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
    by_coach = models.BooleanField(default=False)  # the coach played it on the seat's behalf
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
