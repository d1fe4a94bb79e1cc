"""Writes about accounts: seats kept at log-in or sign-up, the language chosen, and the
deletion of an account."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.committed import committed
from games.models import Game, RetiredUsername, Seat
from games.models.accounts import Profile
from games.services.absence import pass_host, seat_leave_playing
from games.services.chat import chat_guest_claim
from games.services.daily import daily_guest_claim
from games.services.lobby import close_gaps
from games.services.player_names import name_taken
from games.services.writes import bump


@transaction.atomic
def guest_seats_claim(*, guest: str, user_id: int) -> int:
    """A guest who signs up or logs in keeps the seats (and tables) they had as a guest,
    shown from now on under the account's name, unless someone else at that table is
    already called that: then the seat keeps its guest name, so no two seats look alike.
    Their table talk and their daily games come along too (``chat.chat_guest_claim``,
    ``daily.daily_guest_claim``)."""
    if not guest:
        return 0
    chat_guest_claim(guest=guest, user_id=user_id)
    daily_guest_claim(guest=guest, user_id=user_id)
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


# A deleted account's seats: no account, no guest token, no name ("A former player").
FORMER_SEAT = {"user": None, "guest": "", "name": ""}


@transaction.atomic
def account_delete(*, user_id: int) -> int:
    """Delete an account in one transaction: its username is retired (nobody may sign up
    under it again); in each game in play its seat leaves, as "leave" does (the coach plays
    it to the end); in a lobby its seat is given up (a table only it and computer players
    sat at goes); in ended games its seat stays for the others' sake as "A former player".
    Every changed game is announced, so open pages drop the name. Then its sessions, its
    profile, rating and practice answers go with the account. Returns the games changed."""
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user_id)
    RetiredUsername.objects.get_or_create(username=user.get_username())
    seated = Seat.objects.filter(user_id=user_id).values_list("game_id")
    games = Game.objects.select_for_update().filter(Q(id__in=seated) | Q(host_user_id=user_id))
    changed = 0
    for game in games.order_by("id"):
        _forget_in(game, user_id)
        changed += 1
    _sessions_end(user_id)
    user.delete()  # the profile, rating and practice go with it (CASCADE)
    return changed


def _forget_in(game: Game, user_id: int) -> None:
    """Take the account out of one game (locked), announcing the new version."""
    hosted = game.host_user_id == user_id
    if hosted:  # the host role passes on below, or the table has no host
        game.host_user_id, game.host_guest = None, ""
    seats = list(game.seats.order_by("position"))
    seat = next((s for s in seats if s.user_id == user_id), None)
    if seat is None:  # hosted without a seat
        bump(game, "host_user", "host_guest")
        return
    if game.status == Game.Status.LOBBY:
        seat.delete()
        others = [s for s in seats if s is not seat]
        if not any(not s.bot for s in others):
            code = game.code
            game.delete()  # nobody else was waiting at it
            transaction.on_commit(lambda: committed.forget(code))
            return
        close_gaps(game)
        if hosted:
            pass_host(game, seats, seat)
        bump(game, "host_user", "host_guest")
        return
    for name, value in FORMER_SEAT.items():
        setattr(seat, name, value)
    fields = tuple(FORMER_SEAT)
    if game.status == Game.Status.PLAYING:
        seat_leave_playing(game=game, seats=seats, seat=seat, hosts=hosted, fields=fields)
        return
    seat.save(update_fields=list(fields))
    bump(game, "host_user", "host_guest")


def _sessions_end(user_id: int) -> None:
    """End every session logged in to the account: its rows now, its cached copies once the
    transaction has committed (cached_db sessions; a lookup finds nothing in the cache and
    nothing in the database, so the cookie is as good as none)."""
    keys = []
    live = Session.objects.filter(expire_date__gt=timezone.now())
    for key, data in live.values_list("session_key", "session_data").iterator(chunk_size=500):
        if SessionStore().decode(data).get("_auth_user_id") == str(user_id):
            keys.append(key)
    Session.objects.filter(session_key__in=keys).delete()
    cache_keys = [SessionStore(session_key=key).cache_key for key in keys]
    cache = caches[settings.SESSION_CACHE_ALIAS]
    transaction.on_commit(lambda: cache.delete_many(cache_keys))
