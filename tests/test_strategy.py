"""The optimal-play solver, the advisor, the bots and the table store.

The full table of the official rules is solved once per session (a few seconds); the
other checks solve only the last turns of a game (``solve(..., from_mask=...)``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from functools import cache
from io import StringIO
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest
from django.core.management import call_command

from games import caches, engine
from games.rules import (
    UPPER,
    Category,
    IllegalMove,
    Rules,
    Scorecard,
    options,
)
from games.strategy import (
    Advisor,
    Option,
    advisor_for,
    advisor_if_ready,
    load_table,
    save_table,
    solve,
    strategy_status,
    table_path,
    tablefile,
    wait_until_ready,
)
from games.strategy import store as strategy_store
from games.strategy.bots import POLICIES, choose_action, held_flags
from games.strategy.rolls_and_keeps import KEEP_COUNT, ROLL_COUNT, ROLL_PROBABILITY, ROLLS
from games.strategy.ruletables import CATEGORIES, mask_of, rule_tables
from games.strategy.simulation import simulate
from games.strategy.solver import final_roll_values, transitions

OFFICIAL = Rules()
UPPER_FIRST = Rules(upper_first=True)
PUBLISHED_OPTIMAL_MEAN = 254.5877287  # forced Joker, every turn-start state solved


# -- helpers ------------------------------------------------------------------------------------


def card(rules: Rules = OFFICIAL, yahtzee_bonus_count: int = 0, **boxes: int | None) -> Scorecard:
    """A scorecard with every box filled with 0 except those named (None leaves one open)."""
    values = {c: 0 for c in Category}
    values.update({Category[name.upper()]: value for name, value in boxes.items()})
    return Scorecard(
        rules=rules,
        boxes=tuple(values[c] for c in Category),
        yahtzee_bonus_count=yahtzee_bonus_count,
    )


def open_card(rules: Rules = OFFICIAL, **boxes: int) -> Scorecard:
    """A scorecard with only the named boxes filled."""
    values = {Category[name.upper()]: value for name, value in boxes.items()}
    return Scorecard(rules=rules, boxes=tuple(values.get(c) for c in Category))


def advisor_from(position: Scorecard) -> Advisor:
    """An advisor solved for the last turns only: every card that extends ``position``."""
    return Advisor(solve(position.rules, from_mask=mask_of(position)))


def state_of(card: Scorecard) -> tuple[int, int, int]:
    return mask_of(card), min(card.upper_subtotal, 63), int(card[Category.YAHTZEE] == 50)


def _reroll(count: int) -> list[tuple[tuple[int, ...], float]]:
    return [
        (outcome, _ways(outcome) / 6**count)
        for outcome in combinations_with_replacement(range(1, 7), count)
    ]


def _ways(dice: tuple[int, ...]) -> int:
    ways, left = 1, len(dice)
    for face in set(dice):
        ways *= comb(left, dice.count(face))
        left -= dice.count(face)
    return ways


def _sub_keeps(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(d for i, d in enumerate(roll) if bits >> i & 1) for bits in range(1 << len(roll))}


def brute_force_future(position: Scorecard) -> float:
    """Expected points still to come, by plain enumeration with the rules module alone."""

    @cache
    def future(state: tuple[int, int, int]) -> float:
        here = cards[state]
        if here.is_complete:
            return 0.0

        def scored(roll: tuple[int, ...]) -> float:
            best = -1.0
            for category in options(here, roll):
                after = here.score(category, roll)
                cards.setdefault(state_of(after), after)
                best = max(best, after.total - here.total + future(state_of(after)))
            return best

        rolls = {roll: scored(roll) for roll in combinations_with_replacement(range(1, 7), 5)}
        for _ in range(2):  # two rerolls
            keep_value = {
                keep: sum(
                    p * rolls[tuple(sorted(keep + extra))] for extra, p in _reroll(5 - len(keep))
                )
                for keep in {k for roll in rolls for k in _sub_keeps(roll)}
            }
            rolls = {roll: max(keep_value[k] for k in _sub_keeps(roll)) for roll in rolls}
        return sum(p * rolls[roll] for roll, p in _reroll(5))

    cards = {state_of(position): position}
    return future(state_of(position))


@pytest.fixture(scope="session")
def official() -> Advisor:
    return Advisor(solve(OFFICIAL))


# -- the dice lattice ---------------------------------------------------------------------------


def test_lattice_has_252_rolls_and_462_keeps_with_probabilities_summing_to_one():
    assert ROLL_COUNT == len(ROLLS) == 252
    assert KEEP_COUNT == 462
    assert ROLL_PROBABILITY.sum() == pytest.approx(1.0, abs=1e-15)
    assert ROLL_PROBABILITY[ROLLS.index((1, 2, 3, 4, 5))] == pytest.approx(120 / 7776)


# -- the solver never disagrees with the rules ----------------------------------------------------


def _random_card(rules: Rules, rng: random.Random) -> Scorecard:
    boxes: list[int | None] = []
    for category in Category:
        if rng.random() < 0.5:
            boxes.append(None)
        elif category.is_upper:
            boxes.append(category.face * rng.randint(0, 5))
        elif category is Category.YAHTZEE:
            boxes.append(rng.choice([0, 50]))
        else:
            boxes.append(rng.choice([0, 25]))
    if all(box is not None for box in boxes):
        boxes[rng.randrange(13)] = None
    if rules.upper_first and rng.random() < 0.5:  # the variant's usual shape: upper first
        boxes = [
            (box or 0) if category.is_upper else None
            for category, box in zip(Category, boxes, strict=True)
        ]
        boxes[11] = rng.choice([None, 0, 50])
    return Scorecard(rules=rules, boxes=tuple(boxes))


def test_the_rule_tables_are_kept_in_a_named_cache_that_tests_can_empty():
    first = rule_tables(OFFICIAL)
    assert rule_tables(OFFICIAL) is first
    caches.clear_all()
    assert rule_tables(OFFICIAL) is not first


@pytest.mark.parametrize("rules", [OFFICIAL, UPPER_FIRST], ids=["official", "upper_first"])
def test_rule_tables_match_options_on_random_cards(rules):
    tables = rule_tables(rules)
    rng = random.Random(7)
    for _ in range(300):
        position = _random_card(rules, rng)
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        if rng.random() < 0.2:
            dice = (rng.randint(1, 6),) * 5
        mask = mask_of(position)
        if position.is_extra_yahtzee(dice):
            f = dice[0] - 1
            believed = {
                CATEGORIES[c]: int(tables.joker_points[mask, f, c])
                for c in np.flatnonzero(tables.joker_legal[mask, f])
            }
        else:
            r = ROLLS.index(dice)
            believed = {
                CATEGORIES[c]: int(tables.points[c, r]) for c in np.flatnonzero(tables.legal[mask])
            }
        assert believed == options(position, dice), (position, dice)


@pytest.mark.parametrize("rules", [OFFICIAL, UPPER_FIRST], ids=["official", "upper_first"])
def test_final_roll_values_agree_with_scorecard_score(rules):
    """With arbitrary values for the next turn, the solver's best box for every roll is what
    Scorecard.score and the rules' options say (points, 35 and 100 bonuses, next state)."""
    trans = transitions(rule_tables(rules))
    rng = random.Random(11)
    values = np.random.default_rng(3).uniform(0, 300, size=(8192, 64, 2))
    values[8191] = 0.0
    for _ in range(12):
        position = _random_card(rules, rng)
        m, u, y = (np.array([v]) for v in state_of(position))
        solver = final_roll_values(trans, values, m, u, y)[:, 0]
        for r in [*range(0, ROLL_COUNT, 5), *[ROLLS.index((f,) * 5) for f in range(1, 7)]]:
            roll = ROLLS[r]
            expected = max(
                after.total - position.total + values[state_of(after)]
                for after in (position.score(c, roll) for c in options(position, roll))
            )
            assert solver[r] == pytest.approx(expected, abs=1e-9), (position, roll)


