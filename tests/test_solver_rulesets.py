"""The coach for every rule set: the generic solver on Yatzy and Yacht, checked against the
published solver ``yatzy-solver`` (Yatzy) and against a brute force written here (Yacht).

Each rule set's full table is built at most once per test session and stored in
``STRATEGY_CACHE_DIR`` like the site's (the ``ruleset_advisor`` fixture); the peer's table
is stored there too (``peer/``), so later sessions load both in a fraction of a second.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, pairwise, product
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings

from games import engine
from games.rules import Rules, Scorecard, YachtBox, options
from games.strategy import Advisor, solve
from games.strategy.bots import POLICIES, choose_action
from games.strategy.lockstep import simulate_lockstep
from games.strategy.review import LoggedMove, review_game
from games.strategy.rolls_and_keeps import ROLL_INDEX
from games.strategy.ruletables import layout, mask_of, rule_tables
from games.strategy.scoredist import final_score_distribution
from games.strategy.winning import rank_to_win

YATZY = Rules(ruleset="yatzy")
YACHT = Rules(ruleset="yacht")
#: yatzy-solver's documented optimal mean for ``yatzy-scandinavian`` (its docs/rules.md).
YATZY_PUBLISHED_MEAN = 248.4399894
PEER_VARIANT = "yatzy-scandinavian"


# -- a Yacht brute force, written apart from games.rules ---------------------------------

FACE_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def yacht_score(box: str, dice: tuple[int, ...]) -> int:
    """Yacht's scoring as Exercism's exercise states it, in plain Python."""
    counts = Counter(dice)
    if box in FACE_BOXES:
        face = FACE_BOXES.index(box) + 1
        return face * counts[face]
    if box == "full_house":
        return sum(dice) if sorted(counts.values()) == [2, 3] else 0
    if box == "four_of_a_kind":
        return next((4 * face for face, n in counts.items() if n >= 4), 0)
    if box == "little_straight":
        return 30 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if box == "big_straight":
        return 30 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if box == "choice":
        return sum(dice)
    assert box == "yacht"
    return 50 if len(counts) == 1 else 0


@cache
def outcomes(count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted result of rolling ``count`` dice, with its chance (6**count sequences)."""
    seen = Counter(tuple(sorted(faces)) for faces in product(range(1, 7), repeat=count))
    return tuple((faces, n / 6**count) for faces, n in seen.items())


def sub_keeps(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(d for i, d in enumerate(roll) if bits >> i & 1) for bits in range(32)}


ROLLS = [roll for roll, _ in outcomes(5)]


class BruteYacht:
    """Expected points of the open boxes under optimal play, by plain enumeration."""

    @cache  # noqa: B019  (a handful of instances, alive for the test)
    def future(self, open_boxes: frozenset[str]) -> float:
        if not open_boxes:
            return 0.0
        rolls = self.turn(open_boxes)[2]
        return sum(p * rolls[roll] for roll, p in outcomes(5))

    @cache  # noqa: B019
    def turn(self, open_boxes: frozenset[str]) -> tuple[dict, dict, dict]:
        """Per rolls left (0, 1, 2): the value of holding each roll, and the keeps' values."""
        values = [
            {
                roll: max(yacht_score(b, roll) + self.future(open_boxes - {b}) for b in open_boxes)
                for roll in ROLLS
            }
        ]
        for _ in range(2):
            after = values[-1]
            keep = {}
            for roll in ROLLS:
                for k in sub_keeps(roll):
                    if k not in keep:
                        keep[k] = sum(
                            p * after[tuple(sorted(k + more))] for more, p in outcomes(5 - len(k))
                        )
            values.append({roll: max(keep[k] for k in sub_keeps(roll)) for roll in ROLLS})
        return values[0], values[1], values[2]

    def keep_value(self, open_boxes: frozenset[str], keep: tuple[int, ...], rolls_left: int):
        after = self.turn(open_boxes)[rolls_left - 1]
        return sum(p * after[tuple(sorted(keep + more))] for more, p in outcomes(5 - len(keep)))


