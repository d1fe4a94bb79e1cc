"""Which language a person reads, for a request or a socket.

The order is: the person's own choice (for an account, stored on the account; for a guest,
Django's language cookie), else the browser's ``Accept-Language``, else English. Django's
``LocaleMiddleware`` does the cookie and the header; :class:`AccountLanguageMiddleware`
(after it and after authentication) puts an account's choice first. The account's language
is copied into the session so that a request reads no extra row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import i18n
from django.views.decorators.http import require_POST

from games import selectors, services

SESSION_KEY = "account_language"


def supported(code: object) -> str | None:
    """The site's language for ``code`` ("te", "uz-Latn" → "uz"...), or None."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def account_language(request: HttpRequest) -> str:
    """The language the signed-in person chose for their account ("" if none)."""
    language = request.session.get(SESSION_KEY)
    if language is None:
        assert request.user.pk is not None
        language = selectors.account_language(user_id=request.user.pk)
        request.session[SESSION_KEY] = language
    return str(language)


class AccountLanguageMiddleware:
    """An account's own language wins over the cookie and the browser's header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            language = supported(account_language(request))
            if language and language != request.LANGUAGE_CODE:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, and back to the page), and for an account the
    choice kept on the account too. An unknown language changes nothing."""
    language = request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER, "")
    if language not in dict(settings.LANGUAGES):
        # Django would store any language it has a catalog for; only ours are offered.
        back = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return HttpResponseRedirect(back if safe else "/")
    response = i18n.set_language(request)
    if request.user.is_authenticated:
        services.account_language_set(user_id=request.user.pk, language=language)
        request.session[SESSION_KEY] = language
    return response


@receiver(user_logged_in)
def keep_language_at_login(
    sender: object, request: HttpRequest | None, user: Any, **kwargs: object
) -> None:
    """At log-in the account's language applies; an account that never chose one keeps the
    language the person chose as a guest."""
    if request is None:
        return
    stored = selectors.account_language(user_id=user.pk)
    chosen = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if not stored and chosen:
        services.account_language_set(user_id=user.pk, language=chosen)
        stored = chosen
    request.session[SESSION_KEY] = stored


def of_scope(scope: dict[str, Any]) -> str:
    """The language of a websocket's page, found the same way as for its requests (no
    database read: an account's choice is in the session since its page was loaded)."""
    user = scope.get("user")
    session = scope.get("session")
    if user is not None and user.is_authenticated and session is not None:
        language = supported(session.get(SESSION_KEY))
        if language:
            return language
    language = supported(scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME))
    if language:
        return language
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in translation.trans_real.parse_accept_lang_header(accept):
        if code == "*":
            break
        language = supported(code)
        if language:
            return language
    return supported(settings.LANGUAGE_CODE) or "en"


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old page): a sentence, in the reader's
    language, instead of Django's technical page."""
    message = translation.gettext(
        "This page was open too long to send that form safely. Reload the page and try again."
    )
    return render(request, "403.html", {"exception": message}, status=403)
