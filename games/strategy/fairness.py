"""Fair-play figures: how often a player's real choices matched the coach's best, the rule
that flags an account for a moderator's review, and the measurements the rule was chosen
from (docs/fair-play.md).

A decision is a *real choice* when at least two of its options' expected values differ by
more than the negligible loss (:func:`games.strategy.choices.is_negligible`); it *agrees*
when the choice gave away no more than the negligible loss against the coach's best. The
review counts both per seat (:class:`games.strategy.review.SeatReview`).

The measurements the rule was chosen from are played by :mod:`.fairness_runs`. This
module is the rule alone, with no solver behind it, so the services can apply it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The rated games (the account's most recent reviewed ones) the rule looks at together.
WINDOW = 10
#: Agreement over a window at or above this share flags the account. Measured over 1 000
#: solitaire games a policy (docs/fair-play.md): the coach's own play agrees 100 % in every
#: run of 10 games; the Casual computer player, which slips on one decision in five,
#: 76-90 %; a player twice as careful (one slip in ten) 87-97 %, never 98 %.
FLAG_AGREEMENT = 0.98
#: A window needs at least this many real choices (a full game has about 35).
MIN_CHOICES = 200


@dataclass(frozen=True)
class Agreement:
    """Real choices and agreements summed over some games."""

    games: int
    choices: int
    agreed: int

    @property
    def share(self) -> float:
        return self.agreed / self.choices if self.choices else 0.0


def total(figures: Sequence[tuple[int, int]]) -> Agreement:
    """The sum of (real choices, agreed) per game."""
    return Agreement(len(figures), sum(c for c, _ in figures), sum(a for _, a in figures))


def is_suspicious(agreement: Agreement) -> bool:
    """The rule: a full window of rated games with enough real choices, agreeing with the
    coach at :data:`FLAG_AGREEMENT` or more."""
    return (
        agreement.games >= WINDOW
        and agreement.choices >= MIN_CHOICES
        and agreement.share >= FLAG_AGREEMENT
    )
