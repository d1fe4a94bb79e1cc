"""What every page's template may show: the signed-in account's unread inbox entries, for
the header's badge. A callable, which the template calls when it shows the badge (once,
then remembered): a render that does not show it (an htmx answer) reads nothing."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest

from games import selectors


def inbox_badge(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    user_id = user.pk
    return {"inbox_unread": cache(lambda: selectors.inbox_unread(user_id))}
