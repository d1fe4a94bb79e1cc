"""Thin views: parse the form, call a service, render the page or the changed partial.

Every action is a plain POST form. With htmx the response is the board partial; without
JavaScript a successful action redirects back to the game page (post/redirect/get) and a
refused one renders the page with the message and a 4xx status.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from . import rendering, selectors, services
from .clock import clock
from .forms import (
    AddBotForm,
    EmailForm,
    GameCreateForm,
    JoinForm,
    KeepForm,
    RemoveBotForm,
    ScoreForm,
    SeedForm,
    SignupForm,
    VersionForm,
)
from .models import Game, Player, Seat
from .rules import Rules
from .services import GameError, GameNotFound, NotAllowed, StaleAction
from .snapshots import Snapshot

# The HTTP status of each kind of refusal (services know nothing of HTTP).
STATUS_OF_ERROR: dict[type[GameError], int] = {
    GameNotFound: 404,
    NotAllowed: 403,
    StaleAction: 409,
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


def _remember_guest(request: HttpRequest, name: str) -> Player:
    """Give an anonymous visitor a guest identity kept in their session."""
    if request.user.is_authenticated:
        return player_for(request)
    name = " ".join(name.split())
    if name:
        request.session["guest_name"] = name[:40]
        request.session.setdefault("guest_token", secrets.token_urlsafe(24))
    return player_for(request)


def _form_error(form: django_forms.Form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return gettext("That form was not filled in correctly.")


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    player = player_for(request)
    return render(
        request,
        "games/home.html",
        {
            "form": GameCreateForm(initial={"name": player.name}),
            "lobbies": selectors.public_lobbies(),
            "my_games": selectors.player_games(player),
            "your_turn": selectors.your_turn_games(player, clock.now()),
            "player": player,
        },
    )


@require_POST
def game_create(request: HtmxHttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST)
    if form.is_valid():
        player = _remember_guest(request, form.cleaned_data["name"])
        try:
            game = services.game_create(
                player=player,
                seat_count=form.cleaned_data["seats"],
                rules=Rules(upper_first=form.cleaned_data["upper_first"]),
                is_public=form.cleaned_data["is_public"],
                coach_hints=form.hints_setting(),
                client_seed=form.cleaned_data["client_seed"],
                series=form.cleaned_data["series"],
                pace=form.cleaned_data.get("pace") or None,
                feedback=form.cleaned_data["feedback"],
            )
        except GameError as error:
            form.add_error(None, str(error))
            status = status_of(error)
        else:
            return redirect(game)
    else:
        status = 400
    player = player_for(request)
    return render(
        request,
        "games/home.html",
        {
            "form": form,
            "lobbies": selectors.public_lobbies(),
            "my_games": selectors.player_games(player),
            "your_turn": selectors.your_turn_games(player, clock.now()),
            "player": player,
        },
        status=status,
    )


def _game_or_404(code: str) -> Game:
    game = selectors.get_game(code)
    if game is None:
        raise Http404(gettext("There is no game with that link."))
    return game


def _snapshot_or_404(code: str, version: int | None = None) -> Snapshot:
    snapshot = selectors.load_snapshot(code, version)
    if snapshot is None:
        raise Http404(gettext("There is no game with that link."))
    return snapshot


def render_game(
    request: HtmxHttpRequest, snapshot: Snapshot, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    viewer = player_for(request)
    feedback = selectors.decision_feedback(
        snapshot.game, next((s.position for s in snapshot.seats if viewer.owns(s)), None)
    )
    if request.htmx:
        # The same shared fragment the room's sockets get, plus this request's message
        # and (on a table with feedback) the coach's word on this person's last decision.
        flash = rendering.flash(error)
        if snapshot.game.feedback:
            flash += render_to_string("games/room.html#feedback", {"feedback": feedback})
        return HttpResponse(rendering.live_message(snapshot, viewer) + flash, status=status)
    context = {
        "feedback": feedback,
        "g": selectors.snapshot_view(snapshot, viewer),
        "error": error,
        "presence": selectors.presence_view(snapshot.game.code),
        "server_now": clock.now(),
    }
    return render(request, "games/room.html", context, status=status)


@require_GET
def game_detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    if not request.user.is_authenticated:
        # A visitor's session exists from the first look, so the live page (which
        # reads the session when it connects) recognises them once they sit down.
        request.session.setdefault("guest_token", secrets.token_urlsafe(24))
    return render_game(request, _snapshot_or_404(code))


@require_GET
def game_state(request: HtmxHttpRequest, code: str) -> JsonResponse:
    return JsonResponse(selectors.state_json(_game_or_404(code)))


def _act(
    request: HtmxHttpRequest,
    code: str,
    form_class: type[VersionForm],
    service: Callable[..., Game | Seat],
    arguments: Callable[[Any], dict[str, Any]] = lambda form: {},
    player: Callable[[Any], Player] | None = None,
) -> HttpResponse:
    """Run one game action from a POSTed form and answer with the table as it now stands.

    ``service`` is called with the game's code, the acting player, the version the form was
    made against and whatever ``arguments`` reads from the form.
    """
    form = form_class(request.POST)
    if not form.is_valid():
        return render_game(request, _snapshot_or_404(code), error=_form_error(form), status=400)
    actor = player(form) if player else player_for(request)
    try:
        changed = service(
            code=code, player=actor, version=form.cleaned_data["version"], **arguments(form)
        )
    except GameNotFound:
        raise Http404(gettext("There is no game with that link.")) from None
    except GameError as error:
        return render_game(
            request, _snapshot_or_404(code), error=str(error), status=status_of(error)
        )
    if not request.htmx:
        return redirect("game", code=code)
    version = (changed if isinstance(changed, Game) else changed.game).version
    # The snapshot this change was announced with, if this process heard it; else reload.
    return render_game(request, _snapshot_or_404(code, version))


@require_POST
def game_join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def joining(form: JoinForm) -> Player:
        known = player_for(request)
        if not known.is_known or (known.guest and form.cleaned_data.get("name")):
            return _remember_guest(request, form.cleaned_data.get("name", ""))
        return known

    return _act(
        request,
        code,
        JoinForm,
        services.game_join,
        lambda f: {"client_seed": f.cleaned_data["client_seed"]},
        player=joining,
    )


@require_POST
def seat_set_client_seed(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(
        request,
        code,
        SeedForm,
        services.seat_set_client_seed,
        lambda f: {"client_seed": f.cleaned_data["client_seed"]},
    )


@require_POST
def game_add_bot(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(
        request,
        code,
        AddBotForm,
        services.game_add_bot,
        lambda f: {"level": f.cleaned_data["level"]},
    )


@require_POST
def game_remove_bot(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(
        request,
        code,
        RemoveBotForm,
        services.game_remove_bot,
        lambda f: {"position": f.cleaned_data["position"]},
    )


@require_POST
def game_leave(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(request, code, VersionForm, services.game_leave)


@require_POST
def turn_takeover(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(request, code, VersionForm, services.turn_takeover)


@require_POST
def seat_return(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(request, code, VersionForm, services.seat_return)


@require_POST
def game_start(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(request, code, VersionForm, services.game_start)


@require_POST
def turn_roll(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(request, code, VersionForm, services.turn_roll)


@require_POST
def turn_keep(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(request, code, KeepForm, services.turn_keep, lambda f: {"held": f.held_flags()})


@require_POST
def turn_score(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _act(
        request, code, ScoreForm, services.turn_score, lambda f: {"category": f.category_value()}
    )


@require_POST
def game_rematch(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        new = services.game_rematch(code=code, player=player_for(request))
    except GameNotFound:
        raise Http404(gettext("There is no game with that link.")) from None
    except GameError as error:
        return render_game(
            request, _snapshot_or_404(code), error=str(error), status=status_of(error)
        )
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = new.get_absolute_url()
        return response
    return redirect(new)


@require_GET
def history(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """A player's figures and charts, and one page of their games (``?page=N``, 1 the newest)."""
    raw = request.GET.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else 0
    if page < 1:
        message = gettext("That is not a page of games: pages are numbered 1, 2, 3 and on.")
        first = reverse("history", args=[username])
        return render(request, "400.html", {"message": message, "first": first}, status=400)
    try:
        data = selectors.user_history(username, page=page)
    except selectors.NoSuchPage as error:
        raise Http404(
            ngettext(
                "There is no page %(page)d: %(name)s’s games fill %(pages)d page.",
                "There is no page %(page)d: %(name)s’s games fill %(pages)d pages.",
                error.pages,
            )
            % {"page": page, "name": username, "pages": error.pages}
        ) from None
    if data is None:
        raise Http404(gettext("No player by that name."))
    user = data.username
    series = selectors.player_series(Player(name=user, user_id=data.user_id))
    return render(request, "games/history.html", {"h": data, "series": series})


class LoginView(auth_views.LoginView):
    """Django's login, and a guest who logs in keeps the seats they took as a guest."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        guest = self.request.session.get("guest_token", "")
        response = super().form_valid(form)
        services.guest_seats_claim(guest=guest, user_id=form.get_user().pk)
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save()
            guest = request.session.get("guest_token", "")
            login(request, user)
            services.guest_seats_claim(guest=guest, user_id=user.pk)
            messages.success(
                request,
                gettext("Welcome, %(name)s! Your games now count.") % {"name": user.username},
            )
            next_url = request.POST.get("next", "")
            if url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
                return redirect(next_url)
            return redirect("home")
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": SignupForm()})


@require_http_methods(["GET", "POST"])
def account(request: HtmxHttpRequest) -> HttpResponse:
    """The account page: the e-mail address daily games' turns are sent to."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    status = 200
    if request.method == "POST":
        form = EmailForm(request.POST)
        if form.is_valid():
            services.account_email_change(user_id=request.user.pk, email=form.cleaned_data["email"])
            messages.success(request, _("Your e-mail address is saved."))
            return redirect("account")
        status = 400
    else:
        form = EmailForm(initial={"email": request.user.email})
    return render(request, "registration/account.html", {"form": form}, status=status)
