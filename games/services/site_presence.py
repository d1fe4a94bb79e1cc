"""Presence of signed-in accounts on the site (the site-wide socket, or a table page's own
socket carrying the account's notices): bookkeeping, no version.

A row per open page, named by the process that holds it (``presence.SERVER_ID``): when a
process dies, its heartbeat's sweep deletes its ``LiveServer`` row and so, by cascade, the
pages it held (``presence.server_heartbeat``), as for game pages. When a page closes, the
account's ``LastSeen`` moves to now.
"""

from __future__ import annotations

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
