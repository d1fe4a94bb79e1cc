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

The same-dice draw (docs/fair-dice.md, "The same dice for everyone") is the other way to
draw a game's dice: the die at position p of roll r of a player's turn t is the same for
every player and every game that shares a ``seed``, whatever anyone kept before:

* ``same_dice(seed, t, r)``: HMAC-SHA256(key=seed, message=f"{t}:{r}", ASCII); bytes
  >= 252 skipped; the i-th usable byte gives die i (0-4) as b mod 6 + 1. With fewer than
  five usable bytes (about one seed in 10^33) the dice go on with the bytes of the message
  f"{t}:{r}:1", then f"{t}:{r}:2", and so on.
* a roll keeps the kept dice and takes the positions' dice of that roll for the others.
* the roll-off: round k (1, 2, ...) gives seat s the five dice of the message
  f"rolloff:{k}:{s}", drawn the same way.

:class:`SameDice` gives the engine these dice (:meth:`SameDice.for_roll`,
:meth:`SameDice.for_rolloff`); :func:`verify_same` recomputes a whole game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

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


def usable_dice(seed: bytes, message: str, count: int = DICE_COUNT) -> tuple[int, ...]:
    """``count`` dice from the usable bytes of HMAC-SHA256(seed, message), then of
    ``message:1``, ``message:2``... while fewer were usable."""
    faces: list[int] = []
    extra = 0
    while len(faces) < count:
        text = message if extra == 0 else f"{message}:{extra}"
        digest = hmac.new(seed, text.encode("ascii"), hashlib.sha256).digest()
        faces.extend(b % 6 + 1 for b in digest if b < FAIR_BYTE_LIMIT)
        extra += 1
    return tuple(faces[:count])


def same_dice(seed: bytes, turn: int, roll: int) -> tuple[int, ...]:
    """The five dice at positions 0-4 of roll ``roll`` (1-3) of turn ``turn`` (a player's
    own turn number, 1-13): the same for everyone who shares ``seed``."""
    return usable_dice(seed, f"{turn}:{roll}")


def same_rolloff_dice(seed: bytes, round_: int, seat: int) -> tuple[int, ...]:
    """The five dice seat ``seat`` rolls in round ``round_`` (1, 2...) of the roll-off."""
    return usable_dice(seed, f"rolloff:{round_}:{seat}")


class Drawn:
    """Dice already decided, handed to the engine in order: ``randint(1, 6)`` gives the
    next one. The engine asks for exactly the dice it rolls, in its order."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.taken = 0

    def randint(self, a: int, b: int) -> int:
        if (a, b) != (1, 6):
            raise ValueError("The same dice are six-sided.")
        face = self.faces[self.taken]
        self.taken += 1
        return face


class SameDice:
    """The same-dice draw of one seed, as engine dice sources: one per roll, one for the
    roll-off. Nothing is stored between rolls: the dice follow from turn, roll and holds."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def dice(self, turn: int, roll: int) -> tuple[int, ...]:
        return same_dice(self.seed, turn, roll)

    def rolled(
        self, turn: int, roll: int, before: Sequence[int] | None, held: Sequence[bool]
    ) -> tuple[int, ...]:
        """The dice after roll ``roll`` of turn ``turn``: the kept dice of ``before`` stay
        (nothing is kept on a turn's first roll), the others are the positions' dice."""
        fresh = self.dice(turn, roll)
        return tuple(
            before[i] if before is not None and roll > 1 and held[i] else fresh[i]
            for i in range(DICE_COUNT)
        )

    def for_roll(self, turn: int, roll: int, held: Sequence[bool]) -> Drawn:
        """The engine's source for this roll: the dice of the positions not kept, in order."""
        fresh = self.dice(turn, roll)
        return Drawn(fresh[i] for i in range(DICE_COUNT) if roll == 1 or not held[i])

    def rolloff(self, seat_count: int) -> list[tuple[tuple[int, tuple[int, ...]], ...]]:
        """The whole roll-off: everyone rolls, the highest total starts, tied leaders roll
        again (the engine's rule), each die from its round and seat."""
        rounds = []
        contenders = tuple(range(seat_count))
        number = 1
        while True:
            rolls = tuple((s, same_rolloff_dice(self.seed, number, s)) for s in contenders)
            rounds.append(rolls)
            best = max(sum(d) for _, d in rolls)
            contenders = tuple(s for s, d in rolls if sum(d) == best)
            if len(contenders) == 1:
                return rounds
            number += 1

    def for_rolloff(self, seat_count: int) -> Drawn:
        return Drawn(face for rolls in self.rolloff(seat_count) for _, d in rolls for face in d)


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


def verify_same(seed: bytes, moves: Iterable[Mapping[str, object]]) -> list[Check]:
    """Recompute every die of a same-dice game from its seed and its move log: one
    :class:`Check` per roll-off entry and per roll, as :func:`verify` gives them. A roll's
    turn is its seat's own turn number (boxes that seat scored before, plus one), its roll
    the number of rolls since that turn began."""
    draw = SameDice(seed)
    checks: list[Check] = []
    before: tuple[int, ...] | None = None
    roll = 0
    scored: dict[int, int] = {}
    for move in cast("Iterable[Mapping[str, Any]]", moves):
        if move.get("kind") == "start":
            for number, round_ in enumerate(move.get("rolloff") or (), start=1):
                for seat, dice in round_:
                    drawn = same_rolloff_dice(seed, number, seat)
                    checks.append(Check(move.get("version"), "rolloff", seat, tuple(dice), drawn))
        elif move.get("kind") == "roll":
            seat = move["seat"]
            roll += 1
            dice = tuple(move["dice"])
            held = tuple(bool(h) for h in move["held"])
            drawn = draw.rolled(scored.get(seat, 0) + 1, roll, before, held)
            checks.append(Check(move.get("version"), "roll", seat, dice, drawn))
            before = dice
        elif move.get("kind") == "score":
            scored[move["seat"]] = scored.get(move["seat"], 0) + 1
            before, roll = None, 0
    return checks
