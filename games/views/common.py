"""What every view of the HTTP side shares: the person behind a request, the refusals' HTTP
status, and the game (or its snapshot) a link names, else a 404."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django import forms as django_forms
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails

from games import selectors
from games.models import Game, Player, Seat
from games.services import GameError, GameNotFound, NotAllowed, OutOfTime, StaleAction
from games.snapshots import Snapshot

# The HTTP status of each kind of refusal (services know nothing of HTTP).
STATUS_OF_ERROR: dict[type[GameError], int] = {
    GameNotFound: 404,
    NotAllowed: 403,
    StaleAction: 409,
    OutOfTime: 409,  # the table moved on: the coach is finishing the turn
}


def status_of(error: GameError) -> int:
    """The status a refusal is answered with: its kind's, else 400 (a bad request)."""
    return next((STATUS_OF_ERROR[c] for c in type(error).__mro__ if c in STATUS_OF_ERROR), 400)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


def player_for(request: HttpRequest) -> Player:
    """The person behind a request: their account, or the guest name in their session."""
    if request.user.is_authenticated:
        return Player(name=request.user.get_username(), user_id=request.user.pk)
    return Player(
        name=request.session.get("guest_name", ""), guest=request.session.get("guest_token", "")
    )


def remember_guest(request: HttpRequest, name: str) -> Player:
    """Give an anonymous visitor a guest identity kept in their session."""
    if request.user.is_authenticated:
        return player_for(request)
    name = " ".join(name.split())
    if name:
        request.session["guest_name"] = name[:40]
        request.session.setdefault("guest_token", secrets.token_urlsafe(24))
    return player_for(request)


def form_error(form: django_forms.Form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return gettext("That form was not filled in correctly.")


def game_or_404(code: str) -> Game:
    game = selectors.get_game(code)
    if game is None:
        raise Http404(gettext("There is no game with that link."))
    return game


def snapshot_or_404(code: str, version: int | None = None) -> Snapshot:
    snapshot = selectors.load_snapshot(code, version)
    if snapshot is None:
        raise Http404(gettext("There is no game with that link."))
    return snapshot


def check_shared_dice_hidden(request: HttpRequest, game: Game, seats: Iterable[Seat]) -> None:
    """A game of the same dice as others still being played (the daily game before its
    day is over) is shown only to its players: its dice would tell the others theirs."""
    if game.dice_hidden_from(player_for(request), seats):
        raise PermissionDenied(
            gettext(
                "Others are still playing these same dice: this game can be watched once "
                "its day is over."
            )
        )
