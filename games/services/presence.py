"""Presence: who has a game page open. Bookkeeping, not game state: no version bump."""

from __future__ import annotations

from django.utils import timezone

from ..models import Connection, Game, LiveServer


def server_heartbeat(server_id: str) -> None:
    """Mark this server process alive and forget the connections of processes that died."""
    now = timezone.now()
    LiveServer.objects.update_or_create(id=server_id, defaults={"last_seen": now})
    LiveServer.objects.filter(last_seen__lt=now - LiveServer.stale_after()).delete()


def presence_open(*, server_id: str, code: str, channel_name: str, seat: int | None) -> bool:
    """Record an open page of a game; False if there is no such game."""
    game_id = Game.objects.filter(code=code).values_list("id", flat=True).first()
    if game_id is None:
        return False
    if not LiveServer.objects.filter(id=server_id).exists():
        server_heartbeat(server_id)
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"game_id": game_id, "server_id": server_id, "seat": seat},
    )
    return True


def presence_close(*, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()
