"""The official Yahtzee rules: scoring every box, bonuses, the forced Joker, variants."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    LOWER,
    UPPER,
    Category,
    IllegalMove,
    Rules,
    Scorecard,
    box_points,
    joker_note,
    joker_points,
    options,
    parse_dice,
    refusal,
)

C = Category
FACE_BOX = {1: C.ONES, 2: C.TWOS, 3: C.THREES, 4: C.FOURS, 5: C.FIVES, 6: C.SIXES}


# -- helpers ----------------------------------------------------------------------------


def make_card(rules: Rules | None = None, bonus_count: int = 0, **filled: int) -> Scorecard:
    """A scorecard with the named boxes filled, e.g. ``make_card(yahtzee=50, fours=12)``."""
    boxes = tuple(filled.pop(c.value, None) for c in Category)
    assert not filled, f"unknown boxes {sorted(filled)}"
    return Scorecard(rules=rules or Rules(), boxes=boxes, yahtzee_bonus_count=bonus_count)


def card_with_open(*open_boxes: Category, yahtzee: int = 50, fill: int = 0) -> Scorecard:
    """A card where only ``open_boxes`` are open; the Yahtzee box holds ``yahtzee``."""
    filled = {c.value: fill for c in Category if c not in open_boxes}
    if C.YAHTZEE not in open_boxes:
        filled["yahtzee"] = yahtzee
    return make_card(**filled)


def play(card: Scorecard, *moves: tuple[Category, str]) -> Scorecard:
    for category, dice in moves:
        card = card.score(category, dice)
    return card


# -- dice -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given_dice", "expected"),
    [
        ("11123", (1, 1, 1, 2, 3)),
        ("65432", (6, 5, 4, 3, 2)),
        ([6, 6, 1, 2, 3], (6, 6, 1, 2, 3)),
        ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)),
        (iter([5, 5, 5, 5, 5]), (5, 5, 5, 5, 5)),
    ],
)
def test_parse_dice_accepts_strings_and_sequences_of_five_faces(given_dice, expected):
    assert parse_dice(given_dice) == expected


@pytest.mark.parametrize(
    ("bad_dice", "message"),
    [
        ("1112", "five dice, not 4"),
        ("111234", "five dice, not 6"),
        ("", "five digits"),
        ("1112x", "five digits"),
        ("1 1 1 2 3", "five digits"),
        ("-1123", "five digits"),
        ("1112\u00b2", "five digits"),  # superscript two: a "digit" int() refuses
        ("\uff11\uff11\uff11\uff12\uff13", "five digits"),  # full-width digits
        ("11170", "not 7"),
        ("01234", "not 0"),
        ([1, 2, 3, 4, 7], "not 7"),
        ([1, 2, 3, 4, 0], "not 0"),
        ([1, 2, 3, 4, 5, 6], "not 6"),
        ([1.0, 2, 3, 4, 5], "not 1.0"),
        (["1", 2, 3, 4, 5], "not '1'"),
        ([True, 2, 3, 4, 5], "not True"),
        (11123, "sequence of five numbers"),
        (None, "sequence of five numbers"),
    ],
)
def test_malformed_dice_are_an_illegal_move_with_a_readable_message(bad_dice, message):
    with pytest.raises(IllegalMove, match=r"^[A-Z].*\.$") as caught:
        parse_dice(bad_dice)
    assert message in str(caught.value)


def test_illegal_move_is_a_value_error():
    assert issubclass(IllegalMove, ValueError)


@pytest.mark.parametrize("bad_dice", ["1112", "11170", [1, 2, 3], None])
def test_every_entry_point_rejects_malformed_dice(bad_dice):
    card = Scorecard()
    for call in (
        lambda: options(card, bad_dice),
        lambda: card.score(C.CHANCE, bad_dice),
        lambda: refusal(card, bad_dice, C.CHANCE),
        lambda: joker_note(card, bad_dice),
    ):
        with pytest.raises(IllegalMove):
            call()


# -- categories -------------------------------------------------------------------------


def test_card_has_six_upper_and_seven_lower_boxes_in_printed_order():
    assert [c.value for c in UPPER] == ["ones", "twos", "threes", "fours", "fives", "sixes"]
    assert LOWER == (
        C.THREE_OF_A_KIND,
        C.FOUR_OF_A_KIND,
        C.FULL_HOUSE,
        C.SMALL_STRAIGHT,
        C.LARGE_STRAIGHT,
        C.YAHTZEE,
        C.CHANCE,
    )


@pytest.mark.parametrize(("face", "category"), FACE_BOX.items())
def test_upper_box_counts_its_face(face, category):
    assert category.face == face
    assert category.is_upper
    assert Category.for_face(face) is category


@pytest.mark.parametrize("category", LOWER)
def test_lower_box_counts_no_face(category):
    assert category.face is None
    assert not category.is_upper


@pytest.mark.parametrize("face", [0, 7, -1, True, 1.0, "1"])
def test_for_face_refuses_a_number_no_die_shows(face):
    with pytest.raises(ValueError, match="faces run from 1 to 6"):
        Category.for_face(face)


@pytest.mark.parametrize(
    ("category", "label"),
    [(C.ONES, "Aces"), (C.THREE_OF_A_KIND, "3 of a kind"), (C.FULL_HOUSE, "Full House")],
)
def test_boxes_carry_their_printed_label(category, label):
    assert category.label == label


def test_every_box_has_a_label():
    assert all(c.label for c in Category)


# -- scoring every box ------------------------------------------------------------------

BOX_CASES = [
    # upper boxes: the sum of that face
    (C.ONES, "11123", 3),
    (C.ONES, "23456", 0),
    (C.TWOS, "22256", 6),
    (C.TWOS, "13456", 0),
    (C.THREES, "33312", 9),
    (C.THREES, "12456", 0),
    (C.FOURS, "44441", 16),
    (C.FOURS, "12356", 0),
    (C.FIVES, "55555", 25),
    (C.FIVES, "12346", 0),
    (C.SIXES, "66612", 18),
    (C.SIXES, "12345", 0),
    # three of a kind: the sum of all dice when at least three match
    (C.THREE_OF_A_KIND, "33312", 12),
    (C.THREE_OF_A_KIND, "23233", 13),
    (C.THREE_OF_A_KIND, "33332", 14),
    (C.THREE_OF_A_KIND, "33333", 15),
    (C.THREE_OF_A_KIND, "33221", 0),
    (C.THREE_OF_A_KIND, "12345", 0),
    # four of a kind: the sum of all dice when at least four match
    (C.FOUR_OF_A_KIND, "44441", 17),
    (C.FOUR_OF_A_KIND, "64666", 28),
    (C.FOUR_OF_A_KIND, "44444", 20),
    (C.FOUR_OF_A_KIND, "44412", 0),
    (C.FOUR_OF_A_KIND, "44122", 0),
    # full house: three of one face and two of another
    (C.FULL_HOUSE, "22333", 25),
    (C.FULL_HOUSE, "33322", 25),
    (C.FULL_HOUSE, "61616", 25),
    (C.FULL_HOUSE, "55555", 0),
    (C.FULL_HOUSE, "22334", 0),
    (C.FULL_HOUSE, "33331", 0),
    (C.FULL_HOUSE, "33312", 0),
    # small straight: any four in sequence
    (C.SMALL_STRAIGHT, "12346", 30),
    (C.SMALL_STRAIGHT, "23454", 30),
    (C.SMALL_STRAIGHT, "34566", 30),
    (C.SMALL_STRAIGHT, "13456", 30),
    (C.SMALL_STRAIGHT, "43211", 30),
    (C.SMALL_STRAIGHT, "12345", 30),
    (C.SMALL_STRAIGHT, "23456", 30),
    (C.SMALL_STRAIGHT, "12356", 0),
    (C.SMALL_STRAIGHT, "12456", 0),
    (C.SMALL_STRAIGHT, "11223", 0),
    (C.SMALL_STRAIGHT, "11111", 0),
    # large straight: five in sequence
    (C.LARGE_STRAIGHT, "12345", 40),
    (C.LARGE_STRAIGHT, "23456", 40),
    (C.LARGE_STRAIGHT, "54321", 40),
    (C.LARGE_STRAIGHT, "12346", 0),
    (C.LARGE_STRAIGHT, "13456", 0),
    (C.LARGE_STRAIGHT, "12344", 0),
    # yahtzee: five of a kind
    (C.YAHTZEE, "44444", 50),
    (C.YAHTZEE, "11111", 50),
    (C.YAHTZEE, "44443", 0),
    # chance: the sum of all dice
    (C.CHANCE, "12345", 15),
    (C.CHANCE, "66666", 30),
    (C.CHANCE, "11112", 6),
]


@pytest.mark.parametrize(("category", "dice", "points"), BOX_CASES)
def test_box_scores_by_the_printed_rules(category, dice, points):
    assert box_points(category, parse_dice(dice)) == points


@pytest.mark.parametrize(("category", "dice", "points"), BOX_CASES)
def test_empty_card_offers_and_records_each_box_at_its_printed_value(category, dice, points):
    card = Scorecard()
    assert options(card, dice)[category] == points
    scored = card.score(category, dice)
    assert scored[category] == points
    assert scored.filled_count == 1


@pytest.mark.parametrize(
    ("category", "dice"),
    [
        (C.ONES, "23456"),
        (C.TWOS, "13456"),
        (C.THREES, "12456"),
        (C.FOURS, "12356"),
        (C.FIVES, "12346"),
        (C.SIXES, "12345"),
        (C.THREE_OF_A_KIND, "12356"),
        (C.FOUR_OF_A_KIND, "22256"),
        (C.FULL_HOUSE, "22256"),
        (C.SMALL_STRAIGHT, "12356"),
        (C.LARGE_STRAIGHT, "12356"),
        (C.YAHTZEE, "12356"),
    ],
)
def test_any_open_box_may_take_a_zero(category, dice):
    card = Scorecard()
    assert options(card, dice)[category] == 0
    scored = card.score(category, dice)
    assert scored[category] == 0
    assert not scored.is_open(category)


def test_five_of_a_kind_is_not_a_full_house_when_the_yahtzee_box_is_open():
    card = Scorecard().score(C.FULL_HOUSE, "55555")
    assert card[C.FULL_HOUSE] == 0
    assert card.yahtzee_bonus_count == 0


def test_first_yahtzee_may_go_in_any_box_without_the_joker():
    assert set(options(Scorecard(), "33333")) == set(Category)
    assert joker_note(Scorecard(), "33333") is None


@pytest.mark.parametrize(
    ("category", "points"),
    [
        (C.THREE_OF_A_KIND, 20),
        (C.FOUR_OF_A_KIND, 20),
        (C.FULL_HOUSE, 25),
        (C.SMALL_STRAIGHT, 30),
        (C.LARGE_STRAIGHT, 40),
        (C.YAHTZEE, 50),
        (C.CHANCE, 20),
    ],
)
def test_joker_points_give_full_value_in_every_lower_box(category, points):
    assert joker_points(category, (4, 4, 4, 4, 4)) == points


# -- scorecard values -------------------------------------------------------------------


def test_new_card_is_empty():
    card = Scorecard()
    assert card.open_boxes == tuple(Category)
    assert card.filled_count == 0
    assert not card.is_complete
    assert card.total == 0
    assert card.rules == Rules()


@pytest.mark.parametrize("size", [12, 14])
def test_scorecard_must_have_thirteen_boxes(size):
    with pytest.raises(ValueError, match="thirteen boxes"):
        Scorecard(boxes=(None,) * size)


def test_scoring_returns_a_new_card_and_leaves_the_old_one_alone():
    card = Scorecard()
    scored = card.score(C.CHANCE, "12345")
    assert card == Scorecard()
    assert scored is not card
    assert scored[C.CHANCE] == 15
    assert card.is_open(C.CHANCE)
    assert not scored.is_open(C.CHANCE)
    assert C.CHANCE not in scored.open_boxes


def test_filled_box_cannot_be_scored_again():
    card = Scorecard().score(C.FULL_HOUSE, "22333")
    with pytest.raises(IllegalMove, match=r"^The Full House box is already filled\.$"):
        card.score(C.FULL_HOUSE, "44455")
    assert C.FULL_HOUSE not in options(card, "44455")


@pytest.mark.parametrize("category", list(Category))
def test_a_box_may_be_named_by_its_id(category):
    card = Scorecard().score(category.value, "11111")
    assert card == Scorecard().score(category, "11111")
    assert card[category.value] == card[category] is not None
    assert not card.is_open(category.value)
    assert refusal(card, "11111", category.value) == f"The {category.label} box is already filled."


def test_filled_box_refusal_wins_even_for_a_zero():
    card = Scorecard().score(C.ONES, "23456")
    assert refusal(card, "23456", C.ONES) == "The Aces box is already filled."


@pytest.mark.parametrize("not_a_box", ["sevens", "CHANCE", C.CHANCE.label, 12, None])
def test_scoring_something_that_is_not_a_box_is_an_illegal_move(not_a_box):
    card = Scorecard()
    with pytest.raises(IllegalMove, match=r"is no .* box on the scorecard"):
        card.score(not_a_box, "12345")
    assert card == Scorecard()


@pytest.mark.parametrize(
    ("upper", "bonus"),
    [
        ((3, 6, 9, 12, 15, 17), 0),  # 62
        ((3, 6, 9, 12, 15, 18), 35),  # 63, three of each face
        ((4, 6, 9, 12, 15, 18), 35),  # 64
        ((0, 0, 0, 0, 25, 30), 0),  # 55: five fives and five sixes are not enough
        ((0, 0, 0, 16, 20, 30), 35),  # 66
    ],
)
def test_upper_bonus_is_35_once_the_upper_subtotal_reaches_63(upper, bonus):
    card = make_card(**{c.value: points for c, points in zip(UPPER, upper, strict=True)})
    assert card.upper_subtotal == sum(upper)
    assert card.upper_bonus == bonus
    assert card.upper_total == sum(upper) + bonus


def test_upper_bonus_counts_before_the_upper_section_is_complete():
    card = make_card(fours=20, fives=25, sixes=30)
    assert not card.is_complete
    assert card.upper_bonus == 35


def test_upper_bonus_is_earned_by_scoring_three_of_each_face():
    card = play(
        Scorecard(),
        (C.ONES, "11123"),
        (C.TWOS, "22213"),
        (C.THREES, "33312"),
        (C.FOURS, "44412"),
        (C.FIVES, "55512"),
    )
    assert card.upper_bonus == 0
    card = card.score(C.SIXES, "66612")
    assert card.upper_subtotal == 63
    assert card.upper_bonus == 35


def test_lower_total_adds_the_yahtzee_bonus_and_total_adds_both_sections():
    card = make_card(
        bonus_count=2,
        ones=3,
        sixes=30,
        three_of_a_kind=20,
        full_house=25,
        yahtzee=50,
    )
    assert card.upper_total == 33
    assert card.yahtzee_bonus == 200
    assert card.lower_total == 20 + 25 + 50 + 200
    assert card.total == 33 + 295


def test_complete_card_has_no_options_and_refuses_every_box():
    card = card_with_open(fill=1)
    assert card.is_complete
    assert card.open_boxes == ()
    for dice in ("12345", "66666", "11111"):
        assert options(card, dice) == {}
        for category in Category:
            with pytest.raises(IllegalMove, match="already filled"):
                card.score(category, dice)


# -- the Yahtzee bonus ------------------------------------------------------------------


def test_first_yahtzee_in_the_yahtzee_box_scores_50_and_no_bonus():
    card = Scorecard().score(C.YAHTZEE, "22222")
    assert card[C.YAHTZEE] == 50
    assert card.yahtzee_bonus_count == 0
    assert card.total == 50


def test_second_yahtzee_with_fifty_in_yahtzee_box_earns_100_bonus():
    card = play(Scorecard(), (C.YAHTZEE, "22222"), (C.SIXES, "66666"))
    assert card.yahtzee_bonus_count == 1
    assert card.yahtzee_bonus == 100
    assert card.total == 50 + 30 + 100


def test_second_yahtzee_with_zero_in_yahtzee_box_earns_no_bonus():
    card = play(Scorecard(), (C.YAHTZEE, "12345"), (C.SIXES, "66666"))
    assert card[C.YAHTZEE] == 0
    assert card.yahtzee_bonus_count == 0
    assert card.total == 30


def test_yahtzee_bonus_count_is_unlimited():
    card = play(
        Scorecard(),
        (C.YAHTZEE, "11111"),
        (C.TWOS, "22222"),
        (C.THREES, "33333"),
        (C.FOURS, "44444"),
        (C.FIVES, "55555"),
        (C.SIXES, "66666"),
        (C.FULL_HOUSE, "22222"),  # Twos is full: a Joker in the lower section
    )
    assert card.yahtzee_bonus_count == 6
    assert card.yahtzee_bonus == 600
    assert card[C.FULL_HOUSE] == 25


def test_non_yahtzee_after_a_yahtzee_earns_no_bonus():
    card = play(Scorecard(), (C.YAHTZEE, "44444"), (C.FOURS, "44443"))
    assert card.yahtzee_bonus_count == 0


def test_extra_yahtzee_placed_as_a_zero_in_the_upper_section_still_earns_the_bonus():
    card = card_with_open(C.ONES, C.TWOS, yahtzee=50).score(C.ONES, "66666")
    assert card[C.ONES] == 0
    assert card.yahtzee_bonus_count == 1


# -- the forced Joker -------------------------------------------------------------------


@pytest.mark.parametrize("yahtzee_box", [50, 0])
@pytest.mark.parametrize("face", range(1, 7))
def test_extra_yahtzee_must_go_in_its_matching_upper_box_while_that_is_open(face, yahtzee_box):
    dice = str(face) * 5
    matching = FACE_BOX[face]
    card = make_card(yahtzee=yahtzee_box)
    assert options(card, dice) == {matching: 5 * face}
    assert refusal(card, dice, matching) is None
    for other in Category:
        if other in (matching, C.YAHTZEE):
            continue
        message = refusal(card, dice, other)
        assert message == (
            f"Joker rule: an extra Yahtzee of {face}s must go in the "
            f"{matching.label} box while it is open."
        )
        with pytest.raises(IllegalMove, match="Joker rule"):
            card.score(other, dice)
    scored = card.score(matching, dice)
    assert scored[matching] == 5 * face
    assert scored.yahtzee_bonus_count == (1 if yahtzee_box == 50 else 0)


@pytest.mark.parametrize("yahtzee_box", [50, 0])
@pytest.mark.parametrize(
    ("category", "dice", "points"),
    [
        (C.THREE_OF_A_KIND, "44444", 20),
        (C.FOUR_OF_A_KIND, "44444", 20),
        (C.FULL_HOUSE, "44444", 25),
        (C.SMALL_STRAIGHT, "44444", 30),
        (C.LARGE_STRAIGHT, "44444", 40),
        (C.CHANCE, "44444", 20),
        (C.THREE_OF_A_KIND, "11111", 5),
        (C.FULL_HOUSE, "11111", 25),
        (C.SMALL_STRAIGHT, "66666", 30),
        (C.LARGE_STRAIGHT, "66666", 40),
        (C.CHANCE, "66666", 30),
    ],
)
def test_joker_scores_full_value_in_any_open_lower_box_once_the_upper_box_is_full(
    category, dice, points, yahtzee_box
):
    matching = FACE_BOX[int(dice[0])]
    card = make_card(yahtzee=yahtzee_box, **{matching.value: 0})
    offered = options(card, dice)
    assert set(offered) == set(LOWER) - {C.YAHTZEE}
    assert offered[category] == points
    scored = card.score(category, dice)
    assert scored[category] == points
    assert scored.total - card.total == points + (100 if yahtzee_box == 50 else 0)


@pytest.mark.parametrize("upper", [c for c in UPPER if c is not C.FOURS])
def test_joker_refuses_an_open_upper_box_while_a_lower_box_is_open(upper):
    card = make_card(yahtzee=50, fours=12)
    assert upper not in options(card, "44444")
    assert refusal(card, "44444", upper) == (
        "Joker rule: an extra Yahtzee goes in an open lower box; "
        "an upper box only takes it once the lower section is full."
    )
    with pytest.raises(IllegalMove, match="open lower box"):
        card.score(upper, "44444")


def test_joker_offers_only_the_lower_boxes_still_open():
    card = card_with_open(C.ONES, C.SMALL_STRAIGHT, C.CHANCE)
    assert options(card, "44444") == {C.SMALL_STRAIGHT: 30, C.CHANCE: 20}


@pytest.mark.parametrize("yahtzee_box", [50, 0])
@pytest.mark.parametrize("upper", [c for c in UPPER if c is not C.THREES])
def test_joker_takes_a_zero_in_any_open_upper_box_only_when_the_lower_section_is_full(
    upper, yahtzee_box
):
    card = card_with_open(*UPPER, yahtzee=yahtzee_box)
    card = card.score(C.THREES, "33312")  # the matching box is full
    assert options(card, "33333") == {c: 0 for c in UPPER if c is not C.THREES}
    scored = card.score(upper, "33333")
    assert scored[upper] == 0
    assert scored.yahtzee_bonus_count == (1 if yahtzee_box == 50 else 0)


def test_yahtzee_box_holding_zero_still_triggers_the_joker():
    card = make_card(yahtzee=0)
    assert card.is_extra_yahtzee((2, 2, 2, 2, 2))
    assert options(card, "22222") == {C.TWOS: 10}


def test_is_extra_yahtzee_needs_five_of_a_kind_and_a_filled_yahtzee_box():
    assert not Scorecard().is_extra_yahtzee((2, 2, 2, 2, 2))
    assert not make_card(yahtzee=50).is_extra_yahtzee((2, 2, 2, 2, 3))
    assert make_card(yahtzee=50).is_extra_yahtzee((2, 2, 2, 2, 2))


def test_refusal_is_none_for_an_allowed_box():
    assert refusal(Scorecard(), "12345", C.LARGE_STRAIGHT) is None


@pytest.mark.parametrize(
    ("card", "dice", "note"),
    [
        (Scorecard(), "12345", None),
        (Scorecard(), "55555", None),
        (make_card(yahtzee=50), "55554", None),
        (
            make_card(yahtzee=50),
            "55555",
            "Yahtzee bonus +100! Joker rule: it must go in Fives.",
        ),
        (
            make_card(yahtzee=0),
            "55555",
            "No bonus: your Yahtzee box holds 0. Joker rule: it must go in Fives.",
        ),
        (
            make_card(yahtzee=50, ones=3),
            "11111",
            "Yahtzee bonus +100! Joker rule: any open lower box scores full value.",
        ),
        (
            card_with_open(C.TWOS, yahtzee=0),
            "11111",
            "No bonus: your Yahtzee box holds 0. "
            "Joker rule: only a zero in an open upper box is left.",
        ),
    ],
)
def test_joker_note_explains_where_an_extra_yahtzee_may_go(card, dice, note):
    assert joker_note(card, dice) == note


# -- the upper-first variant ------------------------------------------------------------

UPPER_FIRST = Rules(upper_first=True)


@pytest.mark.parametrize("category", [c for c in LOWER if c is not C.YAHTZEE])
def test_upper_first_forbids_lower_boxes_until_the_upper_section_is_full(category):
    card = make_card(rules=UPPER_FIRST, ones=3, twos=6, threes=9, fours=12, fives=15)
    assert set(options(card, "66345")) == {C.SIXES}
    assert refusal(card, "66345", category) == (
        "Fill all six upper boxes before using the lower section."
    )
    with pytest.raises(IllegalMove, match="Fill all six upper boxes"):
        card.score(category, "66345")
    card = card.score(C.SIXES, "66345")
    assert set(options(card, "66345")) == set(LOWER)
    assert card.score(category, "66345")[category] == box_points(category, (6, 6, 3, 4, 5))


def test_upper_first_offers_every_open_upper_box_even_for_a_first_yahtzee():
    card = Scorecard(rules=UPPER_FIRST)
    assert options(card, "22222") == {**dict.fromkeys(UPPER, 0), C.TWOS: 10}
    with pytest.raises(IllegalMove, match="upper boxes"):
        card.score(C.YAHTZEE, "22222")


def test_upper_first_card_keeps_its_rules_after_scoring():
    card = Scorecard(rules=UPPER_FIRST).score(C.ONES, "11111")
    assert card.rules == UPPER_FIRST


def test_joker_still_applies_under_upper_first():
    boxes = card_with_open(C.CHANCE, C.FULL_HOUSE, yahtzee=50).boxes
    card = Scorecard(rules=UPPER_FIRST, boxes=boxes)
    assert options(card, "44444") == {C.FULL_HOUSE: 25, C.CHANCE: 20}


@pytest.mark.parametrize(
    ("data", "rules"),
    [
        ({}, Rules()),
        ({"upper_first": False}, Rules()),
        ({"upper_first": True}, UPPER_FIRST),
    ],
)
def test_rules_come_from_a_dict(data, rules):
    assert Rules.from_dict(data) == rules


@pytest.mark.parametrize("rules", [Rules(), UPPER_FIRST])
def test_rules_round_trip_through_a_dict(rules):
    assert rules.to_dict() == {"upper_first": rules.upper_first, "ruleset": "yahtzee"}
    assert Rules.from_dict(rules.to_dict()) == rules


# -- persistence ------------------------------------------------------------------------


def test_card_to_dict_lists_only_filled_boxes():
    card = play(Scorecard(), (C.YAHTZEE, "22222"), (C.TWOS, "22222"))
    assert card.to_dict() == {
        "boxes": {"twos": 10, "yahtzee": 50},
        "yahtzee_bonus_count": 1,
    }


def test_card_from_empty_dict_is_a_new_card():
    assert Scorecard.from_dict({}) == Scorecard()


def test_card_from_dict_takes_the_rules_it_is_given():
    card = Scorecard.from_dict({"boxes": {"ones": 2}}, UPPER_FIRST)
    assert card.rules == UPPER_FIRST
    assert card[C.ONES] == 2
    assert card.yahtzee_bonus_count == 0


# -- properties -------------------------------------------------------------------------

any_dice = st.lists(st.integers(1, 6), min_size=5, max_size=5).map(tuple)
five_of_a_kind = st.integers(1, 6).map(lambda face: (face,) * 5)
dice_rolls = st.one_of(any_dice, five_of_a_kind)  # Yahtzees often enough to hit the Joker
any_rules = st.builds(Rules, upper_first=st.booleans())


@st.composite
def played_cards(draw) -> Scorecard:
    """A card reached by legal play: 0 to 13 boxes filled from random rolls."""
    card = Scorecard(rules=draw(any_rules))
    for _ in range(draw(st.integers(0, 13))):
        dice = draw(dice_rolls)
        category = draw(st.sampled_from(list(options(card, dice))))
        card = card.score(category, dice)
    return card


PROPERTY = settings(max_examples=60, deadline=None)


@PROPERTY
@given(dice=any_dice)
def test_chance_always_scores_the_sum_of_the_dice(dice):
    assert box_points(C.CHANCE, dice) == sum(dice)
    assert options(Scorecard(), dice)[C.CHANCE] == sum(dice)


@PROPERTY
@given(dice=dice_rolls)
def test_a_better_pattern_always_scores_the_weaker_one_too(dice):
    if box_points(C.FOUR_OF_A_KIND, dice) > 0:
        assert box_points(C.THREE_OF_A_KIND, dice) > 0
    if box_points(C.YAHTZEE, dice) > 0:
        assert box_points(C.FOUR_OF_A_KIND, dice) > 0
    if box_points(C.LARGE_STRAIGHT, dice) > 0:
        assert box_points(C.SMALL_STRAIGHT, dice) > 0


@PROPERTY
@given(dice=dice_rolls)
def test_the_upper_boxes_together_count_every_die_once(dice):
    assert sum(box_points(c, dice) for c in UPPER) == sum(dice)


@PROPERTY
@given(data=st.data(), rules=any_rules)
def test_a_card_accepts_exactly_thirteen_scores_then_options_are_empty(data, rules):
    card = Scorecard(rules=rules)
    for filled in range(1, 14):
        dice = data.draw(dice_rolls)
        offered = options(card, dice)
        assert offered
        card = card.score(data.draw(st.sampled_from(list(offered))), dice)
        assert card.filled_count == filled
        assert card.is_complete == (filled == 13)
    last_dice = data.draw(dice_rolls)
    assert options(card, last_dice) == {}
    with pytest.raises(IllegalMove):
        card.score(data.draw(st.sampled_from(list(Category))), last_dice)


@PROPERTY
@given(card=played_cards())
def test_totals_equal_the_sum_of_their_parts(card):
    upper = [card[c] or 0 for c in UPPER]
    lower = [card[c] or 0 for c in LOWER]
    assert card.upper_subtotal == sum(upper)
    assert card.upper_bonus == (35 if sum(upper) >= 63 else 0)
    assert card.upper_total == card.upper_subtotal + card.upper_bonus
    assert card.yahtzee_bonus == 100 * card.yahtzee_bonus_count
    assert card.lower_total == sum(lower) + card.yahtzee_bonus
    assert card.total == card.upper_total + card.lower_total
    assert card.filled_count + len(card.open_boxes) == 13


@PROPERTY
@given(card=played_cards())
def test_card_round_trips_through_a_dict_and_json(card):
    data = card.to_dict()
    assert Scorecard.from_dict(data, card.rules) == card
    assert Scorecard.from_dict(json.loads(json.dumps(data)), card.rules) == card


@PROPERTY
@given(card=played_cards(), dice=dice_rolls)
def test_offered_boxes_score_as_promised_and_all_others_are_refused(card, dice):
    offered = options(card, dice)
    earns_bonus = card.is_extra_yahtzee(dice) and card[C.YAHTZEE] == 50
    for category in Category:
        if category in offered:
            assert refusal(card, dice, category) is None
            scored = card.score(category, dice)
            assert scored[category] == offered[category]
            assert scored.yahtzee_bonus_count == card.yahtzee_bonus_count + earns_bonus
            assert scored.open_boxes == tuple(c for c in card.open_boxes if c is not category)
        else:
            reason = refusal(card, dice, category)
            assert reason
            with pytest.raises(IllegalMove) as caught:
                card.score(category, dice)
            assert str(caught.value) == reason


@PROPERTY
@given(card=played_cards(), face=st.integers(1, 6))
def test_an_extra_yahtzee_is_placed_only_by_the_forced_joker(card, face):
    dice = (face,) * 5
    offered = options(card, dice)
    if not card.is_extra_yahtzee(dice):
        assert joker_note(card, dice) is None
        return
    matching = Category.for_face(face)
    open_lower = [c for c in card.open_boxes if not c.is_upper]
    if card.is_open(matching):
        assert offered == {matching: 5 * face}
    elif open_lower:
        assert list(offered) == open_lower
    else:
        assert offered == dict.fromkeys(card.open_boxes, 0)
    assert joker_note(card, dice)
