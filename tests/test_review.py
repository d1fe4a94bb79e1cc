"""The coach's review of a game (games/strategy/review.py): losses, ties, skill and luck."""

from __future__ import annotations

import pytest

from games.rules import Category, Rules, Scorecard
from games.strategy import Advisor, Option
from games.strategy.review import Decision, LoggedMove, SeatReview, review_game
from games.strategy.skill import band_for, bands_to_dict, skill_and_luck


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
# the last roll are worth the same; the lattice's sums once put them 2.84e-14 apart.
TIE_CARD = open_card(twos=6, full_house=25, large_straight=40)
TIE_MOVES = [
    *turn("22211", "twos"),
    *turn("22333", "full_house"),
    *turn("12345", "large_straight"),
    LoggedMove("roll", 0, dice="24533", held="00000"),
    LoggedMove("roll", 0, dice="24533", held="11111"),
    LoggedMove("roll", 0, dice="24536", held="11110"),
    LoggedMove("score", 0, dice="24536", category="small_straight"),
]


class RoundingAdvisor(Advisor):
    """The real advisor, except that keeping 2 3 4 5 comes out 2.84e-14 short, as the old
    lattice added it up: a tie in fact, apart by rounding only."""

    def __init__(self, real: Advisor) -> None:
        self.__dict__.update(real.__dict__)

    def rank(self, card, dice, rolls_left):
        ranking = super().rank(card, dice, rolls_left)
        nudged = [
            Option(o.choice, o.expected_total - 2.842170943040401e-14)
            if o.choice == (2, 3, 4, 5) and card == TIE_CARD and rolls_left == 1
            else o
            for o in ranking
        ]
        return sorted(nudged, key=lambda o: -o.expected_total)


def test_a_floating_point_tie_is_no_regret(coach_advisor):
    ranking = coach_advisor.rank(TIE_CARD, "24533", 1)
    keep = next(o for o in ranking if o.choice == (2, 3, 4, 5))
    sure = next(o for o in ranking if o.choice is Category.SMALL_STRAIGHT)
    assert abs(sure.expected_total - keep.expected_total) < 1e-12
    assert {ranking[0].choice, ranking[1].choice} == {Category.SMALL_STRAIGHT, (2, 3, 4, 5)}
    rounding = RoundingAdvisor(coach_advisor)
    tied = rounding.rank(TIE_CARD, "24533", 1)
    assert tied[0].choice is Category.SMALL_STRAIGHT
    nudged = next(o for o in tied if o.choice == (2, 3, 4, 5))
    assert 0 < tied[0].expected_total - nudged.expected_total < 1e-13
    assert rounding.regret(TIE_CARD, "24533", 1, (2, 3, 4, 5)) == 0.0
    assert rounding.top(TIE_CARD, "24533", 1, chosen=(2, 3, 4, 5)).loss == 0.0


@pytest.mark.parametrize("rounding", [False, True])
def test_a_floating_point_tie_is_no_loss_nor_a_costliest_moment(coach_advisor, rounding):
    advisor = RoundingAdvisor(coach_advisor) if rounding else coach_advisor
    review = review_game(advisor, Rules(), 1, TIE_MOVES)[0]
    tied = next(d for d in review.decisions if d.kind == "keep" and d.rolls_left == 1)
    assert tied.choice == (2, 3, 4, 5)
    if rounding:
        assert tied.best is Category.SMALL_STRAIGHT
    assert tied.loss == 0.0
    assert tied not in review.costliest
    assert all(d.loss == 0.0 or d.loss >= 1e-9 for d in review.decisions)


def test_a_loss_too_small_to_show_is_no_costliest_moment():
    def box(round_: int, loss: float) -> Decision:
        return Decision(
            0, round_, "box", (1, 2, 3, 4, 5), 0, Category.CHANCE, Category.CHANCE, loss
        )

    shown, unseen = box(1, 2.0), box(2, 0.01)  # 0.01 reads "-0.0" at one decimal
    review = SeatReview(0, [shown, unseen, box(3, 0.0)])

    assert review.costliest == [shown]


