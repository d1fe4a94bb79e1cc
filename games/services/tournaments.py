"""Arena tournaments: making one, joining and withdrawing, the pairing of whoever is free,
pinning, the end and its announcement, and the sweep.

Exactly once: every pairing and every change to who waits first locks the tournament's own
row (``select_for_update``), inside the transaction that seats people at tables, as "Play
now" locks its matching key's row. Two processes pairing one arena at once run one after
the other; the second finds nobody waiting (a seated entry no longer waits). A player is
never at two tournament tables at once: whoever sits at any tournament's table still in
play is left out of every pairing. Scoring is in :mod:`.tournament_scoring`.

Pairing: the waiting are taken by tournament points, best first; each table takes the
first of them and the next ones closest in points who were not at their last table, when
such others wait. With fewer waiting than a table's size, a smaller table (two at least)
is made once one of them has waited ``ARENA_PATIENCE`` (20 s). In a rated arena, whoever
is paused from rated tables (a pause that began after they joined) is left out until it
ends, and a round that opened no table is not counted. Every table of one pairing
round plays the same-dice draw (``DiceDraw.SAME``) from the round's one seed, kept secret
until every table of the round can have ended, so tables compare fairly.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext

from games.clock import clock
from games.models import (
    DiceDraw,
    Entry,
    Game,
    InboxItem,
    Pace,
    Player,
    Ruleset,
    Seat,
    Tournament,
    TournamentTable,
    chat_level_default,
)
from games.models.tournaments import ARENA_PACES, MINUTES, TABLE_SIZES
from games.rules import Rules
from games.services import lobby, tournament_scoring
from games.services.errors import GameError, GameNotFound, NotAllowed
from games.services.inbox import inbox_add
from games.services.leaving import check_may_sit_rated, may_sit_rated

logger = logging.getLogger(__name__)

ARENA_PATIENCE = timedelta(seconds=20)
IN_PLAY = (Game.Status.LOBBY, Game.Status.PLAYING)
FURTHEST_START = timedelta(days=60)


class AlreadyIn(GameError):
    """A second join."""


@dataclass(frozen=True)
class Plan:
    """What a new tournament is asked to be (checked by :func:`tournament_create`)."""

    name: str
    starts_at: datetime
    minutes: int
    pace: str
    table_size: int
    ruleset: str
    rated: bool
    public: bool


def _check(plan: Plan, now: datetime) -> str:
    name = " ".join(plan.name.split())
    if not 1 <= len(name) <= 80:
        raise GameError(gettext("Give the tournament a name of 1 to 80 characters."))
    if not MINUTES[0] <= plan.minutes <= MINUTES[1]:
        raise GameError(gettext("A tournament lasts 20 to 180 minutes."))
    if plan.pace not in ARENA_PACES:
        raise GameError(gettext("Choose blitz or live for a tournament."))
    if plan.table_size not in TABLE_SIZES:
        raise GameError(gettext("A tournament's tables have 2, 3 or 4 players."))
    if plan.ruleset not in Ruleset.values:
        raise GameError(gettext("Choose Yahtzee, Yatzy or Yacht."))
    if plan.starts_at < now - timedelta(minutes=1) or plan.starts_at > now + FURTHEST_START:
        raise GameError(gettext("Choose a start from now to 60 days ahead (in UTC)."))
    return name


def tournament_create(*, player: Player, plan: Plan) -> Tournament:
    """A new tournament, made by an account."""
    if player.user_id is None:
        raise NotAllowed(gettext("Log in to make a tournament."))
    now = clock.now()
    name = _check(plan, now)
    return Tournament.objects.create(
        name=name,
        created_by_id=player.user_id,
        created_at=now,
        starts_at=max(plan.starts_at, now),
        minutes=plan.minutes,
        pace=Pace(plan.pace),
        table_size=plan.table_size,
        ruleset=Ruleset(plan.ruleset),
        rated=plan.rated,
        public=plan.public,
    )


def _tournament(tournament_id: int) -> Tournament:
    found = None
    if 0 < tournament_id < 2**62:
        found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise GameNotFound(gettext("There is no such tournament."))
    return found


def _locked(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _seated_accounts(user_ids: Sequence[int]) -> set[int]:
    """The accounts among ``user_ids`` sitting at a tournament's table still in play."""
    seats = Seat.objects.filter(
        user__in=user_ids,
        game__status__in=IN_PLAY,
        game__tournament_table__isnull=False,
    )
    return set(seats.values_list("user_id", flat=True))


