"""Lists of tables, and a game's public state for API users."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import CharField, Count, Exists, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Concat

from games.committed import committed
from games.models import Game, Player, Seat
from games.rules import Scorecard
from games.snapshots import Snapshot


def get_game(code: str) -> Game | None:
    return Game.objects.filter(code=code).first()


def load_snapshot(code: str, version: int | None = None) -> Snapshot | None:
    """The game with its seats as they stand now, for rendering: the copy this process
    already holds when it is at ``version`` (just committed or announced), else read."""
    known = committed.at(code, version) if version is not None else None
    return known or Snapshot.load(code)


def public_lobbies(limit: int = 20) -> list[Game]:
    """Public tables waiting for players, newest first: at most one per host (their newest),
    so that nobody can fill the list with tables of their own."""
    host = Concat(
        Coalesce(Cast("host_user_id", CharField()), Value("")),
        Value(":"),
        "host_guest",
        output_field=CharField(),
    )
    seated = Seat.objects.filter(game=OuterRef("pk")).values("game").annotate(n=Count("id"))
    waiting = (
        Game.objects.filter(status=Game.Status.LOBBY, is_public=True)
        .annotate(host=host, seated=Coalesce(Subquery(seated.values("n")), 0))
        .filter(seated__lt=F("seat_count"))
    )
    newer_of_same_host = waiting.filter(
        host=OuterRef("host"), created_at__gt=OuterRef("created_at")
    )
    return list(waiting.exclude(Exists(newer_of_same_host)).order_by("-created_at")[:limit])


def player_games(player: Player, limit: int = 10) -> list[Game]:
    """Games this player sits in that are not over yet, newest first."""
    if player.user_id is not None:
        seat_filter = Q(seats__user_id=player.user_id)
    elif player.guest:
        seat_filter = Q(seats__guest=player.guest, seats__user__isnull=True)
    else:
        return []
    return list(
        Game.objects.filter(seat_filter)
        .exclude(status__in=[Game.Status.FINISHED, Game.Status.ABANDONED])
        .order_by("-created_at")
        .distinct()[:limit]
    )


@dataclass(frozen=True)
class YourTurn:
    """A game where it is the viewer's turn, and the seconds left on its clock (or None)."""

    game: Game
    seconds_left: int | None

    @property
    def minutes_left(self) -> int:
        return (self.seconds_left or 0) // 60

    @property
    def hours_left(self) -> int:
        return (self.seconds_left or 0) // 3600


# Games in play looked at for "Your turn", soonest deadline first (most are others' turns).
YOUR_TURN_SCANNED = 200


def your_turn_games(player: Player, now: datetime, limit: int = 20) -> list[YourTurn]:
    """Games in play where it is ``player``'s turn: the one whose clock runs out first
    first, then those without a clock, the turn waiting longest first."""
    if player.user_id is not None:
        seat_filter = Q(seats__user_id=player.user_id)
    elif player.guest:
        seat_filter = Q(seats__guest=player.guest, seats__user__isnull=True)
    else:
        return []
    games = (
        Game.objects.filter(seat_filter, status=Game.Status.PLAYING)
        .distinct()
        .order_by(F("turn_deadline").asc(nulls_last=True), F("turn_started_at").asc(), "pk")
    )
    mine = []
    for game in games.prefetch_related("seats")[:YOUR_TURN_SCANNED]:
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        on_turn = game.engine_state(seats).current_seat
        assert on_turn is not None  # a game in play has a seat on turn
        seat = seats[on_turn]
        if player.owns(seat) and not seat.coach_plays:
            mine.append(game)
            if len(mine) == limit:
                break
    return [
        YourTurn(
            g, max(0, int((g.turn_deadline - now).total_seconds())) if g.turn_deadline else None
        )
        for g in mine
    ]


def state_json(game: Game) -> dict[str, object]:
    """The public state of a game, for bots, benchmarks and API users."""
    seats = list(game.seats.order_by("position"))
    state = game.engine_state(seats) if game.status != Game.Status.LOBBY else None
    rules_ = game.rules
    return {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "ruleset": game.ruleset,
        "rules": rules_.to_dict(),
        "seat_count": game.seat_count,
        "round": state.round if state else None,
        "current_seat": state.current_seat if state else None,
        "dice": list(state.dice) if state and state.dice else None,
        "kept": list(state.held) if state and state.dice else None,
        "rolls_left": state.rolls_left if state else None,
        # The provably fair dice (games/dice.py): the promise from the start, the seed
        # once the game has ended.
        "dice_commitment": game.dice_commitment or None,
        # "fair" (the game's own stream) or "same" (the same-dice draw: docs/fair-dice.md).
        "dice_draw": game.dice_draw,
        "pace": game.pace,
        # Rated games move ratings and show no coach while they run; casual ones do neither.
        "rated": game.rated,
        "turn_deadline": _utc(game.turn_deadline),
        "seats": [
            {
                "position": seat.position,
                "name": seat.name if seat.bot else seat.display_name,
                "guest": seat.user_id is None,
                "card": {box.value: card[box] for box in rules_.boxes}
                | {
                    "upper_subtotal": card.upper_subtotal,
                    "upper_bonus": card.upper_bonus,
                    "yahtzee_bonus": card.yahtzee_bonus,
                    "total": card.total,
                },
                "total": card.total,
                "place": seat.place,
                "client_seed": seat.client_seed,
                "status": seat.status,
                "left_round": seat.left_round,
            }
            for seat in seats
            for card in [Scorecard.from_dict(seat.scorecard, rules_)]
        ],
    } | ({"dice_seed": game.revealed_seed} if game.revealed_seed else {})


def _utc(moment: datetime | None) -> str | None:
    """A moment as ISO 8601 in UTC ("2026-06-01T12:00:30Z"), or None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
