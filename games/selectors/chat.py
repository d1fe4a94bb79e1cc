"""Reads of a table's talk, filtered for one reader: without hidden messages, without the
people the reader muted at this table, without the people either of them blocked, and
nothing at all for a reader who turned chat off."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from games.models import (
    Block,
    ChatLevel,
    ChatMessage,
    ChatMute,
    ChatPreference,
    Game,
    Player,
    Seat,
    TableChat,
    chat_level_default,
    person_key,
    seat_person_key,
)
from games.viewmodels.chat import ChatView, MessageView, SeatChoice


@dataclass(frozen=True)
class ReaderFilter:
    muted: frozenset[str]  # person_keys
    muted_seats: frozenset[int]  # where they sit now (or a deleted account's seat)
    blocked: frozenset[int]  # accounts either way blocked with the reader
    off: bool

    def lets_through(self, message: ChatMessage) -> bool:
        return (
            not self.off
            and message.hidden_at is None
            and message.author not in self.muted
            and message.author_user_id not in self.blocked
        )


def chat_level(game: Game) -> ChatLevel:
    row = TableChat.objects.filter(game=game).values_list("level", flat=True).first()
    return ChatLevel(row) if row else chat_level_default(is_public=game.is_public)


def reader_filter(game_id: int, viewer: Player) -> ReaderFilter:
    key = person_key(viewer)
    mutes = ChatMute.objects.filter(game_id=game_id, viewer=key) if key else ChatMute.objects.none()
    mute_rows = list(mutes.values_list("person", "seat"))
    muted = frozenset(person for person, _ in mute_rows)
    muted_seats = frozenset(seat for _, seat in mute_rows if seat is not None)
    blocked: frozenset[int] = frozenset()
    off = False
    if viewer.user_id is not None:
        me = viewer.user_id
        rows = Block.objects.filter(Q(blocker_id=me) | Q(blocked_id=me))
        blocked = frozenset(
            b if a == me else a for a, b in rows.values_list("blocker_id", "blocked_id")
        )
        off = ChatPreference.objects.filter(user_id=me, chat_off=True).exists()
    return ReaderFilter(muted=muted, muted_seats=muted_seats, blocked=blocked, off=off)


def _view(message: ChatMessage, key: str) -> MessageView:
    return MessageView(
        id=message.pk,
        seat=message.seat,
        name=message.name,
        phrase=message.phrase,
        text=message.text,
        created=message.created_at,
        own=bool(key) and message.author == key,
    )


def chat_messages(
    game: Game, viewer: Player, *, up_to_version: int | None = None
) -> list[MessageView]:
    """The messages ``viewer`` reads at ``game``, oldest first (those said by ``up_to_version``)."""
    seen = reader_filter(game.pk, viewer)
    if seen.off:
        return []
    rows = ChatMessage.objects.filter(game=game, hidden_at=None).order_by("id")
    if up_to_version is not None:
        rows = rows.filter(version__lte=up_to_version)
    key = person_key(viewer)
    return [_view(m, key) for m in rows if seen.lets_through(m)]


def chat_message_for(code: str, message_id: int, viewer: Player) -> MessageView | None:
    """One new message as ``viewer`` reads it, or None when they do not see it."""
    message = ChatMessage.objects.filter(pk=message_id, game__code=code).first()
    if message is None or not reader_filter(message.game_id, viewer).lets_through(message):
        return None
    return _view(message, person_key(viewer))


def chat_view(game: Game, viewer: Player, *, error: str = "") -> ChatView:
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    mine = [s for s in seats if viewer.is_known and viewer.owns(s) and not s.bot]
    seated = any(s.status != Seat.Status.LEFT for s in mine)
    seen = reader_filter(game.pk, viewer)
    others = [s for s in seats if s not in mine]
    muted = {s.pk for s in others if _is_muted(s, seen)}
    return ChatView(
        code=game.code,
        level=chat_level(game),
        off_for_you=seen.off,
        seated=seated,
        is_host=viewer.is_known and viewer.hosts(game),
        messages=chat_messages(game, viewer),
        others=[SeatChoice(s.position, s.name) for s in others if s.pk not in muted],
        muted=[SeatChoice(s.position, s.name) for s in others if s.pk in muted],
        error=error,
    )


def _is_muted(seat: Seat, seen: ReaderFilter) -> bool:
    key = seat_person_key(seat)
    if key:
        return key in seen.muted
    return not seat.bot and seat.position in seen.muted_seats  # a deleted account's seat


def chat_view_of(code: str, viewer: Player) -> ChatView | None:
    """The panel of the table ``code`` for ``viewer``; None if there is no such table."""
    game = Game.objects.filter(code=code).first()
    return chat_view(game, viewer) if game is not None else None


def chat_json(game: Game, viewer: Player) -> dict:
    return {"messages": [m.to_json() for m in chat_messages(game, viewer)]}


def chat_off_for(user_id: int) -> bool:
    return ChatPreference.objects.filter(user_id=user_id, chat_off=True).exists()
