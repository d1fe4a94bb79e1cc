"""Limits on what one account sends another: friend requests and invitations to tables,
counted per account in the default cache like the other limits (games/limits.py), at the
rates ``LIMIT_FRIEND_REQUESTS`` and ``LIMIT_INVITATIONS``. Every attempt counts, refused or
not, so a flood of made-up names is stopped as well as a flood of real ones."""

from __future__ import annotations

from django.http import HttpRequest

from games.limits import Limit, is_exempt

FRIEND_REQUESTS = Limit("friend-requests", "LIMIT_FRIEND_REQUESTS")
INVITATIONS = Limit("invitations", "LIMIT_INVITATIONS")


def account_wait(limit: Limit, request: HttpRequest, count: int = 1) -> int | None:
    """Count ``count`` more of ``limit`` for the signed-in account behind ``request``: the
    seconds to wait if that is over the limit (never for ``LIMITS_EXEMPT_IPS``)."""
    if is_exempt(request):
        return None
    value = f"account:{request.user.pk}"
    waits = [limit.hit(request, value) for _ in range(max(count, 1))]
    return max((wait for wait in waits if wait), default=None)