# -- small positions checked by hand or by brute force -------------------------------------


def test_last_turn_with_only_chance_open_is_worth_seventy_thirds_more():
    # one die: 3.5 with no reroll, 4.25 with one (keep 4+), 14/3 with two (keep 5+);
    # a 0 in the Yahtzee box: an extra Yahtzee earns nothing more than its sum
    position = card(chance=None, sixes=18, yahtzee=0)
    adv = advisor_from(position)
    assert adv.expected_total(position) == pytest.approx(position.total + 70 / 3, abs=1e-12)


def test_last_turn_with_only_yahtzee_open_is_fifty_times_the_chance_of_a_yahtzee():
    position = card(yahtzee=None)
    adv = advisor_from(position)
    chance_of_yahtzee_in_three_rolls = 2783176 / 60466176
    assert adv.expected_total(position) == pytest.approx(50 * chance_of_yahtzee_in_three_rolls)


def test_last_turn_with_sixes_open_and_the_bonus_at_three_sixes():
    # 45 in the other upper boxes: three sixes earn the 35. Keeping every six is optimal, so
    # each die ends a six with chance 1 - (5/6)^3 independently.
    position = card(sixes=None, ones=3, twos=6, threes=9, fours=12, fives=15)
    adv = advisor_from(position)
    p = 1 - (5 / 6) ** 3
    at_least_three = sum(comb(5, k) * p**k * (1 - p) ** (5 - k) for k in range(3, 6))
    expected = position.total + 6 * 5 * p + 35 * at_least_three
    assert adv.expected_total(position) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "position",
    [
        card(sixes=None, full_house=None, ones=3, twos=6, threes=9, fours=12, fives=15, yahtzee=50),
        card(fives=None, small_straight=None, yahtzee=50, fours=16),
        card(UPPER_FIRST, ones=None, chance=None, twos=8, sixes=30),
    ],
    ids=["sixes_and_full_house_for_the_bonus", "joker_into_straight", "upper_first"],
)
def test_last_turns_match_brute_force_enumeration(position):
    adv = advisor_from(position)
    expected = position.total + brute_force_future(position)
    assert adv.expected_total(position) == pytest.approx(expected, abs=1e-9)


