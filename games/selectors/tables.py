"""Lists of tables, and a game's public state for API users."""

from __future__ import annotations

from django.db.models import Count, F, Q

from ..committed import committed
from ..models import Game, Player
from ..rules import Category, Scorecard
from ..snapshots import Snapshot


def get_game(code: str) -> Game | None:
    return Game.objects.filter(code=code).first()


def load_snapshot(code: str, version: int | None = None) -> Snapshot | None:
    """The game with its seats as they stand now, for rendering: the copy this process
    already holds when it is at ``version`` (just committed or announced), else read."""
    known = committed.at(code, version) if version is not None else None
    return known or Snapshot.load(code)


def public_lobbies(limit: int = 20) -> list[Game]:
    return list(
        Game.objects.filter(status=Game.Status.LOBBY, is_public=True)
        .annotate(seated=Count("seats"))
        .filter(seated__lt=F("seat_count"))
        .order_by("-created_at")[:limit]
    )


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
        .exclude(status=Game.Status.FINISHED)
        .order_by("-created_at")
        .distinct()[:limit]
    )


def state_json(game: Game) -> dict[str, object]:
    """The public state of a game, for bots, benchmarks and API users."""
    seats = list(game.seats.order_by("position"))
    state = game.engine_state(seats) if game.status != Game.Status.LOBBY else None
    rules_ = game.rules
    return {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "rules": rules_.to_dict(),
        "seat_count": game.seat_count,
        "round": state.round if state else None,
        "current_seat": state.current_seat if state else None,
        "dice": list(state.dice) if state and state.dice else None,
        "kept": list(state.held) if state and state.dice else None,
        "rolls_left": state.rolls_left if state else None,
        "seats": [
            {
                "position": seat.position,
                "name": seat.name,
                "guest": seat.user_id is None,
                "card": {c.value: card[c] for c in Category}
                | {
                    "upper_subtotal": card.upper_subtotal,
                    "upper_bonus": card.upper_bonus,
                    "yahtzee_bonus": card.yahtzee_bonus,
                    "total": card.total,
                },
                "total": card.total,
                "place": seat.place,
            }
            for seat in seats
            for card in [Scorecard.from_dict(seat.scorecard, rules_)]
        ],
    }
