""" "Play now": joining the queue (the match then opens a table for each group it completes),
the computer instead, leaving (a cancel, or the last waiting page closing), and the sweep.

Exactly once: every write to one matching key's queue first locks that key's
:class:`~games.models.QueueLock` row (``select_for_update``), inside the transaction that
inserts, changes or matches tickets. Two posts of the same key, on any two processes, run
one after the other, so the second sees the first's ticket and at most one of them makes
the group into a table; a matched ticket is no longer waiting, so nobody is seated twice.
On SQLite the IMMEDIATE transactions already run one at a time. A person has at most one
waiting ticket whatever its key: a partial unique index says so (a second post is refused).
Nor does someone still seated at the table the queue gave them queue again: their post
takes them back to that table.

The match itself (which tickets make a group, its table) is :mod:`.play_now_match`.

Who matches: the post that completes a group, a waiting page that opens (its ticket may
have been left out while it had no page), and the sweep. A cancel or a closing page takes
a ticket away, and so never completes a group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.clock import clock
from games.models import (
    BotLevel,
    Game,
    LiveServer,
    Player,
    QueueLock,
    Seat,
    Ticket,
    TicketPage,
    matching_key,
)
from games.models.play_now import QUEUE_PACES, QUEUE_PLAYERS
from games.rules import RULESETS, Rules
from games.services import lobby
from games.services.errors import GameError, NotAllowed
from games.services.leaving import check_may_sit_rated
from games.services.play_now_match import (
    PAGE_GRACE,
    leave,
    lock,
    match_all,
    player_of,
    tell,
)
from games.services.play_now_match import listeners as listeners  # the live side's hook
from games.services.play_now_match import on_ticket_changed as on_ticket_changed
from games.services.player_names import clean_name

# A table still in play: its seats are taken until it is over.
IN_PLAY = (Game.Status.LOBBY, Game.Status.PLAYING)


class AlreadyWaiting(GameError):
    """A second post while the person already waits."""


class NotWaiting(GameError):
    """A cancel, or a computer game, asked for by someone who is not waiting."""


@dataclass(frozen=True)
class Choices:
    """What a person asks the queue for; people are matched when all of it is the same."""

    pace: str
    players: int
    rated: bool
    ruleset: str = "yahtzee"

    @property
    def key(self) -> str:
        return matching_key(
            pace=self.pace, players=self.players, rated=self.rated, ruleset=self.ruleset
        )


def _ensure_lock_row(key: str) -> None:
    """The key's lock row, made outside the locking transaction (two processes making it at
    once: get_or_create's second try finds the first's)."""
    QueueLock.objects.get_or_create(key=key)


def _tickets_of(player: Player) -> QuerySet[Ticket]:
    if player.user_id is not None:
        return Ticket.objects.filter(user_id=player.user_id)
    if player.guest:
        return Ticket.objects.filter(user__isnull=True, guest=player.guest)
    return Ticket.objects.none()


def _waiting(player: Player) -> QuerySet[Ticket]:
    return _tickets_of(player).filter(status=Ticket.Status.WAITING)


def _at_table(player: Player) -> Ticket | None:
    """The person's matched ticket whose table is still in play (in its lobby or under way)
    with them still seated there: a second post (a double click, a form sent again) goes
    back to that table instead of queueing for another one while the first waits for
    them. Whoever left that table, or whose table is over, may queue again."""
    seats = Seat.objects.filter(game_id=OuterRef("game_id")).exclude(status=Seat.Status.LEFT)
    if player.user_id is not None:
        seats = seats.filter(user_id=player.user_id)
    else:
        seats = seats.filter(user__isnull=True, guest=player.guest)
    return (
        _tickets_of(player)
        .filter(status=Ticket.Status.MATCHED, game__status__in=IN_PLAY)
        .filter(Exists(seats))
        .select_related("game")
        .order_by("-joined_at", "-pk")
        .first()
    )


def _already_waiting() -> AlreadyWaiting:
    return AlreadyWaiting(
        gettext(
            "You are already waiting for a game. Cancel first to choose again; nothing has changed."
        )
    )


def play_join(*, player: Player, choices: Choices) -> Ticket:
    """Put ``player`` in the queue, and match their group if this completes one. Someone
    still seated at a table the queue gave them gets that ticket back (its game is their
    table) and stays out of the queue."""
    if not player.is_known:
        raise NotAllowed(gettext("Log in or choose a guest name to play."))
    if (matched := _at_table(player)) is not None:
        return matched
    if choices.ruleset not in RULESETS:
        raise GameError(gettext("Choose Yahtzee, Yatzy or Yacht."))
    if choices.pace not in QUEUE_PACES or choices.players not in QUEUE_PLAYERS:
        raise GameError(gettext("Choose blitz, live or relaxed, and 2, 3 or 4 players."))
    if choices.rated and player.user_id is None:
        raise NotAllowed(gettext("A rated game needs an account: log in, or play unrated."))
    if choices.rated:
        check_may_sit_rated(player)
    name = clean_name(player.name)
    if _waiting(player).exists():
        raise _already_waiting()
    _ensure_lock_row(choices.key)
    try:
        with transaction.atomic():
            lock(choices.key)
            if (matched := _at_table(player)) is not None:  # matched while this post waited
                return matched
            now = clock.now()
            ticket = Ticket.objects.create(
                key=choices.key,
                ruleset=choices.ruleset,
                pace=choices.pace,
                players=choices.players,
                rated=choices.rated,
                user_id=player.user_id,
                guest="" if player.user_id else player.guest,
                name=name,
                joined_at=now,
                seen_at=now,
            )
            match_all(choices.key, now)
    except IntegrityError:  # a second post at the same moment, under another key
        raise _already_waiting() from None
    ticket.refresh_from_db()
    return ticket


def _locked_waiting(player: Player) -> Ticket:
    """The player's waiting ticket, its key locked; refused if they wait for nothing."""
    found = _waiting(player).values_list("key", flat=True).first()
    if found is None:
        raise NotWaiting(gettext("You are not waiting for a game."))
    lock(found)
    ticket = _waiting(player).filter(key=found).first()
    if ticket is None:  # matched or left while we waited for the lock
        raise NotWaiting(gettext("You are not waiting for a game."))
    return ticket