def test_extra_yahtzee_is_forced_into_its_open_upper_box_with_the_100_bonus():
    position = card(fives=None, chance=None, yahtzee=50)
    adv = advisor_from(position)
    ranking = adv.rank(position, "55555", 0)
    assert [option.choice for option in ranking] == [Category.FIVES]
    after = position.score(Category.FIVES, "55555")
    assert after.total == position.total + 125  # 25 in Fives, 100 bonus
    assert ranking[0].expected_total == pytest.approx(adv.expected_total(after), abs=1e-9)
    boxes_now = [o.choice for o in adv.rank(position, "55555", 1) if not o.is_keep]
    assert boxes_now == [Category.FIVES]


def test_joker_scores_full_house_at_full_value_when_the_upper_box_is_filled():
    position = card(full_house=None, chance=None, yahtzee=50)
    adv = advisor_from(position)
    ranking = adv.rank(position, "55555", 0)
    assert {option.choice for option in ranking} == {Category.FULL_HOUSE, Category.CHANCE}
    assert ranking[0].choice is Category.FULL_HOUSE
    after = position.score(Category.FULL_HOUSE, "55555")
    assert after.total == position.total + 125  # 25 by the Joker, 100 bonus
    assert ranking[0].expected_total == pytest.approx(adv.expected_total(after), abs=1e-9)


def test_joker_with_the_lower_section_full_takes_a_zero_in_an_upper_box_and_keeps_the_bonus():
    position = card(ones=None, twos=None, yahtzee=50)
    adv = advisor_from(position)
    ranking = adv.rank(position, "55555", 0)
    assert {option.choice for option in ranking} == {Category.ONES, Category.TWOS}
    after = position.score(ranking[0].choice, "55555")
    assert after.total == position.total + 100
    assert ranking[0].expected_total == pytest.approx(adv.expected_total(after), abs=1e-9)


