"""Push each committed change of a game to its room, over the channel layer.

``games/services/`` calls :func:`announce` (registered in ``GamesConfig.ready``) after
every commit with a snapshot of the new version; every consumer in the room renders
that snapshot for its own viewer. Nothing here decides anything about the game.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from . import rendering
from .snapshots import Snapshot


def group_name(code: str) -> str:
    return f"game-{code}"


def announce(snapshot: Snapshot) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        group_name(snapshot.game.code),
        {
            "type": "game.changed",
            "version": snapshot.game.version,
            "snapshot": snapshot.to_wire(),
            # Rendered once here (and kept in this process's caches), not on every process.
            "boards": rendering.prerender(snapshot),
            "announcements": rendering.preannounce(snapshot),
        },
    )
