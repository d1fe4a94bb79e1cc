"""An installable site and Web Push: the web app manifest, the service worker, the offline
page, a device's subscription and an account's notification settings.

Contracts:

* ``GET /manifest.webmanifest``: ``application/manifest+json``, in the reader's language.
* ``GET /sw.js``: the service worker for the scope "/" (``static/sw.js`` behind the
  release's name and file list), ``Cache-Control: no-cache``.
* ``GET /offline/?lang=te``: the page the service worker shows offline; nothing personal.
* ``POST /push/subscribe/`` (JSON ``{"endpoint", "keys": {"p256dh", "auth"}}``),
  ``POST /push/unsubscribe/`` (``{"endpoint"}``), ``POST /push/test/``: signed-in only,
  CSRF-protected; 204 on success, 400 with ``{"error"}`` for a refusal, 403 signed out,
  404 when the site has no VAPID keys.
* ``POST /push/resubscribe/`` (JSON ``{"old": {"endpoint", "auth"}, "endpoint", "keys":
  {"p256dh", "auth"}}``): the service worker's renewal of a device; no session or CSRF
  token (the old subscription's auth secret is the proof); 204, 400 with ``{"error"}``, or
  404 when no device has that endpoint and secret (or the site has no VAPID keys).
* ``GET/POST /accounts/notifications/``: how each kind of news reaches the account.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Channel, PushKind
from games.services import push as push_service
from games.services.push import PushRefused

THEME_COLOR = "#b91c1c"
BACKGROUND_COLOR = "#ffffff"
# The static files the service worker keeps for the release (their folders or names).
PRECACHED = ("css/", "js/", "vendor/htmx", "favicon.svg", "icons/")


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    icon = "icons/icon-{}.png"
    data = {
        "name": _("Yahtzee with friends"),
        "short_name": _("Yahtzee"),
        "description": _("Play Yahtzee with friends, live or a turn a day."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static(icon.format(192)), "sizes": "192x192", "type": "image/png"},
            {"src": static(icon.format(512)), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@cache
def release() -> tuple[str, tuple[str, ...]]:
    """The release's name (a hash of its static files) and their URLs, once a process."""
    digest = hashlib.sha256()
    urls = []
    for finder in finders.get_finders():
        for path, storage in sorted(finder.list([]), key=lambda found: found[0]):
            name = path.replace("\\", "/")
            if name == "sw.js" or not name.startswith(PRECACHED):
                continue
            with storage.open(path) as opened:
                digest.update(name.encode() + b"\0" + opened.read())
            urls.append(static(name))
    return digest.hexdigest()[:16], tuple(urls)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    name, urls = release()
    found = finders.find("sw.js")
    with open(str(found), encoding="utf-8") as source:
        body = source.read()
    head = (
        f"const RELEASE = {json.dumps(name)};\n"
        f"const PRECACHE = {json.dumps(list(urls))};\n"
        f"const OFFLINE_URL = {json.dumps(reverse('offline'))};\n"
        f"const LANGUAGES = {json.dumps([code for code, _name in settings.LANGUAGES])};\n"
        f"const ICON = {json.dumps(static('icons/icon-192.png'))};\n"
    )
    response = HttpResponse(head + body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page shown when the network is gone; the same for everyone in a language."""
    languages = dict(settings.LANGUAGES)
    language = request.GET.get("lang", "")
    if language not in languages:
        language = translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):
        response = render(request, "push/offline.html", {"language": language})
    response["Cache-Control"] = "no-cache"
    return response


def _refusal(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _not_pushable(request: HttpRequest) -> JsonResponse | None:
    """The answer refusing a push request from someone signed out, or on a site that
    sends no notifications; None when it may go on."""
    if not request.user.is_authenticated:
        return _refusal(_("Log in to be notified on this device."), 403)
    if not push_service.push_offered():
        return _refusal(_("This site does not send notifications."), 404)
    return None


def _posted(request: HttpRequest) -> dict | JsonResponse:
    """The request's JSON object, or the answer refusing it."""
    refusal = _not_pushable(request)
    if refusal is not None:
        return refusal
    return _json_object(request)


def _json_object(request: HttpRequest) -> dict | JsonResponse:
    """The request's body as a JSON object, or the answer refusing it."""
    try:
        data = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        return _refusal(_("That is not a push subscription."))
    return data


@require_POST
def subscribe(request: HttpRequest) -> HttpResponse:
    data = _posted(request)
    if isinstance(data, JsonResponse):
        return data
    assert request.user.pk is not None  # signed in (_posted)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        return _refusal(_("That is not a push subscription."))
    try:
        push_service.push_subscribe(
            user_id=request.user.pk,
            endpoint=data.get("endpoint"),
            p256dh=keys.get("p256dh"),
            auth=keys.get("auth"),
        )
    except PushRefused as error:
        return _refusal(str(error))
    return HttpResponse(status=204)


@require_POST
def unsubscribe(request: HttpRequest) -> HttpResponse:
    data = _posted(request)
    if isinstance(data, JsonResponse):
        return data
    assert request.user.pk is not None  # signed in (_posted)
    push_service.push_unsubscribe(user_id=request.user.pk, endpoint=data.get("endpoint"))
    return HttpResponse(status=204)


@csrf_exempt
@require_POST
def resubscribe(request: HttpRequest) -> HttpResponse:
    """The service worker's ``pushsubscriptionchange``: exempt from CSRF because no cookie
    authorises it: only the old subscription's secret does, which a forging site lacks."""
    if not push_service.push_offered():
        return _refusal(_("This site does not send notifications."), 404)
    data = _json_object(request)
    if isinstance(data, JsonResponse):
        return data
    old, keys = data.get("old"), data.get("keys")
    if not isinstance(old, dict) or not isinstance(keys, dict):
        return _refusal(_("That is not a push subscription."))
    try:
        renewed = push_service.push_resubscribe(
            old_endpoint=old.get("endpoint"),
            old_auth=old.get("auth"),
            endpoint=data.get("endpoint"),
            p256dh=keys.get("p256dh"),
            auth=keys.get("auth"),
        )
    except PushRefused as error:
        return _refusal(str(error))
    if not renewed:
        return _refusal(_("This device is not notified by the site."), 404)
    return HttpResponse(status=204)


@require_POST
def send_test(request: HttpRequest) -> HttpResponse:
    refusal = _not_pushable(request)
    if refusal is not None:
        return refusal
    assert request.user.pk is not None  # signed in (_not_pushable)
    push_service.push_test(user_id=request.user.pk)
    return HttpResponse(status=204)


class NotificationsForm(forms.Form):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # A kind the post does not name keeps its setting (a page from before that kind).
        for kind in push_service.NOTIFIED_KINDS:
            self.fields[kind.value] = forms.ChoiceField(
                label=kind.label, choices=Channel.choices, widget=forms.RadioSelect, required=False
            )


@never_cache
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    """How each kind of news reaches the account: push, e-mail, both or neither."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    status = 200
    if request.method == "POST":
        form = NotificationsForm(request.POST)
        if form.is_valid():
            push_service.notification_channels_set(
                user_id=request.user.pk,
                channels={kind: channel for kind, channel in form.cleaned_data.items() if channel},
            )
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notification_settings")
        status = 400
    else:
        form = NotificationsForm(initial=push_service.notification_channels(request.user.pk))
    context = {
        "form": form,
        "offered": push_service.push_offered(),
        "email_kinds": [PushKind.YOUR_TURN.value, PushKind.LAST_HOUR.value],
    }
    return render(request, "push/notifications.html", context, status=status)
