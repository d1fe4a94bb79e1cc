"""The one named cache of the game versions this process knows: :data:`committed`.

It holds, per game, the newest committed :class:`~games.snapshots.Snapshot` this process
has seen: the ones its own writes committed, and the ones other processes announced to its
sockets. A move made against exactly that version starts from this copy instead of reading
the game and its seats back, and its write names the version
(``UPDATE game SET ... WHERE version = v``): if the game changed meanwhile, the update
matches no row, the move is refused as stale, and nothing is written.

The invariant that makes this safe: **every write to a seat field a snapshot carries
bumps Game.version**, in the same transaction (the fields are ``SEAT_WIRE_FIELDS`` in
games/snapshots.py). A copy whose version still matches the row then also has the seats as
a snapshot shows them. Fields no snapshot carries (``last_seen``, written as pages open
and close; ``rating_after``) change without a bump. (``tests/test_committed.py`` plays
every service that writes a seat and fails if one of them breaks the invariant.)
"""

from __future__ import annotations

from games import caches
from games.snapshots import Snapshot

GAMES_KEPT = 4096


class CommittedGames:
    """The newest committed snapshot of each game, by code, for the last few thousand games."""

    def __init__(self, name: str, size: int = GAMES_KEPT) -> None:
        self._snapshots: caches.Cache[str, Snapshot] = caches.lru(name, size)

    def remember(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` unless a newer version of its game is already known."""
        version = snapshot.game.version
        self._snapshots.put_unless(
            snapshot.game.code, snapshot, keep=lambda known: known.game.version >= version
        )

    def at(self, code: str, version: int | None) -> Snapshot | None:
        """The snapshot of ``code`` at exactly ``version``, if that is the newest known."""
        known = self._snapshots.get(code)
        return known if known is not None and known.game.version == version else None

    def forget(self, code: str) -> None:
        self._snapshots.pop(code)


committed = CommittedGames("committed games, newest version by code")
