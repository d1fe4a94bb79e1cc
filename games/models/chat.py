"""Table talk (issue 29): what a table allows (``TableChat``), its messages, who muted
which seat, reports to the moderators, silences, and an account's own "chat off".

A quick phrase is stored as its id (``PHRASES``) and put into words when it is read, in the
reader's language; free text is stored as its author wrote it and never translated.
A person is named by :func:`person_key`: ``u:<account id>`` or ``g:<guest token>``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models.tables import Game, Player, Seat

MAX_TEXT = 200


class ChatLevel(models.TextChoices):
    """What a table allows, lowest first: a host may lower it, never raise it."""

    OFF = "off", _("No chat")
    PHRASES = "phrases", _("Quick phrases only")
    TEXT = "text", _("Quick phrases and free text")

    @classmethod
    def rank(cls, level: str) -> int:
        return [cls.OFF, cls.PHRASES, cls.TEXT].index(cls(level))


def chat_level_default(*, is_public: bool, kind: str = "") -> ChatLevel:
    """The chat of a new table, from its kind: a table opened by link talks freely; a
    public one, a "Play now" table (``kind="play_now"``) and a tournament's
    (``kind="tournament"``) have quick phrases only, strangers sitting together."""
    if is_public or kind in ("play_now", "tournament", "public"):
        return ChatLevel.PHRASES
    return ChatLevel.TEXT


# The quick phrases, by their stable ids. msgctxt "chat phrase" keeps them apart from the same
# English words elsewhere ("Yes", "No", "Your turn!").
PHRASES = {
    "hello": pgettext_lazy("chat phrase", "Hello!"),
    "good_luck": pgettext_lazy("chat phrase", "Good luck!"),
    "have_fun": pgettext_lazy("chat phrase", "Have fun!"),
    "nice_roll": pgettext_lazy("chat phrase", "Nice roll!"),
    "well_played": pgettext_lazy("chat phrase", "Well played!"),
    "so_close": pgettext_lazy("chat phrase", "So close!"),
    "ouch": pgettext_lazy("chat phrase", "Ouch!"),
    "wow": pgettext_lazy("chat phrase", "Wow!"),
    "thanks": pgettext_lazy("chat phrase", "Thanks!"),
    "sorry": pgettext_lazy("chat phrase", "Sorry!"),
    "your_turn": pgettext_lazy("chat phrase", "Your turn!"),
    "thinking": pgettext_lazy("chat phrase", "Let me think…"),
    "brb": pgettext_lazy("chat phrase", "Be right back"),
    "back": pgettext_lazy("chat phrase", "Back!"),
    "good_game": pgettext_lazy("chat phrase", "Good game!"),
    "rematch": pgettext_lazy("chat phrase", "One more game?"),
    "yes": pgettext_lazy("chat phrase", "Yes"),
    "no": pgettext_lazy("chat phrase", "No"),
    "bye": pgettext_lazy("chat phrase", "Bye!"),
    "congrats": pgettext_lazy("chat phrase", "Congratulations!"),
}


def person_key(player: Player) -> str:
    """How the chat names a person: their account, or their guest token ("" for nobody)."""
    if player.user_id is not None:
        return f"u:{player.user_id}"
    return f"g:{player.guest}" if player.guest else ""


def seat_person_key(seat: Seat) -> str:
    """The :func:`person_key` of whoever sits in ``seat``: "" for a computer player and for
    the seat of a deleted account."""
    if seat.bot:
        return ""
    return person_key(Player(seat.name, user_id=seat.user_id, guest=seat.guest))


class TableChat(models.Model):
    """What a table's chat allows. A table without a row has its kind's default."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    level = models.CharField(max_length=8, choices=ChatLevel, default=ChatLevel.TEXT)

    def __str__(self) -> str:
        return f"{self.game_id}: {self.level}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    # The author's seat: kept in step when a lobby's seats close up (``chat_seats_follow``),
    # None once the author has left the table (the number may be someone else's by then).
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    author = models.CharField(max_length=80, db_index=True)  # person_key
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=40)
    phrase = models.CharField(max_length=24, blank=True)
    text = models.CharField(max_length=MAX_TEXT, blank=True)
    # The game's version when it was said: the replay shows it at that move.
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["game", "id"], name="chat_by_table")]

    def __str__(self) -> str:
        return f"{self.name}: {self.phrase or self.text}"[:80]


class ChatMute(models.Model):
    """``viewer`` (a person_key) no longer sees ``person``'s messages at ``game``: the one
    who sat in the seat muted when it was muted, wherever a lobby's seats move them later."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    viewer = models.CharField(max_length=80)
    person = models.CharField(max_length=80)  # person_key of the one muted
    # Where ``person`` sits now, kept in step like ``ChatMessage.seat``; None once they left.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "viewer", "person"], name="one_mute_per_person")
        ]

    def __str__(self) -> str:
        return f"{self.viewer} muted seat {self.seat} at {self.game_id}"


class ChatReport(models.Model):
    class Reason(models.TextChoices):
        SPAM = "spam", _("Spam")
        ABUSE = "abuse", _("Abuse or insults")
        CHEATING = "cheating", _("Cheating")
        OTHER = "other", _("Something else")

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.CharField(max_length=80)  # person_key
    reason = models.CharField(max_length=10, choices=Reason)
    created_at = models.DateTimeField()
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_person")
        ]

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"


class ChatSilence(models.Model):
    """``person`` may not post anywhere until ``until`` (a moderator's decision)."""

    person = models.CharField(max_length=80, db_index=True)
    until = models.DateTimeField()
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.person} silenced until {self.until}"


class ChatPreference(models.Model):
    """An account that turned every table's chat off for itself."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_preference"
    )
    chat_off = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user_id}: chat {'off' if self.chat_off else 'on'}"