def yacht_card(open_boxes: frozenset[str]) -> Scorecard:
    return Scorecard(
        rules=YACHT, boxes=tuple(None if b.value in open_boxes else 0 for b in YachtBox)
    )


def reduced_games() -> list[frozenset[str]]:
    """Yacht cards with two to four boxes left, drawn once (a fixed seed)."""
    draw = random.Random(31)
    ids = [b.value for b in YachtBox]
    games: list[frozenset[str]] = []
    for k in (2, 2, 3, 3, 4, 4):
        while (game := frozenset(draw.sample(ids, k))) in games:
            pass
        games.append(game)
    return games


def test_the_brute_forces_scoring_is_exercisms():
    import json

    cases = json.loads((Path(__file__).parent / "data" / "yacht-canonical-data.json").read_text())
    for case in cases["cases"]:
        box = case["input"]["category"].replace(" ", "_")
        assert yacht_score(box, tuple(case["input"]["dice"])) == case["expected"]


@pytest.mark.parametrize("open_boxes", reduced_games(), ids=lambda b: "+".join(sorted(b)))
def test_the_generic_solver_matches_a_brute_force_on_reduced_yacht_games(open_boxes):
    position = yacht_card(open_boxes)
    coach = Advisor(solve(YACHT, from_mask=mask_of(position)))
    brute = BruteYacht()
    assert coach.expected_total(position) == pytest.approx(brute.future(open_boxes), abs=1e-9)
    draw = random.Random(len(open_boxes))
    for _ in range(12):
        dice = tuple(draw.randint(1, 6) for _ in range(5))
        for rolls_left in (0, 1, 2):
            for option in coach.rank(position, dice, rolls_left):
                if isinstance(option.choice, YachtBox):
                    box = option.choice.value
                    expected = yacht_score(box, dice) + brute.future(open_boxes - {box})
                else:
                    expected = brute.keep_value(open_boxes, option.choice, rolls_left)
                assert option.expected_total == pytest.approx(expected, abs=1e-9), option


# -- the full tables -------------------------------------------------------------------


def test_yatzys_optimal_mean_is_the_published_value(ruleset_advisor):
    coach = ruleset_advisor("yatzy")
    assert coach.expected_total(Scorecard(rules=YATZY)) == pytest.approx(
        YATZY_PUBLISHED_MEAN, abs=1e-6
    )


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_optimal_games_average_the_tables_value(ruleset_advisor, ruleset):
    coach = ruleset_advisor(ruleset)
    batch, _ = simulate_lockstep(coach, 8000, seed=7)
    expected = coach.expected_total(Scorecard(rules=Rules(ruleset=ruleset)))
    error = batch.totals.std() / np.sqrt(len(batch.totals))
    assert abs(batch.totals.mean() - expected) < 4 * error


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_lock_step_games_replay_through_the_scorecard(ruleset_advisor, ruleset):
    from games.strategy.rolls_and_keeps import ROLLS as LATTICE_ROLLS

    coach = ruleset_advisor(ruleset)
    rules = Rules(ruleset=ruleset)
    batch, _ = simulate_lockstep(coach, 40, seed=3)
    for g in range(40):
        card = Scorecard(rules=rules)
        for t in range(len(rules.boxes)):
            box = rules.boxes[batch.order[g, t]]
            card = card.score(box, LATTICE_ROLLS[batch.scored[g, t]])
        assert card.total == batch.totals[g]
        assert [card[box] for box in rules.boxes] == batch.boxes[g].tolist()


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_rule_tables_match_options_on_random_cards(ruleset):
    rules = Rules(ruleset=ruleset)
    tables = rule_tables(rules)
    shape = layout(rules)
    draw = random.Random(5)
    rolls = list(combinations_with_replacement(range(1, 7), 5))
    for _ in range(300):
        mask = draw.randrange(shape.full)
        card = Scorecard(
            rules=rules, boxes=tuple(0 if mask >> i & 1 else None for i in range(shape.count))
        )
        roll = draw.choice(rolls)
        offered = options(card, roll)
        r = ROLL_INDEX[roll]
        legal = [
            tables.joker_legal[mask, roll[0] - 1, c]
            if len(set(roll)) == 1 and mask & shape.five_bit
            else tables.legal[mask, c]
            for c in range(shape.count)
        ]
        assert {rules.boxes[c] for c in range(shape.count) if legal[c]} == set(offered)
        for box, points in offered.items():
            assert tables.points[rules.boxes.index(box), r] == points


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_bot_plays_a_whole_game_of_every_rule_set(ruleset_advisor, ruleset, policy):
    coach = ruleset_advisor(ruleset)
    rules = Rules(ruleset=ruleset)
    rng = random.Random(11)
    state = engine.start(2, rules, rng)
    while not state.is_finished:
        seat = state.current_seat
        state = engine.apply(state, choose_action(coach, state, seat, rng, policy), rng)
    assert all(card.is_complete for card in state.cards)
    assert state.turn_number == 2 * len(rules.boxes)


