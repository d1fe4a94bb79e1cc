"""Limits on abuse: how often one client may fail to log in, sign up or give its password,
ask for password resets, open tables, post.

Every count lives in Django's default cache (local memory in the embedded deployment, Redis
at scale, so a limit holds across all processes), in django-ratelimit's fixed windows. A
client over a limit gets ``429 Too Many Requests``: a page (or, for an htmx request, the
room's message area, the board left as it is) with a sentence saying when to try again,
and a ``Retry-After`` header. Nothing else happens: no log-in, no account, no table, no move.

The rates are settings, each read from the environment variable of the same name
(``yahtzee_site/settings.py``; docs/deploy.md, "Configuration", and docs/security.md):

- ``LIMIT_LOGIN_FAILURES`` (``10/5m``): failed log-ins, on the site's page and on
  ``/admin/`` alike (they share the counts), per client address and username;
  ``LIMIT_LOGIN_FAILURES_PER_IP`` (``30/5m``): per client address, whatever the names;
  ``LIMIT_LOGIN_FAILURES_PER_USERNAME`` (``100/h``): per username, from anywhere, but
  refusing only the addresses that have themselves failed on that name in its window;
- ``LIMIT_SIGNUP_FAILURES`` (``10/5m``): refused sign-ups, per client address and username;
  ``LIMIT_SIGNUP_FAILURES_PER_IP`` (``30/5m``): per client address, whatever the names;
- ``LIMIT_PASSWORD_FAILURES`` (``10/5m``): a wrong password where the account page asks
  for it (changing it, deleting the account), and refused new passwords on a reset link,
  per client address and account; ``LIMIT_PASSWORD_FAILURES_PER_IP`` (``30/5m``): per
  client address;
- ``LIMIT_PASSWORD_RESETS_PER_IP`` (``10/h``): password reset requests, per client address,
  whether or not the address belongs to an account; ``LIMIT_PASSWORD_RESETS_PER_EMAIL``
  (``3/h``): per e-mail address asked for, from anywhere (what a reset costs a stranger is
  an e-mail in someone's inbox: the count protects the inbox);
- ``LIMIT_TABLES_PER_SESSION`` (``5/m``), ``LIMIT_TABLES_PER_IP`` (``10/m``): tables opened;
- ``LIMIT_POSTS_PER_SESSION`` (``300/m``): POSTs of any kind per session (per address for
  a client without one), far more than the fastest player sends;
- ``LIMIT_FRIEND_REQUESTS`` (``20/h``): friend requests sent, per account, whether or not
  they were refused; ``LIMIT_INVITATIONS`` (``30/h``): invitations to tables, per account
  (each name on the new table's form counts), refused or not (:mod:`games.account_limits`).

The client's address is ``REMOTE_ADDR``, or, behind ``TRUSTED_PROXY_COUNT`` proxies that
each append to ``X-Forwarded-For``, the address the outermost of them saw; IPv6 addresses
count per /64 (one host's usual share). ``LIMITS_EXEMPT_IPS`` lists addresses (or networks)
that are never limited: the load benchmark's clients on 127.0.0.1, which open a hundred
tables in a second.

Usernames are public (histories, the leaderboard), so no count a stranger can fill may
refuse a name's owner: failures count per (address, name) and per address, and the
name-wide count (a crowd of addresses guessing one password) holds back only the addresses
among that crowd. An address that has not failed on a name always gets to try it, as in
django-axes' lock-out by username and address. Sign-ups have no name-wide count: a name
that is taken is public already, so probing it from many addresses learns nothing.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import ngettext
from django_htmx.http import reswap
from django_ratelimit.core import get_usage

View = Callable[..., HttpResponseBase]  # a class-based view's as_view() gives the base


@dataclass(frozen=True)
class Limit:
    """One count per client in the cache, at the rate ``settings.<setting>`` ("10/5m")."""

    group: str
    setting: str

    def _usage(self, request: HttpRequest, value: str, *, increment: bool) -> dict | None:
        return get_usage(
            request,
            group=self.group,
            key=lambda _group, _request: value,
            rate=getattr(settings, self.setting),
            increment=increment,
        )

    def hit(self, request: HttpRequest, value: str) -> int | None:
        """Count one more for ``value``: the seconds to wait if that is over the limit."""
        usage = self._usage(request, value, increment=True)
        return _wait(usage) if usage and usage["should_limit"] else None

    def spent(self, request: HttpRequest, value: str) -> int | None:
        """Count nothing: the seconds to wait if ``value`` has used its whole allowance."""
        usage = self._usage(request, value, increment=False)
        return _wait(usage) if usage and usage["count"] >= usage["limit"] else None

    def count(self, request: HttpRequest, value: str) -> int:
        """Count nothing: how many ``value`` has in its current window."""
        usage = self._usage(request, value, increment=False)
        return int(usage["count"]) if usage else 0


def _wait(usage: dict) -> int:
    # The window's end; at least a second (a cache that failed answers -1: try again soon).
    return max(1, int(usage["time_left"]))


@dataclass(frozen=True)
class FailureLimits:
    """Failures of one kind (log-ins, sign-ups) counted per (address, name) and per address;
    with ``per_name``, also per name from anywhere, which refuses only an address that has
    failed on that name itself: ``failed_here`` counts those failures per (address, name) in
    windows as long as ``per_name``'s."""

    per_address_and_name: Limit
    per_address: Limit
    per_name: Limit | None = None
    failed_here: Limit | None = None

    def wait(self, request: HttpRequest, username: object) -> int | None:
        """Count nothing: the seconds to wait before this request may try, if any."""
        address, name = _ip_value(request), _username_value(username)
        waits = [self.per_address.spent(request, address)]
        if name:
            pair = f"{address} {name}"
            waits.append(self.per_address_and_name.spent(request, pair))
            if self.per_name and self.failed_here and self.failed_here.count(request, pair):
                waits.append(self.per_name.spent(request, name))
        return _longest(waits)

    def fail(self, request: HttpRequest, username: object) -> None:
        """Count one failure of this request's address on ``username``."""
        address, name = _ip_value(request), _username_value(username)
        self.per_address.hit(request, address)
        if name:
            pair = f"{address} {name}"
            self.per_address_and_name.hit(request, pair)
            if self.per_name and self.failed_here:
                self.per_name.hit(request, name)
                self.failed_here.hit(request, pair)


