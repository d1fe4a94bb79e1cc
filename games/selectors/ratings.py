"""Ratings as pages show them: the leaderboard, and an account's rating and its trend."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Avg, Count, Q

from games.models import (
    OFF_THE_LEADERBOARD,
    BotLevel,
    FairPlayReview,
    Game,
    Rating,
    Ruleset,
    Seat,
)
from games.viewmodels.base import ViewModel

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MIN_RATED_GAMES = 5  # fewer rated games than this and a rating is not yet on the board
START_RATING = 0.0  # openskill's new player: mu 25, sigma 25/3, so mu - 3 sigma = 0


@dataclass(frozen=True)
class LeaderRow(ViewModel):
    place: int
    username: str
    rating: float
    games: int
    wins: int
    mean_score: float | None


@dataclass(frozen=True)
class BotRating(ViewModel):
    name: StrOrPromise  # translated when shown
    description: StrOrPromise
    rating: float


def bot_ratings() -> list[BotRating]:
    """The computer players' fixed public ratings, strongest first (mu - 3 sigma)."""
    rows = [
        BotRating(level.label, level.description, level.rating[0] - 3 * level.rating[1])
        for level in BotLevel
    ]
    return sorted(rows, key=lambda row: -row.rating)


def leaderboard(limit: int = 50, ruleset: str = Ruleset.YAHTZEE) -> list[LeaderRow]:
    """The top accounts of one rule set by conservative rating, among those with enough
    rated games of it and no fair-play flag waiting for a moderator or confirmed by one;
    their wins and mean score are those of that rule set's games."""
    flagged = FairPlayReview.objects.filter(status__in=OFF_THE_LEADERBOARD).values("user_id")
    ratings = list(
        Rating.objects.filter(games__gte=MIN_RATED_GAMES, ruleset=ruleset)
        .exclude(user_id__in=flagged)
        .select_related("user")
        .order_by("-ordinal", "user__username")[:limit]
    )
    finished = Seat.objects.filter(
        user_id__in=[r.user_id for r in ratings],
        game__status=Game.Status.FINISHED,
        game__ruleset=ruleset,
    )
    stats = {
        row["user_id"]: row
        for row in finished.values("user_id").annotate(
            wins=Count("id", filter=Q(place=1, game__seat_count__gt=1)),
            mean=Avg("total"),
        )
    }
    return [
        LeaderRow(
            place=i,
            username=r.user.get_username(),
            rating=r.ordinal,
            games=r.games,
            wins=stats.get(r.user_id, {}).get("wins", 0),
            mean_score=stats.get(r.user_id, {}).get("mean"),
        )
        for i, r in enumerate(ratings, start=1)
    ]


@dataclass(frozen=True)
class RatingView(ViewModel):
    ruleset: str  # a Ruleset value
    rating: float
    games: int
    change: float | None  # by the last rated game
    # "flagged" (a moderator has yet to decide), "confirmed" (off the leaderboard for
    # good) or "" (nothing in the way).
    fair_play: str = ""

    @property
    def on_leaderboard(self) -> bool:
        return self.games >= MIN_RATED_GAMES and not self.fair_play

    @property
    def games_to_go(self) -> int:
        return max(MIN_RATED_GAMES - self.games, 0)

    @property
    def ruleset_name(self) -> StrOrPromise:
        return Ruleset(self.ruleset).label


def user_rating(user_id: int, ruleset: str = Ruleset.YAHTZEE) -> RatingView | None:
    """An account's rating at one rule set and what its last rated game of that rule set
    changed (its whole course is the history's chart: selectors/history.py)."""
    rating = Rating.objects.filter(user_id=user_id, ruleset=ruleset).first()
    if rating is None:
        return None
    last_two = [
        after
        for after in Seat.objects.filter(
            user_id=user_id, rating_after__isnull=False, game__ruleset=ruleset
        )
        .order_by("-game__finished_at", "-game_id")
        .values_list("rating_after", flat=True)[:2]
        if after is not None  # never, by the filter: it narrows the type
    ]
    change = None
    if last_two:
        change = last_two[0] - (last_two[1] if len(last_two) >= 2 else START_RATING)
    held = set(
        FairPlayReview.objects.filter(user_id=user_id, status__in=OFF_THE_LEADERBOARD).values_list(
            "status", flat=True
        )
    )
    fair_play = next((str(s) for s in OFF_THE_LEADERBOARD[::-1] if s in held), "")
    return RatingView(
        ruleset=rating.ruleset,
        rating=rating.ordinal,
        games=rating.games,
        change=change,
        fair_play=fair_play,
    )