def played_and_logged(coach: Advisor, rules: Rules, policy: str, seed: int):
    """A solitaire game played by ``policy``, and its move log as the site keeps it."""
    rng = random.Random(seed)
    state = engine.start(1, rules, rng)
    moves = []
    while not state.is_finished:
        action = choose_action(coach, state, 0, rng, policy)
        before = state
        state = engine.apply(state, action, rng)
        if isinstance(action, engine.Roll):
            held = "".join("1" if h else "0" for h in before.held) if before.dice else "00000"
            moves.append(LoggedMove("roll", 0, "".join(map(str, state.dice)), held))
        elif isinstance(action, engine.Score):
            dice = "".join(map(str, before.dice))
            moves.append(LoggedMove("score", 0, dice, category=rules.box(action.category).value))
    return state.cards[0], moves


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_the_review_splits_a_game_of_every_rule_set_into_skill_and_luck(ruleset_advisor, ruleset):
    coach = ruleset_advisor(ruleset)
    rules = Rules(ruleset=ruleset)
    card, moves = played_and_logged(coach, rules, "optimal", seed=5)
    review = review_game(coach, rules, 1, moves)[0]
    assert review.final_total == card.total
    assert review.total_loss == pytest.approx(0.0, abs=1e-9)
    assert review.skill.expected_start == coach.expected_total(Scorecard(rules=rules))
    card, moves = played_and_logged(coach, rules, "casual", seed=6)
    review = review_game(coach, rules, 1, moves)[0]
    assert review.total_loss > 0
    assert review.skill.play_worth + review.skill.luck == pytest.approx(card.total)
    assert sum(d.kind == "box" for d in review.decisions) == len(rules.boxes)


def late_yatzy_card(seed: int, open_boxes: int = 4) -> Scorecard:
    """A Yatzy card of random legal play with ``open_boxes`` boxes left."""
    draw = random.Random(seed)
    card = Scorecard(rules=YATZY)
    while len(card.open_boxes) > open_boxes:
        dice = tuple(draw.randint(1, 6) for _ in range(5))
        card = card.score(draw.choice(list(options(card, dice))), dice)
    return card


def test_the_score_distribution_of_a_yatzy_card_averages_its_expected_total(ruleset_advisor):
    coach = ruleset_advisor("yatzy")
    card = late_yatzy_card(1)
    dist = final_score_distribution(coach, card)
    assert dist.sum() == pytest.approx(1.0)
    assert (np.arange(len(dist)) * dist).sum() == pytest.approx(coach.expected_total(card))


def test_playing_to_win_at_yatzy_ranks_every_choice_by_its_chance(ruleset_advisor):
    coach = ruleset_advisor("yatzy")
    card, opponent = late_yatzy_card(2, 3), late_yatzy_card(3, 3)
    ranked = rank_to_win(coach, card, "12345", 2, [opponent])
    assert {option.choice for option in ranked} == {
        option.choice for option in coach.rank(card, "12345", 2)
    }
    assert all(0.0 <= option.win_probability <= 1.0 for option in ranked)
    chances = [option.win_probability for option in ranked]
    assert all(a >= b - 1e-12 for a, b in pairwise(chances))


# -- Yatzy against the published solver ------------------------------------------------


