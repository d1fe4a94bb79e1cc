"""The game as a state machine: roll-off, turn order, rolls and holds, scoring, the end."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    MAX_SEATS,
    NO_HOLDS,
    ROLLS_PER_TURN,
    ROUNDS,
    TABLE_KEYS,
    GameState,
    Keep,
    Roll,
    RollOffRound,
    Score,
    Standing,
    apply,
    roll_dice,
    run_rolloff,
    start,
)
from games.rules import Category, IllegalMove, Rules, Scorecard, options

C = Category
ALL_HELD = (True,) * 5


# -- helpers ----------------------------------------------------------------------------


class ScriptedDice:
    """A dice source that shows the faces it is given, in order: ``ScriptedDice("66612")``."""

    def __init__(self, *faces: str) -> None:
        self.faces = [int(face) for face in "".join(faces)]

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        assert self.faces, "the test rolled more dice than it scripted"
        return self.faces.pop(0)


def dice(text: str) -> tuple[int, ...]:
    return tuple(int(face) for face in text)


def mask(text: str) -> tuple[bool, ...]:
    """Holds written as a string: ``"x.x.."`` keeps the first and third dice."""
    return tuple(ch == "x" for ch in text)


def new_game(seats: int = 2, rules: Rules | None = None, seed: int = 0) -> GameState:
    return start(seats, rules or Rules(), random.Random(seed))


def game_started_by(starter: int, seats: int) -> GameState:
    """A fresh game where the roll-off was won by ``starter``."""
    rolls = ScriptedDice(*("66666" if seat == starter else "11111" for seat in range(seats)))
    state = start(seats, Rules(), rolls)
    assert state.starter == starter
    return state


def rolled(state: GameState, faces: str) -> GameState:
    """The current seat rolls, and the (unheld) dice show ``faces``."""
    return apply(state, Roll(state.current_seat), ScriptedDice(faces))


def first_option(state: GameState) -> Category:
    return next(iter(options(state.cards[state.current_seat], state.dice)))


def play_turn(state: GameState, rng: random.Random) -> GameState:
    """The current seat rolls once and scores the first box it may."""
    state = apply(state, Roll(state.current_seat), rng)
    return apply(state, Score(state.current_seat, first_option(state)))


def play_to_the_end(state: GameState, seed: int = 1) -> GameState:
    rng = random.Random(seed)
    while not state.is_finished:
        state = play_turn(state, rng)
    return state


def assert_illegal(state: GameState, action, match: str, rng=None) -> None:
    """``action`` raises IllegalMove with ``match`` and leaves ``state`` as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match=match):
        apply(state, action, rng if rng is not None else random.Random(0))
    assert state == before


def with_cards(state: GameState, *cards: Scorecard) -> GameState:
    return replace(state, cards=tuple(cards))


def card_totalling(total: int) -> Scorecard:
    return Scorecard.from_dict({"boxes": {"chance": total}})


@pytest.fixture
def game() -> GameState:
    """Two players, seat 1 won the roll-off."""
    return game_started_by(1, seats=2)


# -- dice -------------------------------------------------------------------------------


def test_roll_dice_rolls_five_dice_from_the_source_given():
    assert roll_dice(ScriptedDice("31416")) == (3, 1, 4, 1, 6)


def test_roll_dice_can_roll_fewer_dice():
    assert roll_dice(ScriptedDice("25"), count=2) == (2, 5)


def test_same_seed_gives_the_same_game():
    assert play_to_the_end(new_game(3, seed=7), seed=8) == play_to_the_end(
        new_game(3, seed=7), seed=8
    )


# -- roll-off ---------------------------------------------------------------------------


def test_rolloff_highest_total_starts():
    state = start(3, Rules(), ScriptedDice("11111", "66666", "22222"))
    assert state.starter == 1
    assert state.rolloff == (
        RollOffRound(((0, dice("11111")), (1, dice("66666")), (2, dice("22222")))),
    )


def test_rolloff_compares_totals_not_patterns():
    state = start(2, Rules(), ScriptedDice("22222", "66543"))  # 10 against 24
    assert state.starter == 1


