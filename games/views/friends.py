"""Friends: the friends page, the form posts that change who is whose friend (each with a
``username`` field), blocks, and who may reach an account (its settings, on the account
page). Plain forms: a success redirects back (``next``, when it is a page of this site,
else the friends page) with a word of confirmation; a refusal renders the friends page with
its sentence and a 4xx status, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_GET, require_POST

from games import account_limits, limits, selectors, services
from games.services import GameError
from games.services.friends import Person
from games.views.common import HtmxHttpRequest, status_of

SIGN_IN = gettext_noop("Sign in to have friends.")  # translated where it is shown


def _back(request: HtmxHttpRequest) -> HttpResponse:
    next_url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        return redirect(next_url)
    return redirect("friends")


def friends_page_response(
    request: HtmxHttpRequest, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    assert request.user.pk is not None  # signed in
    context = {"f": selectors.friends_view(request.user.pk), "error": error}
    return render(request, "friends/friends.html", context, status=status)


def _signed_out(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "403.html", {"exception": gettext(SIGN_IN)}, status=403)


@require_GET
def friends_page(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return friends_page_response(request)


def _action(service: Callable[..., Person], said: str) -> Callable[[HtmxHttpRequest], HttpResponse]:
    """The view of a form post that names one person: ``said`` (marked with gettext_noop,
    with a ``%(name)s``) is the confirmation, translated when it is shown."""

    @require_POST
    def view(request: HtmxHttpRequest) -> HttpResponse:
        if not request.user.is_authenticated:
            return _signed_out(request)
        try:
            person = service(user_id=request.user.pk, username=request.POST.get("username", ""))
        except GameError as error:
            return friends_page_response(request, error=str(error), status=status_of(error))
        messages.success(request, gettext(said) % {"name": person.name})
        return _back(request)

    return view


def _requested(request: HtmxHttpRequest) -> HttpResponse:
    """``friend_request`` answers (them, friends now?)."""
    if not request.user.is_authenticated:
        return _signed_out(request)
    wait = account_limits.account_wait(account_limits.FRIEND_REQUESTS, request)
    if wait:
        return limits.too_many_requests(request, wait)
    try:
        person, friends = services.friend_request(
            user_id=request.user.pk, username=request.POST.get("username", "")
        )
    except GameError as error:
        return friends_page_response(request, error=str(error), status=status_of(error))
    if friends:
        said = gettext_noop("%(name)s had asked you too: you are friends now.")
    else:
        said = gettext_noop("Friend request sent to %(name)s.")
    messages.success(request, gettext(said) % {"name": person.name})
    return _back(request)


friend_request = require_POST(_requested)
friend_accept = _action(services.friend_accept, gettext_noop("You and %(name)s are friends now."))
friend_decline = _action(
    services.friend_decline, gettext_noop("You declined %(name)s's friend request.")
)
friend_cancel = _action(
    services.friend_cancel, gettext_noop("Your friend request to %(name)s is withdrawn.")
)
friend_remove = _action(
    services.friend_remove, gettext_noop("%(name)s is no longer among your friends.")
)
user_block = _action(services.user_block, gettext_noop("You blocked %(name)s."))
user_unblock = _action(services.user_unblock, gettext_noop("You unblocked %(name)s."))


@require_POST
def social_settings(request: HtmxHttpRequest) -> HttpResponse:
    """The account page's "who may reach you" form."""
    if not request.user.is_authenticated:
        return _signed_out(request)
    try:
        services.social_settings_set(
            user_id=request.user.pk,
            friend_requests_from=request.POST.get("friend_requests_from", ""),
            invitations_from=request.POST.get("invitations_from", ""),
        )
    except GameError as error:
        return render(request, "400.html", {"message": str(error)}, status=400)
    messages.success(request, gettext("Who may reach you is saved."))
    return redirect("account")
