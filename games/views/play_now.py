""" "Play now" (``/play/``): the form that joins the queue, the waiting page (which reloads
itself without JavaScript), leaving the queue, the computer instead, and status.json."""

from __future__ import annotations

import secrets

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.clock import clock
from games.models import Player, Ruleset
from games.models.play_now import QUEUE_PACES, QUEUE_PLAYERS
from games.selectors.play_now import computer_for, play_status
from games.services import GameError
from games.services.leaving import check_may_sit_rated
from games.services.play_now import (
    AlreadyWaiting,
    Choices,
    NotWaiting,
    play_cancel,
    play_computer,
    play_join,
    play_page_seen,
)
from games.services.player_names import normal_name
from games.views.common import form_error, player_for, status_of
from games.views.forms import players_label

# The waiting page, without JavaScript, reloads itself this often.
NO_SCRIPT_RELOAD_SECONDS = 5

CHOOSE_PACE = _("Choose blitz, live or relaxed.")
CHOOSE_PLAYERS = _("Choose 2, 3 or 4 players.")
CHOOSE_RATED = _("Choose rated or casual.")


class PlayNowForm(forms.Form):
    ruleset = forms.ChoiceField(
        label=_("Rule set"),
        choices=Ruleset.choices,
        initial=Ruleset.YAHTZEE,
        required=False,
        error_messages={"invalid_choice": _("Choose Yahtzee, Yatzy or Yacht.")},
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=[(pace.value, pace.short_label) for pace in QUEUE_PACES],
        initial="live",
        error_messages={"required": CHOOSE_PACE, "invalid_choice": CHOOSE_PACE},
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, players_label(n)) for n in QUEUE_PLAYERS],
        coerce=int,
        initial=2,
        error_messages={"required": CHOOSE_PLAYERS, "invalid_choice": CHOOSE_PLAYERS},
    )
    rated = forms.ChoiceField(
        label=_("Rated"),
        choices=[("yes", _("Rated: the game moves ratings")), ("no", _("Casual"))],
        widget=forms.RadioSelect,
        error_messages={"required": CHOOSE_RATED, "invalid_choice": CHOOSE_RATED},
    )
    name = forms.CharField(label=_("Your display name"), max_length=40, required=False)

    def choices(self) -> Choices:
        data = self.cleaned_data
        return Choices(
            pace=data["pace"],
            players=data["players"],
            rated=data["rated"] == "yes",
            ruleset=data["ruleset"] or Ruleset.YAHTZEE,
        )


def _page(
    request: HttpRequest,
    *,
    form: PlayNowForm | None = None,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    player = player_for(request)
    state = play_status(player, clock.now())
    if state.left_rated_queue and error is None:
        # Taken out of the rated queue by a pause that began while they waited (or back
        # after leaving it during one): the form says why, as a post would.
        try:
            check_may_sit_rated(player)
        except GameError as refusal:
            error = str(refusal)
    if form is None:
        rated = "yes" if request.user.is_authenticated else "no"
        form = PlayNowForm(initial={"rated": rated, "name": player.name})
    computer = computer_for(player, state.ruleset)
    context = {
        "form": form,
        "state": state,
        "error": error,
        "computer": computer.level.seat_name(),
        "computer_how": computer.level.description,
        "computer_by_rating": computer.by_rating,
        "reload_seconds": NO_SCRIPT_RELOAD_SECONDS,
        "wait_seconds": settings.PLAY_NOW_WAIT_SECONDS,
    }
    return render(request, "games/play.html", context, status=status)


def _refused(request: HttpRequest, error: GameError, form: PlayNowForm | None = None):
    status = 409 if isinstance(error, AlreadyWaiting | NotWaiting) else status_of(error)
    return _page(request, form=form, error=str(error), status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """GET: the form, or the waiting page (``?waiting=1``, its reload: to the table once
    matched). POST: join the queue."""
    if request.method == "POST":
        return _join(request)
    state = play_status(player_for(request), clock.now())
    if state.status == "matched" and state.game and request.GET.get("waiting"):
        return redirect("game", state.game)
    if state.status == "waiting" and state.ticket is not None:
        play_page_seen(ticket_id=state.ticket)
    return _page(request)


def _join(request: HttpRequest) -> HttpResponse:
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        return _page(request, form=form, error=form_error(form), status=400)
    player = player_for(request)
    if not request.user.is_authenticated:
        # A guest's seat is theirs by the token in their session, as at any table.
        token = request.session.setdefault("guest_token", secrets.token_urlsafe(24))
        name = normal_name(form.cleaned_data["name"]) or player.name
        player = Player(name=name, guest=token)
    try:
        ticket = play_join(player=player, choices=form.choices())
    except GameError as error:
        return _refused(request, error, form)
    if not request.user.is_authenticated:
        request.session["guest_name"] = ticket.name
    if ticket.game is not None:
        return redirect("game", ticket.game.code)
    return redirect("play")


@require_POST
def play_leave(request: HttpRequest) -> HttpResponse:
    """Leave the queue."""
    try:
        play_cancel(player=player_for(request))
    except GameError as error:
        return _refused(request, error)
    return redirect("play")


@require_POST
def play_against_computer(request: HttpRequest) -> HttpResponse:
    """After the wait: a table against the computer player closest to one's rating."""
    player = player_for(request)
    try:
        ruleset = play_status(player, clock.now()).ruleset
        game = play_computer(player=player, level=computer_for(player, ruleset).level)
    except GameError as error:
        return _refused(request, error)
    return redirect("game", game.code)


@require_GET
def play_status_json(request: HttpRequest) -> JsonResponse:
    """``{"status": "waiting"|"matched"|"idle", "waited_seconds", "game"}``."""
    return JsonResponse(play_status(player_for(request), clock.now()).as_json())