def test_tied_leaders_roll_again_among_themselves():
    rolls = ScriptedDice(
        "666651111156666",  # seats 0 and 2 tie on 29
        "2222233333",  # only seats 0 and 2 roll again
    )
    state = start(3, Rules(), rolls)
    assert rolls.faces == []
    assert len(state.rolloff) == 2
    assert state.rolloff[1] == RollOffRound(((0, dice("22222")), (2, dice("33333"))))
    assert state.starter == 2


def test_rolloff_repeats_until_one_leader_remains():
    rolls = ScriptedDice(
        "33333333333333322222",  # seats 0, 1 and 2 tie on 15
        "444441111144444",  # seats 0 and 2 tie again on 20
        "1234512346",  # seat 2 wins with 16
    )
    state = start(4, Rules(), rolls)
    assert rolls.faces == []
    assert [len(r.rolls) for r in state.rolloff] == [4, 3, 2]
    assert [r.leaders for r in state.rolloff] == [(0, 1, 2), (0, 2), (2,)]
    assert state.starter == 2


def test_a_single_player_rolls_off_alone_and_starts():
    state = start(1, Rules(), ScriptedDice("12345"))
    assert state.rolloff == (RollOffRound(((0, dice("12345")),)),)
    assert state.starter == 0


def test_rolloff_round_knows_its_best_total_and_leaders():
    rolloff_round = RollOffRound(((0, dice("66611")), (3, dice("55556")), (5, dice("66662"))))
    assert rolloff_round.best_total == 26
    assert rolloff_round.leaders == (3, 5)


def test_run_rolloff_uses_the_seat_numbers_given():
    rounds = run_rolloff([4, 7], ScriptedDice("11111", "11112"))
    assert rounds[-1].leaders == (7,)


@pytest.mark.parametrize("seats", [0, -1, MAX_SEATS + 1])
def test_game_needs_one_to_eight_players(seats):
    with pytest.raises(IllegalMove, match=f"1 to 8 players, not {seats}"):
        start(seats, Rules(), random.Random(0))


@pytest.mark.parametrize("seats", [1, 2, MAX_SEATS])
def test_new_game_starts_with_empty_cards_and_no_dice(seats):
    rules = Rules(upper_first=True)
    state = start(seats, rules, random.Random(3))
    assert state.cards == (Scorecard(rules=rules),) * seats
    assert state.seat_count == seats
    assert state.turn_number == 0
    assert state.round == 1
    assert state.current_seat == state.starter
    assert state.dice is None
    assert not state.has_rolled
    assert state.held == NO_HOLDS
    assert state.rolls_left == ROLLS_PER_TURN == 3
    assert not state.is_finished
    assert state.winners() == ()


# -- turn order -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("starter", "seats", "order"),
    [(0, 1, (0,)), (0, 3, (0, 1, 2)), (2, 4, (2, 3, 0, 1)), (3, 4, (3, 0, 1, 2))],
)
def test_play_goes_round_the_table_from_the_starter(starter, seats, order):
    state = game_started_by(starter, seats)
    assert state.order == order
    rng = random.Random(0)
    seen = []
    for _ in range(2 * seats):
        seen.append(state.current_seat)
        state = play_turn(state, rng)
    assert seen == list(order) * 2


def test_round_advances_once_every_seat_has_played():
    state = game_started_by(1, seats=3)
    rng = random.Random(0)
    rounds = []
    for _ in range(7):
        rounds.append(state.round)
        state = play_turn(state, rng)
    assert rounds == [1, 1, 1, 2, 2, 2, 3]


@pytest.mark.parametrize(
    "action",
    [Roll(0), Keep(0, ALL_HELD), Score(0, C.CHANCE), Roll(2), Roll(-1)],
    ids=repr,
)
def test_a_seat_may_not_act_out_of_turn(game, action):
    game = rolled(game, "12345")
    assert_illegal(game, action, "It is not your turn")


def test_a_seat_may_not_roll_out_of_turn_before_anyone_rolled(game):
    assert_illegal(game, Roll(0), "It is not your turn")


# -- rolling and keeping ----------------------------------------------------------------


def test_first_roll_rolls_all_five_dice(game):
    state = rolled(game, "31426")
    assert state.dice == dice("31426")
    assert state.has_rolled
    assert state.rolls_left == 2
    assert state.held == NO_HOLDS
    assert game.dice is None  # the old state is untouched


def test_must_roll_before_scoring(game):
    assert_illegal(game, Score(1, C.CHANCE), "Roll the dice before choosing a box")


