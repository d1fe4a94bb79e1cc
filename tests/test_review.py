"""The coach's review of a game (games/strategy/review.py): losses, ties, skill and luck."""

from __future__ import annotations

from games.rules import Category, Rules, Scorecard
from games.strategy.review import LoggedMove, review_game


def open_card(**boxes: int) -> Scorecard:
    values = {Category[name.upper()]: value for name, value in boxes.items()}
    return Scorecard(boxes=tuple(values.get(c) for c in Category))


def turn(dice: str, box: str, seat: int = 0) -> list[LoggedMove]:
    """A turn scored straight after its first roll."""
    return [
        LoggedMove("roll", seat, dice=dice, held="00000"),
        LoggedMove("score", seat, dice=dice, category=box),
    ]


# Seed 13 of the solitaire simulation, round 4: Small Straight now and keeping 2 3 4 5 for
# the last roll are worth the same, but the table's sums differ by 2.84e-14.
TIE_CARD = open_card(twos=6, full_house=25, large_straight=40)


def test_a_floating_point_tie_is_no_regret(coach_advisor):
    ranking = coach_advisor.rank(TIE_CARD, "24533", 1)
    assert ranking[0].choice is Category.SMALL_STRAIGHT
    keep = next(o for o in ranking if o.choice == (2, 3, 4, 5))
    assert 0 < ranking[0].expected_total - keep.expected_total < 1e-12  # the tie, as computed
    assert coach_advisor.regret(TIE_CARD, "24533", 1, (2, 3, 4, 5)) == 0.0


def test_a_floating_point_tie_is_no_loss_nor_a_costliest_moment(coach_advisor):
    moves = [
        *turn("22211", "twos"),
        *turn("22333", "full_house"),
        *turn("12345", "large_straight"),
        LoggedMove("roll", 0, dice="24533", held="00000"),
        LoggedMove("roll", 0, dice="24533", held="11111"),
        LoggedMove("roll", 0, dice="24536", held="11110"),
        LoggedMove("score", 0, dice="24536", category="small_straight"),
    ]
    review = review_game(coach_advisor, Rules(), 1, moves)[0]
    tied = next(d for d in review.decisions if d.kind == "keep" and d.rolls_left == 1)
    assert tied.choice == (2, 3, 4, 5)
    assert tied.best is Category.SMALL_STRAIGHT
    assert tied.loss == 0.0
    assert tied not in review.costliest
    assert all(d.loss == 0.0 or d.loss >= 1e-9 for d in review.decisions)
