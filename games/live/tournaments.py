"""An arena tournament's standings, live: ``ws/tournaments/<id>/``.

Each open tournament page joins the group ``tournament-<id>``. When its standings change
(a join, a withdrawal, a pairing, a scored game, the end), ``services.tournament_scoring``
tells :func:`push` once that has committed, which sends the bare fact to the group on every
process; each socket then reads the standings and renders the page's ``standings`` partial
in its own reader's language, and htmx's ws extension swaps it in by id.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import translation

from games import languages
from games.live import socket_limits
from games.live.broadcast import send_to_group
from games.selectors.tournaments import tournament_view

CLOSE_NO_TOURNAMENT = 4404
CLOSE_TOO_MANY_SOCKETS = socket_limits.CLOSE_TOO_MANY_SOCKETS


def group_of(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def push(tournament_id: int) -> None:
    """Listener of the tournament services: every open page of it reads and renders anew."""
    layer = get_channel_layer()
    if layer is not None:
        send_to_group(layer, group_of(tournament_id), {"type": "standings.changed"})


def render_standings(tournament_id: int, language: str) -> str | None:
    """The standings partial of the tournament's page, in ``language`` (None: no such)."""
    view = tournament_view(tournament_id)
    if view is None:
        return None
    with translation.override(language):
        return render_to_string("tournaments/detail.html#standings", {"t": view, "oob": True})


class TournamentConsumer(socket_limits.CountedSocket):
    tournament: int | None = None
    language = "en"

    async def connect(self) -> None:
        await self.accept()
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.language = languages.of_scope(self.scope)
        with translation.override(self.language):
            self.admitted, refusal = socket_limits.admit(self.scope, group_of(tournament_id))
        if refusal is not None:
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        html = await database_sync_to_async(render_standings)(tournament_id, self.language)
        if html is None:
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        self.tournament = tournament_id
        await self.channel_layer.group_add(group_of(tournament_id), self.channel_name)
        await self.send(text_data=html)

    async def standings_changed(self, event: dict) -> None:
        if self.tournament is None:
            return
        html = await database_sync_to_async(render_standings)(self.tournament, self.language)
        if html is not None:
            await self.send(text_data=html)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing; whatever it sends is ignored."""

    async def disconnect(self, code: int) -> None:
        if self.tournament is not None:
            await self.channel_layer.group_discard(group_of(self.tournament), self.channel_name)
            self.tournament = None
