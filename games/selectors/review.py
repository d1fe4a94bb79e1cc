"""The coach's review of a finished game, as the page shows it."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Game
from .coach import choice_words
from .viewmodel import DieView, ViewModel, plain_dice


@dataclass(frozen=True)
class MomentView(ViewModel):
    round: int
    dice: tuple[DieView, ...]
    choice: str
    best: str
    loss: float
    rolls_left: int


@dataclass(frozen=True)
class SeatReviewView(ViewModel):
    name: str
    decisions: int
    total_loss: float
    mean_loss: float
    costliest: list[MomentView]
    moments: list[MomentView]


def review_views(game: Game, names: dict[int, str]) -> list[SeatReviewView] | None:
    """Each reviewed seat's figures and moments, in seat order; ``names`` by position."""
    if not game.review:
        return None
    result = []
    for position, name in names.items():
        data = game.review["seats"].get(str(position))
        if data is None:
            continue
        moments = [
            MomentView(
                round=d["round"],
                dice=plain_dice(d["dice"]),
                choice=choice_words(d["choice"]),
                best=choice_words(d["best"]),
                loss=d["loss"],
                rolls_left=d["rolls_left"],
            )
            for d in data["decisions"]
        ]
        result.append(
            SeatReviewView(
                name=name,
                decisions=len(moments),
                total_loss=data["total_loss"],
                mean_loss=data["mean_loss"],
                costliest=[moments[i] for i in data["costliest"]],
                moments=moments,
            )
        )
    return result