def test_must_roll_before_keeping(game):
    assert_illegal(game, Keep(1, ALL_HELD), "Roll the dice before keeping any")


def test_kept_dice_are_empty_before_the_first_roll(game):
    assert game.kept_dice() == ()


def test_at_most_three_rolls_a_turn(game):
    state = game
    for rolls_left in (2, 1, 0):
        state = apply(state, Roll(1), random.Random(rolls_left))
        assert state.rolls_left == rolls_left
    assert_illegal(state, Roll(1), "No rolls left this turn")


def test_cannot_keep_after_the_third_roll(game):
    state = rolled(rolled(rolled(game, "12345"), "12345"), "12345")
    assert_illegal(state, Keep(1, mask("xx...")), "No rolls left this turn")


def test_kept_dice_stay_while_the_others_are_rolled_again(game):
    state = rolled(game, "63616")
    state = apply(state, Keep(1, mask("x.x.x")))
    assert state.held == mask("x.x.x")
    assert state.kept_dice() == (6, 6, 6)
    state = rolled(state, "24")  # only the two free dice are rolled
    assert state.dice == dice("62646")
    assert state.rolls_left == 1


@pytest.mark.parametrize(
    ("faces", "holds", "kept"),
    [("63514", "xxx..", (3, 5, 6)), ("62646", "x.x.x", (6, 6, 6)), ("12345", ".....", ())],
)
def test_kept_dice_are_listed_lowest_first(game, faces, holds, kept):
    assert apply(rolled(game, faces), Keep(1, mask(holds))).kept_dice() == kept


def test_holds_carry_over_to_the_next_roll_until_changed(game):
    state = apply(rolled(game, "55123"), Keep(1, mask("xx...")))
    state = rolled(state, "512")
    assert state.dice == dice("55512")
    state = apply(state, Keep(1, mask("xxx..")))
    state = rolled(state, "55")
    assert state.dice == dice("55555")
    assert state.kept_dice() == (5, 5, 5)


def test_released_dice_are_rolled_again(game):
    state = apply(rolled(game, "66666"), Keep(1, ALL_HELD))
    state = apply(state, Keep(1, NO_HOLDS))
    assert state.held == NO_HOLDS
    assert rolled(state, "12345").dice == dice("12345")


def test_keeping_all_five_dice_spends_a_roll_and_keeps_the_dice(game):
    state = apply(rolled(game, "44444"), Keep(1, ALL_HELD))
    state = apply(state, Roll(1), ScriptedDice(""))
    assert state.dice == dice("44444")
    assert state.rolls_left == 1


def test_keep_accepts_any_sequence_of_five_flags(game):
    state = apply(rolled(game, "12345"), Keep(1, [True, False, False, False, True]))
    assert state.held == mask("x...x")
    assert state.kept_dice() == (1, 5)


@pytest.mark.parametrize(
    "held",
    [(True,) * 4, (True,) * 6, (), (1, 0, 1, 0, 1), ("x", "", "", "", ""), None, 5],
    ids=repr,
)
def test_keep_needs_one_true_or_false_per_die(game, held):
    assert_illegal(rolled(game, "12345"), Keep(1, held), "Choose which of the five dice")


def test_rolling_needs_a_source_of_randomness(game):
    before = copy.deepcopy(game)
    with pytest.raises(ValueError, match="needs a source of randomness"):
        apply(game, Roll(1))
    assert game == before


def test_an_unknown_action_is_a_type_error(game):
    @dataclass(frozen=True)
    class Pass:
        seat: int

    with pytest.raises(TypeError, match="Unknown action"):
        apply(game, Pass(1))


# -- scoring ----------------------------------------------------------------------------


def test_scoring_one_box_ends_the_turn(game):
    state = apply(rolled(game, "55123"), Keep(1, mask("xx...")))
    state = apply(state, Score(1, C.FIVES))
    assert state.cards[1][C.FIVES] == 10
    assert state.cards[0] == Scorecard()
    assert state.turn_number == 1
    assert state.current_seat == 0
    assert state.dice is None
    assert state.held == NO_HOLDS
    assert state.rolls_left == ROLLS_PER_TURN


