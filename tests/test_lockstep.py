"""Optimal games in lock step (games/strategy/lockstep.py) and the simulations built on it."""

from __future__ import annotations

import numpy as np
import pytest

from games.rules import Scorecard
from games.strategy.lockstep import play_batch, simulate_lockstep
from games.strategy.rolls_and_keeps import ROLLS
from games.strategy.ruletables import CATEGORIES
from games.strategy.simulation import simulate, simulate_match

PUBLISHED_OPTIMAL_MEAN = 254.5877287


def replay(advisor, batch, g: int, turns: int = 13) -> Scorecard:
    """Game ``g`` again through Scorecard.score, checking each box is a best box."""
    card = Scorecard(rules=advisor.rules)
    for t in range(turns):
        box, dice = CATEGORIES[batch.order[g, t]], ROLLS[batch.scored[g, t]]
        ranking = advisor.rank(card, dice, 0)
        chosen = next(o for o in ranking if o.choice is box)
        assert ranking[0].expected_total - chosen.expected_total < 1e-9
        card = card.score(box, dice)
    return card


def test_lockstep_games_replay_through_the_scorecard_with_best_boxes(coach_advisor):
    batch, _ = simulate_lockstep(coach_advisor, 40, seed=4)
    for g in range(40):
        card = replay(coach_advisor, batch, g)
        assert card.total == batch.totals[g]
        assert card.upper_bonus == 35 * batch.upper_bonus[g]
        assert card.yahtzee_bonus_count == batch.yahtzee_bonuses[g]
        assert [card[c] for c in CATEGORIES] == batch.boxes[g].tolist()


def test_lockstep_optimal_play_scores_the_published_mean(coach_advisor):
    batch, _ = simulate_lockstep(coach_advisor, 3000, seed=11)
    error = batch.totals.std() / np.sqrt(len(batch.totals))
    assert abs(batch.totals.mean() - PUBLISHED_OPTIMAL_MEAN) < 4 * error


def test_a_batch_can_stop_after_some_turns(coach_advisor):
    batch = play_batch(coach_advisor, 5, np.random.default_rng(2), turns=10)
    assert (batch.order[:, 10:] == -1).all() and (batch.order[:, :10] >= 0).all()
    assert replay(coach_advisor, batch, 0, turns=10).filled_count == 10


def test_greedy_in_lockstep_takes_the_best_points_of_each_turn(coach_advisor):
    greedy = coach_advisor.myopic()
    batch, _ = simulate_lockstep(greedy, 10, seed=1)
    for g in range(10):
        assert replay(greedy, batch, g).total == batch.totals[g]


def test_simulate_is_seeded_either_way(coach_advisor):
    fast = simulate(coach_advisor, 6, "optimal", seed=2)
    assert fast.scores == simulate(coach_advisor, 6, "optimal", seed=2).scores
    slow = simulate(coach_advisor, 2, "optimal", seed=2, lockstep=False)
    assert slow.games == 2 and slow.policy == "optimal"
    casual = simulate(coach_advisor, 2, "casual", seed=2)
    assert casual.games == 2


@pytest.mark.parametrize("versus", ["optimal", "casual"])
def test_matches_play_to_the_end_with_or_without_the_early_rounds_in_lockstep(
    coach_advisor, versus
):
    result = simulate_match(coach_advisor, 3, "win", versus, seed=5)
    assert result.games == 3
