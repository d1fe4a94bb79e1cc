"""Table talk: posting a quick phrase or a line of text, the host lowering what the table
allows, muting the one in a seat, reporting a message, a moderator hiding it or silencing
its author, and an account turning every table's chat off for itself.

One transaction each. A change the room must see (a new message, a hidden one, a lowered
setting) is told to :data:`listeners` once it has committed (``GamesConfig.ready`` adds the
live side, which pushes it to each reader in their own language, filtered for them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Case, PositiveSmallIntegerField, Value, When
from django.utils import formats, timezone
from django.utils.translation import gettext

from games.clock import clock
from games.models import (
    MAX_TEXT,
    PHRASES,
    ChatLevel,
    ChatMessage,
    ChatMute,
    ChatPreference,
    ChatReport,
    ChatSilence,
    Game,
    Player,
    Seat,
    TableChat,
    chat_level_default,
    person_key,
    seat_person_key,
)
from games.services.errors import GameError, GameNotFound, NotAllowed

SILENCES = {"24h": timedelta(hours=24), "7d": timedelta(days=7)}
# Bidirectional overrides and isolates: they can make a line read backwards.
_BIDI_CONTROLS = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
_SPACES = re.compile(r"\s+")


class ChatRefused(GameError):
    """A message, mute or report that was not allowed; nothing was stored."""


@dataclass(frozen=True)
class ChatEvent:
    """What the room must be told: ``kind`` is "message", "hidden" or "setting"."""

    kind: str
    code: str
    data: dict[str, object] = field(default_factory=dict)


listeners: list[Callable[[ChatEvent], None]] = []


def on_chat_changed(listener: Callable[[ChatEvent], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def _tell(event: ChatEvent) -> None:
    def send() -> None:
        for listener in list(listeners):
            listener(event)

    if listeners:
        transaction.on_commit(send)


def chat_level_of(game: Game) -> ChatLevel:
    row = TableChat.objects.filter(game=game).values_list("level", flat=True).first()
    return ChatLevel(row) if row else chat_level_default(is_public=game.is_public)


def chat_level_choose(*, game: Game, chat: str | None, kind: str = "") -> ChatLevel:
    """Store the chat of a table being opened: ``chat``, or its kind's default (None)."""
    try:
        level = ChatLevel(chat) if chat else chat_level_default(is_public=game.is_public, kind=kind)
    except ValueError:
        raise ChatRefused(gettext("Choose no chat, quick phrases or free text.")) from None
    TableChat.objects.update_or_create(game=game, defaults={"level": level})
    return level


def clean_text(text: str) -> str:
    """Control characters out (the joiners some scripts need stay), spaces collapsed."""
    kept = (
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace()
        or not (unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or ord(ch) in _BIDI_CONTROLS)
    )
    return _SPACES.sub(" ", "".join(kept)).strip()


def _game(code: str) -> Game:
    game = Game.objects.filter(code=code).first()
    if game is None:
        raise GameNotFound(gettext("There is no game with that link."))
    return game


def _seat_of(game: Game, player: Player) -> Seat | None:
    if not player.is_known:
        return None
    seats = Seat.objects.filter(game=game).exclude(status=Seat.Status.LEFT)
    return next((seat for seat in seats if player.owns(seat) and not seat.bot), None)


def silenced_until(player: Player) -> datetime | None:
    key = person_key(player)
    if not key:
        return None
    return (
        ChatSilence.objects.filter(person=key, until__gt=clock.now())
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )


def chat_off_for(user_id: int | None) -> bool:
    if user_id is None:
        return False
    return ChatPreference.objects.filter(user_id=user_id, chat_off=True).exists()