def test_may_score_after_any_number_of_rolls(game):
    for rolls in (1, 2, 3):
        state = game
        for _ in range(rolls):
            state = rolled(state, "22333")
        assert apply(state, Score(1, C.FULL_HOUSE)).cards[1][C.FULL_HOUSE] == 25


def test_scoring_a_filled_box_is_refused(game):
    state = play_turn(play_turn(game, random.Random(0)), random.Random(0))
    filled = next(c for c in Category if not state.cards[1].is_open(c))
    assert_illegal(rolled(state, "12345"), Score(1, filled), "already filled")


def test_scoring_a_box_the_joker_forbids_is_refused(game):
    card = Scorecard().score(C.YAHTZEE, "66666")
    state = rolled(with_cards(game, Scorecard(), card), "44444")
    assert_illegal(state, Score(1, C.CHANCE), "Joker rule")
    after = apply(state, Score(1, C.FOURS))
    assert after.cards[1][C.FOURS] == 20
    assert after.cards[1].yahtzee_bonus_count == 1


def test_scoring_a_lower_box_the_variant_forbids_is_refused():
    state = start(1, Rules(upper_first=True), ScriptedDice("11111"))
    state = rolled(state, "12345")
    assert_illegal(state, Score(0, C.LARGE_STRAIGHT), "Fill all six upper boxes")
    assert apply(state, Score(0, C.FIVES)).cards[0][C.FIVES] == 5


def test_scoring_something_that_is_not_a_box_is_refused(game):
    assert_illegal(rolled(game, "12345"), Score(1, "sevens"), "no 'sevens' box")


def test_a_move_may_name_its_box_by_id(game):
    state = apply(rolled(game, "12345"), Score(1, "large_straight"))
    assert state.cards[1][C.LARGE_STRAIGHT] == 40


# -- the end and the ranking ------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 3])
def test_game_ends_when_every_card_is_complete_after_thirteen_rounds(seats):
    state = new_game(seats, seed=seats)
    rng = random.Random(5)
    for _ in range(ROUNDS * seats - 1):
        state = play_turn(state, rng)
    assert not state.is_finished
    assert state.round == ROUNDS
    state = play_turn(state, rng)
    assert state.is_finished
    assert state.turn_number == 13 * seats
    assert all(card.is_complete for card in state.cards)
    assert state.current_seat is None
    assert state.round == ROUNDS


@pytest.mark.parametrize(
    "action", [Roll(0), Roll(1), Keep(0, ALL_HELD), Score(1, C.CHANCE)], ids=repr
)
def test_no_one_may_act_once_the_game_is_over(action):
    assert_illegal(play_to_the_end(new_game(2)), action, "The game is over")


@pytest.mark.parametrize(
    ("totals", "places"),
    [
        ((150, 150, 80), (1, 1, 3)),
        ((80, 150, 150), (3, 1, 1)),
        ((150, 80, 80), (1, 2, 2)),
        ((99, 99, 99), (1, 1, 1)),
        ((40, 30, 20, 10), (1, 2, 3, 4)),
        ((10, 20, 30, 40), (4, 3, 2, 1)),
        ((200, 200, 100, 100), (1, 1, 3, 3)),
        ((7,), (1,)),
    ],
)
def test_ranking_shares_places_on_equal_totals(totals, places):
    state = with_cards(new_game(len(totals)), *(card_totalling(t) for t in totals))
    ranking = state.ranking()
    assert {s.seat: s.place for s in ranking} == dict(enumerate(places))
    assert [s.total for s in ranking] == sorted(totals, reverse=True)
    assert [s.place for s in ranking] == sorted(places)


def test_ranking_lists_tied_seats_in_seat_order():
    state = with_cards(new_game(3), card_totalling(50), card_totalling(90), card_totalling(90))
    assert state.ranking() == (
        Standing(place=1, seat=1, total=90),
        Standing(place=1, seat=2, total=90),
        Standing(place=3, seat=0, total=50),
    )


@pytest.mark.parametrize(
    ("totals", "left", "places"),
    [
        ((150, 90, 80), {0}, (3, 1, 2)),
        ((150, 150, 80), {1}, (1, 3, 2)),
        ((90, 90, 50), {0, 1}, (2, 2, 1)),  # those who left share a place among themselves
        ((50, 50), {1}, (1, 2)),  # an equal total is no shared place with one who left
    ],
)
def test_seats_that_left_rank_below_everyone_who_stayed(totals, left, places):
    state = with_cards(new_game(len(totals)), *(card_totalling(t) for t in totals))
    ranking = state.ranking(behind=frozenset(left))
    assert {s.seat: s.place for s in ranking} == dict(enumerate(places))


