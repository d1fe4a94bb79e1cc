"""Playing to win (games/strategy/winning.py, scoredist.py, outcomes.py, bots "win")."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games import engine
from games.rules import Category, Rules, Scorecard, options
from games.strategy.bots import choose_action
from games.strategy.outcomes import GAIN_MAX, box_outcomes, state_of
from games.strategy.rolls_and_keeps import ROLL_INDEX, ROLLS
from games.strategy.ruletables import CATEGORIES
from games.strategy.scoredist import final_score_distribution
from games.strategy.simulation import MatchResult, simulate_match
from games.strategy.winning import Plan, plays_to_win, rank_to_win, win_utility


def card(**boxes: int | None) -> Scorecard:
    """Every box 0 except those named (None leaves a box open)."""
    values = {c: 0 for c in Category}
    values.update({Category[name.upper()]: value for name, value in boxes.items()})
    return Scorecard(boxes=tuple(values[c] for c in Category))


def finished(total: int) -> Scorecard:
    """A full card worth ``total`` (up to 90)."""
    return card(
        chance=min(total, 30),
        three_of_a_kind=min(max(total - 30, 0), 30),
        four_of_a_kind=max(total - 60, 0),
    )


def random_card(rng: random.Random, open_boxes: int) -> Scorecard:
    position = Scorecard()
    order = list(Category)
    rng.shuffle(order)
    for category in order[: 13 - open_boxes]:
        while True:
            dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
            if rng.random() < 0.1:
                dice = str(rng.randint(1, 6)) * 5
            if category in options(position, dice):
                position = position.score(category, dice)
                break
    return position


def state_at(me: Scorecard, them: Scorecard, dice: str, rolls_left: int) -> engine.GameState:
    """Seat 0 (``me``) to play with ``dice`` on the table; seat 1 holds ``them``."""
    return engine.GameState(
        rules=Rules(),
        cards=(me, them),
        rolloff=(),
        starter=0,
        turn_number=2 * me.filled_count,
        dice=tuple(int(d) for d in dice),
        rolls_left=rolls_left,
    )


def first_choice(action: engine.Action, state: engine.GameState) -> object:
    if isinstance(action, engine.Score):
        return action.category
    held = action.held if isinstance(action, engine.Keep) else state.held
    return tuple(sorted(d for d, h in zip(state.dice, held, strict=True) if h))


# -- the pieces ---------------------------------------------------------------------------------


def test_every_turn_ending_matches_scorecard_score(coach_advisor):
    rng = random.Random(3)
    for _ in range(25):
        position = random_card(rng, rng.randint(1, 12))
        out = box_outcomes(coach_advisor.transitions, state_of(position))
        for r in [*range(0, len(ROLLS), 7), *(ROLL_INDEX[(f,) * 5] for f in range(1, 7))]:
            allowed = options(position, ROLLS[r])
            for c, category in enumerate(CATEGORIES):
                assert out.legal[c, r] == (category in allowed)
                if category in allowed:
                    after = position.score(category, ROLLS[r])
                    assert out.gain[c, r] == after.total - position.total <= GAIN_MAX
                    reached = (int(out.next_mask[c]), int(out.next_upper[c, r]))
                    assert (*reached, int(out.next_yahtzee[c, r])) == state_of(after)


@pytest.mark.parametrize("open_boxes", [1, 2, 3])
def test_final_score_distribution_has_the_tables_mean(coach_advisor, open_boxes):
    position = random_card(random.Random(open_boxes), open_boxes)
    dist = final_score_distribution(coach_advisor, position)
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist[: position.total].sum() == 0
    mean = float(np.arange(len(dist)) @ dist)
    assert mean == pytest.approx(coach_advisor.expected_total(position), abs=1e-9)


def test_a_full_card_ends_where_it_is():
    dist = final_score_distribution(None, finished(40))  # no turn left: no advisor needed
    assert dist.argmax() == 40 and dist.sum() == 1.0


def test_win_utility_counts_a_tie_half():
    utility = win_utility([np.array([0, 0.5, 0.5])], 4)
    assert utility.tolist() == [0.0, 0.25, 0.75, 1.0]
    two = win_utility([np.array([0, 1.0]), np.array([0, 0, 1.0])], 4)  # the best has 2
    assert two.tolist() == [0.0, 0.0, 0.5, 1.0]


def test_with_a_linear_utility_the_win_solver_is_the_expected_score_solver(coach_advisor):
    rng = random.Random(5)
    for open_boxes in (1, 2, 3):
        position = random_card(rng, open_boxes)
        linear = np.arange(position.total + 14 * GAIN_MAX, dtype=float)
        plan = Plan(coach_advisor, state_of(position), position.total, linear)
        boxes, turn = plan.turn(state_of(position), per_box=True)
        assert turn.start[0] == pytest.approx(coach_advisor.expected_total(position), abs=1e-9)
        for dice in ("12345", "66661", "11223"):
            for option in coach_advisor.rank(position, dice, 0):
                c = CATEGORIES.index(option.choice)
                value = boxes[c, ROLL_INDEX[tuple(sorted(map(int, dice)))], 0]
                assert value == pytest.approx(option.expected_total, abs=1e-9)


# -- constructed endgames -----------------------------------------------------------------------


def test_far_behind_it_goes_for_the_yahtzee_where_the_expected_score_takes_full_house(
    coach_advisor,
):
    # 35 behind with Full House and Yahtzee left: 25 now cannot catch up, only a Yahtzee can
    me, them = card(full_house=None, yahtzee=None), finished(35)
    state = state_at(me, them, "66655", 2)
    ranking = rank_to_win(coach_advisor, me, "66655", 2, [them])
    assert ranking[0].choice == (6, 6, 6)
    by_score = coach_advisor.best(me, "66655", 2)
    assert by_score.choice is Category.FULL_HOUSE
    chance_of_full_house = next(o for o in ranking if o.choice is Category.FULL_HOUSE)
    assert ranking[0].win_probability > 2 * chance_of_full_house.win_probability
    assert first_choice(choose_action(coach_advisor, state, 0, random, "win"), state) == (6, 6, 6)
    optimal = choose_action(coach_advisor, state, 0, random, "optimal")
    assert first_choice(optimal, state) is Category.FULL_HOUSE


def test_with_the_win_in_hand_it_takes_the_sure_points_where_the_expected_score_gambles(
    coach_advisor,
):
    # 27 in Chance beats the opponent's 25 for sure; the expected score keeps 666 for a Yahtzee
    me, them = card(chance=None, yahtzee=None), finished(25)
    state = state_at(me, them, "66654", 2)
    ranking = rank_to_win(coach_advisor, me, "66654", 2, [them])
    assert ranking[0].choice is Category.CHANCE
    assert ranking[0].win_probability == pytest.approx(1.0)
    assert coach_advisor.best(me, "66654", 2).choice == (6, 6, 6)
    assert choose_action(coach_advisor, state, 0, random, "win") == engine.Score(0, Category.CHANCE)
    assert first_choice(choose_action(coach_advisor, state, 0, random, "optimal"), state) == (
        6,
        6,
        6,
    )


def test_alone_or_early_it_plays_for_the_expected_score(coach_advisor):
    assert not plays_to_win(card(chance=None), 1)
    assert not plays_to_win(Scorecard(), 2)
    assert plays_to_win(card(chance=None, yahtzee=None, ones=None), 2)
    me = card(full_house=None, yahtzee=None)
    alone = engine.GameState(
        rules=Rules(),
        cards=(me,),
        rolloff=(),
        starter=0,
        turn_number=11,
        dice=(6, 6, 6, 5, 5),
        rolls_left=2,
    )
    assert choose_action(coach_advisor, alone, 0, random, "win") == engine.Score(
        0, Category.FULL_HOUSE
    )
    start = engine.start(2, Rules(), random.Random(1))
    seat = start.current_seat
    assert choose_action(coach_advisor, start, seat, random, "win") == engine.Roll(seat)


def test_the_opponents_can_be_given(coach_advisor):
    me = card(full_house=None, yahtzee=None)
    state = state_at(me, finished(35), "66655", 2)
    # against a weaker field the sure Full House wins: the choice follows the cards given
    given = choose_action(coach_advisor, state, 0, random, "win", opponents=[finished(10)])
    assert given == engine.Score(0, Category.FULL_HOUSE)


def test_heads_up_match_is_seeded_and_counts_ties_half(coach_advisor):
    result = simulate_match(coach_advisor, 4, "win", "optimal", seed=3)
    again = simulate_match(coach_advisor, 2, "win", "optimal", seed=3, first=2)
    assert result.games == 4 and again.games == 2
    assert 0 <= result.win_rate <= 1
    low, high = MatchResult("win", "optimal", 5, 10, 5).confidence_interval()
    assert low < 0.5 < high and high - low < 0.6
    assert MatchResult("win", "optimal", 5, 10, 5).win_rate == 0.5


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_command_plays_heads_up_and_prints_the_win_rate(coach_advisor, workers):
    from io import StringIO

    from django.conf import settings
    from django.core.management import call_command

    out = StringIO()
    call_command(
        "simulate",
        games=2,
        bot="win",
        versus="optimal",
        seed=1,
        workers=workers,
        cache_dir=settings.STRATEGY_CACHE_DIR,
        stdout=out,
    )
    text = out.getvalue()
    assert "2 heads-up games" in text
    assert "99% confidence" in text and "win rate" in text


# -- four rounds left: solved when the plan fits the time of a hint --------------------------------


def test_four_rounds_left_and_60_behind_it_goes_for_the_yahtzee_where_the_expected_score_does_not(
    coach_advisor,
):
    me, them = card(full_house=None, yahtzee=None, chance=None, large_straight=None), finished(60)
    assert plays_to_win(me, 2)
    ranking = rank_to_win(coach_advisor, me, "66655", 2, [them])
    assert ranking[0].choice == (6, 6, 6)
    assert coach_advisor.best(me, "66655", 2).choice is Category.FULL_HOUSE
    state = state_at(me, them, "66655", 2)
    assert first_choice(choose_action(coach_advisor, state, 0, random, "win"), state) == (6, 6, 6)


def test_a_plan_beyond_the_work_bound_is_played_for_the_expected_score(coach_advisor, monkeypatch):
    from games.strategy import winning

    monkeypatch.setattr(winning, "WORK_BOUND", 10)
    me, them = card(full_house=None, yahtzee=None, chance=None, large_straight=None), finished(60)
    assert rank_to_win(coach_advisor, me, "66655", 2, [them]) == []
    state = state_at(me, them, "66655", 2)
    assert choose_action(coach_advisor, state, 0, random, "win") == engine.Score(
        0, Category.FULL_HOUSE
    )
    # three rounds left are solved whatever the work
    three = card(full_house=None, yahtzee=None, chance=None)
    assert rank_to_win(coach_advisor, three, "66655", 2, [finished(35)])
