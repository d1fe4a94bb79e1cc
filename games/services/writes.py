"""What every write to a game shares: where dice come from, the row lock, the version
check, and the announcement of the new version once the transaction has committed."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils.translation import gettext

from .. import caches
from .. import dice as fair
from ..committed import committed
from ..engine import DiceSource, GameState
from ..models import Game, Seat
from ..snapshots import Snapshot
from .errors import STALE, GameNotFound, StaleAction

# The secret server seed of each game this process has rolled for from a copy without it (a
# snapshot from another process: the wire leaves the seed out), so that such a roll reads
# the seed once per game and process instead of once per roll. Invariant: a game's seed
# never changes once set (at the start), so a seed read once stays right; only set seeds
# are kept. By id and code: an id a rolled-back game had may be given again (SQLite).
server_seeds: caches.Cache[tuple[int, str], str] = caches.lru(
    "server seeds of games rolled from copies, by id and code", maxsize=4096
)


class Dice:
    """Where the server's dice come from: each game's own provably fair stream
    (games/dice.py), drawn from its server seed and its seats' client seeds.

    Tests may script the dice by setting ``source`` (a seeded ``random.Random`` or scripted
    faces), which then replaces every game's stream and leaves its position alone; or fix
    the seeds with ``new_server_seed``, so the game is fair and its dice known in advance.
    ``choices`` is the randomness of computer players' decisions (never the dice)."""

    def __init__(self) -> None:
        self.source: DiceSource | None = None
        self.new_server_seed: Callable[[], bytes] = fair.new_server_seed
        self.choices: DiceSource = secrets.SystemRandom()

    def stream(self, game: Game, seats: Sequence[Seat]) -> fair.FairDice | None:
        """The game's stream at its current position (its seed read if not at hand);
        None for a game started before the fair dice, which has no seed."""
        seed = game.server_seed or self._seed_of(game)
        if not seed:
            return None
        client_seeds = [seat.client_seed for seat in sorted(seats, key=lambda s: s.position)]
        return fair.FairDice.for_game(bytes.fromhex(seed), client_seeds, game.dice_cursor)

    @staticmethod
    def _seed_of(game: Game) -> str:
        """The seed of a copy of ``game`` that came without it: remembered, else read."""
        key = (game.pk, game.code)
        seed = server_seeds.get(key)
        if seed is None:
            seed = Game.objects.filter(pk=game.pk).values_list("server_seed", flat=True).get()
            if seed:
                server_seeds.set(key, seed)
        return seed

    def for_game(self, game: Game, seats: Sequence[Seat]) -> DiceSource:
        if self.source is not None:
            return self.source
        return self.stream(game, seats) or secrets.SystemRandom()

    def advance(self, game: Game, source: DiceSource | None) -> None:
        """Keep the stream's new position on the game row (the caller saves); ``source`` is
        None for an action that rolls nothing."""
        if isinstance(source, fair.FairDice):
            game.dice_cursor = source.cursor


dice = Dice()

# Called with a Snapshot of the new version after each committed change; the live layer
# (games/broadcast.py) hooks in here so the services know nothing of websockets.
listeners: list[Callable[[Snapshot], None]] = []


def on_game_changed(listener: Callable[[Snapshot], None]) -> None:
    if listener not in listeners:
        listeners.append(listener)


def announce(
    game: Game,
    seats: list[Seat] | None = None,
    recent_moves: tuple[tuple[object, ...], ...] | None = None,
    state: GameState | None = None,
) -> None:
    """Once this transaction commits, remember the new version and tell every listener.
    ``state``: the new version's engine state, if the caller has it (see Snapshot.of)."""
    if not listeners:
        return
    snapshot = Snapshot.of(game, seats, recent_moves, state)

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
        raise GameNotFound(gettext("There is no game with that link.")) from None


def check_version(game: Game, version: int | None) -> None:
    if version != game.version:
        raise StaleAction(gettext(STALE))


def bump(game: Game, *fields: str) -> None:
    """A new version of ``game`` (saving ``fields`` with it), announced on commit."""
    game.version += 1
    game.save(update_fields=["version", *fields])
    announce(game)
