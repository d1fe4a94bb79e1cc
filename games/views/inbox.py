"""The inbox (a page and its JSON), dismissing an entry, and invitations to a table (from
its lobby, or with the new table's form)."""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from games import account_limits, limits, selectors, services
from games.services import GameError
from games.services.inbox import check_id
from games.views.common import HtmxHttpRequest, game_or_404, player_for, status_of


@never_cache
@require_GET
def inbox_page(request: HtmxHttpRequest) -> HttpResponse:
    """The newest entries; opening the page marks what it shows as read (the page still
    shows which were new)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    entries = selectors.inbox_entries(request.user.pk)
    services.inbox_mark_read(
        user_id=request.user.pk, item_ids=[entry.id for entry in entries if not entry.read]
    )
    return render(request, "friends/inbox.html", {"entries": entries})


@never_cache
@require_GET
def inbox_json(request: HtmxHttpRequest) -> HttpResponse:
    """``{"unread": n, "items": [...]}``, newest first, each sentence in the reader's
    language. Reading it marks nothing."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": gettext("Sign in to see your inbox.")}, status=403)
    entries = selectors.inbox_entries(request.user.pk)
    return JsonResponse(
        {
            "unread": selectors.inbox_unread(request.user.pk),
            "items": [entry.as_json() for entry in entries],
        }
    )


@require_POST
def inbox_dismiss(request: HtmxHttpRequest) -> HttpResponse:
    """Delete one entry (``id``): someone else's, or one that is gone, is a 404; a malformed
    id a 400. Nothing changes either way."""
    if not request.user.is_authenticated:
        return render(
            request, "403.html", {"exception": gettext("Sign in to see your inbox.")}, status=403
        )
    try:
        services.inbox_dismiss(user_id=request.user.pk, item_id=check_id(request.POST.get("id")))
    except GameError as error:
        if request.htmx:
            return HttpResponse(str(error), status=status_of(error))
        return render(request, "400.html", {"message": str(error)}, status=status_of(error))
    if request.htmx:
        return HttpResponse("")  # the entry's element is swapped away
    messages.success(request, gettext("Entry dismissed."))
    return redirect("inbox")


# -- invitations --------------------------------------------------------------------------------


def _invite_answer(request: HtmxHttpRequest, code: str, text: str, status: int) -> HttpResponse:
    if request.htmx:  # the table's action form: only the message area changes
        html = render_to_string(
            "friends/live.html#flash", {"text": text, "ok": status < 400}, request=request
        )
        return reswap(HttpResponse(html, status=status), "none")
    if status >= 400:
        return render(request, "400.html", {"message": text}, status=status)
    messages.success(request, text)
    return redirect("game", code=code)


@require_POST
def game_invite(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Someone seated at a table in its lobby invites ``username`` to it."""
    game_or_404(code)
    if not request.user.is_authenticated:
        text = gettext("Sign in to invite people to a table.")
        return _invite_answer(request, code, text, 403)
    wait = account_limits.account_wait(account_limits.INVITATIONS, request)
    if wait:
        return limits.too_many_requests(request, wait)
    try:
        person = services.invitation_send(
            code=code, player=player_for(request), username=request.POST.get("username", "")
        )
    except GameError as error:
        return _invite_answer(request, code, str(error), status_of(error))
    text = gettext("%(name)s is invited to this table.") % {"name": person.name}
    return _invite_answer(request, code, text, 200)


def inviting(view: Any) -> Any:
    """The new table's form (``invite``, one username per field, repeated): once the view
    has opened the table (a redirect to it), its host invites each name. A refused name
    leaves the table open and says why on its page."""

    @wraps(view)
    def with_invitations(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        names = [n for n in request.POST.getlist("invite") if n.strip()][:8]
        if request.method != "POST" or response.status_code != 302 or not names:
            return response
        try:
            match = resolve(response["Location"])
        except (Resolver404, KeyError):
            return response
        if match.url_name != "game" or not request.user.is_authenticated:
            if not request.user.is_authenticated:
                messages.error(request, gettext("Sign in to invite people to a table."))
            return response
        code = match.kwargs["code"]
        wait = account_limits.account_wait(account_limits.INVITATIONS, request, count=len(names))
        if wait:
            messages.error(request, limits.retry_sentence(wait))
            return response
        refusals = services.invitations_send(code=code, player=player_for(request), usernames=names)
        for refusal in refusals:
            messages.error(request, refusal)
        if len(refusals) < len(names):
            messages.success(request, gettext("Your invitations are sent."))
        return response

    return with_invitations
