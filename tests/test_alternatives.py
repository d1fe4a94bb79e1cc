"""The top five choices of a position (Advisor.top), against the full ranking."""

from __future__ import annotations

import random

import pytest

from games.rules import Category, IllegalMove, Scorecard
from games.strategy.review import LoggedMove, review_game


def _random_position(rng: random.Random) -> tuple[Scorecard, str, int]:
    card = Scorecard()
    for category in rng.sample(list(Category), rng.randint(0, 12)):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        card = card.score(category, dice)
    dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
    return card, dice, rng.randint(0, 2)


def test_top_five_are_the_first_five_of_the_ranking_without_keeping_all_five(coach_advisor):
    rng = random.Random(18)
    for _ in range(60):
        card, dice, rolls_left = _random_position(rng)
        ranking = coach_advisor.rank(card, dice, rolls_left)
        sensible = [o for o in ranking if not (o.is_keep and len(o.choice) == 5)]
        top = coach_advisor.top(card, dice, rolls_left)
        assert list(top.top) == sensible[:5]
        assert len(top.top) == min(5, len(sensible))
        assert top.chosen is None and top.place is None


def test_the_chosen_option_comes_with_its_place_and_its_loss(coach_advisor):
    rng = random.Random(5)
    for _ in range(40):
        card, dice, rolls_left = _random_position(rng)
        ranking = coach_advisor.rank(card, dice, rolls_left)
        place = rng.randrange(len(ranking))
        option = ranking[place]
        top = coach_advisor.top(card, dice, rolls_left, n=3, chosen=option.choice)
        assert top.chosen == option
        assert ranking[top.place - 1].expected_total == option.expected_total
        assert top.loss == coach_advisor.regret(card, dice, rolls_left, option.choice)
        wire = top.to_dict()
        assert len(wire["top"]) == len(top.top) <= 3
        assert wire["top"][0]["loss"] == 0.0
        assert wire["chosen"]["expected_total"] == round(option.expected_total, 3)


def test_top_refuses_a_choice_that_is_not_there(coach_advisor):
    with pytest.raises(IllegalMove):
        coach_advisor.top(Scorecard(), "13356", 2, chosen=(4,))
    assert coach_advisor.top(Scorecard().score(Category.CHANCE, "11111"), "12345", 0).top


def test_each_reviewed_decision_keeps_the_top_five_and_the_place_of_the_choice(coach_advisor):
    moves = [
        LoggedMove("roll", 0, dice="55552", held="00000"),
        LoggedMove("roll", 0, dice="55555", held="11110"),
        LoggedMove("score", 0, dice="55555", category="chance"),
    ]
    keep, box = review_game(coach_advisor, Scorecard().rules, 1, moves)[0].decisions
    wire = box.to_dict()
    expected = coach_advisor.top(Scorecard(), "55555", 1, chosen=Category.CHANCE)
    assert wire["top"] == expected.to_dict()["top"]
    assert wire["top"][0]["choice"] == "yahtzee"
    assert wire["place"] == expected.place > 1
    assert keep.to_dict()["place"] == 1
    assert {"round", "kind", "dice", "rolls_left", "choice", "best", "loss"} <= set(wire)