LOGIN_FAILURES = FailureLimits(
    per_address_and_name=Limit("login-failures", "LIMIT_LOGIN_FAILURES"),
    per_address=Limit("login-failures-per-ip", "LIMIT_LOGIN_FAILURES_PER_IP"),
    per_name=Limit("login-failures-per-username", "LIMIT_LOGIN_FAILURES_PER_USERNAME"),
    failed_here=Limit("login-failures-here", "LIMIT_LOGIN_FAILURES_PER_USERNAME"),
)
SIGNUP_FAILURES = FailureLimits(
    per_address_and_name=Limit("signup-failures", "LIMIT_SIGNUP_FAILURES"),
    per_address=Limit("signup-failures-per-ip", "LIMIT_SIGNUP_FAILURES_PER_IP"),
)
PASSWORD_FAILURES = FailureLimits(
    per_address_and_name=Limit("password-failures", "LIMIT_PASSWORD_FAILURES"),
    per_address=Limit("password-failures-per-ip", "LIMIT_PASSWORD_FAILURES_PER_IP"),
)
PASSWORD_RESETS_PER_IP = Limit("password-resets-per-ip", "LIMIT_PASSWORD_RESETS_PER_IP")
PASSWORD_RESETS_PER_EMAIL = Limit("password-resets-per-email", "LIMIT_PASSWORD_RESETS_PER_EMAIL")
TABLES_PER_SESSION = Limit("tables-per-session", "LIMIT_TABLES_PER_SESSION")
TABLES_PER_IP = Limit("tables-per-ip", "LIMIT_TABLES_PER_IP")
POSTS_PER_SESSION = Limit("posts-per-session", "LIMIT_POSTS_PER_SESSION")


# -- who the client is ------------------------------------------------------------------------


def client_ip(request: HttpRequest) -> str:
    """The address of the client behind a request (see :func:`client_address`)."""
    return client_address(
        request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", "")
    )


def client_address(remote: str, forwarded_for: str) -> str:
    """The client's address: the connection's (``remote``), or with ``TRUSTED_PROXY_COUNT``
    = n the n-th entry of ``X-Forwarded-For`` from the right (what the outermost trusted
    proxy saw; entries left of it are the client's to write). Something that is not an
    address (a missing header, a made-up entry) falls back to the connection's."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies > 0:
        hops = [hop.strip() for hop in forwarded_for.split(",")]
        hops = [hop for hop in hops if hop]
        if len(hops) >= proxies and _is_address(hops[-proxies]):
            return hops[-proxies]
    return remote or "unknown"


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _ip_value(request: HttpRequest) -> str:
    address = client_ip(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return f"ip:{address}"
    if ip.version == 6:
        return f"ip:{ipaddress.ip_network(f'{ip}/64', strict=False).network_address}/64"
    return f"ip:{ip}"


def _session_value(request: HttpRequest) -> str | None:
    session = getattr(request, "session", None)
    if session is None:
        return None
    session.keys()  # read it: an unknown or expired cookie leaves no key, so made-up
    key = session.session_key  # cookies cannot each start a fresh count
    return f"session:{key}" if key else None


def _username_value(username: object) -> str | None:
    name = " ".join(str(username or "").split()).casefold()
    return f"user:{name}" if name else None


def is_exempt(request: HttpRequest) -> bool:
    """From one of ``LIMITS_EXEMPT_IPS`` (addresses or networks): never limited."""
    exempt = settings.LIMITS_EXEMPT_IPS
    if not exempt:
        return False
    try:
        ip = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(network, strict=False) for network in exempt)


def _posted_username(request: HttpRequest) -> object:
    return request.POST.get(get_user_model().USERNAME_FIELD, "")


def _longest(waits: Iterable[int | None]) -> int | None:
    return max((wait for wait in waits if wait), default=None)


# -- the answer -------------------------------------------------------------------------------


def retry_sentence(wait: int) -> str:
    if wait < 90:
        return ngettext(
            "Too many requests. Please try again in %(count)d second.",
            "Too many requests. Please try again in %(count)d seconds.",
            wait,
        ) % {"count": wait}
    minutes = math.ceil(wait / 60)
    return ngettext(
        "Too many requests. Please try again in %(count)d minute.",
        "Too many requests. Please try again in %(count)d minutes.",
        minutes,
    ) % {"count": minutes}


def too_many_requests(request: HttpRequest, wait: int) -> HttpResponse:
    """429 with when to retry: a page, or for htmx the room's message and no other swap."""
    context = {"message": retry_sentence(wait)}
    if request.headers.get("HX-Request") == "true":
        # Keep the board; only the message area changes.
        response = reswap(
            HttpResponse(render_to_string("429.html#notice", context), status=429), "none"
        )
    else:
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


