"""Arena tournaments (``/tournaments/``): the list and the form that makes one, a
tournament's page with its live standings, joining, withdrawing, staff pinning, and
``/tournaments/<id>.json``. Every refusal is a sentence with a 4xx status."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.clock import clock
from games.models import Pace, Ruleset
from games.models.tournaments import ARENA_PACES, TABLE_SIZES
from games.selectors.tournaments import tournament_list, tournament_view
from games.services import GameError
from games.services.leaving import pause_sentence, rated_pause
from games.services.tournaments import (
    Plan,
    tournament_create,
    tournament_join,
    tournament_pin,
    tournament_withdraw,
)
from games.views.common import form_error, player_for, status_of

START_FORMAT = "%Y-%m-%dT%H:%M"
CHOOSE_START = gettext_lazy("Give the start as a UTC date and time, like 2026-06-01T18:30.")
CHOOSE_MINUTES = gettext_lazy("A tournament lasts 20 to 180 minutes.")
CHOOSE_PACE = gettext_lazy("Choose blitz or live for a tournament.")
CHOOSE_SIZE = gettext_lazy("A tournament's tables have 2, 3 or 4 players.")
CHOOSE_RULESET = gettext_lazy("Choose Yahtzee, Yatzy or Yacht.")
CHOOSE_NAME = gettext_lazy("Give the tournament a name of 1 to 80 characters.")


class TournamentForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=80,
        error_messages={"required": CHOOSE_NAME, "max_length": CHOOSE_NAME},
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at (UTC)"),
        input_formats=[START_FORMAT],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=START_FORMAT),
        error_messages={"required": CHOOSE_START, "invalid": CHOOSE_START},
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes"),
        min_value=20,
        max_value=180,
        initial=60,
        error_messages={
            "required": CHOOSE_MINUTES,
            "invalid": CHOOSE_MINUTES,
            "min_value": CHOOSE_MINUTES,
            "max_value": CHOOSE_MINUTES,
        },
    )
    pace = forms.ChoiceField(
        label=gettext_lazy("Pace"),
        choices=[(pace.value, pace.short_label) for pace in ARENA_PACES],
        initial=Pace.BLITZ.value,
        error_messages={"required": CHOOSE_PACE, "invalid_choice": CHOOSE_PACE},
    )
    table_size = forms.TypedChoiceField(
        label=gettext_lazy("Players at a table"),
        choices=[(n, str(n)) for n in TABLE_SIZES],
        coerce=int,
        initial=2,
        error_messages={"required": CHOOSE_SIZE, "invalid_choice": CHOOSE_SIZE},
    )
    ruleset = forms.ChoiceField(
        label=gettext_lazy("Rule set"),
        choices=Ruleset.choices,
        initial=Ruleset.YAHTZEE.value,
        error_messages={"required": CHOOSE_RULESET, "invalid_choice": CHOOSE_RULESET},
    )
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=True)
    public = forms.BooleanField(label=gettext_lazy("Public"), required=False, initial=True)

    def clean_starts_at(self) -> datetime:
        value: datetime = self.cleaned_data["starts_at"]
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _new_form() -> TournamentForm:
    start = (clock.now() + timedelta(minutes=10)).astimezone(UTC).replace(second=0, microsecond=0)
    return TournamentForm(initial={"starts_at": start.strftime(START_FORMAT)})


def _list(request: HttpRequest, form: TournamentForm, error: str = "", status: int = 200):
    user_id = request.user.pk if request.user.is_authenticated else None
    context = {"tournaments": tournament_list(user_id), "form": form, "error": error}
    return render(request, "tournaments/list.html", context, status=status)


@require_GET
def tournaments(request: HttpRequest) -> HttpResponse:
    return _list(request, _new_form())


@require_POST
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    if not request.user.is_authenticated:
        return _list(request, form, gettext("Log in to make a tournament."), 403)
    if not form.is_valid():
        return _list(request, form, form_error(form), 400)
    data = form.cleaned_data
    plan = Plan(
        name=data["name"],
        starts_at=data["starts_at"],
        minutes=data["minutes"],
        pace=data["pace"],
        table_size=data["table_size"],
        ruleset=data["ruleset"],
        rated=data["rated"],
        public=data["public"],
    )
    try:
        made = tournament_create(player=player_for(request), plan=plan)
    except GameError as error:
        return _list(request, form, str(error), status_of(error))
    return redirect("tournament", tournament_id=made.pk)


def _page(request: HttpRequest, tournament_id: int, error: str = "", status: int = 200):
    view = tournament_view(tournament_id)
    if view is None:
        raise Http404(gettext("There is no such tournament."))
    mine = view.entry_of(request.user.pk) if request.user.is_authenticated else None
    context = {"t": view, "mine": mine, "error": error, "paused": ""}
    if mine and not mine.withdrawn and view.tournament.rated and view.status != "finished":
        # Paired again once the pause ends (services.tournaments leaves them out till then).
        pause = rated_pause(mine.user_id)
        if pause is not None:
            context["paused"] = pause_sentence(pause)
    return render(request, "tournaments/detail.html", context, status=status)


@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _page(request, tournament_id)


@require_GET
def tournament_json(request: HttpRequest, tournament_id: int) -> JsonResponse:
    view = tournament_view(tournament_id)
    if view is None:
        return JsonResponse({"error": gettext("There is no such tournament.")}, status=404)
    return JsonResponse(view.as_json())


def _act(request: HttpRequest, tournament_id: int, act) -> HttpResponse:
    try:
        act()
    except GameError as error:
        return _page(request, tournament_id, str(error), status_of(error))
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    player = player_for(request)
    return _act(
        request,
        tournament_id,
        lambda: tournament_join(tournament_id=tournament_id, player=player),
    )


@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    player = player_for(request)
    return _act(
        request,
        tournament_id,
        lambda: tournament_withdraw(tournament_id=tournament_id, player=player),
    )


@require_POST
def pin(request: HttpRequest, tournament_id: int) -> HttpResponse:
    pinned = request.POST.get("pinned") == "yes"
    staff = bool(request.user.is_authenticated and request.user.is_staff)
    return _act(
        request,
        tournament_id,
        lambda: tournament_pin(tournament_id=tournament_id, pinned=pinned, by_staff=staff),
    )
