"""Thin views: parse the form, call a service, render the page or the changed partial.

Every action is a plain POST form. With htmx the response is the board partial; without
JavaScript a successful action redirects back to the game page (post/redirect/get) and a
refused one renders the page with the message and a 4xx status.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import selectors, services
from games.clock import clock
from games.live import rendering
from games.models import Player
from games.selectors import chat as chat_selectors
from games.selectors.tournaments import tournaments_pinned
from games.services import GameError, GameNotFound
from games.snapshots import Snapshot
from games.views.common import (
    HtmxHttpRequest,
    check_shared_dice_hidden,
    form_error,
    game_or_404,
    player_for,
    remember_guest,
    snapshot_or_404,
    status_of,
)
from games.views.forms import (
    AddBotForm,
    GameCreateForm,
    JoinForm,
    KeepForm,
    RemoveBotForm,
    ScoreForm,
    SeedForm,
    VersionForm,
)


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
            "pinned_tournaments": tournaments_pinned(),
        },
    )


@require_POST
def game_create(request: HtmxHttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST)
    if form.is_valid():
        player = remember_guest(request, form.cleaned_data["name"])
        try:
            game = services.game_create(
                player=player,
                seat_count=form.cleaned_data["seats"],
                rules=form.rules(),
                is_public=form.cleaned_data["is_public"],
                coach_hints=form.hints_setting(),
                client_seed=form.cleaned_data["client_seed"],
                series=form.cleaned_data["series"],
                pace=form.cleaned_data.get("pace") or None,
                feedback=form.cleaned_data["feedback"],
                rated=form.cleaned_data["rated"],
                chat=form.cleaned_data.get("chat") or None,
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
            "pinned_tournaments": tournaments_pinned(),
        },
        status=status,
    )


def render_game(
    request: HtmxHttpRequest, snapshot: Snapshot, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    """The table at ``snapshot``'s version for this request's viewer: the whole page, or for
    htmx the answer of templates/games/answer.html. Never a game of the same dice as others
    still being played to someone not at it (403), whatever the request: a refused or
    malformed move answers with the table too."""
    check_shared_dice_hidden(request, snapshot.game, snapshot.seats)
    viewer = player_for(request)
    feedback = selectors.decision_feedback(
        snapshot.game, next((s.position for s in snapshot.seats if viewer.owns(s)), None)
    )
    if request.htmx:
        context: dict[str, object] = {
            "board": rendering.live_board(snapshot, viewer),
            "announcement": rendering.announce(snapshot, viewer),
            "marker": rendering.seat_marker(snapshot, viewer),
            "flash": rendering.flash(error),
            "feedback_shown": snapshot.game.feedback,
            "feedback": feedback,
        }
        return render(request, "games/answer.html", context, status=status)
    context = {
        "feedback": feedback,
        "g": selectors.snapshot_view(snapshot, viewer),
        "error": error,
        "presence": selectors.presence_view(snapshot.game.code),
        "server_now": clock.now(),
        "chat": chat_selectors.chat_view(snapshot.game, viewer),
    }
    return render(request, "games/room.html", context, status=status)


@require_GET
def game_detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    if not request.user.is_authenticated:
        # A visitor's session exists from the first look, so the live page (which
        # reads the session when it connects) recognises them once they sit down.
        request.session.setdefault("guest_token", secrets.token_urlsafe(24))
    return render_game(request, snapshot_or_404(code))


@require_GET
def game_state(request: HtmxHttpRequest, code: str) -> JsonResponse:
    game = game_or_404(code)
    check_shared_dice_hidden(request, game, game.seats.all())
    return JsonResponse(selectors.state_json(game))


def act(
    request: HtmxHttpRequest,
    code: str,
    form_class: type[VersionForm],
    service: Callable[..., Snapshot],
    arguments: Callable[[Any], dict[str, Any]] = lambda form: {},
    player: Callable[[Any], Player] | None = None,
) -> HttpResponse:
    """Run one game action from a POSTed form and answer with the table as it now stands.

    ``service`` is called with the game's code, the acting player, the version the form was
    made against and whatever ``arguments`` reads from the form; it returns the snapshot of
    the version it committed and announced, and the answer is rendered from that value
    (its boards were rendered once, when it was announced).
    """
    form = form_class(request.POST)
    if not form.is_valid():
        return render_game(request, snapshot_or_404(code), error=form_error(form), status=400)
    actor = player(form) if player else player_for(request)
    try:
        snapshot = service(
            code=code, player=actor, version=form.cleaned_data["version"], **arguments(form)
        )
    except GameNotFound:
        raise Http404(gettext("There is no game with that link.")) from None
    except GameError as error:
        return render_game(
            request, snapshot_or_404(code), error=str(error), status=status_of(error)
        )
    if not request.htmx:
        return redirect("game", code=code)
    return render_game(request, snapshot)


@require_POST
def game_join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def joining(form: JoinForm) -> Player:
        known = player_for(request)
        if not known.is_known or (known.guest and form.cleaned_data.get("name")):
            return remember_guest(request, form.cleaned_data.get("name", ""))
        return known

    return act(
        request,
        code,
        JoinForm,
        services.game_join,
        lambda f: {"client_seed": f.cleaned_data["client_seed"]},
        player=joining,
    )


@require_POST
def seat_set_client_seed(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(
        request,
        code,
        SeedForm,
        services.seat_set_client_seed,
        lambda f: {"client_seed": f.cleaned_data["client_seed"]},
    )


@require_POST
def game_add_bot(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(
        request,
        code,
        AddBotForm,
        services.game_add_bot,
        lambda f: {"level": f.cleaned_data["level"]},
    )


@require_POST
def game_remove_bot(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(
        request,
        code,
        RemoveBotForm,
        services.game_remove_bot,
        lambda f: {"position": f.cleaned_data["position"]},
    )


@require_POST
def game_leave(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(request, code, VersionForm, services.game_leave)


@require_POST
def turn_takeover(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(request, code, VersionForm, services.turn_takeover)


@require_POST
def seat_return(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(request, code, VersionForm, services.seat_return)


@require_POST
def game_start(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(request, code, VersionForm, services.game_start)


@require_POST
def turn_roll(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(request, code, VersionForm, services.turn_roll)


@require_POST
def turn_keep(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(request, code, KeepForm, services.turn_keep, lambda f: {"held": f.held_flags()})


@require_POST
def turn_score(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return act(
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
            request, snapshot_or_404(code), error=str(error), status=status_of(error)
        )
    if request.htmx:
        return HttpResponseClientRedirect(new.get_absolute_url())
    return redirect(new)