@transaction.atomic
def play_cancel(*, player: Player) -> None:
    """Leave the queue."""
    ticket = _locked_waiting(player)
    leave(ticket, clock.now())


def wait_threshold() -> timedelta:
    return timedelta(seconds=settings.PLAY_NOW_WAIT_SECONDS)


@transaction.atomic
def play_computer(*, player: Player, level: BotLevel) -> Game:
    """After the wait, a table against the computer instead (casual: one person)."""
    ticket = _locked_waiting(player)
    now = clock.now()
    waited = now - ticket.joined_at
    if waited < wait_threshold():
        left = math.ceil((wait_threshold() - waited).total_seconds())
        raise GameError(
            ngettext(
                "Keep waiting for people a little longer: the computer is offered in "
                "%(count)d second.",
                "Keep waiting for people a little longer: the computer is offered in "
                "%(count)d seconds.",
                left,
            )
            % {"count": left}
        )
    person = player_of(ticket)
    game = lobby.game_create(
        player=person,
        seat_count=2,
        rules=Rules(ruleset=ticket.ruleset),
        pace=ticket.pace,
        rated=False,
        is_public=False,
    )
    version = lobby.game_add_bot(
        code=game.code, player=person, version=game.version, level=level
    ).game.version
    lobby.game_start(code=game.code, player=person, version=version)
    ticket.status, ticket.game, ticket.ended_at = Ticket.Status.MATCHED, game, now
    ticket.save(update_fields=["status", "game", "ended_at"])
    tell([ticket])
    return Game.objects.get(pk=game.pk)


def play_page_seen(*, ticket_id: int) -> None:
    """A waiting page asked over HTTP: it counts as open for a while (no socket needed)."""
    Ticket.objects.filter(pk=ticket_id, status=Ticket.Status.WAITING).update(seen_at=clock.now())


def play_page_open(*, server_id: str, ticket_id: int, channel_name: str) -> str:
    """Record an open waiting page (a socket) of a ticket, and match its queue: it may have
    been left out while it had no page. Returns the ticket's status after that."""
    key = Ticket.objects.filter(pk=ticket_id).values_list("key", flat=True).first()
    if key is None:
        return str(Ticket.Status.LEFT)
    LiveServer.objects.get_or_create(id=server_id, defaults={"last_seen": timezone.now()})
    with transaction.atomic():
        lock(key)
        ticket = Ticket.objects.get(pk=ticket_id)
        if ticket.status != Ticket.Status.WAITING:
            return str(ticket.status)
        TicketPage.objects.update_or_create(
            channel_name=channel_name,
            defaults={"ticket": ticket, "server_id": server_id, "opened_at": clock.now()},
        )
        match_all(key, clock.now())
        return str(Ticket.objects.values_list("status", flat=True).get(pk=ticket_id))


def play_page_close(*, channel_name: str) -> None:
    """A waiting page closed. With it the last, the ticket leaves the queue, unless the
    waiting page was loaded again since this one opened (a reload: the new page's socket
    is on its way; the sweep takes the ticket away if it never comes)."""
    page = (
        TicketPage.objects.filter(channel_name=channel_name)
        .values_list("ticket_id", "ticket__key", "opened_at")
        .first()
    )
    if page is None:
        return
    ticket_id, key, opened_at = page
    with transaction.atomic():
        lock(key)
        TicketPage.objects.filter(channel_name=channel_name).delete()
        ticket = Ticket.objects.filter(pk=ticket_id, status=Ticket.Status.WAITING).first()
        if ticket is None or ticket.pages.exists() or ticket.seen_at > opened_at:
            return
        leave(ticket, clock.now())


def play_queue_sweep(*, now: datetime | None = None) -> int:
    """Take away the waiting tickets whose pages are all gone (closed, or on a process that
    died), and match every queue that can be. Returns how many tables were opened."""
    now = now or clock.now()
    waiting = Ticket.objects.filter(status=Ticket.Status.WAITING)
    keys = set(waiting.values_list("key", flat=True))
    opened = 0
    for key in sorted(keys):
        with transaction.atomic():
            lock(key)
            stale = (
                Ticket.objects.filter(
                    key=key, status=Ticket.Status.WAITING, seen_at__lt=now - PAGE_GRACE
                )
                .exclude(Exists(TicketPage.objects.filter(ticket_id=OuterRef("pk"))))
                .select_related("game")
            )
            for ticket in stale:
                leave(ticket, now)
            opened += len(match_all(key, now))
    return opened
