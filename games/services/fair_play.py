"""Fair-play review: after each rated game's review, every account at the table is checked
against the rule (games/strategy/fairness.py) over its most recent reviewed rated games;
one far above what strong people reach is flagged, which takes it off the leaderboard
until a moderator clears it (back on, and those games never flag it again) or confirms it
(off for good). Nothing else follows from a flag: no rating changes."""

from __future__ import annotations

from django.db import transaction

from games.clock import clock
from games.models import OFF_THE_LEADERBOARD, FairPlayReview, Game, Rating, Seat
from games.strategy.fairness import WINDOW, is_suspicious, total


def fair_play_check(*, user_id: int) -> FairPlayReview | None:
    """Flag the account if its last :data:`WINDOW` reviewed rated games (leaving out those
    a moderator cleared it on) agree with the coach beyond the rule. Run in the review's
    transaction; returns the new flag, if any."""
    # The account's rating row is the lock: two of its games reviewed at once (two
    # processes) cannot both raise a flag.
    list(Rating.objects.select_for_update().filter(user_id=user_id))
    reviews = FairPlayReview.objects.filter(user_id=user_id)
    if any(review.status in OFF_THE_LEADERBOARD for review in reviews):
        return None  # already waiting for a moderator, or confirmed
    cleared = Game.objects.filter(
        pk__in=FairPlayReview.games.through.objects.filter(
            fairplayreview__user_id=user_id,
            fairplayreview__status=FairPlayReview.Status.CLEARED,
        ).values("game_id")
    )
    recent = list(
        Seat.objects.filter(user_id=user_id, game__rated=True, real_choices__isnull=False)
        .exclude(game__in=cleared)
        .order_by("-game__finished_at", "-game_id")
        .values_list("game_id", "real_choices", "coach_agreed")[:WINDOW]
    )
    agreement = total([(choices or 0, agreed or 0) for _game, choices, agreed in recent])
    if not is_suspicious(agreement):
        return None
    review = FairPlayReview.objects.create(
        user_id=user_id,
        choices=agreement.choices,
        agreed=agreement.agreed,
        flagged_at=clock.now(),
    )
    review.games.set([game_id for game_id, _choices, _agreed in recent])
    return review


def fair_play_game_checked(game: Game) -> list[FairPlayReview]:
    """Check every account seated at a reviewed rated game (casual games are not looked at)."""
    if not game.rated:
        return []
    flags = []
    for user_id in sorted(
        set(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    ):
        flag = fair_play_check(user_id=user_id)
        if flag is not None:
            flags.append(flag)
    return flags


@transaction.atomic
def fair_play_decide(*, review_id: int, moderator_id: int | None, confirm: bool) -> FairPlayReview:
    """A moderator's decision on a flag: confirmed (off the leaderboard for good) or cleared
    (back on it; the flag's games never flag the account again)."""
    review = FairPlayReview.objects.select_for_update().get(pk=review_id)
    review.status = FairPlayReview.Status.CONFIRMED if confirm else FairPlayReview.Status.CLEARED
    review.decided_at = clock.now()
    review.decided_by_id = moderator_id
    review.save(update_fields=["status", "decided_at", "decided_by"])
    return review
