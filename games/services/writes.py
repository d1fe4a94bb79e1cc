"""What every write to a game shares: the row lock, the version check, and the announcement
of the new version once the transaction has committed. Dice: :mod:`.dice_supply`."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext

from games.committed import committed
from games.engine import GameState
from games.models import Game, Seat
from games.services.errors import STALE, GameNotFound, StaleAction
from games.snapshots import Snapshot

# Called with a Snapshot of the new version after each committed change; the live layer
# (games/live/broadcast.py) hooks in here so the services know nothing of websockets.
listeners: list[Callable[[Snapshot], None]] = []


def on_game_changed(listener: Callable[[Snapshot], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def announce(
    game: Game,
    seats: list[Seat] | None = None,
    recent_moves: tuple[tuple[object, ...], ...] | None = None,
    state: GameState | None = None,
) -> Snapshot:
    """Once this transaction commits, remember the new version and tell every listener.
    ``state``: the new version's engine state, if the caller has it (see Snapshot.of).
    Returns the snapshot announced: the caller answers from it, so the new version is
    built once and rendered from one value."""
    snapshot = Snapshot.of(game, seats, recent_moves, state)

    def send() -> None:
        committed.remember(snapshot)
        for listener in list(listeners):
            listener(snapshot)

    if listeners:  # none: a command or test that stands for a process nobody hears
        transaction.on_commit(send)
    return snapshot


def locked_game(code: str) -> Game:
    """The game, its row locked until the transaction ends."""
    try:
        return Game.objects.select_for_update().get(code=code)
    except Game.DoesNotExist:
        raise GameNotFound(gettext("There is no game with that link.")) from None


def check_version(game: Game, version: int | None) -> None:
    if version != game.version:
        raise StaleAction(gettext(STALE))


def bump(game: Game, *fields: str) -> Snapshot:
    """A new version of ``game`` (saving ``fields`` with it), announced on commit."""
    game.version += 1
    game.save(update_fields=["version", *fields])
    return announce(game)


def as_it_stands(game: Game, seats: list[Seat] | None = None) -> Snapshot:
    """The snapshot of ``game`` unchanged (a write that found nothing to do)."""
    return Snapshot.of(game, seats)
