"""Skill against luck, after Verhoeff's proficiency test for Yahtzee.

Optimal play from an empty card is worth the table's expected score. Every decision
that falls short of the best gives away its expected loss, so a player's decisions
alone were worth the empty card's value minus the points they gave away: that is their
*play*. Whatever the final score adds to it, up or down, the dice did: that is *luck*.
The mean loss per decision gives a rating band, the same for every game length.

Pure functions of numbers: the review (``review.py``) feeds them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Band:
    """A rating band: mean loss per decision from ``low`` (included) to ``high`` (excluded;
    None: no upper end)."""

    name: str
    low: float
    high: float | None

    def holds(self, mean_loss: float) -> bool:
        return mean_loss >= self.low and (self.high is None or mean_loss < self.high)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "low": self.low, "high": self.high}


#: The bands, best first; pages state them from here.
BANDS: tuple[Band, ...] = (
    Band("expert", 0.0, 0.2),
    Band("strong", 0.2, 0.5),
    Band("good", 0.5, 1.5),
    Band("learning", 1.5, None),
)


def band_for(mean_loss: float) -> Band:
    """The band of a mean loss per decision (a negative mean is a bug: refused)."""
    if mean_loss < 0:
        raise ValueError(f"A mean loss is never negative, not {mean_loss}.")
    return next(band for band in BANDS if band.holds(mean_loss))


@dataclass(frozen=True)
class SkillAndLuck:
    """One player's game split into what their play was worth and what their dice did.

    ``play_worth`` = ``expected_start`` - ``given_away``; ``luck`` = ``final_total`` -
    ``play_worth`` (positive: the dice gave more than average).
    """

    expected_start: float
    given_away: float
    decisions: int
    final_total: int

    @property
    def play_worth(self) -> float:
        return self.expected_start - self.given_away

    @property
    def luck(self) -> float:
        return self.final_total - self.play_worth

    @property
    def mean_loss(self) -> float:
        return self.given_away / self.decisions if self.decisions else 0.0

    @property
    def band(self) -> Band:
        return band_for(self.mean_loss)

    def to_dict(self) -> dict[str, object]:
        return {
            "expected_start": round(self.expected_start, 3),
            "given_away": round(self.given_away, 3),
            "play_worth": round(self.play_worth, 3),
            "final_total": self.final_total,
            "luck": round(self.luck, 3),
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 3),
            "band": self.band.name,
        }


def skill_and_luck(
    expected_start: float, losses: Iterable[float], final_total: int
) -> SkillAndLuck:
    """Play and luck from the empty card's expected score, each decision's loss and the
    final total."""
    losses = list(losses)
    if any(loss < 0 for loss in losses):
        raise ValueError("A decision never loses a negative amount.")
    return SkillAndLuck(
        expected_start=expected_start,
        given_away=sum(losses),
        decisions=len(losses),
        final_total=final_total,
    )


def bands_to_dict() -> list[dict[str, object]]:
    """The bands as data for a page that states them."""
    return [band.to_dict() for band in BANDS]