def test_zero_in_the_yahtzee_box_earns_no_bonus_for_an_extra_yahtzee():
    position = card(fives=None, chance=None, yahtzee=0)
    adv = advisor_from(position)
    (only,) = adv.rank(position, "55555", 0)
    assert only.expected_total == pytest.approx(position.total + 25 + 70 / 3, abs=1e-9)


# -- the whole table ------------------------------------------------------------------------------


def test_optimal_expected_score_from_an_empty_card_is_the_published_value(official):
    assert official.expected_total(Scorecard()) == pytest.approx(PUBLISHED_OPTIMAL_MEAN, abs=1e-6)


def test_first_roll_average_of_best_choices_is_the_cards_expected_total(official):
    position = open_card(sixes=24, chance=22)
    average = sum(
        p * official.rank(position, roll, 2)[0].expected_total
        for roll, p in zip(ROLLS, ROLL_PROBABILITY, strict=True)
    )
    assert average == pytest.approx(official.expected_total(position), abs=1e-9)


def test_expected_total_counts_the_points_already_on_the_card(official):
    position = card(chance=None, sixes=18, yahtzee=0)
    assert official.expected_total(position) == pytest.approx(position.total + 70 / 3, abs=1e-9)
    full = card()
    assert official.expected_total(full) == full.total


# -- rank and regret ---------------------------------------------------------------------------


def test_rank_lists_keeps_and_boxes_best_first_while_rolls_are_left(official):
    position = Scorecard()
    ranking = official.rank(position, "13356", 2)
    assert all(isinstance(option, Option) for option in ranking)
    values = [option.expected_total for option in ranking]
    assert values == sorted(values, reverse=True)
    keeps = [option.choice for option in ranking if option.is_keep]
    boxes = [option.choice for option in ranking if not option.is_keep]
    assert len(keeps) == len(set(keeps)) == 24  # distinct subsets of 1,3,3,5,6
    assert all(keep == tuple(sorted(keep)) for keep in keeps)
    assert set(boxes) == set(Category)
    assert ranking[0].choice == (3, 3)


def test_rank_with_no_rolls_left_lists_only_the_allowed_boxes(official):
    position = open_card(ones=3)
    ranking = official.rank(position, "66621", 0)
    assert {option.choice for option in ranking} == set(options(position, "66621"))
    assert all(not option.is_keep for option in ranking)


def test_box_values_are_the_expected_total_of_the_card_after_scoring(official):
    rng = random.Random(5)
    for _ in range(20):
        position = _random_card(OFFICIAL, rng)
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        for option in official.rank(position, dice, 0):
            after = position.score(option.choice, dice)
            assert option.expected_total == pytest.approx(official.expected_total(after), abs=1e-9)


def test_keeping_all_five_with_one_roll_left_ties_with_the_best_box_and_comes_after_it(official):
    position = card(chance=None, full_house=None)
    ranking = official.rank(position, "22333", 1)
    assert ranking[0].choice is Category.FULL_HOUSE
    keep_all = next(o for o in ranking if o.choice == (2, 2, 3, 3, 3))
    assert keep_all.expected_total == ranking[0].expected_total


def test_regret_is_zero_for_the_best_choice_and_the_gap_for_others(official):
    position = Scorecard()
    ranking = official.rank(position, "13356", 2)
    assert official.regret(position, "13356", 2, ranking[0].choice) == 0.0
    worst = ranking[-1]
    gap = ranking[0].expected_total - worst.expected_total
    assert official.regret(position, "13356", 2, worst.choice) == pytest.approx(gap)
    assert official.regret(position, "13356", 2, [3, 3]) == 0.0  # any order of the dice
    assert official.regret(position, "13356", 2, Category.YAHTZEE) > 10


def test_regret_refuses_choices_that_are_not_allowed(official):
    with pytest.raises(IllegalMove):
        official.regret(Scorecard(), "13356", 2, (4,))
    with pytest.raises(IllegalMove):
        official.regret(Scorecard(), "13356", 0, (3, 3))
    with pytest.raises(IllegalMove):
        official.regret(open_card(chance=20), "13356", 0, Category.CHANCE)


