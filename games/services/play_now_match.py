"""The match of "Play now": which waiting tickets of one queue make a group, and the table
that opens for it; and telling every waiting page where its ticket stands (the live side
listens, :func:`on_ticket_changed`). Every function here runs with the queue's key locked
(:func:`lock`), inside the caller's transaction (games/services/play_now.py).

A group: the earliest waiting ticket with a page, then each next one that fits (nobody
blocked either way, no two names alike). A rated group holds nobody whose pause from rated
tables began while they waited: their ticket leaves the queue (the form then says why)
and the group is made without them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Block, Game, Player, QueueLock, Ticket, TicketPage, chat_level_default
from games.rules import Rules
from games.services import lobby
from games.services.errors import GameError
from games.services.leaving import may_sit_rated
from games.services.player_names import same_name

logger = logging.getLogger(__name__)

# A waiting page without a socket (no JavaScript: it reloads itself every few seconds)
# counts as open for this long after it last asked.
PAGE_GRACE = timedelta(seconds=12)

# Told (ticket id, status, game code or None) once a change to a ticket has committed;
# games/live/play_now.py hooks in (GamesConfig.ready), so this module knows no websockets.
listeners: list[Callable[[int, str, str | None], None]] = []


def on_ticket_changed(listener: Callable[[int, str, str | None], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def tell(tickets: list[Ticket]) -> None:
    """Once the transaction commits, tell every page of these tickets where they stand."""
    changes = [(t.pk, str(t.status), t.game.code if t.game else None) for t in tickets]

    def send() -> None:
        for change in changes:
            for listener in list(listeners):
                listener(*change)

    if listeners and changes:
        transaction.on_commit(send)


def lock(key: str) -> None:
    """Lock ``key``'s queue until the transaction ends (its row made beforehand)."""
    QueueLock.objects.select_for_update().get(key=key)


def leave(ticket: Ticket, now: datetime) -> None:
    """The ticket leaves the queue (a cancel, its pages gone, a pause from rated tables)."""
    ticket.status, ticket.ended_at = Ticket.Status.LEFT, now
    ticket.save(update_fields=["status", "ended_at"])
    tell([ticket])


def _with_a_page(now: datetime) -> QuerySet[Ticket]:
    """Waiting tickets that still have a page: an open socket, or a recent request."""
    has_socket = Exists(TicketPage.objects.filter(ticket_id=OuterRef("pk")))
    return Ticket.objects.filter(status=Ticket.Status.WAITING).filter(
        Q(has_socket) | Q(seen_at__gte=now - PAGE_GRACE)
    )


def _fits(ticket: Ticket, group: list[Ticket], blocked: set[frozenset[int]]) -> bool:
    """Whether ``ticket`` may sit with everyone in ``group``: nobody blocked by or
    blocking them, and no two names alike at the table."""
    for other in group:
        pair = frozenset((ticket.user_id or 0, other.user_id or 0))
        if ticket.user_id and other.user_id and pair in blocked:
            return False
        if same_name(ticket.name, other.name):
            return False
    return True


def match_all(key: str, now: datetime) -> list[Game]:
    """Open a table for each group the queue of ``key`` holds (its lock held), earliest
    group first: the earliest waiting ticket, then each next one that fits."""
    games: list[Game] = []
    while True:
        waiting = list(_with_a_page(now).filter(key=key).order_by("joined_at", "pk"))
        if not waiting or len(waiting) < waiting[0].players:
            return games
        size = waiting[0].players
        accounts = [t.user_id for t in waiting if t.user_id]
        blocked = Block.pairs_among(accounts) if len(accounts) > 1 else set()
        group: list[Ticket] = []
        for first in range(len(waiting) - size + 1):
            group = [waiting[first]]
            for ticket in waiting[first + 1 :]:
                if len(group) < size and _fits(ticket, group, blocked):
                    group.append(ticket)
            if len(group) == size:
                break
        if len(group) < size:
            return games
        paused = _paused_from_rated(group)
        if paused:
            for ticket in paused:  # out of the queue, told: their page says why
                leave(ticket, now)
            continue  # the group again, without them
        game = _open_table(group, now)
        if game is None:
            return games
        games.append(game)


def _paused_from_rated(group: list[Ticket]) -> list[Ticket]:
    """Who in a rated ``group`` may not sit at a rated table now: their pause began while
    they waited (a post is refused during one). Left in, they would keep the table from
    opening, and so the whole queue from moving."""
    if not group[0].rated:
        return []
    return [ticket for ticket in group if not may_sit_rated(player_of(ticket))]


def player_of(ticket: Ticket) -> Player:
    return Player(name=ticket.name, user_id=ticket.user_id, guest=ticket.guest)


def _open_table(group: list[Ticket], now: datetime) -> Game | None:
    """A table for ``group`` through the lobby's own services: opened by the first to have
    joined, the others seated in the order they joined, started at once."""
    first = group[0]
    people = [player_of(ticket) for ticket in group]
    try:
        with transaction.atomic():
            game = lobby.game_create(
                player=people[0],
                seat_count=len(group),
                rules=Rules(ruleset=first.ruleset),
                pace=first.pace,
                rated=first.rated,
                is_public=False,
                chat=chat_level_default(is_public=False, kind="play_now"),
            )
            version = game.version
            for person in people[1:]:
                version = lobby.game_join(
                    code=game.code, player=person, version=version
                ).game.version
            lobby.game_start(code=game.code, player=people[0], version=version)
    except GameError as error:  # e.g. a pause from rated games that began just now
        logger.warning("Play now could not open a table for %s: %s", first.key, error)
        return None
    for ticket in group:
        ticket.status, ticket.game, ticket.ended_at = Ticket.Status.MATCHED, game, now
        ticket.save(update_fields=["status", "game", "ended_at"])
    tell(group)
    return game
