"""Table talk over HTTP: post a phrase or a line, the host's setting, mute and unmute a
seat, report a message, the reader's chat.json, and an account's "chat off everywhere".

htmx posts get the chat panel (or, for a message, its controls: the message itself comes
to every page, the poster's included, over the socket); without JavaScript a form posts
and is sent back to the table. A refusal is a sentence with a 4xx status; nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games import limits
from games.models import person_key
from games.selectors import chat as chat_selectors
from games.services import GameError, GameNotFound
from games.services import chat as chat_services
from games.views.common import (
    HtmxHttpRequest,
    game_or_404,
    player_for,
    snapshot_or_404,
    status_of,
)
from games.views.table import render_game

CHAT_MESSAGES = limits.Limit("chat-messages", "CHAT_MESSAGES")


def _answer(
    request: HtmxHttpRequest, code: str, *, part: str = "chat", error: str = "", status: int = 200
) -> HttpResponse:
    if request.htmx:
        view = chat_selectors.chat_view(game_or_404(code), player_for(request), error=error)
        return render(request, f"games/chat.html#{part}", {"c": view}, status=status)
    if error:
        return render_game(request, snapshot_or_404(code), error=error, status=status)
    return redirect("game", code=code)


def _run(
    request: HtmxHttpRequest, code: str, action: Callable[[], object], part: str = "chat"
) -> HttpResponse:
    try:
        action()
    except GameNotFound:
        raise Http404(gettext("There is no game with that link.")) from None
    except GameError as error:
        return _answer(request, code, part=part, error=str(error), status=status_of(error))
    return _answer(request, code, part=part)


@require_POST
def chat_post(request: HtmxHttpRequest, code: str) -> HttpResponse:
    player = player_for(request)
    wait = CHAT_MESSAGES.hit(request, f"{person_key(player) or limits.client_ip(request)}:{code}")
    if wait:
        return limits.too_many_requests(request, wait)
    phrase, text = request.POST.get("phrase", ""), request.POST.get("text", "")
    return _run(
        request,
        code,
        lambda: chat_services.chat_post(code=code, player=player, phrase=phrase, text=text),
        part="controls",
    )


@require_POST
def chat_setting(request: HtmxHttpRequest, code: str) -> HttpResponse:
    chat = request.POST.get("chat", "")
    player = player_for(request)
    return _run(
        request, code, lambda: chat_services.chat_setting_lower(code=code, player=player, chat=chat)
    )


def _muting(mute: bool) -> Callable[[HtmxHttpRequest, str], HttpResponse]:
    @require_POST
    def view(request: HtmxHttpRequest, code: str) -> HttpResponse:
        player, seat = player_for(request), request.POST.get("seat", "")
        message = request.POST.get("message", "")  # sent from a message's line

        def muting() -> None:
            chat_services.chat_mute(code=code, player=player, seat=seat, mute=mute, message=message)

        return _run(request, code, muting)

    return view


chat_mute = _muting(True)
chat_unmute = _muting(False)


@require_POST
def chat_report(request: HtmxHttpRequest, code: str) -> HttpResponse:
    player = player_for(request)
    message, reason = request.POST.get("message", ""), request.POST.get("reason", "")

    def report() -> None:
        chat_services.chat_report(code=code, player=player, message=message, reason=reason)

    response = _run(request, code, report)
    if response.status_code < 400 and not request.htmx:
        messages.success(request, gettext("Thank you: a moderator will look at that message."))
    return response


@require_GET
def chat_json(request: HtmxHttpRequest, code: str) -> JsonResponse:
    return JsonResponse(chat_selectors.chat_json(game_or_404(code), player_for(request)))


@require_POST
def chat_preference(request: HtmxHttpRequest) -> HttpResponse:
    """Every table's chat off (``chat_off=1``) or on again (``chat_off=0``) for this account."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    chat_off = request.POST.get("chat_off", "") in ("1", "on", "true")
    chat_services.chat_preference_set(user_id=request.user.pk, chat_off=chat_off)
    messages.success(
        request,
        gettext("Chat is now off at every table for you.")
        if chat_off
        else gettext("Chat is on again."),
    )
    return redirect("account")
