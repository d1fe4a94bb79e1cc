"""The inbox: entries written for an account (an invitation, a friend request or its
acceptance, "your turn" at a slow table, a finished game's result), read and dismissed.

Each change to someone's inbox is told, once its transaction has committed, to the
listeners (``GamesConfig.ready`` adds the live side's ``site_pushes.tell``), which push the
new badge, and for an invitation its notice, to every page the account has open. The
services know nothing of websockets, as with :mod:`.writes`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from games.models import Game, InboxItem, Pace, Seat
from games.services.errors import GameError, GameNotFound
from games.services.push import inbox_item_added

# The paces slow enough for a "your turn" entry: nobody waits at the table for them.
SLOW_PACES = frozenset({Pace.DAILY, Pace.RELAXED})


@dataclass(frozen=True)
class InboxNotice:
    """An account's inbox changed; ``invitation`` is (sender's name, game code) when the
    change is a new invitation, which every open page shows with a Join button."""

    user_id: int
    invitation: tuple[str, str] | None = None


listeners: list[Callable[[InboxNotice], None]] = []


def on_inbox_changed(listener: Callable[[InboxNotice], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def tell(notice: InboxNotice) -> None:
    """Tell the listeners about ``notice`` once this transaction commits."""
    if not listeners:
        return

    def send() -> None:
        for listener in list(listeners):
            listener(notice)

    transaction.on_commit(send)


def inbox_add(
    *,
    user_id: int,
    kind: InboxItem.Kind,
    sender_id: int | None = None,
    game_id: int | None = None,
    invitation_id: int | None = None,
    details: dict[str, object] | None = None,
    notice: InboxNotice | None = None,
) -> InboxItem:
    """A new entry in ``user_id``'s inbox (in the caller's transaction), told on commit."""
    item = InboxItem.objects.create(
        user_id=user_id,
        kind=kind,
        sender_id=sender_id,
        game_id=game_id,
        invitation_id=invitation_id,
        details=details or {},
    )
    tell(notice or InboxNotice(user_id=user_id))
    inbox_item_added(item)  # pushed to the account's devices, within the limits
    return item


def inbox_remove(*, user_id: int, kind: InboxItem.Kind, sender_id: int) -> None:
    """Take away entries that no longer stand (a friend request answered or withdrawn)."""
    if InboxItem.objects.filter(user_id=user_id, kind=kind, sender_id=sender_id).delete()[0]:
        tell(InboxNotice(user_id=user_id))


@transaction.atomic
def inbox_mark_read(*, user_id: int, item_ids: list[int]) -> int:
    """Mark these entries of ``user_id``'s (the ones a page showed) as read."""
    count = InboxItem.objects.filter(user_id=user_id, id__in=item_ids, read=False).update(read=True)
    if count:
        tell(InboxNotice(user_id=user_id))
    return count


@transaction.atomic
def inbox_dismiss(*, user_id: int, item_id: int) -> None:
    """Delete one entry of ``user_id``'s inbox; someone else's is as good as none."""
    deleted, _ = InboxItem.objects.filter(user_id=user_id, id=item_id).delete()
    if not deleted:
        raise GameNotFound(gettext("There is no such entry in your inbox."))
    tell(InboxNotice(user_id=user_id))


# -- hooks of the game's services ----------------------------------------------------------------


def your_turn_noted(game: Game, seat: Seat, turn_number: int) -> None:
    """The turn passed to ``seat`` (called by ``turn_clock.plan`` when a turn begins): at a
    daily or relaxed table, a person's account gets an entry, once per turn."""
    if game.pace not in SLOW_PACES or not seat.user_id or seat.bot or seat.coach_plays:
        return
    inbox_add(
        user_id=seat.user_id,
        kind=InboxItem.Kind.YOUR_TURN,
        game_id=game.pk,
        details={"turn": turn_number},
    )


def game_over_noted(game: Game, seats: list[Seat]) -> None:
    """A game finished (called by ``turns`` in the finishing move's transaction): each
    seated account gets its place and score."""
    for seat in seats:
        if seat.user_id and not seat.bot:
            inbox_add(
                user_id=seat.user_id,
                kind=InboxItem.Kind.GAME_OVER,
                game_id=game.pk,
                details={"place": seat.place, "score": seat.total, "players": len(seats)},
            )


def check_id(raw: object) -> int:
    """An entry's id as posted, or a refusal."""
    text = str(raw or "")
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise GameError(gettext("That is not an entry of your inbox."))
    return int(text)
