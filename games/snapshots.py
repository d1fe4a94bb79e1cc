"""A committed version of a game as one value, and its wire format.

A :class:`Snapshot` is a game and its seats as they stood at one version, with no database
behind it. It is taken inside the transaction that made the change and sent over the
channel layer, so every open page, on any process, renders exactly that version without a
query of its own.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cached_property

from .engine import GameState
from .models import Game, Seat

# Every field a page shows or a move reads; a snapshot from the wire carries them all.
GAME_WIRE_FIELDS = (
    "id",
    "code",
    "status",
    "seat_count",
    "upper_first",
    "is_public",
    "coach_hints",
    "feedback",
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
)
SEAT_WIRE_FIELDS = (
    "id",
    "position",
    "user_id",
    "guest",
    "bot",
    "name",
    "scorecard",
    "total",
    "yahtzees",
    "place",
    "mean_loss",
)


@dataclass
class Snapshot:
    """A game and its seats at one version; ``rematch_code`` once a rematch is open."""

    game: Game
    seats: list[Seat] = field(default_factory=list)
    rematch_code: str | None = None

    @cached_property
    def state(self) -> GameState | None:
        """The engine's state at this version (None in the lobby), worked out once."""
        if self.game.status == Game.Status.LOBBY:
            return None
        return self.game.engine_state(self.seats)

    @classmethod
    def of(cls, game: Game, seats: list[Seat] | None = None) -> Snapshot:
        if seats is None:
            seats = list(game.seats.order_by("position"))
        rematch = None
        if game.status == Game.Status.FINISHED:  # only a finished game has a rematch
            rematch = Game.objects.filter(rematch_of=game).values_list("code", flat=True).first()
        # Copies: the caller may go on changing its own instances after the snapshot is taken.
        return cls(
            game=copy.copy(game),
            seats=[copy.copy(seat) for seat in sorted(seats, key=lambda s: s.position)],
            rematch_code=rematch,
        )

    @classmethod
    def load(cls, code: str) -> Snapshot | None:
        game = Game.objects.filter(code=code).first()
        return cls.of(game) if game is not None else None

    def to_wire(self) -> str:
        """This snapshot as one JSON string: a channel layer copies or packs a string
        without walking it, once per socket in the room."""
        return json.dumps(
            {
                "game": {name: getattr(self.game, name) for name in GAME_WIRE_FIELDS},
                "seats": [
                    {name: getattr(s, name) for name in SEAT_WIRE_FIELDS} for s in self.seats
                ],
                "rematch_code": self.rematch_code,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_wire(cls, wire: str) -> Snapshot:
        data = json.loads(wire)
        game = Game(**data["game"])
        return cls(
            game=game,
            seats=[Seat(game_id=game.id, **seat) for seat in data["seats"]],
            rematch_code=data["rematch_code"],
        )