@pytest.fixture(scope="session")
def peer_yatzy():
    """``yatzy-solver`` (the ``peer`` extra; ``make install`` installs it) with its table for
    Scandinavian Yatzy, built once and kept in the strategy cache folder."""
    try:
        import yatzy_solver
    except ImportError:  # pragma: no cover - make install puts it in .venv
        pytest.fail("yatzy-solver is not installed: run `make install` (the [peer] extra)")
    variant = yatzy_solver.Variant(PEER_VARIANT)
    folder = Path(settings.STRATEGY_CACHE_DIR) / "peer"
    path = folder / f"{PEER_VARIANT}-{yatzy_solver.__version__}-f64.bin"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        yatzy_solver.Solver.build_table(variant, str(partial), precision="f64")
        partial.replace(path)
    return yatzy_solver.Solver.load(str(path), variant)


def peer_situation(card: Scorecard, dice: tuple[int, ...], rolls_left: int) -> str:
    """A Yatzy position in yatzy-solver's notation (its category names are our box ids)."""
    filled = ",".join(box.value for box in YATZY.boxes if card[box] is not None) or "-"
    held = " ".join(str(d) for d in sorted(dice))
    upper = min(card.upper_subtotal, 63)
    return f"dice {held} | rolls {rolls_left} | upper {upper} | filled {filled}"


def peer_choice(action: str) -> object:
    verb, _, rest = action.partition(" ")
    if verb == "score":
        return YATZY.box(rest)
    return tuple(sorted(int(d) for d in rest.split())) if rest != "-" else ()


def random_positions(count: int, seed: int) -> list[tuple[Scorecard, tuple[int, ...], int]]:
    """Positions of random legal play: any card, any dice, any rolls left."""
    draw = random.Random(seed)
    positions = []
    while len(positions) < count:
        card = Scorecard(rules=YATZY)
        for _ in range(draw.randrange(len(YATZY.boxes))):
            dice = tuple(draw.randint(1, 6) for _ in range(5))
            card = card.score(draw.choice(list(options(card, dice))), dice)
        dice = tuple(draw.randint(1, 6) for _ in range(5))
        positions.append((card, dice, draw.randint(0, 2)))
    return positions


def test_every_option_of_thousands_of_yatzy_positions_is_worth_what_the_peer_says(
    ruleset_advisor, peer_yatzy
):
    coach = ruleset_advisor("yatzy")
    compared = 0
    worst = 0.0
    for card, dice, rolls_left in random_positions(2500, seed=2026):
        ours = {
            option.choice: option.expected_total - card.total
            for option in coach.rank(card, dice, rolls_left)
        }
        theirs = {
            peer_choice(action): value
            for action, value in peer_yatzy.option_values(peer_situation(card, dice, rolls_left))
        }
        # the peer does not list keeping all five dice (a roll spent for nothing)
        assert set(theirs) == {c for c in ours if not (isinstance(c, tuple) and len(c) == 5)}
        for choice, value in theirs.items():
            worst = max(worst, abs(ours[choice] - value))
        compared += len(theirs)
    assert compared > 20_000
    assert worst < 1e-9


def test_yatzys_empty_card_and_its_first_turns_agree_with_the_peer(ruleset_advisor, peer_yatzy):
    coach = ruleset_advisor("yatzy")
    assert coach.expected_total(Scorecard(rules=YATZY)) == pytest.approx(
        peer_yatzy.state_value("upper 0 | filled -"), abs=1e-9
    )


# -- tables on disk and the commands ---------------------------------------------------


def test_each_profile_has_its_own_file_and_fingerprint(tmp_path):
    from games.strategy import table_path, tablefile

    profiles = [Rules(), Rules(upper_first=True), YATZY, YACHT]
    names = [table_path(rules, tmp_path).name for rules in profiles]
    assert names == [
        "yahtzee-official.npz",
        "yahtzee-upper-first.npz",
        "yatzy-official.npz",
        "yacht-official.npz",
    ]
    prints = {tablefile.fingerprint(rules) for rules in (Rules(), YATZY, YACHT)}
    assert len(prints) == 3
    assert tablefile.fingerprint(Rules(upper_first=True)) == tablefile.fingerprint(Rules())