def chat_post(*, code: str, player: Player, phrase: str = "", text: str = "") -> ChatMessage:
    """Say a quick phrase (its id) or a line of text at the table ``code``."""
    with transaction.atomic():
        game = _game(code)
        seat = _seat_of(game, player)
        if seat is None:
            raise NotAllowed(gettext("Only the players at this table can talk here."))
        if chat_off_for(player.user_id):
            raise ChatRefused(gettext("You turned chat off in your account settings."))
        level = chat_level_of(game)
        if level == ChatLevel.OFF:
            raise ChatRefused(gettext("Chat is off at this table."))
        until = silenced_until(player)
        if until is not None:
            when = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
            raise NotAllowed(
                gettext("A moderator has silenced you until %(when)s.") % {"when": when}
            )
        if phrase and text:
            raise ChatRefused(gettext("Send a quick phrase or a message, not both."))
        if phrase:
            if phrase not in PHRASES:
                raise ChatRefused(gettext("There is no such quick phrase."))
        else:
            if level != ChatLevel.TEXT:
                raise ChatRefused(gettext("This table allows quick phrases only."))
            if len(text) > MAX_TEXT * 4:
                raise ChatRefused(_too_long())
            text = clean_text(text)
            if not text:
                raise ChatRefused(gettext("Write something, or pick a quick phrase."))
            if len(text) > MAX_TEXT:
                raise ChatRefused(_too_long())
        message = ChatMessage.objects.create(
            game=game,
            seat=seat.position,
            author=person_key(player),
            author_user_id=player.user_id,
            name=seat.name,
            phrase=phrase,
            text="" if phrase else text,
            version=game.version,
            created_at=clock.now(),
        )
        _tell(ChatEvent("message", code, {"id": message.pk}))
    return message


def _too_long() -> str:
    return gettext("A message has at most %(count)d characters.") % {"count": MAX_TEXT}


def chat_setting_lower(*, code: str, player: Player, chat: str) -> ChatLevel:
    """The host lowers what the table allows (never raises it)."""
    with transaction.atomic():
        game = _game(code)
        if not player.hosts(game):
            raise NotAllowed(gettext("Only the host can change the table's chat."))
        try:
            level = ChatLevel(chat)
        except ValueError:
            raise ChatRefused(gettext("Choose no chat, quick phrases or free text.")) from None
        if ChatLevel.rank(level) > ChatLevel.rank(chat_level_of(game)):
            raise ChatRefused(gettext("The table's chat can be lowered, never raised."))
        TableChat.objects.update_or_create(game=game, defaults={"level": level})
        _tell(ChatEvent("setting", code, {"level": str(level)}))
    return level


def _person_in_seat(game: Game, seat: object) -> tuple[int, str]:
    """The seat ``seat`` names and the person_key of the one in it: "" for a computer
    player; for a deleted account's seat, whoever last spoke from it."""
    try:
        position = int(str(seat))
    except ValueError:
        position = -1
    found = Seat.objects.filter(game=game, position=position).first()
    if found is None:
        raise ChatRefused(gettext("There is no such seat at this table."))
    person = seat_person_key(found) or (
        ChatMessage.objects.filter(game=game, seat=position)
        .order_by("-pk")
        .values_list("author", flat=True)
        .first()
        or ""
    )
    return position, person


def _author_of(game: Game, message: object) -> tuple[int | None, str] | None:
    """The seat and person_key of the author of ``message`` at this table, if it names one."""
    try:
        pk = int(str(message))
    except ValueError:
        return None
    found = ChatMessage.objects.filter(game=game, pk=pk).values_list("seat", "author").first()
    return (found[0], found[1]) if found else None


def chat_mute(
    *, code: str, player: Player, seat: object, mute: bool = True, message: object = ""
) -> int | None:
    """``player`` stops (or starts again) seeing the messages of the one in ``seat`` at this
    table: that person, wherever a lobby's seats move them later, and nobody else. A mute
    from a message's line names it (``message``): its author is meant, even when a page
    that has not caught up yet still shows the seat they sat in before seats closed up."""
    viewer = person_key(player)
    with transaction.atomic():
        game = _game(code)
        if not viewer:
            raise NotAllowed(gettext("Log in or choose a guest name first."))
        position, person = _author_of(game, message) or _person_in_seat(game, seat)
        if not person:  # a computer player says nothing
            return position
        if mute:
            ChatMute.objects.update_or_create(
                game=game, viewer=viewer, person=person, defaults={"seat": position}
            )
        else:
            ChatMute.objects.filter(game=game, viewer=viewer, person=person).delete()
    return position


