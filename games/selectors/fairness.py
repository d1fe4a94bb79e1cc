"""Reads for checking a game's dice: its move log as published (``moves.json``) and the
verify page's view model. The server seed is shown only once the game has ended."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from games.models import Game, Move


def _dice(text: str) -> list[int]:
    return [int(face) for face in text]


def _flags(text: str) -> list[bool]:
    return [flag == "1" for flag in text]


def moves_json(game: Game) -> dict[str, object]:
    """Every move in order, as outside tools read it: version, kind and seat; a roll's five
    dice after it and which were kept (``held``); the start's roll-off rounds, each a list
    of ``[seat, [five dice]]``; ``by_coach``: the coach played it for the seat's person."""
    moves: list[dict[str, object]] = []
    for move in Move.objects.filter(game=game).order_by("version"):
        entry: dict[str, object] = {"version": move.version, "kind": move.kind, "seat": move.seat}
        if move.kind == Move.Kind.START:
            entry["rolloff"] = game.rolloff
        elif move.kind in (Move.Kind.ROLL, Move.Kind.KEEP):
            entry["dice"] = _dice(move.dice)
            entry["held"] = _flags(move.held)
        elif move.kind == Move.Kind.SCORE:
            entry["dice"] = _dice(move.dice)
            entry["category"] = move.category
            entry["points"] = move.points
        entry["by_coach"] = move.by_coach
        moves.append(entry)
    return {"moves": moves}


@dataclass(frozen=True)
class RollRow:
    """One line of the verify page: a roll-off entry or a roll, as the log has it."""

    version: int | None
    is_rolloff: bool
    name: str
    dice: str  # the five faces, "31456"
    held: str  # which were kept, "01000" (all "0" in the roll-off)
    first_of_turn: bool = False  # a turn's first roll: its kept dice come from no roll before
    # The same-dice draw's message for this roll ("3:2", "rolloff:1:0"); "" for fair dice.
    message: str = ""

    @property
    def kept(self) -> str:
        """The kept faces, "3 3" ("" when every die was rolled)."""
        return " ".join(d for d, h in zip(self.dice, self.held, strict=True) if h == "1")


@dataclass(frozen=True)
class VerifyView:
    game: Game
    commitment: str
    seed: str  # "" until the game has ended
    client_seeds: list[tuple[str, str]]  # (name, seed) in seat order
    rows: list[RollRow]


def verify_view(game: Game) -> VerifyView:
    seats = list(game.seats.order_by("position"))
    names = {seat.position: seat.display_name for seat in seats}
    rows: list[RollRow] = []
    same = game.same_dice
    roll = 0  # rolls since the last box scored
    scored: dict[int, int] = {}  # boxes each seat has scored: its turn is one more
    moves = cast("list[dict[str, Any]]", moves_json(game)["moves"])  # as moves_json builds it
    for move in moves:
        if move["kind"] == "start":
            for number, round_ in enumerate(move["rolloff"], start=1):
                for seat, dice in round_:
                    message = f"rolloff:{number}:{seat}" if same else ""
                    rows.append(
                        RollRow(
                            move["version"],
                            True,
                            names.get(seat, ""),
                            _text(dice),
                            "00000",
                            message=message,
                        )
                    )
        elif move["kind"] == "roll":
            roll += 1
            turn = scored.get(move["seat"], 0) + 1
            rows.append(
                RollRow(
                    move["version"],
                    False,
                    names.get(move["seat"], ""),
                    _text(move["dice"]),
                    "".join("1" if h else "0" for h in move["held"]),
                    first_of_turn=roll == 1,
                    message=f"{turn}:{roll}" if same else "",
                )
            )
        elif move["kind"] == "score":
            roll = 0
            scored[move["seat"]] = scored.get(move["seat"], 0) + 1
    return VerifyView(
        game=game,
        commitment=game.dice_commitment,
        seed=game.revealed_seed,
        client_seeds=[(seat.display_name, seat.client_seed) for seat in seats],
        rows=rows,
    )


def _text(dice: list[int]) -> str:
    return "".join(map(str, dice))
