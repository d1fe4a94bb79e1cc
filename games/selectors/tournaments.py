"""Reads of arena tournaments: the list, one tournament's standings and tables (for its page,
its live push and ``/tournaments/<id>.json``), the pinned ones, and an account's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.clock import clock
from games.models import Entry, Game, Result, Tournament, TournamentTable

SHOWN = 50  # tournaments listed on /tournaments/


@dataclass(frozen=True)
class Standing:
    place: int
    username: str
    user_id: int
    points: int
    games: int
    streak: int  # wins in a row: from two on, the next win counts double (the mark)
    withdrawn: bool
    waiting: bool

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2


@dataclass(frozen=True)
class TableView:
    code: str
    round: int
    playing: bool
    names: tuple[str, ...]


@dataclass(frozen=True)
class TournamentView:
    tournament: Tournament
    status: str
    standings: tuple[Standing, ...]
    tables: tuple[TableView, ...]
    now: datetime

    @property
    def id(self) -> int:
        return self.tournament.pk

    def entry_of(self, user_id: int | None) -> Standing | None:
        return next((s for s in self.standings if s.user_id == user_id), None)

    def as_json(self) -> dict:
        t = self.tournament
        return {
            "id": t.pk,
            "name": t.name,
            "status": self.status,
            "starts_at": t.starts_at.isoformat(),
            "ends_at": t.ends_at.isoformat(),
            "ruleset": t.ruleset,
            "pace": t.pace,
            "table_size": t.table_size,
            "players": [
                {"username": s.username, "points": s.points, "games": s.games, "streak": s.streak}
                for s in self.standings
            ],
            "games": [table.code for table in self.tables],
        }


def standings_of(tournament: Tournament) -> tuple[Standing, ...]:
    """Best first: points, then fewer games, then who joined first; equal points share."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("-points", "games", "joined_at", "pk")
    )
    return tuple(
        Standing(
            place=1 + sum(other.points > entry.points for other in entries),
            username=entry.user.get_username(),
            user_id=entry.user_id,
            points=entry.points,
            games=entry.games,
            streak=entry.streak,
            withdrawn=entry.withdrawn,
            waiting=entry.waiting_since is not None,
        )
        for entry in entries
    )


MAX_ID = 2**62  # a larger id in a link names no row (and would not fit SQLite's integers)


def tournament_view(tournament_id: int) -> TournamentView | None:
    if not 0 < tournament_id < MAX_ID:
        return None
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    tables = (
        TournamentTable.objects.filter(tournament=tournament)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("-round", "pk")
    )
    now = clock.now()
    return TournamentView(
        tournament=tournament,
        status=tournament.status_at(now),
        standings=standings_of(tournament),
        tables=tuple(
            TableView(
                code=table.game.code,
                round=table.round,
                playing=table.game.status == Game.Status.PLAYING,
                names=tuple(
                    seat.name for seat in sorted(table.game.seats.all(), key=lambda s: s.position)
                ),
            )
            for table in tables
        ),
        now=now,
    )


def tournament_list(user_id: int | None) -> list[Tournament]:
    """Upcoming and running tournaments first (public ones, and the reader's own), then
    the most recent finished ones."""
    now = clock.now()
    shown = Tournament.objects.all()
    if user_id is None:
        shown = shown.filter(public=True)
    else:
        shown = shown.filter(public=True) | shown.filter(created_by_id=user_id)
    found = list(shown.order_by("-starts_at")[:SHOWN])
    order: dict[str, int] = {"running": 0, "upcoming": 1}
    return sorted(found, key=lambda t: (order.get(t.status_at(now), 2), t.starts_at))


def tournaments_pinned() -> list[Tournament]:
    """The tournaments staff pinned to the home page, not yet over."""
    now = clock.now()
    pinned = Tournament.objects.filter(pinned=True, announced_at__isnull=True)
    return [t for t in pinned.order_by("starts_at")[:5] if t.status_at(now) != "finished"]


@dataclass(frozen=True)
class PlayedView:
    id: int
    name: str
    place: int
    players: int
    points: int
    ends_at: datetime


def tournaments_played(user_id: int) -> list[PlayedView]:
    """The tournaments an account played a game in, newest first, with its place."""
    played = (
        Result.objects.filter(user_id=user_id).values_list("tournament_id", flat=True).distinct()
    )
    found = []
    for tournament in Tournament.objects.filter(pk__in=played).order_by("-starts_at")[:20]:
        standings = standings_of(tournament)
        mine = next(s for s in standings if s.user_id == user_id)
        found.append(
            PlayedView(
                id=tournament.pk,
                name=tournament.name,
                place=mine.place,
                players=len(standings),
                points=mine.points,
                ends_at=tournament.ends_at,
            )
        )
    return found
