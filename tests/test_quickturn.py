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
        m, u, y = (mask := coach_advisor.state(position))
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
    assert state_of(position)[0] == coach_advisor.state(position)[0]


def test_every_coach_cache_is_bounded_and_together_under_32_mb():
    import games.strategy.scoredist
    import games.strategy.winning  # noqa: F401

    coach = {n: c for n, c in caches.every_cache().items() if n.startswith("strategy:")}
    assert len(coach) >= 3
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


def _dice(rng: random.Random) -> str:
    if rng.random() < 0.4:  # Yahtzees often: the Joker and the bonus
        return str(rng.randint(1, 6)) * 5
    return "".join(str(rng.randint(1, 6)) for _ in range(5))


def _check_boxes(advisor, position: Scorecard, dice: str) -> None:
    ranking = advisor.rank(position, dice, 0)
    assert [o.choice for o in ranking if not o.is_keep] == [o.choice for o in ranking]
    assert {o.choice for o in ranking} == set(options(position, dice))
    for option in ranking:
        after = position.score(option.choice, dice)
        assert option.expected_total == pytest.approx(advisor.expected_total(after), abs=1e-9)


def test_rank_offers_exactly_the_boxes_the_rules_allow_with_what_each_leads_to(coach_advisor):
    rng = random.Random(31)
    for _ in range(150):
        _check_boxes(coach_advisor, random_card(rng), _dice(rng))


def test_upper_first_rank_offers_the_boxes_its_rules_allow():
    from games.rules import Rules
    from games.strategy import Advisor, solve
    from games.strategy.ruletables import mask_of

    rules = Rules(upper_first=True)
    rng = random.Random(32)
    early = Scorecard(rules=rules)
    for category in list(Category)[:4]:  # two upper boxes still open: only they may be used
        early = early.score(category, str(category.face) * 3 + "12")
    late = early
    for category in (Category.FIVES, Category.SIXES, Category.YAHTZEE, Category.CHANCE):
        late = late.score(category, "44444" if category is Category.YAHTZEE else "55566")
    for position in (early, late):  # late: the Joker, and the 100 for an extra Yahtzee
        advisor = Advisor(solve(rules, from_mask=mask_of(position)))
        for _ in range(40):
            _check_boxes(advisor, position, _dice(rng))