@pytest.mark.parametrize(
    ("totals", "winners"),
    [((50, 90, 70), (1,)), ((90, 90, 70), (0, 1)), ((60, 60, 60), (0, 1, 2))],
)
def test_winners_are_the_seats_in_first_place_once_the_game_is_over(totals, winners):
    finished = play_to_the_end(new_game(3))
    state = with_cards(finished, *(card_totalling(t) for t in totals))
    assert state.is_finished
    assert state.winners() == winners


def test_no_winners_while_the_game_is_still_on():
    state = play_to_the_end(new_game(2))
    unfinished = replace(state, turn_number=state.turn_number - 1)
    assert not unfinished.is_finished
    assert unfinished.ranking() == state.ranking()
    assert state.winners()
    assert unfinished.winners() == ()


# -- persistence ------------------------------------------------------------------------


def test_to_dict_is_plain_json_data(game):
    state = apply(rolled(game, "12345"), Keep(1, mask("x...x")))
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["dice"] == [1, 2, 3, 4, 5]
    assert data["held"] == [True, False, False, False, True]
    assert data["rolls_left"] == 2
    assert data["starter"] == 1


def test_the_table_dict_is_to_dicts_table_keys_without_the_cards(game):
    state = apply(rolled(game, "12345"), Keep(1, mask("x...x")))
    table = state.table_dict()
    assert tuple(table) == TABLE_KEYS
    assert table == {key: state.to_dict()[key] for key in TABLE_KEYS}


@pytest.mark.parametrize(
    "make_state",
    [
        lambda: new_game(2),
        lambda: apply(rolled(game_started_by(0, 3), "12345"), Keep(0, mask("x...x"))),
        lambda: play_to_the_end(new_game(2, Rules(upper_first=True), seed=4)),
    ],
    ids=["fresh", "mid-turn", "finished"],
)
def test_state_round_trips_through_a_dict_and_json(make_state):
    state = make_state()
    assert GameState.from_dict(state.to_dict()) == state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


# -- properties -------------------------------------------------------------------------

PROPERTY = settings(max_examples=25, deadline=None)


def expected_outcome(state: GameState, action, turns: int, rolls: int, starter: int) -> bool:
    """An independent oracle: may ``action`` be played now?"""
    n = state.seat_count
    if turns >= 13 * n or action.seat != (starter + turns) % n:
        return False
    if isinstance(action, Roll):
        return rolls < 3
    if isinstance(action, Keep):
        return 0 < rolls < 3 and len(action.held) == 5
    return rolls > 0 and action.category in options(state.cards[action.seat], state.dice)


@PROPERTY
@given(
    seats=st.integers(1, 4),
    upper_first=st.booleans(),
    game_seed=st.integers(0, 2**32),
    player_seed=st.integers(0, 2**32),
    mischief=st.floats(0.0, 0.5),
)
def test_random_whole_games_never_let_a_seat_act_out_of_turn_or_roll_a_fourth_time(
    seats, upper_first, game_seed, player_seed, mischief
):
    dice_rng, player = random.Random(game_seed), random.Random(player_seed)
    state = start(seats, Rules(upper_first=upper_first), dice_rng)
    turns = rolls = 0
    scored = [0] * seats
    actions_after_the_end = 0
    while actions_after_the_end < 5:
        actions_after_the_end += state.is_finished
        if player.random() < mischief or state.is_finished:  # anything at all
            seat = player.randrange(-1, seats + 1)
            action = player.choice(
                [
                    Roll(seat),
                    Keep(seat, tuple(player.random() < 0.5 for _ in range(player.choice([4, 5])))),
                    Score(seat, player.choice(list(Category))),
                ]
            )
        else:  # something a sensible player would do
            seat = state.current_seat
            choices = ["roll"] * (rolls < 3) + ["keep", "score"] * (rolls > 0)
            kind = player.choice(choices)
            if kind == "roll":
                action = Roll(seat)
            elif kind == "keep":
                action = Keep(seat, tuple(player.random() < 0.5 for _ in range(5)))
            else:
                allowed = list(options(state.cards[seat], state.dice))
                action = Score(seat, player.choice(allowed))
        legal = expected_outcome(state, action, turns, rolls, state.starter)
        if not legal:
            assert_illegal(state, action, r"^[A-Z].*\w", rng=dice_rng)
            continue
        after = apply(state, action, dice_rng)
        if isinstance(action, Roll):
            rolls += 1
            assert after.rolls_left == 3 - rolls
            assert all(after.dice[i] == state.dice[i] for i in range(5) if state.held[i])
            assert all(1 <= d <= 6 for d in after.dice)
        elif isinstance(action, Keep):
            assert after.held == action.held
            assert after.dice == state.dice
        else:
            turns, rolls = turns + 1, 0
            scored[action.seat] += 1
            assert after.cards[action.seat].filled_count == scored[action.seat]
            assert after.dice is None
        assert after.turn_number == turns
        assert 0 <= after.rolls_left <= 3
        state = after
    assert state.is_finished
    assert scored == [13] * seats
    assert all(card.is_complete for card in state.cards)
    assert sorted(s.seat for s in state.ranking()) == list(range(seats))
    assert state.winners()


