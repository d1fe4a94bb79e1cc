"""Who has a game page open: each seat's player, connected or not, and the watchers."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from games.models import Connection, LiveServer, Seat, seat_name
from games.viewmodels.base import ViewModel


@dataclass(frozen=True)
class PresenceView(ViewModel):
    """Who has the game page open: each seat's player, connected or not, and the watchers.
    Sent to every page of the room whatever its language: a computer player travels as its
    level and number, and is named when a page renders it."""

    # (stored name, computer player's level or "", its number, connected), in seat order
    places: tuple[tuple[str, str, int, bool], ...]
    watching: int

    @property
    def seats(self) -> tuple[tuple[str, bool], ...]:
        """(name in the active language, connected), in seat order."""
        return tuple(
            (seat_name(name, bot, number), connected)
            for name, bot, number, connected in self.places
        )

    def to_wire(self) -> dict[str, object]:
        return {"places": [list(p) for p in self.places], "watching": self.watching}

    @classmethod
    def from_wire(cls, data: dict) -> PresenceView:
        places = tuple(
            (str(name), str(bot), int(number), bool(on)) for name, bot, number, on in data["places"]
        )
        return cls(places, int(data["watching"]))


def presence_view(code: str) -> PresenceView:
    pages = Connection.objects.filter(game__code=code)
    if settings.PRESENCE_HEARTBEAT_SECONDS:  # pages of a server that stopped beating are gone
        alive_since = timezone.now() - LiveServer.stale_after()
        pages = pages.filter(server__last_seen__gte=alive_since)
    open_pages = list(pages.values_list("seat", flat=True))
    seats = (
        Seat.objects.filter(game__code=code)
        .order_by("position")
        .values_list("position", "name", "bot", "bot_number")
    )
    return PresenceView(
        places=tuple(
            (name, bot, number, position in open_pages) for position, name, bot, number in seats
        ),
        watching=sum(1 for seat in open_pages if seat is None),
    )