def tournament_join(*, tournament_id: int, player: Player) -> Entry:
    """Join before or while it runs; whoever is free is paired at once."""
    if player.user_id is None:
        raise NotAllowed(gettext("Log in to join a tournament."))
    tournament = _tournament(tournament_id)
    now = clock.now()
    if tournament.status_at(now) == Tournament.Status.FINISHED:
        raise GameError(gettext("This tournament is over; nobody can join it now."))
    if tournament.rated:
        check_may_sit_rated(player)
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, user_id=player.user_id).first()
        if entry is not None and not entry.withdrawn:
            raise AlreadyIn(gettext("You are in this tournament already."))
        if entry is None:
            entry = Entry(tournament=tournament, user_id=player.user_id, joined_at=now)
        entry.withdrawn = False
        at_table = _at_table(tournament, player.user_id)
        entry.waiting_since = None if at_table else now
        entry.save()
        tournament_scoring.tell(tournament.pk)
    tournament_pair(tournament_id=tournament_id)
    return entry


def _at_table(tournament: Tournament, user_id: int) -> bool:
    return Seat.objects.filter(
        user_id=user_id,
        game__status__in=IN_PLAY,
        game__tournament_table__tournament=tournament,
    ).exists()


@transaction.atomic
def tournament_withdraw(*, tournament_id: int, player: Player) -> Entry:
    """Leave the tournament: no more tables (a game under way is played on and counts)."""
    _tournament(tournament_id)
    tournament = _locked(tournament_id)
    user_id = player.user_id or 0
    entry = Entry.objects.filter(tournament=tournament, user_id=user_id).first()
    if entry is None or entry.withdrawn:
        raise GameError(gettext("You are not in this tournament."))
    if tournament.status_at(clock.now()) == Tournament.Status.FINISHED:
        raise GameError(gettext("This tournament is over; its standings are final."))
    entry.withdrawn, entry.waiting_since = True, None
    entry.save(update_fields=["withdrawn", "waiting_since"])
    tournament_scoring.tell(tournament.pk)
    return entry


@transaction.atomic
def tournament_pin(*, tournament_id: int, pinned: bool, by_staff: bool) -> Tournament:
    """Staff show a tournament on the home page, or stop showing it."""
    if not by_staff:
        raise NotAllowed(gettext("Only staff can pin tournaments."))
    _tournament(tournament_id)
    tournament = _locked(tournament_id)
    tournament.pinned = pinned
    tournament.save(update_fields=["pinned"])
    return tournament


def _clashes(entry: Entry, group: list[Entry]) -> bool:
    return any(
        entry.user_id in other.last_opponents or other.user_id in entry.last_opponents
        for other in group
    )


def groups_of(
    waiting: Sequence[Entry], size: int, now: datetime, started: datetime
) -> list[list[Entry]]:
    """The tables to make of ``waiting`` (best points first): full tables of the closest in
    points, avoiding last tables' opponents when others wait; then, once someone has
    waited ``ARENA_PATIENCE``, one smaller table of those left (two at least)."""
    left = list(waiting)
    groups: list[list[Entry]] = []
    while len(left) >= size:
        group = [left[0]]
        for entry in left[1:]:
            if len(group) < size and not _clashes(entry, group):
                group.append(entry)
        for entry in left[1:]:  # nobody else waits: the same opponents again
            if len(group) < size and entry not in group:
                group.append(entry)
        groups.append(group)
        left = [entry for entry in left if entry not in group]
    waited = [max(entry.waiting_since or now, started) for entry in left]
    if len(left) >= 2 and min(waited) <= now - ARENA_PATIENCE:
        groups.append(left)
    return groups


def tournament_pair(*, tournament_id: int, now: datetime | None = None) -> list[Game]:
    """Seat whoever waits at new tables (the tournament's row locked). Returns the tables."""
    now = now or clock.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status_at(now) != Tournament.Status.RUNNING:
            return []
        waiting = list(
            Entry.objects.filter(
                tournament=tournament, withdrawn=False, waiting_since__isnull=False
            )
            .select_related("user")
            .order_by("-points", "waiting_since", "pk")
        )
        busy = _seated_accounts([entry.user_id for entry in waiting])
        waiting = [entry for entry in waiting if entry.user_id not in busy]
        if tournament.rated:
            # Whose pause from rated tables began while they waited sits out until it ends
            # (still in, still waiting): with them, their table would never open.
            waiting = [entry for entry in waiting if may_sit_rated(_player_of(entry))]
        groups = groups_of(waiting, tournament.table_size, now, tournament.starts_at)
        if not groups:
            return []
        tournament.rounds += 1  # the tables' round; counted only if one of them opens
        seed = secrets.token_hex(32)
        games = [game for group in groups if (game := _open_table(tournament, group, seed))]
        if not games:
            tournament.rounds -= 1
            return []
        tournament.save(update_fields=["rounds"])
        tournament_scoring.tell(tournament.pk)
        return games


