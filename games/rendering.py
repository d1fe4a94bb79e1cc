"""The room's HTML, rendered once per version and viewpoint and shared.

A page, an htmx swap and a websocket push all use the same ``{% partialdef %}``
fragments of ``templates/games/room.html``. What differs between people at a table is
small (whose turn it is, hosting, having a seat), so the board is rendered once per
(game, version, viewpoint) in this process and reused for every socket and response.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.template.loader import render_to_string

from . import selectors
from .models import Game, Player, Snapshot

CACHE_SIZE = 2048
_cache: OrderedDict[tuple, str] = OrderedDict()
_lock = threading.Lock()


class _UserFlag:
    """Stands in for ``request.user`` in shared renders (only authentication matters)."""

    def __init__(self, authenticated: bool) -> None:
        self.is_authenticated = authenticated


def viewpoint(snapshot: Snapshot, viewer: Player) -> tuple:
    """What makes one person's board differ from another's at this version."""
    game = snapshot.game
    seat = next((s.position for s in snapshot.seats if viewer.owns(s)), None)
    if game.status == Game.Status.PLAYING:
        current = game.engine_state(snapshot.seats).current_seat
        return (game.status, seat is not None and seat == current)
    if game.status == Game.Status.FINISHED:
        return (game.status, seat is not None)
    return (game.status, seat, viewer.hosts(game), viewer.user_id is not None)


def live_board(snapshot: Snapshot, viewer: Player) -> str:
    """The board and the screen-reader announcement for ``viewer``, as pushed and swapped.

    Forms carry no CSRF field here: htmx sends the token in a header on every request.
    """
    key = (snapshot.game.code, snapshot.game.version, viewpoint(snapshot, viewer))
    with _lock:
        html = _cache.get(key)
    if html is None:
        view = selectors.snapshot_view(snapshot, viewer)
        context = {
            "g": view,
            "user": _UserFlag(viewer.user_id is not None),
        }
        html = render_to_string("games/room.html#live", context)
        with _lock:
            _cache[key] = html
            if len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return html


def seat_marker(snapshot: Snapshot, viewer: Player) -> str:
    """The one viewer-specific element: which seat (if any) is this viewer's."""
    you = next((s for s in snapshot.seats if viewer.owns(s)), None)
    return render_to_string("games/room.html#me", {"g": {"you": you}})


def live_message(snapshot: Snapshot, viewer: Player) -> str:
    return live_board(snapshot, viewer) + seat_marker(snapshot, viewer)
