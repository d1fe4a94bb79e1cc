"""The daily game's pages: today's game (``/daily/``), starting or continuing it, the
reminder setting, a past day (``/daily/<date>/``) and the day as JSON."""

from __future__ import annotations

import secrets
from datetime import date, timedelta

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.clock import clock
from games.models import DailyDay, Player
from games.selectors import daily as reads
from games.services import GameError, daily
from games.services.player_names import normal_name
from games.views.common import player_for, status_of


def _player(request: HttpRequest) -> Player:
    """The account, or the guest of this session (a name typed now, or the one kept)."""
    player = player_for(request)
    if request.user.is_authenticated:
        return player
    name = normal_name(request.POST.get("name", "")) or player.name or gettext("Guest")
    token = request.session.setdefault("guest_token", secrets.token_urlsafe(24))
    request.session["guest_name"] = name
    return Player(name=name, guest=token)


@require_http_methods(["GET", "HEAD"])
def daily_page(request: HttpRequest) -> HttpResponse:
    """Today's game: the button to play it, the way back to it, or the result."""
    return _today(request)


def _today(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    now = clock.now()
    day, tomorrow = daily.daily_days_ensure(now=now)
    entry = reads.entry_of(day, player_for(request))
    result = None
    if entry is not None and entry.game.status == "finished":
        if day.coach_total is None:
            day = daily.daily_coach_play(day_id=day.pk)
            entry.day = day
        result = reads.result_of(entry)
    remind = None
    if request.user.is_authenticated:
        remind = reads.reminder_on(request.user.pk)
    context = {
        "day": day,
        "ruleset": reads.ruleset_name(day.ruleset),
        "tomorrow": tomorrow,
        "entry": entry,
        "result": result,
        "leaders": reads.leaderboard(day, limit=10),
        "yesterday": (day.date - timedelta(days=1)).isoformat(),
        "remind": remind,
        "error": error,
    }
    return render(request, "games/daily.html", context, status=status)


@require_POST
def daily_play(request: HttpRequest) -> HttpResponse:
    """Start today's game, or go back to the one started (a second post starts none)."""
    try:
        game = daily.daily_play(player=_player(request))
    except GameError as error:
        return _today(request, str(error), status_of(error))
    return redirect("game", game.code)


@require_POST
def daily_reminder(request: HttpRequest) -> HttpResponse:
    """An account turns the inbox reminder on or off."""
    if not request.user.is_authenticated:
        return _today(request, gettext("Log in to be reminded of the daily game."), 403)
    choice = request.POST.get("remind", "")
    if choice not in ("on", "off"):
        return _today(request, gettext("Choose whether to be reminded: on or off."), 400)
    daily.daily_reminder_set(user_id=request.user.pk, remind=choice == "on")
    return redirect("daily")


def _past_day(raw: str) -> date:
    """The day of a link: a date up to today (UTC), else a 404 with a sentence."""
    try:
        day = date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise Http404(gettext("That is not a day: write it as YYYY-MM-DD, 2026-12-03."))
    if day > clock.now().date():
        raise Http404(gettext("That day has not come yet: its game is not open."))
    return day


def _json(raw: str | None) -> JsonResponse:
    now = clock.now()
    tomorrow: DailyDay | None
    if raw is None:
        day, tomorrow = daily.daily_days_ensure(now=now)
    else:
        try:
            wanted = _past_day(raw)
        except Http404 as error:
            return JsonResponse({"error": str(error)}, status=404)
        if wanted == now.date():
            day, tomorrow = daily.daily_days_ensure(now=now)
        else:
            found = reads.day_of(wanted)
            if found is None:
                message = gettext("There was no daily game on that day.")
                return JsonResponse({"error": message}, status=404)
            day, tomorrow = found, reads.day_of(wanted + timedelta(days=1))
    if day.is_over(now) and day.coach_total is None:
        day = daily.daily_coach_play(day_id=day.pk)
    return JsonResponse(reads.day_json(day, tomorrow, now))


@require_GET
def daily_json(request: HttpRequest) -> JsonResponse:
    """Today's game as data (``docs/architecture.md``, "The daily game")."""
    return _json(None)


@require_GET
def daily_day_json(request: HttpRequest, day: str) -> JsonResponse:
    return _json(day)


@require_GET
def daily_day(request: HttpRequest, day: str) -> HttpResponse:
    """A day's page: today's goes to ``/daily/``; a past day's shows its leaderboard, each
    game linked to its replay and its dice check, the seed and the coach's game."""
    wanted = _past_day(day)
    now = clock.now()
    if wanted == now.date():
        return redirect("daily")
    found = reads.day_of(wanted)
    if found is None:
        raise Http404(gettext("There was no daily game on that day."))
    if found.coach_total is None:
        found = daily.daily_coach_play(day_id=found.pk)
    context = {
        "day": found,
        "ruleset": reads.ruleset_name(found.ruleset),
        "leaders": reads.leaderboard(found, limit=None),
        "seed": found.revealed_seed(now),
    }
    return render(request, "games/daily_day.html", context)