@PROPERTY
@given(data=st.data(), seats=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_any_state_round_trips_through_a_dict(data, seats, seed):
    rng = random.Random(seed)
    state = start(seats, Rules(upper_first=data.draw(st.booleans())), rng)
    for _ in range(data.draw(st.integers(0, 13 * seats))):
        state = play_turn(state, rng)
    if not state.is_finished:
        for _ in range(data.draw(st.integers(0, 3))):
            state = apply(state, Roll(state.current_seat), rng)
        if 0 < state.rolls_left < 3:
            state = apply(
                state, Keep(state.current_seat, data.draw(st.tuples(*[st.booleans()] * 5)))
            )
    assert GameState.from_dict(state.to_dict()) == state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


# -- other rule sets ----------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "rounds"), [("yahtzee", 13), ("yatzy", 15), ("yacht", 12)])
def test_a_game_lasts_one_round_per_box_of_its_rule_set(ruleset, rounds):
    rules = Rules(ruleset=ruleset)
    state = new_game(2, rules, seed=3)
    assert state.rounds == rounds
    assert all(card == Scorecard(rules=rules) for card in state.cards)
    rng = random.Random(7)
    for _ in range(rounds * 2 - 1):
        state = play_turn(state, rng)
    assert not state.is_finished
    assert state.round == rounds
    state = play_turn(state, rng)
    assert state.is_finished
    assert state.round == rounds
    assert all(card.is_complete and card.rules == rules for card in state.cards)


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_a_game_of_another_rule_set_round_trips_with_its_rule_set(ruleset):
    state = new_game(3, Rules(ruleset=ruleset), seed=4)
    state = play_turn(play_turn(state, random.Random(2)), random.Random(3))
    data = json.loads(json.dumps(state.to_dict()))
    assert data["rules"] == {"upper_first": False, "ruleset": ruleset}
    assert GameState.from_dict(data) == state


def test_a_state_stored_before_there_were_rule_sets_loads_as_yahtzee():
    state = play_turn(new_game(2, Rules(upper_first=True)), random.Random(1))
    data = state.to_dict()
    data["rules"] = {"upper_first": True}
    assert GameState.from_dict(data) == state
    assert GameState.from_dict(data).rules == Rules(upper_first=True, ruleset="yahtzee")


@pytest.mark.parametrize(
    ("ruleset", "box", "faces", "points"),
    [("yatzy", "two_pairs", "33665", 18), ("yacht", "little_straight", "13245", 30)],
)
def test_a_move_names_a_box_of_its_own_rule_set_by_id(ruleset, box, faces, points):
    state = rolled(new_game(1, Rules(ruleset=ruleset)), faces)
    state = apply(state, Score(0, box))
    assert state.cards[0][box] == points


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_a_yahtzee_box_is_no_box_of_another_rule_set(ruleset):
    state = rolled(new_game(1, Rules(ruleset=ruleset)), "66666")
    assert_illegal(state, Score(0, C.YAHTZEE), "no 'yahtzee' box")
    assert_illegal(state, Score(0, "yahtzee"), "no 'yahtzee' box")
