"""One position's turn by matrix products (games/strategy/quickturn.py) against the lattice,
and the bounds of every coach cache."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games import caches
from games.rules import Category, Scorecard, options
from games.strategy.lattice import FLAT_OFFSET, REROLL, SUBKEEP_LISTS, flat_index
from games.strategy.outcomes import state_of
from games.strategy.quickturn import best_keeps, box_future, final_values, keep_values
from games.strategy.solver import turn_values


def random_card(rng: random.Random) -> Scorecard:
    card = Scorecard()
    for category in rng.sample(list(Category), rng.randint(0, 12)):
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        if rng.random() < 0.15:
            dice = str(rng.randint(1, 6)) * 5
        if category in options(card, dice):
            card = card.score(category, dice)
    return card


def test_the_matrix_turn_is_the_lattice_turn(coach_advisor):
    rng = random.Random(8)
    values, trans = coach_advisor.table.values, coach_advisor.transitions
    for _ in range(30):
        position = random_card(rng)
        m, u, y = (mask := coach_advisor._state(position))
        lattice = turn_values(trans, values, *(np.array([v]) for v in mask))
        future = box_future(values, mask)
        final = final_values(trans, future, mask)
        assert np.allclose(final, lattice.rolls[0][:, 0], rtol=0, atol=1e-9)
        rolls1 = best_keeps(final)
        assert np.allclose(rolls1, lattice.rolls[1][:, 0], rtol=0, atol=1e-9)
        for size in range(6):
            flat = np.arange(FLAT_OFFSET[size], FLAT_OFFSET[size + 1])
            assert np.allclose(
                keep_values(rolls1, flat), lattice.keeps[2][size][:, 0], rtol=0, atol=1e-9
            )
        del m, u, y


def test_the_reroll_matrix_rows_are_probabilities_and_subkeeps_are_listed_once():
    assert np.allclose(REROLL.sum(axis=1), 1.0)
    assert all(
        len({keep for keep, _ in listed}) == len(listed) and listed[0] == ((), 0)
        for listed in SUBKEEP_LISTS
    )
    assert flat_index(()) == 0 and flat_index((6,) * 5) < FLAT_OFFSET[6] == 462


def test_rank_does_not_depend_on_what_the_turn_cache_held(coach_advisor):
    position = random_card(random.Random(2))
    first = coach_advisor.rank(position, "12456", 2)
    caches.clear_all()
    assert coach_advisor.rank(position, "12456", 1) == coach_advisor.rank(position, "12456", 1)
    assert coach_advisor.rank(position, "12456", 2) == first
    assert state_of(position)[0] == coach_advisor._state(position)[0]


def test_every_coach_cache_is_bounded_and_together_under_32_mb():
    import games.strategy.scoredist
    import games.strategy.winning  # noqa: F401

    coach = {n: c for n, c in caches.every_cache().items() if n.startswith("strategy:")}
    assert len(coach) >= 4
    weighed = {n: c.maxsize for n, c in coach.items() if c.maxsize > 1024}  # bounded by bytes
    counted = {n: c.maxsize for n, c in coach.items() if n not in weighed}  # by entries
    assert sum(weighed.values()) + sum(counted.values()) * 64 * 1024 <= 32 * 2**20
    assert all(np.isfinite(c.maxsize) for c in coach.values())


@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_ranking_is_unchanged_by_the_order_positions_are_asked(coach_advisor, rolls_left):
    a, b = random_card(random.Random(21)), random_card(random.Random(22))
    one = [coach_advisor.rank(a, "33445", rolls_left), coach_advisor.rank(b, "11666", rolls_left)]
    caches.clear_all()
    two = [coach_advisor.rank(b, "11666", rolls_left), coach_advisor.rank(a, "33445", rolls_left)]
    assert one == two[::-1]
