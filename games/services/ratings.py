"""Ratings: every finished rated game (``Game.rated``; casual games never move a rating)
with two or more rated players (accounts and computer
players; guests are not rated) moves each account's rating, with openskill's
Plackett-Luce model for multiplayer results. Each account has one rating per rule set
(``Rating.ruleset``), and a game moves the ratings of its own rule set only. Computer
players keep fixed public ratings.
Run inside the transaction of the move that finished the game, so exactly once."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from games.models import BotLevel, Game, Rating, Seat

MODEL = PlackettLuce()


def has_left(seat: Seat) -> bool:
    """Whether the seat's player left the game (the coach played it to the end)."""
    return seat.status == Seat.Status.LEFT


def rating_ranks(results: Sequence[tuple[int, bool]]) -> list[int]:
    """Ranks for the model from (place, left) per seat: everyone who left ranks below
    everyone who stayed (among themselves by place); equal places share a rank."""
    stayed = [place for place, left in results if not left]
    below = max(stayed, default=0)
    return [place + below if left else place for place, left in results]


def default_rating() -> tuple[float, float]:
    rating = MODEL.rating()
    return rating.mu, rating.sigma


def game_rate(game: Game, seats: Sequence[Seat]) -> None:
    """Update the accounts' ratings from this finished game (``seats`` with their places)."""
    if not game.rated:
        return
    rated = [seat for seat in seats if seat.user_id or seat.bot]
    if len(rated) < 2 or not any(seat.user_id for seat in rated):
        return
    user_ids = sorted({seat.user_id for seat in rated if seat.user_id})
    for user_id in user_ids:
        mu, sigma = default_rating()
        Rating.objects.get_or_create(
            user_id=user_id,
            ruleset=game.ruleset,
            defaults={"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma},
        )
    # Locked in user order, so two games finishing at once cannot deadlock.
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, ruleset=game.ruleset)
        .order_by("user_id")
    }
    teams = []
    for seat in rated:
        if seat.user_id:
            mu, sigma = ratings[seat.user_id].mu, ratings[seat.user_id].sigma
        else:
            mu, sigma = BotLevel(seat.bot).rating
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    # openskill takes a list[float] (invariant): a copy of the whole-number ranks types as one
    ranks: list[float] = list(rating_ranks([(s.place or len(seats), has_left(s)) for s in rated]))
    new = MODEL.rate(teams, ranks=ranks)
    for seat, (player,) in zip(rated, new, strict=True):
        if not seat.user_id:
            continue  # computer players keep their public rating
        rating = ratings[seat.user_id]
        rating.mu, rating.sigma = player.mu, player.sigma
        rating.ordinal = player.ordinal()
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "ordinal", "games", "updated_at"])
        seat.rating_after = rating.ordinal
        Seat.objects.filter(pk=seat.pk).update(rating_after=rating.ordinal)
