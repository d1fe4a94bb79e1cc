"""Writes about accounts: seats kept at log-in or sign-up, the language chosen."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from games.models import Game, Seat
from games.models.accounts import Profile
from games.services.player_names import name_taken
from games.services.writes import bump


@transaction.atomic
def guest_seats_claim(*, guest: str, user_id: int) -> int:
    """A guest who signs up or logs in keeps the seats (and tables) they had as a guest,
    shown from now on under the account's name, unless someone else at that table is
    already called that: then the seat keeps its guest name, so no two seats look alike."""
    if not guest:
        return 0
    claimed = 0
    name = get_user_model().objects.get(pk=user_id).get_username()
    seated = Seat.objects.filter(guest=guest, user__isnull=True).values_list("game_id")
    games = Game.objects.select_for_update().filter(Q(id__in=seated) | Q(host_guest=guest))
    for game in games.order_by("id"):
        for seat in game.seats.filter(guest=guest, user__isnull=True):
            if game.seats.filter(user_id=user_id).exists():
                continue  # already seated here with the account: keep the account's seat
            if not name_taken(game.seats.exclude(pk=seat.pk).select_related("user"), name):
                seat.name = name  # shown as the account from now on
            # else it keeps the name it sat down under: no two seats may look alike
            seat.user_id, seat.guest = user_id, ""
            seat.save(update_fields=["user", "guest", "name"])
            claimed += 1
        if game.host_guest == guest and game.host_user_id is None:
            game.host_user_id, game.host_guest = user_id, ""
        bump(game, "host_user", "host_guest")
    return claimed


def account_email_change(*, user_id: int, email: str) -> None:
    """The address a person's daily-game e-mails go to ("" for none)."""
    get_user_model().objects.filter(pk=user_id).update(email=email)


def account_language_set(*, user_id: int, language: str) -> None:
    """Remember the language an account reads the site in."""
    Profile.objects.update_or_create(user_id=user_id, defaults={"language": language})
