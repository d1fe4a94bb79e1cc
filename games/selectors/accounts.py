"""Reads about accounts: the language an account chose, and everything the site keeps
about an account, for the account to download."""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, F

from games.models import Move, PracticeRecord, Rating, Ruleset, Seat
from games.models.accounts import Profile

# The moves of a seat's own turns ("start" is the table's roll-off, nobody's move).
OWN_MOVE_KINDS = (Move.Kind.ROLL, Move.Kind.KEEP, Move.Kind.SCORE)


def account_language(*, user_id: int) -> str:
    """The language an account chose ("" when it never chose one)."""
    found = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return found or ""


def _moment(moment: datetime | date | None) -> str | None:
    """A moment (or a day) as ISO 8601 text, None for none."""
    return moment.isoformat() if moment else None


def account_data(*, user_id: int) -> dict[str, object]:
    """Everything kept about an account, as plain JSON values: its username, e-mail,
    language, date joined, rating and its history, practice, and every game it sat at
    with the game's code, dates and rule options, its seat's scorecard, total and place,
    and the moves of its seat. A fixed number of queries, however many games."""
    user = get_user_model().objects.get(pk=user_id)
    ratings = {r.ruleset: r for r in Rating.objects.filter(user_id=user_id)}
    rating = ratings.get(Ruleset.YAHTZEE)
    practice = PracticeRecord.objects.filter(user_id=user_id).first()
    seats = list(
        Seat.objects.filter(user_id=user_id)
        .select_related("game")
        .order_by("game__created_at", "game_id")
    )
    players = dict(
        Seat.objects.filter(game_id__in=[seat.game_id for seat in seats])
        .values("game_id")
        .annotate(players=Count("id"))
        .values_list("game_id", "players")
    )
    # The moves made at the account's own seat (one join, not one query per game).
    own = (
        Move.objects.filter(
            game__seats__user_id=user_id, seat=F("game__seats__position"), kind__in=OWN_MOVE_KINDS
        )
        .order_by("game_id", "version")
        .values_list(
            "game_id",
            "version",
            "kind",
            "turn_number",
            "dice",
            "held",
            "category",
            "points",
            "by_coach",
            "created_at",
        )
    )
    moves: dict[int, list[dict[str, object]]] = {}
    for game_id, version, kind, turn, dice, held, category, points, by_coach, at in own:
        moves.setdefault(game_id, []).append(
            {
                "version": version,
                "kind": kind,
                "turn": turn,
                "dice": dice,
                "kept": held,
                "box": category,
                "points": points,
                "by_coach": by_coach,
                "at": _moment(at),
            }
        )
    return {
        "username": user.get_username(),
        "email": user.email,
        "language": account_language(user_id=user_id),
        "date_joined": _moment(user.date_joined),
        "rating": None
        if rating is None
        else {
            "rating": rating.ordinal,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "rated_games": rating.games,
        },
        # Every rule set's rating ("rating" above is Yahtzee's, as before rule sets).
        "ratings": {
            ruleset: {"rating": r.ordinal, "mu": r.mu, "sigma": r.sigma, "rated_games": r.games}
            for ruleset, r in sorted(ratings.items())
        },
        "rating_history": [
            {
                "game": seat.game.code,
                "at": _moment(seat.game.finished_at),
                "rating": seat.rating_after,
                "ruleset": seat.game.ruleset,
            }
            for seat in sorted(
                seats, key=lambda s: (s.game.finished_at is None, s.game.finished_at)
            )
            if seat.rating_after is not None
        ],
        "practice": None
        if practice is None
        else {"answered": practice.answered, "best": practice.best},
        "games": [
            {
                "code": seat.game.code,
                "status": seat.game.status,
                "created_at": _moment(seat.game.created_at),
                "started_at": _moment(seat.game.started_at),
                "finished_at": _moment(seat.game.finished_at),
                "options": {
                    "ruleset": seat.game.ruleset,
                    "upper_first": seat.game.upper_first,
                    "pace": seat.game.pace,
                    "coach_hints": seat.game.coach_hints,
                    "feedback": seat.game.feedback,
                    "public": seat.game.is_public,
                    "series_game": seat.game.series_game,
                    "series_length": seat.game.series_length,
                },
                "players": players.get(seat.game_id, 1),
                "seat": seat.position,
                "name": seat.name,
                "status_at_table": seat.status,
                "left_round": seat.left_round,
                "scorecard": seat.scorecard,
                "total": seat.total,
                "place": seat.place,
                "rating_after": seat.rating_after,
                "moves": moves.get(seat.game_id, []),
            }
            for seat in seats
        ],
    }
