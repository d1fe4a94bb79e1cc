"""Who has a game page open: each seat's player, connected or not, and the watchers."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from ..models import Connection, LiveServer, Seat
from .viewmodel import ViewModel


@dataclass(frozen=True)
class PresenceView(ViewModel):
    """Who has the game page open: each seat's player, connected or not, and the watchers."""

    seats: tuple[tuple[str, bool], ...]  # (name, connected), in seat order
    watching: int

    def to_wire(self) -> dict[str, object]:
        return {"seats": [list(s) for s in self.seats], "watching": self.watching}

    @classmethod
    def from_wire(cls, data: dict) -> PresenceView:
        return cls(tuple((name, bool(on)) for name, on in data["seats"]), int(data["watching"]))


def presence_view(code: str) -> PresenceView:
    pages = Connection.objects.filter(game__code=code)
    if settings.PRESENCE_HEARTBEAT_SECONDS:  # pages of a server that stopped beating are gone
        alive_since = timezone.now() - LiveServer.stale_after()
        pages = pages.filter(server__last_seen__gte=alive_since)
    open_pages = list(pages.values_list("seat", flat=True))
    names = (
        Seat.objects.filter(game__code=code).order_by("position").values_list("position", "name")
    )
    return PresenceView(
        seats=tuple((name, position in open_pages) for position, name in names),
        watching=sum(1 for seat in open_pages if seat is None),
    )
