"""What every write to a game shares: where dice come from, the row lock, the version
check, and the announcement of the new version once the transaction has committed."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.db import transaction

from ..committed import committed
from ..engine import DiceSource
from ..models import Game, Seat
from ..snapshots import Snapshot
from .errors import STALE, GameNotFound, StaleAction


class Dice:
    """Where the server's dice come from: the operating system's generator.

    Tests replace ``dice.source`` with a seeded ``random.Random``."""

    def __init__(self) -> None:
        self.source: DiceSource = secrets.SystemRandom()


dice = Dice()

# Called with a Snapshot of the new version after each committed change; the live layer
# (games/broadcast.py) hooks in here so the services know nothing of websockets.
listeners: list[Callable[[Snapshot], None]] = []


def on_game_changed(listener: Callable[[Snapshot], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def announce(game: Game, seats: list[Seat] | None = None) -> None:
    """Once this transaction commits, remember the new version and tell every listener."""
    if not listeners:
        return
    snapshot = Snapshot.of(game, seats)

    def send() -> None:
        committed.remember(snapshot)
        for listener in list(listeners):
            listener(snapshot)

    transaction.on_commit(send)


def locked_game(code: str) -> Game:
    """The game, its row locked until the transaction ends."""
    try:
        return Game.objects.select_for_update().get(code=code)
    except Game.DoesNotExist:
        raise GameNotFound("There is no game with that link.") from None


def check_version(game: Game, version: int | None) -> None:
    if version != game.version:
        raise StaleAction(STALE)


def bump(game: Game, *fields: str) -> None:
    """A new version of ``game`` (saving ``fields`` with it), announced on commit."""
    game.version += 1
    game.save(update_fields=["version", *fields])
    announce(game)