# -- the limits -------------------------------------------------------------------------------


def limit_failed_logins(view: View) -> View:
    """A log-in view (the site's, the admin's) refuses a POST with 429 once its address has
    too many failures on the username it names, or on any names, or has failed on a name
    that too many addresses have failed on (:class:`FailureLimits`); the failures are
    counted by :func:`count_failed_login`, whatever page they came from."""

    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" and not is_exempt(request):
            wait = LOGIN_FAILURES.wait(request, _posted_username(request))
            if wait:
                return too_many_requests(request, wait)
        return view(request, *args, **kwargs)

    return limited


@receiver(user_login_failed, dispatch_uid="games.limits.count_failed_login")
def count_failed_login(
    sender: object, credentials: dict, request: HttpRequest | None = None, **kwargs: Any
) -> None:
    """Every failed ``authenticate()`` of a request counts for its address and username."""
    if request is None or is_exempt(request):
        return
    LOGIN_FAILURES.fail(request, credentials.get(get_user_model().USERNAME_FIELD, ""))


def _limit_failed_posts(
    limits: FailureLimits, name_of: Callable[[HttpRequest], object]
) -> Callable[[View], View]:
    """A form's view refuses a POST with 429 once its address has too many refused posts
    (which the view answers with 400) for the name ``name_of`` finds, or for any."""

    def decorate(view: View) -> View:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method != "POST" or is_exempt(request):
                return view(request, *args, **kwargs)
            name = name_of(request)
            wait = limits.wait(request, name)
            if wait:
                return too_many_requests(request, wait)
            response = view(request, *args, **kwargs)
            if response.status_code == 400:
                limits.fail(request, name)
            return response

        return limited

    return decorate


def _account_name(request: HttpRequest) -> object:
    user = getattr(request, "user", None)
    return user.get_username() if user is not None and user.is_authenticated else ""


#: The sign-up view: refused sign-ups for the username it asks for, or for any.
limit_failed_signups = _limit_failed_posts(SIGNUP_FAILURES, _posted_username)
#: The forms that check a password (changing it, deleting the account) and the reset
#: link's new password: refused posts for the logged-in account, or from the address.
limit_failed_passwords = _limit_failed_posts(PASSWORD_FAILURES, _account_name)


def limit_password_resets(view: View) -> View:
    """Asking for a password reset counts for the address (``LIMIT_PASSWORD_RESETS_PER_IP``)
    and for the e-mail address asked for (``LIMIT_PASSWORD_RESETS_PER_EMAIL``), whether or
    not it belongs to an account, so the answer tells nothing; over either, 429 and no
    e-mail."""

    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" and not is_exempt(request):
            counts = [(PASSWORD_RESETS_PER_IP, _ip_value(request))]
            email = " ".join(str(request.POST.get("email", "")).split()).casefold()
            if email:
                counts.append((PASSWORD_RESETS_PER_EMAIL, f"email:{email}"))
            wait = _longest([limit.hit(request, value) for limit, value in counts])
            if wait:
                return too_many_requests(request, wait)
        return view(request, *args, **kwargs)

    return limited


def limit_table_creation(view: View) -> View:
    """Opening a table counts for the session (``LIMIT_TABLES_PER_SESSION``) and for the
    address (``LIMIT_TABLES_PER_IP``); over either, 429 and no table."""

    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" and not is_exempt(request):
            counts = [(TABLES_PER_IP, _ip_value(request))]
            session = _session_value(request)
            if session:
                counts.append((TABLES_PER_SESSION, session))
            wait = _longest([limit.hit(request, value) for limit, value in counts])
            if wait:
                return too_many_requests(request, wait)
        return view(request, *args, **kwargs)

    return limited


class PostLimitMiddleware:
    """Every POST counts for its session, or its address without one
    (``LIMIT_POSTS_PER_SESSION``); over the limit, 429 before any view runs."""

    def __init__(self, get_response: View) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "POST" and not is_exempt(request):
            value = _session_value(request) or _ip_value(request)
            wait = POSTS_PER_SESSION.hit(request, value)
            if wait:
                return too_many_requests(request, wait)
        return self.get_response(request)
