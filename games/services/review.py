"""Writes after a game: the coach's review, stored once."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from games.models import Game
from games.services.errors import GameError
from games.services.fair_play import fair_play_game_checked
from games.services.writes import as_it_stands, bump, locked_game
from games.snapshots import Snapshot

SEAT_REVIEW_FIELDS = ("review_decisions", "review_loss", "play_worth", "luck")
FAIR_PLAY_FIELDS = ("real_choices", "coach_agreed")


@transaction.atomic
def review_store(
    *, code: str, review: dict[str, object], mean_losses: dict[int, float]
) -> Snapshot:
    """Keep the coach's review of a finished game (once) and show it to the room; after a
    rated game, the fair-play check of every account at the table."""
    game = locked_game(code)
    if game.status != Game.Status.FINISHED:
        raise GameError(gettext("A game is reviewed once it is over."))
    if game.review is not None:
        return as_it_stands(game)  # reviewed already (by another process): nothing to do twice
    game.review = review
    reviewed = review.get("seats", {})
    assert isinstance(reviewed, dict)
    positions = {*mean_losses, *(int(p) for p in reviewed)}
    for seat in game.seats.filter(position__in=positions):
        # Its figures kept on the seat too, for the history's sums (selectors/history.py).
        figures = reviewed.get(str(seat.position)) or {}
        skill = figures.get("skill") or {}
        seat.mean_loss = mean_losses.get(seat.position, seat.mean_loss)
        seat.review_decisions = len(figures.get("decisions", ()))
        seat.review_loss = figures.get("total_loss")
        seat.play_worth = skill.get("play_worth")
        seat.luck = skill.get("luck")
        fields = [*SEAT_REVIEW_FIELDS, "mean_loss"]
        if game.rated and seat.user_id and "real_choices" in figures:
            # The fair-play figures: rated games only (a casual game may have had hints).
            seat.real_choices = figures["real_choices"]
            seat.coach_agreed = figures["agreed"]
            fields += FAIR_PLAY_FIELDS
        seat.save(update_fields=fields)
    fair_play_game_checked(game)
    game.due_at = None
    return bump(game, "review", "due_at")