def test_rank_refuses_bad_input(official):
    with pytest.raises(ValueError):
        official.rank(Scorecard(), "13356", 3)
    with pytest.raises(IllegalMove):
        official.rank(Scorecard(), "1335", 1)
    with pytest.raises(ValueError):
        official.rank(Scorecard(rules=UPPER_FIRST), "13356", 1)
    with pytest.raises(ValueError):  # no game puts 7 in the Ones box
        official.expected_total(open_card(ones=7))
    assert official.rank(card(), "13356", 1) == []


def test_rank_is_fast_enough_to_call_repeatedly(official):
    position = open_card(threes=9, chance=21)
    for dice in ("11111", "12345", "66553"):
        assert official.rank(position, dice, 2)


# -- bots and simulation -----------------------------------------------------------------------


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_bots_play_a_whole_game_with_legal_actions(official, policy):
    rng = random.Random(2)
    state = engine.start(2, OFFICIAL, rng)
    actions = 0
    while not state.is_finished:
        seat = state.current_seat
        action = choose_action(official, state, seat, rng, policy)
        assert action.seat == seat
        state = engine.apply(state, action, rng)  # raises IllegalMove if not legal
        actions += 1
        assert actions <= 26 * 6
    assert all(c.is_complete for c in state.cards)


def test_bot_starts_a_turn_by_rolling_and_refuses_to_play_out_of_turn(official):
    state = engine.start(2, OFFICIAL, random.Random(1))
    seat = state.current_seat
    assert choose_action(official, state, seat, random.Random(1)) == engine.Roll(seat)
    with pytest.raises(IllegalMove):
        choose_action(official, state, 1 - seat, random.Random(1))
    with pytest.raises(ValueError):
        choose_action(official, state, seat, random.Random(1), "reckless")


def test_bot_holds_the_dice_it_keeps_then_rolls(official):
    rng = random.Random(4)
    state = engine.apply(engine.start(1, OFFICIAL, rng), engine.Roll(0), rng)
    state = replace(state, dice=(1, 3, 3, 5, 6))
    action = choose_action(official, state, 0, rng)
    assert action == engine.Keep(0, (False, True, True, False, False))
    state = engine.apply(state, action, rng)
    assert choose_action(official, state, 0, rng) == engine.Roll(0)


def test_held_flags_keep_dice_already_held():
    assert held_flags((3, 1, 3, 3), (3, 3), (False, False, True, True)) == (
        False,
        False,
        True,
        True,
    )


def test_simulation_smoke(official):
    result = simulate(official, 4, "optimal", seed=9)
    again = simulate(official, 4, "optimal", seed=9)
    assert result.scores == again.scores
    assert result.games == 4
    assert all(0 <= score <= 1575 for score in result.scores)
    assert 0 <= result.upper_bonus_rate <= 1 and 0 <= result.yahtzee_rate <= 1
    assert result.median <= max(result.scores)


def test_greedy_advisor_only_counts_this_turn(official):
    greedy = official.myopic()
    assert greedy.expected_total(Scorecard()) == 0.0
    ranking = greedy.rank(Scorecard(), "66666", 0)
    assert ranking[0].choice is Category.YAHTZEE
    assert ranking[0].expected_total == 50


# -- the store and the background build ------------------------------------------------------------


def test_stored_table_loads_back_and_is_ignored_when_stale(tmp_path, monkeypatch):
    table = solve(OFFICIAL, from_mask=mask_of(card(chance=None, yahtzee=None)))
    path = save_table(table, table_path(OFFICIAL, tmp_path))
    loaded = load_table(OFFICIAL, path)
    assert loaded is not None
    assert np.array_equal(loaded.values, table.values)
    assert np.array_equal(loaded.solved, table.solved)
    assert load_table(UPPER_FIRST, path) is None
    monkeypatch.setattr(tablefile, "fingerprint", lambda rules=None: "something else")
    assert load_table(OFFICIAL, path) is None