def _player_of(entry: Entry) -> Player:
    return Player(name=entry.user.get_username(), user_id=entry.user_id)


def _round_secret_until(tournament: Tournament) -> datetime:
    """When a round's seed may be shown: once the last table a round made before the end
    can have finished (its every turn on the clock, every seat)."""
    turn = Pace(tournament.pace).turn_time or timedelta(minutes=5)
    return tournament.ends_at + turn * 13 * tournament.table_size


def _open_table(tournament: Tournament, group: list[Entry], seed: str) -> Game | None:
    """A table for ``group`` through the lobby's own services, started at once."""
    people = [_player_of(entry) for entry in group]
    try:
        with transaction.atomic():
            game = lobby.game_create(
                player=people[0],
                seat_count=len(people),
                rules=Rules(ruleset=tournament.ruleset),
                pace=tournament.pace,
                rated=tournament.rated,
                is_public=tournament.public,
                # Strangers paired by the arena: quick phrases, public tournament or not.
                chat=chat_level_default(is_public=tournament.public, kind="tournament"),
                dice_draw=DiceDraw.SAME,
                dice_seed=bytes.fromhex(seed),
                seed_secret_until=_round_secret_until(tournament),
            )
            version = game.version
            for person in people[1:]:
                version = lobby.game_join(
                    code=game.code, player=person, version=version
                ).game.version
            lobby.game_start(code=game.code, player=people[0], version=version)
            TournamentTable.objects.create(
                tournament=tournament, game=game, round=tournament.rounds, seed=seed
            )
            for entry in group:
                entry.waiting_since = None
                entry.save(update_fields=["waiting_since"])
    except GameError as error:  # e.g. a pause from rated games that began just now
        logger.warning("Tournament %s could not open a table: %s", tournament.pk, error)
        return None
    return game


def tournament_finish(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Once the clock has run out and every table has ended, announce the winner to
    everyone in it (their inbox), once. True when this call announced it."""
    now = now or clock.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.announced_at or tournament.status_at(now) != Tournament.Status.FINISHED:
            return False
        if tournament.tables.filter(game__status__in=IN_PLAY).exists():
            return False
        tournament.announced_at = now
        tournament.save(update_fields=["announced_at"])
        Entry.objects.filter(tournament=tournament).update(waiting_since=None)
        entries = list(tournament.entries.order_by("-points", "games", "joined_at", "pk"))
        if entries:
            winner = entries[0]
            for entry in entries:
                place = 1 + sum(other.points > entry.points for other in entries)
                inbox_add(
                    user_id=entry.user_id,
                    kind=InboxItem.Kind.TOURNAMENT,
                    sender_id=winner.user_id,
                    details={"tournament": tournament.pk, "place": place, "players": len(entries)},
                )
        tournament_scoring.tell(tournament.pk)
        return True


def after_game_ended(tournament_id: int) -> None:
    """A game of the tournament ended and was scored (hooked by GamesConfig.ready into
    ``tournament_scoring.after_game``): pair whoever is free, end the tournament if due."""
    tournament_pair(tournament_id=tournament_id)
    tournament_finish(tournament_id=tournament_id)


def tournaments_sweep(*, now: datetime | None = None) -> int:
    """From the heartbeat: pair every running tournament where people wait, and announce
    the ones whose clock ran out. Returns how many tables were opened."""
    now = now or clock.now()
    opened = 0
    waiting = Entry.objects.filter(withdrawn=False, waiting_since__isnull=False)
    running = Tournament.objects.filter(
        starts_at__lte=now, announced_at__isnull=True, entries__in=waiting
    ).distinct()
    for tournament in running:
        if tournament.status_at(now) == Tournament.Status.RUNNING:
            opened += len(tournament_pair(tournament_id=tournament.pk, now=now))
    over = Tournament.objects.filter(announced_at__isnull=True, starts_at__lte=now)
    for tournament in over:
        if tournament.status_at(now) == Tournament.Status.FINISHED:
            tournament_finish(tournament_id=tournament.pk, now=now)
    return opened