# -- skill against luck ----------------------------------------------------------------------

OPTIMAL_START = 254.5877287


@pytest.mark.parametrize(
    ("mean_loss", "band"),
    [
        (0.0, "expert"),
        (0.19, "expert"),
        (0.2, "strong"),
        (0.49, "strong"),
        (0.5, "good"),
        (1.49, "good"),
        (1.5, "learning"),
        (12.0, "learning"),
    ],
)
def test_rating_bands_follow_the_mean_loss_per_decision(mean_loss, band):
    assert band_for(mean_loss).name == band


def test_bands_are_stated_as_data_in_order_without_gaps():
    bands = bands_to_dict()
    assert [b["name"] for b in bands] == ["expert", "strong", "good", "learning"]
    assert [(b["low"], b["high"]) for b in bands] == [
        (0.0, 0.2),
        (0.2, 0.5),
        (0.5, 1.5),
        (1.5, None),
    ]
    with pytest.raises(ValueError):
        band_for(-0.1)


def test_play_is_the_empty_cards_value_less_what_was_given_away_and_luck_the_rest():
    figures = skill_and_luck(250.0, [0.0, 1.5, 0.0, 4.5], final_total=230)
    assert figures.given_away == 6.0
    assert figures.play_worth == 244.0
    assert figures.luck == -14.0
    assert figures.mean_loss == 1.5
    assert figures.band.name == "learning"
    assert figures.to_dict() == {
        "expected_start": 250.0,
        "given_away": 6.0,
        "play_worth": 244.0,
        "final_total": 230,
        "luck": -14.0,
        "decisions": 4,
        "mean_loss": 1.5,
        "band": "learning",
    }
    assert skill_and_luck(250.0, [], 0).mean_loss == 0.0
    with pytest.raises(ValueError):
        skill_and_luck(250.0, [-1.0], 0)


# Thirteen turns, each scored straight after its first roll, in the printed order.
SCRIPTED = [
    ("11112", "ones"),
    ("22256", "twos"),
    ("33345", "threes"),
    ("44441", "fours"),
    ("55512", "fives"),
    ("66623", "sixes"),
    ("44456", "three_of_a_kind"),
    ("22221", "four_of_a_kind"),
    ("33355", "full_house"),
    ("12346", "small_straight"),
    ("23456", "large_straight"),
    ("12356", "yahtzee"),
    ("66543", "chance"),
]
# 4 + 6 + 9 + 16 + 15 + 18 = 68 (35 bonus), 23 + 9 + 25 + 30 + 40 + 0 + 24
SCRIPTED_TOTAL = 68 + 35 + 23 + 9 + 25 + 30 + 40 + 0 + 24


def test_a_scripted_game_splits_into_play_and_luck(coach_advisor):
    moves = [move for dice, box in SCRIPTED for move in turn(dice, box)]
    review = review_game(coach_advisor, Rules(), 1, moves)[0]

    card, losses = Scorecard(), []
    for dice, box in SCRIPTED:  # the same decisions, rated one by one
        losses.append(coach_advisor.regret(card, dice, 2, Category(box)))
        card = card.score(Category(box), dice)
    assert card.total == SCRIPTED_TOTAL
    skill = review.skill
    assert skill.expected_start == pytest.approx(OPTIMAL_START, abs=1e-6)
    assert skill.final_total == SCRIPTED_TOTAL
    assert skill.decisions == 13
    assert skill.given_away == pytest.approx(sum(losses), abs=1e-9)
    assert skill.play_worth == pytest.approx(OPTIMAL_START - sum(losses), abs=1e-6)
    assert skill.luck == pytest.approx(SCRIPTED_TOTAL - OPTIMAL_START + sum(losses), abs=1e-6)
    assert skill.band is band_for(sum(losses) / 13)
    wire = review.to_dict()
    assert wire["skill"] == skill.to_dict()
    assert wire["bands"] == bands_to_dict()
    assert {"seat", "decisions", "total_loss", "mean_loss", "costliest"} <= set(wire)
