"""A choice in a position, the best few of them, and what a choice gives away.

Shared by the advisor (which ranks choices), the review (which rates them) and the bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.rules import Box, IllegalMove
from games.strategy.rolls_and_keeps import DICE

Choice = tuple[int, ...] | Box
#: Two expected totals closer than this are equal: the solver adds the same points up in
#: different orders, so options equal in fact can differ by ~1e-14 (never by 1e-9 for real).
TIE_TOLERANCE = 1e-9
#: A loss below this is negligible: pages show losses to one decimal, where it would read
#: "-0.0", so such a choice is shown as best and is never a costly moment.
NEGLIGIBLE_LOSS = 0.05


def is_negligible(loss: float) -> bool:
    """Whether a choice's expected loss is too small to show as one (see
    :data:`NEGLIGIBLE_LOSS`)."""
    return loss < NEGLIGIBLE_LOSS


@dataclass(frozen=True)
class Option:
    """One choice in a position and the expected final total of the card if it is taken.

    ``choice`` is a sorted tuple of the dice kept for the next roll, or the
    :class:`~games.rules.Box` to score now (for Yahtzee a ``Box``).
    """

    choice: Choice
    expected_total: float

    @property
    def is_keep(self) -> bool:
        return isinstance(self.choice, tuple)

    def to_dict(self, best: Option | None = None) -> dict[str, object]:
        """The option for the wire: ``choice`` a box name or the list of dice kept, and its
        ``loss`` against ``best`` (ties under :data:`TIE_TOLERANCE` count as 0)."""
        return {
            "kind": "keep" if self.is_keep else "box",
            "choice": list(self.choice) if isinstance(self.choice, tuple) else self.choice.value,
            "expected_total": round(self.expected_total, 3),
            "loss": round(loss_between(best, self), 3) if best is not None else 0.0,
        }


@dataclass(frozen=True)
class Alternatives:
    """The best few choices of a position, and the one a player chose among all of them.

    ``top`` holds up to ``n`` options best first, without "keep all five" (a roll spent
    on nothing); ``chosen`` is the chosen option, ``place`` its 1-based place in the full
    ranking and ``loss`` what it gave away against the best (0 for a tie).
    """

    top: tuple[Option, ...]
    chosen: Option | None = None
    place: int | None = None
    loss: float = 0.0

    def to_dict(self) -> dict[str, object]:
        best = self.top[0] if self.top else None
        return {
            "top": [option.to_dict(best) for option in self.top],
            "chosen": self.chosen.to_dict(best) if self.chosen is not None else None,
            "place": self.place,
            "loss": round(self.loss, 3),
        }


def alternatives(
    ranking: Sequence[Option], n: int = 5, chosen: Choice | Sequence[int] | None = None
) -> Alternatives:
    """The top ``n`` of a ranking (from :meth:`Advisor.rank`) and the chosen option's place."""
    top = tuple(o for o in ranking if not (isinstance(o.choice, tuple) and len(o.choice) == DICE))[
        :n
    ]
    if chosen is None or not ranking:
        return Alternatives(top)
    wanted = chosen if isinstance(chosen, Box) else tuple(sorted(chosen))
    for place, option in enumerate(ranking, start=1):
        if option.choice == wanted:
            return Alternatives(top, option, place, loss_between(ranking[0], option))
    raise IllegalMove(f"{wanted} is not a choice in this position.")


def loss_between(best: Option, chosen: Option) -> float:
    """Expected points ``chosen`` gives away against ``best``; a gap below
    :data:`TIE_TOLERANCE` is a floating-point tie, not a loss, and counts as 0."""
    gap = best.expected_total - chosen.expected_total
    return gap if gap >= TIE_TOLERANCE else 0.0
