"""Presence: who has a game page open. Bookkeeping, not game state: no version bump."""

from __future__ import annotations

import os
import uuid
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.clock import clock
from games.models import Connection, Game, LiveServer, Seat
from games.services.site_presence import site_presence_lost

# This server process, as its heartbeat and its open pages name it.
SERVER_ID = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"


def server_heartbeat(server_id: str, *, now: datetime | None = None) -> list[str]:
    """Mark this server process alive and forget the connections of processes that died.

    Returns the codes of the games whose pages were forgotten, so that their rooms can be
    shown who is really there. Each dead process is forgotten once: of two processes
    sweeping at the same moment, the second waits for the first's lock and finds nothing.
    """
    now = now or timezone.now()
    LiveServer.objects.update_or_create(id=server_id, defaults={"last_seen": now})
    with transaction.atomic():
        dead = list(
            LiveServer.objects.select_for_update()
            .filter(last_seen__lt=now - LiveServer.stale_after())
            .values_list("id", flat=True)
        )
        if not dead:
            return []
        pages = Connection.objects.filter(server_id__in=dead)
        codes = sorted(set(pages.values_list("game__code", flat=True)))
        site_presence_lost(dead)
        LiveServer.objects.filter(id__in=dead).delete()
    return codes


def presence_open(*, server_id: str, code: str, channel_name: str, seat: int | None) -> bool:
    """Record an open page of a game; False if there is no such game."""
    game_id = Game.objects.filter(code=code).values_list("id", flat=True).first()
    if game_id is None:
        return False
    LiveServer.objects.get_or_create(id=server_id, defaults={"last_seen": timezone.now()})
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"game_id": game_id, "server_id": server_id, "seat": seat},
    )
    return True


def presence_close(*, channel_name: str) -> None:
    closing = Connection.objects.filter(channel_name=channel_name)
    seated = closing.exclude(seat=None).values_list("game_id", "seat").first()
    closing.delete()
    if seated is not None:  # when this player was last at the table (clocks.turn_takeover)
        game_id, position = seated
        assert position is not None  # excluded above
        Seat.objects.filter(game_id=game_id, position=position).update(last_seen=clock.now())
