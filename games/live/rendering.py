"""The room's HTML, rendered once per version and viewpoint and shared.

A page, an htmx swap and a websocket push all use the same ``{% partialdef %}``
fragments of ``templates/games/room.html``. What differs between people at a table is
small (whose turn it is, hosting, having a seat), so the board is rendered once per
(game, version, viewpoint, language) in this process and reused for every socket and response.
A shared board takes everything it shows from its view model (``g``): never from a
request or a user, which belong to one viewer only.

In play, one board serves the whole table: it carries both the controls of the player on
turn and everyone else's view of the turn, and CSS keyed on the page's seat marker (#me)
shows each person theirs. Only a table with the coach's hints gives the player on turn a
board of their own (the advice is theirs alone). The sentence a screen reader hears
(#announce) and the seat marker are the viewer's own, and small: added per viewer.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import get_language

from games import caches, render_language, selectors
from games.models import Game, Player, Seat
from games.snapshots import Snapshot

boards: caches.Cache[tuple[str, int, str], str] = caches.lru(
    "room boards by game, version and viewpoint", maxsize=2048
)


def viewpoint(snapshot: Snapshot, viewer: Player) -> str:
    """What makes one person's board differ from another's at this version (in the language
    being rendered: prefixed)."""
    return f"{get_language()}:{_viewpoint(snapshot, viewer)}"


def _viewpoint(snapshot: Snapshot, viewer: Player) -> str:
    game = snapshot.game
    if game.status == Game.Status.PLAYING and not game.coach_hints:
        # Everyone sees one board: what only the player on turn, a seated or an away player
        # may press is shown to them by CSS keyed on their seat marker (#me).
        return "playing"
    seat = next((s.position for s in snapshot.seats if viewer.owns(s)), None)
    if game.status == Game.Status.PLAYING:
        assert snapshot.state is not None
        return "playing:on-turn" if seat == snapshot.state.current_seat else "playing:others"
    if game.status == Game.Status.FINISHED:
        return f"finished:{'seated' if seat is not None else 'watching'}"
    # In the lobby a guest's board offers their own name to sit down with.
    account = viewer.user_id is not None
    return f"lobby:{seat}:{viewer.hosts(game)}:{account}:{'' if account else viewer.name}"


def _owner(seat: Seat) -> Player:
    return Player(seat.name, user_id=seat.user_id, guest="" if seat.user_id else seat.guest)


def _everyday_viewers(snapshot: Snapshot) -> list[Player]:
    """One viewer for each board nearly everyone at a table in play (or over) sees."""
    game, seats = snapshot.game, snapshot.seats
    viewers = [Player("")]  # in play, everyone (with hints: anyone not on turn)
    if game.status == Game.Status.PLAYING:
        assert snapshot.state is not None and snapshot.state.current_seat is not None
        on_turn = seats[snapshot.state.current_seat]
        if game.coach_hints and not on_turn.bot:
            viewers.append(_owner(on_turn))
    elif game.status == Game.Status.FINISHED and seats:
        viewers.append(_owner(seats[0]))
    else:
        return []  # in the lobby, boards differ seat by seat: rendered when asked
    return viewers


def prerender(snapshot: Snapshot) -> dict[str, str]:
    """The boards of this version by viewpoint, rendered now (in the thread that made the
    change) so that no socket, here or on another process, has to render them again."""
    return {
        viewpoint(snapshot, viewer): live_board(snapshot, viewer)
        for viewer in _everyday_viewers(snapshot)
    }


def adopt(snapshot: Snapshot, rendered: dict[str, str], announced: dict[str, str]) -> None:
    """Boards and announcements rendered by the process that made the change, for this
    process's sockets."""
    code, version = snapshot.game.code, snapshot.game.version
    for point, html in rendered.items():
        boards.setdefault((code, version, point), html)
    for hearer, html in announced.items():
        announcements.setdefault((code, version, hearer), html)


def live_board(snapshot: Snapshot, viewer: Player) -> str:
    """The board for ``viewer`` (shared with everyone who sees it the same way), as pushed
    and swapped."""
    key = (snapshot.game.code, snapshot.game.version, viewpoint(snapshot, viewer))
    html = boards.get(key)
    if html is None:
        with render_language.fixed():
            view = selectors.snapshot_view(snapshot, viewer)
            html = render_to_string("games/room.html#live", {"g": view})
        html = boards.setdefault(key, html)
    return html


@caches.memoize(
    "seat markers by position and status", maxsize=64, key_extra=render_language.current
)
def _marker(position: int | None, status: str) -> str:
    return render_to_string("games/room.html#me", {"position": position, "status": status})


def seat_marker(snapshot: Snapshot, viewer: Player) -> str:
    """The one viewer-specific element: which seat (if any) is this viewer's, and whether
    they play it, are away from it, or have left it."""
    seat = next((s for s in snapshot.seats if viewer.owns(s)), None)
    return _marker(None, "") if seat is None else _marker(seat.position, seat.status)


announcements: caches.Cache[tuple[str, int, str], str] = caches.lru(
    "screen-reader announcements by game, version and language", maxsize=1024
)


def announce(snapshot: Snapshot, viewer: Player) -> str:
    """What a screen reader says of this version to ``viewer`` (#announce)."""
    state = snapshot.state
    # Only a game in play has someone on turn; what is said of any other game is everyone's.
    on_turn = (
        snapshot.game.status == Game.Status.PLAYING
        and state is not None
        and any(viewer.owns(s) for s in snapshot.seats if s.position == state.current_seat)
    )
    return _announcement(snapshot, on_turn)


def _hearer(on_turn: bool) -> str:
    """Who an announcement is for, in the language being rendered."""
    return f"{get_language()}:{on_turn}"


def _announcement(snapshot: Snapshot, on_turn: bool) -> str:
    key = (snapshot.game.code, snapshot.game.version, _hearer(on_turn))
    html = announcements.get(key)
    if html is None:
        text = selectors.announcement(
            snapshot.game, snapshot.state, snapshot.seats, on_turn=on_turn
        )
        html = render_to_string("games/room.html#announce", {"text": text})
        html = announcements.setdefault(key, html)
    return html


def preannounce(snapshot: Snapshot) -> dict[str, str]:
    """The announcements of this version, rendered now in the language being rendered (for
    the player on turn and for everyone else), so that no socket that reads them in it, here
    or on another process, has to render them again."""
    state, seats = snapshot.state, snapshot.seats
    person_on_turn = (
        snapshot.game.status == Game.Status.PLAYING
        and state is not None
        and state.current_seat is not None
        and not seats[state.current_seat].bot
    )
    return {
        _hearer(on_turn): _announcement(snapshot, on_turn)
        for on_turn in ((False, True) if person_on_turn else (False,))
    }


@caches.memoize("refusal messages by text", maxsize=64)
def flash(error: str | None) -> str:
    """The box of this request's refusal (#flash), emptied when there is none."""
    return render_to_string("games/room.html#flash", {"error": error})


def live_message(snapshot: Snapshot, viewer: Player) -> str:
    return live_board(snapshot, viewer) + announce(snapshot, viewer) + seat_marker(snapshot, viewer)