def chat_seats_follow(game: Game) -> None:
    """Each message and each mute at ``game`` names the seat its person sits in now, None
    for someone no longer at the table: run in the transaction that moved a lobby's seats
    (``lobby.close_gaps``) or sat someone down, so a seat number never points at another."""
    keys = ((seat_person_key(seat), seat.position) for seat in Seat.objects.filter(game=game))
    where = {key: position for key, position in keys if key}
    ChatMessage.objects.filter(game=game).update(seat=_seat_of_each("author", where))
    ChatMute.objects.filter(game=game).update(seat=_seat_of_each("person", where))


def _seat_of_each(person: str, where: dict[str, int]) -> Case:
    """The seat of the person named in each row's ``person`` column, None if not seated."""
    return Case(
        *(When(**{person: key}, then=Value(position)) for key, position in where.items()),
        default=Value(None),
        output_field=PositiveSmallIntegerField(),
    )


def _shown_message(game: Game, message: object) -> ChatMessage:
    try:
        pk = int(str(message))
    except ValueError:
        pk = 0
    found = ChatMessage.objects.filter(game=game, pk=pk, hidden_at=None).first()
    if found is None:
        raise ChatRefused(gettext("That message is no longer shown."))
    return found


def chat_report(*, code: str, player: Player, message: object, reason: str) -> ChatReport:
    """Send a message to the moderators' queue, once per person."""
    reporter = person_key(player)
    with transaction.atomic():
        game = _game(code)
        if not reporter:
            raise NotAllowed(gettext("Log in or choose a guest name first."))
        if reason not in ChatReport.Reason.values:
            raise ChatRefused(gettext("Choose why you report this message."))
        found = _shown_message(game, message)
        if found.author == reporter:
            raise ChatRefused(gettext("That is your own message."))
        report, _ = ChatReport.objects.get_or_create(
            message=found,
            reporter=reporter,
            defaults={"reason": reason, "created_at": clock.now()},
        )
    return report


def chat_message_hide(*, message_id: int) -> bool:
    """A moderator hides a message: it disappears from every open page. False: it was
    hidden already."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None or message.hidden_at is not None:
            return False
        now = clock.now()
        message.hidden_at = now
        message.save(update_fields=["hidden_at"])
        ChatReport.objects.filter(message=message, handled_at=None).update(handled_at=now)
        _tell(ChatEvent("hidden", message.game.code, {"id": message.pk}))
    return True


def chat_author_silence(*, message_id: int, duration: str) -> ChatSilence:
    """A moderator silences a message's author site-wide for ``duration`` ("24h", "7d")."""
    with transaction.atomic():
        message = ChatMessage.objects.get(pk=message_id)
        now = clock.now()
        silence = ChatSilence.objects.create(
            person=message.author, until=now + SILENCES[duration], created_at=now
        )
        ChatReport.objects.filter(message=message, handled_at=None).update(handled_at=now)
    return silence


def chat_guest_claim(*, guest: str, user_id: int) -> None:
    """A guest who signs up or logs in takes their table talk along: the lines they wrote,
    the seats they muted, the messages they reported and any silence a moderator gave them
    are the account's from now on (a mute or report the account already had stays one), and
    whoever muted the guest goes on not reading the account.
    Run in the claim's transaction (``accounts.guest_seats_claim``)."""
    was, now = f"g:{guest}", f"u:{user_id}"
    ChatMessage.objects.filter(author=was).update(author=now, author_user_id=user_id)
    for mute in ChatMute.objects.filter(viewer=was):
        if ChatMute.objects.filter(game_id=mute.game_id, viewer=now, person=mute.person).exists():
            mute.delete()
        else:
            ChatMute.objects.filter(pk=mute.pk).update(viewer=now)
    for mute in ChatMute.objects.filter(person=was):  # the others' mutes of the guest
        if ChatMute.objects.filter(game_id=mute.game_id, viewer=mute.viewer, person=now).exists():
            mute.delete()
        else:
            ChatMute.objects.filter(pk=mute.pk).update(person=now)
    for report in ChatReport.objects.filter(reporter=was):
        if ChatReport.objects.filter(message_id=report.message_id, reporter=now).exists():
            report.delete()
        else:
            ChatReport.objects.filter(pk=report.pk).update(reporter=now)
    ChatSilence.objects.filter(person=was).update(person=now)


def chat_preference_set(*, user_id: int, chat_off: bool) -> None:
    with transaction.atomic():
        ChatPreference.objects.update_or_create(user_id=user_id, defaults={"chat_off": chat_off})
