"""Practice: positions from real finished games where players gave away the most, without
names or tables, to answer "what would you keep?" and see the coach's ranking."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from ..models import Game
from .choices import ChoiceView, wire_views
from .viewmodel import DieView, ViewModel, plain_dice

SALT = "games.practice"
GAMES_READ = 200  # the latest reviewed games the positions are taken from
POSITIONS = 50  # the costliest keeps among them
MIN_LOSS = 1.0  # a keep that gave away less is no lesson


@dataclass(frozen=True)
class PositionView(ViewModel):
    """A position to practise: the dice, the rolls left, and a token naming it."""

    token: str
    dice: tuple[DieView, ...]
    rolls_left: int
    round: int
    top: tuple[dict[str, object], ...]


@dataclass(frozen=True)
class AnswerView(ViewModel):
    position: PositionView
    kept: tuple[int, ...]
    choices: tuple[ChoiceView, ...]  # the coach's five best, the answer marked if among them
    place: int | None  # the answer's place among the five best (None: not among them)

    @property
    def best(self) -> bool:
        return self.place is not None and self.choices[self.place - 1].is_best


def practice_positions() -> list[PositionView]:
    """The costliest keeps of the latest reviewed games, costliest first, anonymised."""
    found: list[tuple[float, PositionView]] = []
    games = Game.objects.filter(status=Game.Status.FINISHED, review__isnull=False).order_by(
        "-finished_at"
    )[:GAMES_READ]
    for game in games:
        for seat, data in (game.review or {}).get("seats", {}).items():
            for index, d in enumerate(data.get("decisions", [])):
                if d.get("kind") == "keep" and d.get("top") and d["loss"] >= MIN_LOSS:
                    token = signing.dumps([game.pk, int(seat), index], salt=SALT)
                    found.append((d["loss"], _position(token, d)))
    found.sort(key=lambda item: -item[0])
    return [position for _, position in found[:POSITIONS]]


def _position(token: str, d: dict[str, object]) -> PositionView:
    return PositionView(
        token=token,
        dice=plain_dice(list(d["dice"])),  # type: ignore[call-overload]
        rolls_left=int(d["rolls_left"]),  # type: ignore[call-overload]
        round=int(d["round"]),  # type: ignore[call-overload]
        top=tuple(d["top"]),  # type: ignore[arg-type]
    )


def position_for(token: str) -> PositionView | None:
    """The position a token names, or None for a token that is forged or names none."""
    try:
        game_id, seat, index = signing.loads(token, salt=SALT)
        game = Game.objects.get(pk=game_id)
        if game.review is None:
            return None
        d = game.review["seats"][str(seat)]["decisions"][index]
    except (signing.BadSignature, Game.DoesNotExist, KeyError, IndexError, TypeError, ValueError):
        return None
    if d.get("kind") != "keep" or not d.get("top"):
        return None
    return _position(token, d)


def practice_answer_view(position: PositionView, kept_indices: set[int]) -> AnswerView:
    """The coach's five best keeps and boxes, the answer (dice kept by index) marked."""
    kept = tuple(sorted(position.dice[i].value for i in kept_indices))
    top = list(position.top)
    place = next(
        (
            i
            for i, entry in enumerate(top, start=1)
            if isinstance(entry["choice"], list) and tuple(entry["choice"]) == kept
        ),
        None,
    )
    if place is not None:
        loss = float(top[place - 1]["loss"])  # type: ignore[arg-type]
        choices = wire_views(top, list(kept), place, loss)
    else:
        choices = wire_views(top, list(kept), None, 0.0)[: len(top)]  # no row for it
    return AnswerView(position, kept, choices, place)
