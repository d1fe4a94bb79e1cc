"""A series of games on one score pad: each game's total per person, the running grand
total, and the winner on the grand total once every game is over."""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Game, Player, Seat
from games.viewmodels.base import ViewModel


@dataclass(frozen=True)
class SeriesLine(ViewModel):
    """One person's row of the score pad."""

    name: str
    totals: tuple[int | None, ...]  # one per game of the series (None: not played yet)
    running: tuple[int | None, ...]  # the grand total after each game
    grand_total: int
    is_winner: bool
    key: tuple[int | None, str]  # who: (user id, guest token)

    @property
    def cells(self) -> list[tuple[int | None, int | None]]:
        """Each game's total with the grand total after it."""
        return list(zip(self.totals, self.running, strict=True))


@dataclass(frozen=True)
class SeriesView(ViewModel):
    first: Game
    games: tuple[Game | None, ...]  # by number; None: not opened yet
    lines: tuple[SeriesLine, ...]
    length: int

    @property
    def is_over(self) -> bool:
        return all(g is not None and g.status == Game.Status.FINISHED for g in self.games)

    @property
    def played(self) -> int:
        return sum(1 for g in self.games if g is not None and g.status == Game.Status.FINISHED)

    @property
    def winners(self) -> list[str]:
        return [line.name for line in self.lines if line.is_winner]

    def line_of(self, player: Player) -> SeriesLine | None:
        for line in self.lines:
            user_id, guest = line.key
            if (player.user_id is not None and user_id == player.user_id) or (
                player.user_id is None and guest and guest == player.guest
            ):
                return line
        return None


def _who(seat: Seat) -> tuple[int | None, str]:
    return (seat.user_id, "" if seat.user_id else seat.guest)


def series_view(game: Game) -> SeriesView | None:
    """The series ``game`` belongs to, or None when it is a single game."""
    if not game.in_series:
        return None
    first = game.series_first or game
    by_number: dict[int, Game] = {first.series_game: first}
    for other in first.series_games.all():
        by_number[other.series_game] = other
    games = tuple(by_number.get(n) for n in range(1, first.series_length + 1))
    people = list(first.seats.order_by("position"))
    totals: dict[tuple[int | None, str], list[int | None]] = {_who(s): [] for s in people}
    for played in games:
        seats = {} if played is None else {_who(s): s for s in played.seats.all()}
        started = played is not None and played.status != Game.Status.LOBBY
        for who, row in totals.items():
            seat = seats.get(who)
            row.append(seat.total if seat is not None and started else None)
    grand = {who: sum(t or 0 for t in row) for who, row in totals.items()}
    over = all(g is not None and g.status == Game.Status.FINISHED for g in games)
    best = max(grand.values(), default=0)
    lines = []
    for seat in people:
        who = _who(seat)
        running: list[int | None] = []
        subtotal = 0
        for total in totals[who]:
            subtotal += total or 0
            running.append(subtotal if total is not None else None)
        lines.append(
            SeriesLine(
                name=seat.display_name,
                totals=tuple(totals[who]),
                running=tuple(running),
                grand_total=grand[who],
                is_winner=over and grand[who] == best,
                key=who,
            )
        )
    return SeriesView(first=first, games=games, lines=tuple(lines), length=first.series_length)


def player_series(player: Player, limit: int = 20) -> list[SeriesView]:
    """The series this player sat in from their first game, newest first."""
    if player.user_id is None:
        return []
    firsts = (
        Game.objects.filter(series_length__gt=1, series_first__isnull=True)
        .filter(seats__user_id=player.user_id)
        .order_by("-created_at")
        .distinct()[:limit]
    )
    return [view for game in firsts if (view := series_view(game)) is not None]
