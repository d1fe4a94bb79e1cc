"""Presence of signed-in accounts on the site (the site-wide socket, or a table page's own
socket carrying the account's notices): bookkeeping, no version.

A row per open page, named by the process that holds it (``presence.SERVER_ID``): when a
process dies, its heartbeat's sweep deletes its ``LiveServer`` row and so, by cascade, the
pages it held (``presence.server_heartbeat``), as for game pages. When a page closes, the
account's ``LastSeen`` moves to now; when its process dies, to the last moment that process
was heard of (never back).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.clock import clock
from games.models import LastSeen, LiveServer, SiteConnection


def site_presence_open(*, server_id: str, user_id: int, channel_name: str) -> None:
    LiveServer.objects.get_or_create(id=server_id, defaults={"last_seen": timezone.now()})
    SiteConnection.objects.update_or_create(
        channel_name=channel_name, defaults={"user_id": user_id, "server_id": server_id}
    )


def site_presence_close(*, user_id: int, channel_name: str) -> None:
    SiteConnection.objects.filter(channel_name=channel_name).delete()
    LastSeen.objects.update_or_create(user_id=user_id, defaults={"at": clock.now()})


def site_presence_lost(server_ids: list[str]) -> None:
    """Before dead processes are forgotten: the accounts whose pages they held were last
    seen when those processes last answered (a later moment already kept stays)."""
    left: dict[int, datetime] = {}
    for user_id, at in SiteConnection.objects.filter(server_id__in=server_ids).values_list(
        "user_id", "server__last_seen"
    ):
        left[user_id] = max(at, left.get(user_id, at))
    for user_id, at in left.items():
        LastSeen.objects.filter(user_id=user_id, at__lt=at).update(at=at)
        LastSeen.objects.get_or_create(user_id=user_id, defaults={"at": at})