def test_a_stored_yacht_table_loads_back_for_yacht_only(tmp_path):
    from games.strategy import load_table, save_table, table_path

    table = solve(YACHT, from_mask=mask_of(yacht_card(frozenset({"yacht", "choice"}))))
    path = save_table(table, table_path(YACHT, tmp_path))
    loaded = load_table(YACHT, path)
    assert loaded is not None and np.array_equal(loaded.values, table.values)
    assert load_table(YATZY, path) is None
    assert load_table(Rules(), path) is None


def test_solve_and_simulate_commands_take_a_rule_set(tmp_path):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    from games.strategy import load_table, store, table_path

    out = StringIO()
    call_command("solve", ruleset="yacht", cache_dir=tmp_path, stdout=out)
    assert "Yacht: expected score" in out.getvalue()
    stored = load_table(YACHT, table_path(YACHT, tmp_path))
    assert stored is not None and stored.rules == YACHT
    out = StringIO()
    call_command(
        "simulate", ruleset="yacht", games=3, bot="optimal", seed=1, cache_dir=tmp_path, stdout=out
    )
    assert "Yacht rate" in out.getvalue() and "upper bonus rate" in out.getvalue()
    store.forget_advisors()
    with pytest.raises(CommandError, match="no upper-first option"):
        call_command("solve", ruleset="yatzy", upper_first=True, cache_dir=tmp_path)
    with pytest.raises(CommandError, match="no upper-first option"):
        call_command("simulate", ruleset="yacht", upper_first=True, cache_dir=tmp_path)


def test_solve_all_builds_every_profile_of_every_rule_set(tmp_path, monkeypatch):
    from games.management.commands import solve as solve_command

    built = []
    monkeypatch.setattr(
        solve_command.Command,
        "build",
        lambda self, ruleset, upper, options: built.append((ruleset, upper)),
    )
    from django.core.management import call_command

    every = [("yahtzee", False), ("yahtzee", True), ("yatzy", False), ("yacht", False)]
    call_command("solve", all=True, cache_dir=tmp_path)
    assert built == every
    built.clear()
    call_command("solve", cache_dir=tmp_path)  # no profile named: every one
    assert built == every
    built.clear()
    call_command("solve", upper_first=True, cache_dir=tmp_path)
    call_command("solve", ruleset="yatzy", cache_dir=tmp_path)
    assert built == [("yahtzee", True), ("yatzy", False)]


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_fair_play_figures_count_the_coachs_own_play_as_full_agreement(ruleset_advisor, ruleset):
    from games.strategy.fairness_runs import game_figures

    coach = ruleset_advisor(ruleset)
    choices, agreed = game_figures(coach, random.Random(4), "optimal")
    assert choices > 0 and agreed == choices
    choices, agreed = game_figures(coach, random.Random(4), "casual")
    assert 0 <= agreed < choices


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_heads_up_series_play_to_the_end_of_every_rule_set(ruleset_advisor, ruleset):
    from games.strategy.simulation import simulate_match

    result = simulate_match(ruleset_advisor(ruleset), 4, "win", "optimal", seed=3)
    assert result.wins + result.ties + result.losses == 4


def test_each_rule_set_has_its_own_advisor_in_the_store(tmp_path):
    from games.strategy import loaded_advisor, save_table, store, strategy_status, table_path

    store.forget_advisors()
    try:
        table = solve(YACHT, from_mask=mask_of(yacht_card(frozenset({"yacht", "ones"}))))
        save_table(table, table_path(YACHT, tmp_path))
        assert strategy_status(YACHT, tmp_path) == "stored"
        assert strategy_status(YATZY, tmp_path) == "missing"
        coach = loaded_advisor(YACHT, tmp_path)
        assert coach is not None and coach.rules == YACHT
        assert loaded_advisor(YATZY, tmp_path) is None
        assert loaded_advisor(Rules(), tmp_path) is None
        assert strategy_status(YATZY, tmp_path) == "missing"  # nothing started a build
    finally:
        store.forget_advisors()
