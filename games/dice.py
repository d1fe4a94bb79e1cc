"""Where a game's dice come from: the provably fair stream. Pure, standard library only.

This is a published contract; outside tools recompute it, so it must not change:

* ``server_seed``: 32 bytes from :mod:`secrets`, drawn when the game starts and kept secret
  until it has ended; ``dice_commitment`` = the lowercase hex SHA-256 of those bytes is
  public from the start.
* every seat has a ``client_seed``: 1 to 64 printable ASCII characters (space to ``~``).
* ``key`` = HMAC-SHA256(key=server_seed, message=the client seeds joined by ``"\\n"`` in
  seat order, UTF-8).
* block n (n = 0, 1, 2, ...) = HMAC-SHA256(key=key, message=the decimal digits of n,
  ASCII). The blocks' bytes are read in order; a byte b >= 252 is skipped, any other gives
  the die b mod 6 + 1.
* the dice are drawn in the engine's order: the roll-off (each contender's five dice in seat
  order, round after round), then every roll's dice for the positions not kept, 0 to 4.
  A kept die is not drawn: it is the die at the same position after the turn's roll before
  (a turn ends when its box is scored; nothing is kept on a turn's first roll).

:class:`FairDice` is such a stream as a dice source for the engine, resumable from the
number of bytes already read (``cursor``); :func:`verify` recomputes a whole game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SEED_BYTES = 32
BLOCK_BYTES = 32  # the length of one HMAC-SHA256
MAX_CLIENT_SEED = 64
FAIR_BYTE_LIMIT = 252  # 252 = 42 * 6: bytes from here up would favour the low faces
DICE_COUNT = 5


def new_server_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """A client seed chosen by the server (for computer players, or a page without scripts)."""
    return secrets.token_hex(16)


def commitment(server_seed: bytes) -> str:
    """The public promise of a seed: its SHA-256, lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def is_client_seed(text: object) -> bool:
    """1 to 64 printable ASCII characters (space to ``~``)."""
    return (
        isinstance(text, str)
        and 1 <= len(text) <= MAX_CLIENT_SEED
        and all(" " <= ch <= "~" for ch in text)
    )


def stream_key(server_seed: bytes, client_seeds: Sequence[str]) -> bytes:
    message = "\n".join(client_seeds).encode("utf-8")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def block(key: bytes, n: int) -> bytes:
    return hmac.new(key, str(n).encode("ascii"), hashlib.sha256).digest()


class FairDice:
    """The dice stream of one game, from byte ``cursor`` on (bytes read so far, skipped
    ones included). An engine dice source: ``randint(1, 6)`` gives the next die."""

    def __init__(self, key: bytes, cursor: int = 0) -> None:
        self.key = key
        self.cursor = cursor
        self._block_number = -1
        self._block = b""

    @classmethod
    def for_game(cls, server_seed: bytes, client_seeds: Sequence[str], cursor: int = 0) -> FairDice:
        return cls(stream_key(server_seed, client_seeds), cursor)

    def next_die(self) -> int:
        while True:
            number, offset = divmod(self.cursor, BLOCK_BYTES)
            if number != self._block_number:
                self._block_number, self._block = number, block(self.key, number)
            byte = self._block[offset]
            self.cursor += 1
            if byte < FAIR_BYTE_LIMIT:
                return byte % 6 + 1

    def randint(self, a: int, b: int) -> int:
        if (a, b) != (1, 6):
            raise ValueError("The fair stream only rolls six-sided dice.")
        return self.next_die()


@dataclass(frozen=True)
class Check:
    """One roll recomputed: what the log says, what the stream gives, whether they agree."""

    version: int | None
    what: str  # "rolloff" or "roll"
    seat: int
    logged: tuple[int, ...]
    expected: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return self.logged == self.expected


def verify(
    server_seed: bytes, client_seeds: Sequence[str], moves: Iterable[Mapping[str, object]]
) -> list[Check]:
    """Recompute every die of a game from its seeds and its move log (the ``moves`` of
    ``moves.json``): one :class:`Check` per roll-off entry and per roll, in order. A kept
    die is not drawn: the expected value there is the die at its position after the turn's
    roll before, so a kept die the log changed does not match either."""
    stream = FairDice.for_game(server_seed, client_seeds)
    checks: list[Check] = []
    before: tuple[int, ...] | None = None  # the dice after this turn's roll before
    for move in moves:
        if move.get("kind") == "start":
            for round_ in move.get("rolloff") or ():  # type: ignore[attr-defined]
                for seat, dice in round_:
                    drawn = tuple(stream.next_die() for _ in range(DICE_COUNT))
                    checks.append(Check(move.get("version"), "rolloff", seat, tuple(dice), drawn))  # type: ignore[arg-type]
        elif move.get("kind") == "roll":
            dice = tuple(move["dice"])  # type: ignore[arg-type]
            held: tuple[object, ...] = tuple(move["held"])  # type: ignore[arg-type]
            drawn = tuple(
                before[i] if before is not None and held[i] else stream.next_die()
                for i in range(DICE_COUNT)
            )
            checks.append(Check(move.get("version"), "roll", move["seat"], dice, drawn))  # type: ignore[arg-type]
            before = dice
        elif move.get("kind") == "score":
            before = None
    return checks