@pytest.fixture
def fresh_store():
    strategy_store.forget_advisors()
    yield
    strategy_store.forget_advisors()


def test_advisor_if_ready_builds_once_in_the_background(tmp_path, monkeypatch, fresh_store):
    table = solve(UPPER_FIRST, from_mask=mask_of(card(UPPER_FIRST, chance=None)))
    calls = []

    def fake_solve(rules, workers=None):
        calls.append(rules)
        return table

    monkeypatch.setattr(strategy_store, "solve", fake_solve)
    assert strategy_status(UPPER_FIRST, tmp_path) == "missing"
    first = advisor_if_ready(UPPER_FIRST, tmp_path)
    second = advisor_if_ready(UPPER_FIRST, tmp_path)
    ready = wait_until_ready(UPPER_FIRST, tmp_path, timeout=30)
    assert ready is not None
    assert first is None or first is ready
    assert second is None or second is ready
    assert calls == [UPPER_FIRST]
    assert strategy_status(UPPER_FIRST, tmp_path) == "ready"
    assert advisor_if_ready(UPPER_FIRST, tmp_path) is ready
    assert table_path(UPPER_FIRST, tmp_path).exists()
    strategy_store.forget_advisors()  # a new process: the stored table loads at once
    assert strategy_status(UPPER_FIRST, tmp_path) == "stored"
    assert advisor_if_ready(UPPER_FIRST, tmp_path) is not None
    assert calls == [UPPER_FIRST]


def test_advisor_for_without_build_refuses_a_missing_table(tmp_path, fresh_store):
    with pytest.raises(LookupError):
        advisor_for(OFFICIAL, tmp_path, build=False)


def test_cache_dir_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("STRATEGY_CACHE_DIR", str(tmp_path))
    assert table_path(OFFICIAL) == tmp_path / "yahtzee-official.npz"


# -- management commands -------------------------------------------------------------------------


def test_solve_command_stores_the_table_built_in_a_process_of_its_own(tmp_path, fresh_store):
    out = StringIO()
    call_command("solve", ruleset="yahtzee", cache_dir=tmp_path, stdout=out)
    assert "254.5877287" in out.getvalue()
    stored = load_table(OFFICIAL, table_path(OFFICIAL, tmp_path))
    assert stored is not None
    assert stored.empty_card_value == pytest.approx(PUBLISHED_OPTIMAL_MEAN, abs=1e-7)
    out = StringIO()
    call_command("simulate", games=2, bot="greedy", seed=1, cache_dir=tmp_path, stdout=out)
    text = out.getvalue()
    for label in ("mean", "standard dev.", "median", "upper bonus rate", "Yahtzee rate"):
        assert label in text


def test_the_build_process_loads_the_solver_and_nothing_of_the_site():
    probe = (
        "import sys, games.strategy.build; "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('games', 'django')))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "games.strategy.solver" in loaded and "games.strategy.tablefile" in loaded
    assert not [m for m in loaded if m.startswith("django")]
    assert "games.strategy.advisor" not in loaded and "games.strategy.store" not in loaded
    # games.caches (pure Python and cachetools, some 0.3 MB) holds the rule tables' memo.
    outside = [m for m in loaded if m.startswith("games.") and not m.startswith("games.strategy")]
    assert outside == [
        "games.caches",
        "games.rules",
        "games.rules.base",
        "games.rules.boxes",
        "games.rules.card",
        "games.rules.rulesets",
        "games.rules.scoring",
    ]


def test_build_main_solves_and_reports_its_figures(tmp_path, monkeypatch, official, capsys):
    from games.strategy import build

    monkeypatch.setattr(build, "solve", lambda rules, workers=None, tables=None: official.table)
    assert build.main(["--cache-dir", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert figures["value"] == pytest.approx(PUBLISHED_OPTIMAL_MEAN, abs=1e-7)
    assert figures["peak_rss_mb"] > 0
    assert table_path(OFFICIAL, tmp_path).exists()


def test_upper_boxes_are_the_first_six():
    assert CATEGORIES[:6] == UPPER
