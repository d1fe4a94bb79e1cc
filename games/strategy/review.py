"""The coach's review of a finished game: every decision rated against optimal play.

A turn holds up to three decisions for the player: which dice to keep before the second
and third rolls, and which box to fill. Each is read from the game's move log, valued by
the solved table, and rated by the expected points it lost against the best choice.
Decisions the coach played for a person (away, or left the game) are not theirs: they
are skipped, so a person's figures cover their own decisions only. A keep belongs to
whoever made the roll it led to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.rules import Box, Rules, Scorecard, parse_dice
from games.strategy.advisor import Advisor, Alternatives, alternatives, loss_between
from games.strategy.choices import is_negligible
from games.strategy.skill import SkillAndLuck, bands_to_dict, skill_and_luck

ROLLS_PER_TURN = 3
COSTLIEST = 3
TOP = 5  # alternatives kept with each decision


@dataclass(frozen=True)
class LoggedMove:
    """One line of the move log, as the review needs it."""

    kind: str  # "roll", "keep", "score" (others are ignored)
    seat: int
    dice: str = ""  # the dice after a roll; the dice scored
    held: str = ""  # for a roll: which dice were kept for it ("01100")
    category: str = ""  # for a score: the box
    by_coach: bool = False  # the coach played it for the seat's person


@dataclass(frozen=True)
class Decision:
    seat: int
    round: int
    kind: str  # "keep" or "box"
    dice: tuple[int, ...]
    rolls_left: int
    choice: tuple[int, ...] | Box
    best: tuple[int, ...] | Box
    loss: float
    options: Alternatives | None = None  # the top five and the choice's place among all
    # A real choice: at least two options whose expected values differ by more than the
    # negligible loss (games/strategy/fairness.py counts these and the agreements).
    real: bool = True

    def to_dict(self) -> dict[str, object]:
        wire = {
            "round": self.round,
            "kind": self.kind,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "choice": _choice_to_wire(self.choice),
            "best": _choice_to_wire(self.best),
            "loss": round(self.loss, 3),
            "real": self.real,
        }
        if self.options is not None:
            extra = self.options.to_dict()
            wire["top"] = extra["top"]
            wire["place"] = extra["place"]
        return wire


@dataclass
class SeatReview:
    """One seat's decisions; ``expected_start`` is the empty card's optimal expected score and
    ``final_total`` the card's total once the log is read (for play against luck)."""

    seat: int
    decisions: list[Decision] = field(default_factory=list)
    expected_start: float = 0.0
    final_total: int = 0

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def real_choices(self) -> int:
        """How many decisions were real choices (see :class:`Decision`)."""
        return sum(1 for d in self.decisions if d.real)

    @property
    def agreed(self) -> int:
        """How many real choices matched the coach's best (within the negligible loss)."""
        return sum(1 for d in self.decisions if d.real and is_negligible(d.loss))

    @property
    def costliest(self) -> list[Decision]:
        ranked = sorted(self.decisions, key=lambda d: (-d.loss, d.round))
        return [d for d in ranked[:COSTLIEST] if not is_negligible(d.loss)]

    @property
    def skill(self) -> SkillAndLuck:
        """What the play was worth, what the dice did, and the rating band."""
        return skill_and_luck(
            self.expected_start, (d.loss for d in self.decisions), self.final_total
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "decisions": [d.to_dict() for d in self.decisions],
            "total_loss": round(self.total_loss, 3),
            "mean_loss": round(self.mean_loss, 3),
            "costliest": [self.decisions.index(d) for d in self.costliest],
            "real_choices": self.real_choices,
            "agreed": self.agreed,
            # No decision of their own: nothing to rate (no play, luck or band).
            "skill": self.skill.to_dict() if self.decisions else None,
            "bands": bands_to_dict(),
        }


def _choice_to_wire(choice: tuple[int, ...] | Box) -> object:
    return choice.value if isinstance(choice, Box) else list(choice)


def _kept(dice: Sequence[int], held: str) -> tuple[int, ...]:
    return tuple(sorted(d for d, h in zip(dice, held, strict=True) if h == "1"))


def review_game(
    advisor: Advisor,
    rules: Rules,
    seat_count: int,
    moves: Iterable[LoggedMove],
    seats: Iterable[int] | None = None,
) -> dict[int, SeatReview]:
    """Rate every keep and every box of ``seats`` (default: all) from the move log, except
    those the coach played for them."""
    wanted = set(range(seat_count) if seats is None else seats)
    cards = [Scorecard(rules=rules) for _ in range(seat_count)]
    start = advisor.expected_total(cards[0])
    reviews = {seat: SeatReview(seat, expected_start=start) for seat in sorted(wanted)}
    dice: tuple[int, ...] | None = None
    rolls = 0
    for move in moves:
        seat = move.seat
        if move.kind == "roll":
            new = parse_dice(move.dice)
            if rolls and seat in wanted and not move.by_coach:  # the keep that led here
                assert dice is not None
                keep = _kept(dice, move.held)
                reviews[seat].decisions.append(
                    _rate(advisor, seat, cards[seat], dice, ROLLS_PER_TURN - rolls, keep, "keep")
                )
            dice, rolls = new, rolls + 1
        elif move.kind == "score":
            category = rules.box(move.category)
            scored = parse_dice(move.dice)
            if seat in wanted and not move.by_coach:
                reviews[seat].decisions.append(
                    _rate(
                        advisor, seat, cards[seat], scored, ROLLS_PER_TURN - rolls, category, "box"
                    )
                )
            cards[seat] = cards[seat].score(category, scored)
            dice, rolls = None, 0
    for seat, review in reviews.items():
        review.final_total = cards[seat].total
    return reviews


def _rate(
    advisor: Advisor,
    seat: int,
    card: Scorecard,
    dice: tuple[int, ...],
    rolls_left: int,
    choice: tuple[int, ...] | Box,
    kind: str,
) -> Decision:
    ranking = advisor.rank(card, dice, rolls_left)
    best = ranking[0]
    chosen = next(o for o in ranking if o.choice == choice)
    return Decision(
        options=alternatives(ranking, TOP, choice),
        seat=seat,
        round=card.filled_count + 1,
        kind=kind,
        dice=tuple(dice),
        rolls_left=rolls_left,
        choice=choice,
        best=best.choice,
        loss=loss_between(best, chosen),
        real=not is_negligible(loss_between(best, ranking[-1])),
    )
