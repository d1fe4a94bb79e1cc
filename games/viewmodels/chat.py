"""What one reader sees of a table's talk: each message in the reader's language (a quick
phrase is put into words when it is rendered, under the reader's language), and the
controls that reader has. No queries here: games/selectors/chat.py reads the rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.functional import Promise

from games.models import PHRASES, ChatLevel, ChatReport


@dataclass(frozen=True)
class MessageView:
    id: int
    seat: int | None  # None: the author has left the table
    name: str
    phrase: str  # the phrase's id, or ""
    text: str  # the free text, or ""
    created: datetime
    own: bool = False

    @property
    def words(self) -> str | Promise:
        """What the reader reads: a phrase in their language, text as written."""
        return PHRASES[self.phrase] if self.phrase else self.text

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "seat": self.seat,
            "name": self.name,
            "phrase": self.phrase or None,
            "text": self.text if not self.phrase else None,
            "created": self.created.isoformat(),
        }


@dataclass(frozen=True)
class SeatChoice:
    position: int
    name: str


@dataclass(frozen=True)
class ChatView:
    code: str
    level: ChatLevel
    off_for_you: bool  # the reader turned every table's chat off
    seated: bool  # the reader may post (seated, not left)
    is_host: bool
    messages: list[MessageView]
    others: list[SeatChoice]  # seats the reader may mute
    muted: list[SeatChoice]
    error: str = ""

    @property
    def can_post(self) -> bool:
        return self.seated and not self.off_for_you and self.level != ChatLevel.OFF

    @property
    def can_text(self) -> bool:
        return self.can_post and self.level == ChatLevel.TEXT

    @property
    def phrases(self) -> list[tuple[str, Promise]]:
        return list(PHRASES.items())

    @property
    def lower_choices(self) -> list[tuple[str, Promise | str]]:
        rank = ChatLevel.rank(self.level)
        return [(c.value, c.label) for c in ChatLevel if ChatLevel.rank(c) < rank]

    @property
    def reasons(self) -> list[tuple[str, Promise | str]]:
        return list(ChatReport.Reason.choices)
