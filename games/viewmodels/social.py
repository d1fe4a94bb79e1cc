"""What a reader sees of the people around them: an inbox entry's sentence, a friend's
status. Shaped from values a selector read; no query, no write. Every sentence is made in
the active language when it is shown, never stored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext, pgettext

from games.models import InboxItem, Invitation
from games.viewmodels.base import ViewModel


@dataclass(frozen=True)
class InboxEntry(ViewModel):
    id: int
    kind: str
    read: bool
    created: datetime
    sender: str | None  # a username, or None (the site, or an account since deleted)
    game: str | None  # a game code
    details: dict
    ending: str = ""  # an invitation's: "", started or closed
    joinable: bool = False  # an open invitation to a table still in its lobby

    @property
    def text(self) -> str:
        return entry_text(self)

    @property
    def tournament(self) -> int | None:
        """The tournament a tournament's result is about (its standings are linked)."""
        found = self.details.get("tournament") if self.kind == InboxItem.Kind.TOURNAMENT else None
        return found if isinstance(found, int) else None

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "kind": self.kind,
            "read": self.read,
            "created": self.created.isoformat(),
            "from": self.sender,
            "game": self.game,
            "text": self.text,
        }


def entry_text(entry: InboxEntry) -> str:
    """The entry's sentence in the active language."""
    name = entry.sender or pgettext("an account since deleted", "Someone")
    values = {"name": name, "code": entry.game or "", **_numbers(entry.details)}
    kind = entry.kind
    if kind == InboxItem.Kind.INVITATION:
        if entry.ending == Invitation.Ending.STARTED:
            return (
                gettext("%(name)s invited you to table %(code)s; that game has started.") % values
            )
        if entry.ending == Invitation.Ending.CLOSED:
            return (
                gettext("%(name)s invited you to table %(code)s; that table was closed.") % values
            )
        return gettext("%(name)s invites you to table %(code)s.") % values
    if kind == InboxItem.Kind.FRIEND_REQUEST:
        return gettext("%(name)s sent you a friend request.") % values
    if kind == InboxItem.Kind.FRIEND_ACCEPTED:
        return gettext("%(name)s accepted your friend request: you are friends now.") % values
    if kind == InboxItem.Kind.YOUR_TURN:
        return gettext("It is your turn at table %(code)s.") % values
    if kind == InboxItem.Kind.GAME_OVER:
        return (
            gettext(
                "The game at table %(code)s is over: you finished in place %(place)d of "
                "%(players)d, with %(score)d points."
            )
            % values
        )
    if kind == InboxItem.Kind.DAILY:
        return gettext("Today's daily game is waiting for you: play it before midnight UTC.")
    if kind == InboxItem.Kind.TOURNAMENT:
        numbers = _numbers(entry.details)
        if numbers["place"] == 1:
            others = {"others": max(numbers["players"] - 1, 0)}
            return gettext("You won the tournament, ahead of %(others)d other players.") % others
        return (
            gettext("%(name)s won the tournament; you finished in place %(place)d of %(players)d.")
            % values
        )
    return gettext("Something happened at table %(code)s.") % values


def _numbers(details: dict) -> dict[str, int]:
    def number(key: str) -> int:
        value = details.get(key)
        return value if isinstance(value, int) else 0

    return {key: number(key) for key in ("place", "players", "score", "turn")}


class Status:
    """A friend's status, as the friends page says it."""

    AT_TABLE = "at_table"
    ON_SITE = "on_site"
    AWAY = "away"


@dataclass(frozen=True)
class FriendView(ViewModel):
    name: str
    status: str  # a Status
    table: str | None = None  # the code of the table they are at, when the reader may see it
    last_seen: datetime | None = None


@dataclass(frozen=True)
class FriendsView(ViewModel):
    friends: tuple[FriendView, ...]
    received: tuple[str, ...]  # usernames who asked the reader
    sent: tuple[str, ...]  # usernames the reader asked
    blocked: tuple[str, ...]  # usernames the reader blocked


class Relation:
    """Where the reader stands with another account (the history page's buttons)."""

    SELF = "self"
    NONE = "none"
    FRIENDS = "friends"
    SENT = "sent"  # the reader asked them
    RECEIVED = "received"  # they asked the reader
    BLOCKED = "blocked"  # the reader blocked them


@dataclass(frozen=True)
class PersonBox(ViewModel):
    """The history page's friend box, for a signed-in reader."""

    name: str
    relation: str  # a Relation
    lobbies: tuple[str, ...] = ()  # the reader's tables in their lobby, to invite them to


@dataclass(frozen=True)
class SettingsView(ViewModel):
    requests_from: str
    invitations_from: str
    request_choices: tuple[tuple[str, str], ...]
    invitation_choices: tuple[tuple[str, str], ...]
