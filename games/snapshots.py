"""A committed version of a game as one value, and its wire format.

A :class:`Snapshot` is a game and its seats as they stood at one version, with no database
behind it. It is taken inside the transaction that made the change and sent over the
channel layer, so every open page, on any process, renders exactly that version without a
query of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

import orjson
from django.db.models import Q

from games.engine import GameState
from games.models import Game, Move, Seat
from games.row_copies import copy_row, row_from_values

# Every field a page shows or a move reads; a snapshot from the wire carries them all.
GAME_WIRE_FIELDS = (
    "id",
    "code",
    "status",
    "seat_count",
    "ruleset",
    "upper_first",
    "is_public",
    "coach_hints",
    "feedback",
    "rated",
    "review",
    "version",
    "host_user_id",
    "host_guest",
    "rolloff",
    "starter",
    "turn_number",
    "dice",
    "held",
    "rolls_left",
    "dice_cursor",
    "dice_draw",
    "seed_secret_until",
    "series_length",
    "series_game",
    "series_first_id",
    "pace",
    "turn_started_at",
    "turn_deadline",
    "finished_at",
    "mailed_turn",
    "reminded_turn",
)
# Moments travel as ISO 8601 text.
TIME_WIRE_FIELDS = ("turn_started_at", "turn_deadline", "finished_at", "seed_secret_until")
SEAT_WIRE_FIELDS = (
    "id",
    "position",
    "user_id",
    "guest",
    "bot",
    "bot_number",
    "name",
    "scorecard",
    "total",
    "yahtzees",
    "place",
    "mean_loss",
    "client_seed",
    "status",
    "left_round",
)
# The board's line of what just happened: the last box scored and the rolls since.
RECENT_MOVE_FIELDS = (
    "version",
    "kind",
    "seat",
    "turn_number",
    "dice",
    "held",
    "category",
    "points",
    "by_coach",
)
RECENT_MOVES = 5  # a score, up to three rolls after it, and the newest move whatever it was


def _recent_moves(game: Game) -> tuple[tuple[object, ...], ...]:
    """The last few rolls and scores of ``game``, oldest first (none in the lobby)."""
    if game.status == Game.Status.LOBBY or game.pk is None:
        return ()
    rows = (
        Move.objects.filter(game_id=game.pk)
        .filter(Q(kind__in=[Move.Kind.ROLL, Move.Kind.SCORE]) | Q(version=game.version))
        .order_by("-version")
        .values_list(*RECENT_MOVE_FIELDS)[:RECENT_MOVES]
    )
    return tuple(reversed([tuple(row) for row in rows]))


def recent_moves_after(
    recent: tuple[tuple[object, ...], ...], move: Move
) -> tuple[tuple[object, ...], ...]:
    """``recent`` with ``move`` made next: what :func:`_recent_moves` would read back, known
    without a query (a move reads nothing back from the database)."""
    kept = [row for row in recent if row[1] in (Move.Kind.ROLL, Move.Kind.SCORE)]
    row = tuple(getattr(move, name) for name in RECENT_MOVE_FIELDS)
    return tuple([*kept, row][-RECENT_MOVES:])


@dataclass
class Snapshot:
    """A game and its seats at one version; ``rematch_code`` once a rematch is open."""

    game: Game
    seats: list[Seat] = field(default_factory=list)
    rematch_code: str | None = None
    # RECENT_MOVE_FIELDS of the last rolls and score, and of the newest move.
    recent_moves: tuple[tuple[object, ...], ...] = ()

    @cached_property
    def state(self) -> GameState | None:
        """The engine's state at this version (None in the lobby), worked out once."""
        if self.game.status == Game.Status.LOBBY:
            return None
        return self.game.engine_state(self.seats)

    @classmethod
    def of(
        cls,
        game: Game,
        seats: list[Seat] | None = None,
        recent_moves: tuple[tuple[object, ...], ...] | None = None,
        state: GameState | None = None,
    ) -> Snapshot:
        """``game`` and its ``seats`` as they stand. ``state``: their engine state, when the
        caller has just worked it out (a move's new state, exactly what
        ``game.engine_state(seats)`` would read back), so that :attr:`state` need not
        (states are immutable: one may be shared)."""
        if seats is None:
            seats = list(game.seats.order_by("position"))
        rematch = None
        if game.status == Game.Status.FINISHED:  # only a finished game has a rematch
            rematch = Game.objects.filter(rematch_of=game).values_list("code", flat=True).first()
        # Copies: the caller may go on changing its own instances after the snapshot is taken.
        snapshot = cls(
            game=copy_row(game),
            seats=[copy_row(seat) for seat in sorted(seats, key=lambda s: s.position)],
            rematch_code=rematch,
            recent_moves=_recent_moves(game) if recent_moves is None else recent_moves,
        )
        if state is not None and game.status != Game.Status.LOBBY:
            snapshot.state = state  # fills the cached property
        return snapshot

    @classmethod
    def load(cls, code: str) -> Snapshot | None:
        game = Game.objects.filter(code=code).first()
        return cls.of(game) if game is not None else None

    def to_wire(self) -> str:
        """This snapshot as one JSON string: a channel layer copies or packs a string
        without walking it, once per socket in the room. Encoded with orjson, whose moments
        are ISO 8601 as ``datetime.isoformat`` writes them (``docs/benchmarks.md``)."""
        return orjson.dumps(
            {
                "game": {name: getattr(self.game, name) for name in GAME_WIRE_FIELDS},
                "seats": [
                    {name: getattr(s, name) for name in SEAT_WIRE_FIELDS} for s in self.seats
                ],
                "rematch_code": self.rematch_code,
                "recent_moves": self.recent_moves,
                # Not the seed (secret until the game ends), but its public commitment, which
                # the board shows from the start.
                "dice_commitment": self.game.dice_commitment,
            },
        ).decode()

    @classmethod
    def from_wire(cls, wire: str) -> Snapshot:
        data = orjson.loads(wire)
        for name in TIME_WIRE_FIELDS:
            moment = data["game"][name]
            data["game"][name] = datetime.fromisoformat(moment) if moment else None
        game = row_from_values(Game, data["game"])
        game.published_commitment = data.get("dice_commitment", "")
        return cls(
            game=game,
            seats=[row_from_values(Seat, {**seat, "game_id": game.id}) for seat in data["seats"]],
            rematch_code=data["rematch_code"],
            recent_moves=tuple(tuple(move) for move in data.get("recent_moves", ())),
        )
