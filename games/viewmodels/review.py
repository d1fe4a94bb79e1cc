"""The coach's review of a finished game, as the page shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from games.models import Game
from games.strategy.choices import is_negligible
from games.strategy.skill import BANDS, band_for
from games.viewmodels.base import DieView, ViewModel, plain_dice
from games.viewmodels.choices import ChoiceView, choice_words, wire_views

#: The rating bands' names as a player reads them (the strategy names them in English).
BAND_NAMES = {
    "expert": gettext_lazy("expert"),
    "strong": gettext_lazy("strong"),
    "good": gettext_lazy("good"),
    "learning": gettext_lazy("learning"),
}


@dataclass(frozen=True)
class BandView(ViewModel):
    """A rating band: a mean loss per decision from ``low`` to ``high`` (None: no end)."""

    key: str
    name: str
    low: float
    high: float | None


def band_views() -> tuple[BandView, ...]:
    """Every band, best first, as the page states them."""
    return tuple(
        BandView(b.name, str(BAND_NAMES.get(b.name, b.name)), b.low, b.high) for b in BANDS
    )


def band_of(mean_loss: float) -> BandView:
    band = band_for(max(mean_loss, 0.0))
    return BandView(band.name, str(BAND_NAMES.get(band.name, band.name)), band.low, band.high)


@dataclass(frozen=True)
class MomentView(ViewModel):
    round: int
    dice: tuple[DieView, ...]
    choice: str
    best: str
    loss: float
    rolls_left: int
    seat: int = 0  # whose decision, and its place in their review (links the replay to it)
    index: int = 0
    top: tuple[ChoiceView, ...] = ()  # the five best, and the chosen one marked (or added)
    place: int | None = None  # the chosen one's place among all choices

    @property
    def is_costly(self) -> bool:
        """It gave away enough to show as a loss."""
        return not is_negligible(self.loss)


@dataclass(frozen=True)
class SkillView(ViewModel):
    """What the play was worth and what the dice did (Verhoeff's proficiency test)."""

    expected_start: float
    play_worth: float
    final_total: int
    luck: float

    @property
    def luck_size(self) -> float:
        return abs(self.luck)

    @property
    def lucky(self) -> bool:
        return self.luck >= 0


def skill_view(reviewed: dict[str, Any]) -> SkillView | None:
    """What the play and the dice were worth in one seat's stored review (None: a review
    stored before the coach worked them out)."""
    skill = reviewed.get("skill")
    if not skill:
        return None
    return SkillView(
        skill["expected_start"], skill["play_worth"], skill["final_total"], skill["luck"]
    )


@dataclass(frozen=True)
class SeatReviewView(ViewModel):
    name: str
    decisions: int
    total_loss: float
    mean_loss: float
    costliest: list[MomentView]
    moments: list[MomentView]
    skill: SkillView | None = None
    band: BandView | None = None
    bands: tuple[BandView, ...] = ()


def review_views(game: Game, names: dict[int, str]) -> list[SeatReviewView] | None:
    """Each reviewed seat's figures and moments, in seat order; ``names`` by position."""
    if not game.review:
        return None
    result = []
    rules = game.rules
    for position, name in names.items():
        data = game.review["seats"].get(str(position))
        if data is None:
            continue
        moments = [
            MomentView(
                round=d["round"],
                dice=plain_dice(d["dice"]),
                choice=choice_words(d["choice"], rules),
                best=choice_words(d["best"], rules),
                loss=d["loss"],
                rolls_left=d["rolls_left"],
                seat=position,
                index=i,
                top=wire_views(d.get("top", ()), d["choice"], d.get("place"), d["loss"], rules),
                place=d.get("place"),
            )
            for i, d in enumerate(data["decisions"])
        ]
        result.append(
            SeatReviewView(
                name=name,
                decisions=len(moments),
                total_loss=data["total_loss"],
                mean_loss=data["mean_loss"],
                # Reviews stored before the negligible losses were left out may list them.
                costliest=[moments[i] for i in data["costliest"] if moments[i].is_costly],
                moments=moments,
                skill=skill_view(data),
                band=band_of(data["mean_loss"]) if moments else None,
                bands=band_views(),
            )
        )
    return result
