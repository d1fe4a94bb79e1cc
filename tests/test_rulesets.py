"""The rule sets beside Yahtzee, as data: Scandinavian Yatzy and Yacht, every box scored,
their bonuses, and a card's totals for every rule set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    RULESET_IDS,
    RULESETS,
    Box,
    Category,
    IllegalMove,
    Rules,
    Scorecard,
    YachtBox,
    YatzyBox,
    box_points,
    joker_note,
    joker_points,
    options,
    refusal,
)

YATZY = Rules(ruleset="yatzy")
YACHT = Rules(ruleset="yacht")
EVERY_RULES = [Rules(), Rules(upper_first=True), YATZY, YACHT]
CANONICAL = Path(__file__).parent / "data" / "yacht-canonical-data.json"


def card_of(rules: Rules, **filled: int) -> Scorecard:
    """A card of ``rules`` with the named boxes filled, e.g. ``card_of(YATZY, yatzy=50)``."""
    boxes = tuple(filled.pop(box.value, None) for box in rules.boxes)
    assert not filled, f"unknown boxes {sorted(filled)}"
    return Scorecard(rules=rules, boxes=boxes)


# -- the rule sets as data ----------------------------------------------------------------


def test_the_rule_sets_are_yahtzee_yatzy_and_yacht_yahtzee_first():
    assert RULESET_IDS == ("yahtzee", "yatzy", "yacht")
    assert tuple(RULESETS) == RULESET_IDS
    assert [RULESETS[i].name for i in RULESET_IDS] == ["Yahtzee", "Yatzy", "Yacht"]
    assert Rules().ruleset == "yahtzee"
    assert Rules().definition is RULESETS["yahtzee"]


@pytest.mark.parametrize(
    ("ruleset", "bonus", "threshold", "extra", "joker", "upper_first", "five", "size"),
    [
        ("yahtzee", 35, 63, 100, True, True, Category.YAHTZEE, 13),
        ("yatzy", 50, 63, 0, False, False, YatzyBox.YATZY, 15),
        ("yacht", 0, None, 0, False, False, YachtBox.YACHT, 12),
    ],
)
def test_each_rule_set_states_its_bonuses_and_special_rules(
    ruleset, bonus, threshold, extra, joker, upper_first, five, size
):
    definition = RULESETS[ruleset]
    assert definition.id == ruleset
    assert definition.upper_bonus == bonus
    assert definition.upper_bonus_threshold == threshold
    assert definition.extra_bonus == extra
    assert definition.joker is joker
    assert definition.has_upper_first is upper_first
    assert definition.five_of_a_kind is five
    assert len(definition.boxes) == len(Scorecard(rules=Rules(ruleset=ruleset)).boxes) == size


@pytest.mark.parametrize(
    ("rules", "ids"),
    [
        (
            YATZY,
            "ones twos threes fours fives sixes one_pair two_pairs three_of_a_kind "
            "four_of_a_kind small_straight large_straight full_house chance yatzy",
        ),
        (
            YACHT,
            "ones twos threes fours fives sixes full_house four_of_a_kind little_straight "
            "big_straight choice yacht",
        ),
        (
            Rules(),
            "ones twos threes fours fives sixes three_of_a_kind four_of_a_kind full_house "
            "small_straight large_straight yahtzee chance",
        ),
    ],
)
def test_boxes_are_printed_in_order_upper_section_first(rules, ids):
    assert [box.value for box in rules.boxes] == ids.split()
    assert rules.upper_boxes == rules.boxes[:6]
    assert rules.lower_boxes == rules.boxes[6:]
    assert [box.face for box in rules.upper_boxes] == [1, 2, 3, 4, 5, 6]
    assert all(box.is_upper for box in rules.upper_boxes)
    assert not any(box.is_upper or box.face for box in rules.lower_boxes)
    assert all(box.ruleset is rules.definition for box in rules.boxes)


def test_yahtzee_boxes_are_still_the_category_members():
    assert Rules().boxes == tuple(Category)
    assert Rules(upper_first=True).boxes == tuple(Category)
    assert YATZY.boxes == tuple(YatzyBox)
    assert YACHT.boxes == tuple(YachtBox)
    assert all(isinstance(box, Box) for rules in EVERY_RULES for box in rules.boxes)


@pytest.mark.parametrize(
    ("box", "label"),
    [
        (Category.ONES, "Aces"),
        (Category.THREE_OF_A_KIND, "3 of a kind"),
        (YatzyBox.ONES, "Ones"),
        (YatzyBox.ONE_PAIR, "One Pair"),
        (YatzyBox.TWO_PAIRS, "Two Pairs"),
        (YatzyBox.YATZY, "Yatzy"),
        (YachtBox.LITTLE_STRAIGHT, "Little Straight"),
        (YachtBox.CHOICE, "Choice"),
        (YachtBox.YACHT, "Yacht"),
    ],
)
def test_every_box_has_an_english_name(box, label):
    assert box.label == label


@pytest.mark.parametrize("rules", EVERY_RULES, ids=repr)
def test_a_box_is_found_by_itself_or_by_its_id(rules):
    for box in rules.boxes:
        assert rules.box(box) is box
        assert rules.box(box.value) is box


@pytest.mark.parametrize(
    ("rules", "name"),
    [(YATZY, "yahtzee"), (YATZY, Category.CHANCE), (YACHT, "chance"), (Rules(), "yatzy")],
    ids=repr,
)
def test_a_box_of_another_rule_set_is_no_box_of_this_one(rules, name):
    with pytest.raises(ValueError, match=r"There is no .* box on a"):
        rules.box(name)
    with pytest.raises(ValueError, match=r"There is no .* box on a"):
        Scorecard(rules=rules)[name]
    assert refusal(Scorecard(rules=rules), "12345", name) == (
        f"There is no {name.value if isinstance(name, Box) else name!r} box on the scorecard."
    )
    with pytest.raises(IllegalMove, match="There is no"):
        Scorecard(rules=rules).score(name, "12345")


def test_an_unknown_rule_set_is_refused():
    with pytest.raises(ValueError, match="no rule set 'kniffel'"):
        Rules(ruleset="kniffel")


@pytest.mark.parametrize("ruleset", ["yatzy", "yacht"])
def test_only_yahtzee_offers_the_upper_section_first(ruleset):
    with pytest.raises(ValueError, match="no upper-first option"):
        Rules(ruleset=ruleset, upper_first=True)


@pytest.mark.parametrize("rules", EVERY_RULES, ids=repr)
def test_rules_round_trip_through_a_dict_with_their_rule_set(rules):
    assert rules.to_dict() == {"upper_first": rules.upper_first, "ruleset": rules.ruleset}
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize(
    ("data", "rules"),
    [({}, Rules()), ({"upper_first": True}, Rules(upper_first=True)), ({"ruleset": None}, Rules())],
)
def test_rules_stored_before_there_were_rule_sets_read_as_yahtzee(data, rules):
    assert Rules.from_dict(data) == rules


@pytest.mark.parametrize(
    ("upper", "message"),
    [
        ((), "A rule set's upper boxes are its first six"),
        (("sixes",), "A rule set's upper boxes are its first six"),
    ],
)
def test_a_rule_set_keeps_its_upper_boxes_first(upper, message):
    from dataclasses import replace

    yacht = RULESETS["yacht"]
    moved = tuple(d for d in yacht.definitions if d.box.value not in upper)
    moved = moved[1:] + moved[:1] + tuple(d for d in yacht.definitions if d.box.value in upper)
    with pytest.raises(ValueError, match=message):
        replace(yacht, definitions=moved)


# -- Yatzy: every box ---------------------------------------------------------------------

Y = YatzyBox


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        (Y.ONES, "11123", 3),
        (Y.ONES, "23456", 0),
        (Y.TWOS, "22245", 6),
        (Y.THREES, "33333", 15),
        (Y.FOURS, "14444", 16),
        (Y.FIVES, "55123", 10),
        (Y.SIXES, "66616", 24),
        (Y.ONE_PAIR, "33456", 6),
        (Y.ONE_PAIR, "33466", 12),  # the highest pair
        (Y.ONE_PAIR, "55566", 12),
        (Y.ONE_PAIR, "44443", 8),
        (Y.ONE_PAIR, "55555", 10),
        (Y.ONE_PAIR, "12345", 0),
        (Y.TWO_PAIRS, "33446", 14),
        (Y.TWO_PAIRS, "11666", 14),  # a full house holds two pairs
        (Y.TWO_PAIRS, "22223", 0),  # four of a kind is not two pairs
        (Y.TWO_PAIRS, "44444", 0),  # nor is five of a kind
        (Y.TWO_PAIRS, "33456", 0),
        (Y.THREE_OF_A_KIND, "33345", 9),
        (Y.THREE_OF_A_KIND, "55552", 15),
        (Y.THREE_OF_A_KIND, "66666", 18),
        (Y.THREE_OF_A_KIND, "33445", 0),
        (Y.FOUR_OF_A_KIND, "22225", 8),
        (Y.FOUR_OF_A_KIND, "66666", 24),
        (Y.FOUR_OF_A_KIND, "22255", 0),
        (Y.SMALL_STRAIGHT, "12345", 15),
        (Y.SMALL_STRAIGHT, "54321", 15),
        (Y.SMALL_STRAIGHT, "23456", 0),
        (Y.SMALL_STRAIGHT, "12346", 0),
        (Y.LARGE_STRAIGHT, "23456", 20),
        (Y.LARGE_STRAIGHT, "62534", 20),
        (Y.LARGE_STRAIGHT, "12345", 0),
        (Y.FULL_HOUSE, "22333", 13),
        (Y.FULL_HOUSE, "66655", 28),
        (Y.FULL_HOUSE, "55555", 0),  # five of a kind is not a full house
        (Y.FULL_HOUSE, "22223", 0),
        (Y.FULL_HOUSE, "22334", 0),
        (Y.CHANCE, "12345", 15),
        (Y.CHANCE, "66666", 30),
        (Y.YATZY, "44444", 50),
        (Y.YATZY, "11111", 50),
        (Y.YATZY, "44441", 0),
    ],
)
def test_yatzy_scores_each_box_as_the_scandinavian_rules_say(box, dice, points):
    assert box_points(box, dice) == points
    assert box_points(box.value, dice, YATZY) == points
    assert options(Scorecard(rules=YATZY), dice)[box] == points


def test_every_yatzy_and_yacht_box_is_scored_above():
    """The tables above and Exercism's cases name every box of both rule sets."""
    yatzy_cases = test_yatzy_scores_each_box_as_the_scandinavian_rules_say.pytestmark[0].args[1]
    yacht_cases = test_yacht_scores_each_box_as_its_rules_say.pytestmark[0].args[1]
    assert {box for box, _, _ in yatzy_cases} == set(YatzyBox)
    assert {box for box, _, _ in yacht_cases} | {
        YACHT.box(case["input"]["category"].replace(" ", "_")) for case in canonical_cases()
    } == set(YachtBox)


def test_yatzy_pays_its_upper_bonus_of_50_at_63():
    card = card_of(YATZY, ones=3, twos=6, threes=9, fours=12, fives=15, sixes=17)
    assert card.upper_subtotal == 62
    assert card.upper_bonus == 0
    card = card_of(YATZY, ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert card.upper_bonus == 50
    assert card.upper_total == 113
    assert card.total == 113


@pytest.mark.parametrize("yatzy", [50, 0])
def test_an_extra_yatzy_earns_no_bonus_and_plays_no_joker(yatzy):
    card = card_of(YATZY, yatzy=yatzy)
    offered = options(card, "44444")
    assert offered == {box: box_points(box, "44444") for box in card.open_boxes}
    assert offered[Y.FULL_HOUSE] == 0
    assert offered[Y.SMALL_STRAIGHT] == 0
    assert joker_note(card, "44444") is None
    scored = card.score(Y.CHANCE, "44444")
    assert scored.yahtzee_bonus_count == 0
    assert scored.yahtzee_bonus == 0
    assert scored.total == yatzy + 20


# -- Yacht: Exercism's canonical cases and every box ----------------------------------


def canonical_cases() -> list[dict]:
    return json.loads(CANONICAL.read_text())["cases"]


def test_the_vendored_canonical_data_is_exercisms_yacht():
    data = json.loads(CANONICAL.read_text())
    assert data["exercise"] == "yacht"
    assert len(data["cases"]) == 29


@pytest.mark.parametrize(
    "case", canonical_cases(), ids=lambda case: case["description"].replace(" ", "_")
)
def test_yacht_scores_every_case_of_exercisms_canonical_data(case):
    box = YACHT.box(case["input"]["category"].replace(" ", "_"))
    dice = case["input"]["dice"]
    assert box_points(box, dice) == case["expected"]
    assert options(Scorecard(rules=YACHT), dice)[box] == case["expected"]
    assert Scorecard(rules=YACHT).score(box.value, dice)[box] == case["expected"]


A = YachtBox


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        (A.ONES, "11111", 5),
        (A.SIXES, "66123", 12),
        (A.FULL_HOUSE, "11666", 20),
        (A.FULL_HOUSE, "44444", 0),
        (A.FOUR_OF_A_KIND, "55553", 20),
        (A.FOUR_OF_A_KIND, "66666", 24),
        (A.FOUR_OF_A_KIND, "55533", 0),
        (A.LITTLE_STRAIGHT, "12345", 30),
        (A.LITTLE_STRAIGHT, "12344", 0),
        (A.BIG_STRAIGHT, "23456", 30),
        (A.BIG_STRAIGHT, "23455", 0),
        (A.CHOICE, "66665", 29),
        (A.YACHT, "11111", 50),
        (A.YACHT, "66666", 50),
        (A.YACHT, "66665", 0),
    ],
)
def test_yacht_scores_each_box_as_its_rules_say(box, dice, points):
    assert box_points(box, dice) == points
    assert options(Scorecard(rules=YACHT), dice)[box] == points


def test_yacht_has_no_upper_bonus_and_no_extra_yacht_bonus():
    card = card_of(YACHT, ones=5, twos=10, threes=15, fours=20, fives=25, sixes=30, yacht=50)
    assert card.upper_subtotal == 105
    assert card.upper_bonus == 0
    card = card.score(A.CHOICE, "33333")
    assert card.yahtzee_bonus == 0
    assert card.total == 105 + 50 + 15
    assert joker_note(card, "33333") is None


# -- cards of every rule set ----------------------------------------------------------


@pytest.mark.parametrize("rules", [YATZY, YACHT], ids=repr)
def test_a_new_card_is_sized_by_its_rule_set(rules):
    card = Scorecard(rules=rules)
    assert card.open_boxes == rules.boxes
    assert card.filled_count == 0
    assert card.total == 0
    with pytest.raises(ValueError, match=r"scorecard has (fifteen|twelve) boxes"):
        Scorecard(rules=rules, boxes=(None,) * 13)


@pytest.mark.parametrize("rules", [YATZY, YACHT], ids=repr)
def test_a_card_stores_its_boxes_by_id(rules):
    card = Scorecard(rules=rules).score(rules.boxes[-1].value, "66666")
    assert card.to_dict() == {"boxes": {rules.boxes[-1].value: 50}, "yahtzee_bonus_count": 0}
    assert Scorecard.from_dict(card.to_dict(), rules) == card


def test_a_box_filled_once_refuses_a_second_score():
    card = Scorecard(rules=YATZY).score("one_pair", "66123")
    assert refusal(card, "55123", "one_pair") == "The One Pair box is already filled."
    with pytest.raises(IllegalMove, match="already filled"):
        card.score(Y.ONE_PAIR, "55123")


any_dice = st.lists(st.integers(1, 6), min_size=5, max_size=5).map(tuple)
five_of_a_kind = st.integers(1, 6).map(lambda face: (face,) * 5)
dice_rolls = st.one_of(any_dice, five_of_a_kind)


@st.composite
def played_cards(draw) -> Scorecard:
    """A card of any rule set reached by legal play, some of its boxes filled."""
    rules = draw(st.sampled_from(EVERY_RULES))
    card = Scorecard(rules=rules)
    for _ in range(draw(st.integers(0, len(rules.boxes)))):
        dice = draw(dice_rolls)
        card = card.score(draw(st.sampled_from(list(options(card, dice)))), dice)
    return card


PROPERTY = settings(max_examples=100, deadline=None)


@PROPERTY
@given(card=played_cards())
def test_a_cards_total_is_the_sum_of_its_boxes_and_bonuses_in_every_rule_set(card):
    definition = card.rules.definition
    upper = sum(card[box] or 0 for box in definition.upper_boxes)
    lower = sum(card[box] or 0 for box in definition.lower_boxes)
    threshold = definition.upper_bonus_threshold
    bonus = definition.upper_bonus if threshold is not None and upper >= threshold else 0
    extra = definition.extra_bonus * card.yahtzee_bonus_count
    assert card.upper_subtotal == upper
    assert card.upper_bonus == bonus
    assert card.yahtzee_bonus == extra
    assert card.total == upper + bonus + lower + extra
    assert card.filled_count + len(card.open_boxes) == len(definition.boxes)
    assert Scorecard.from_dict(json.loads(json.dumps(card.to_dict())), card.rules) == card


@PROPERTY
@given(rules=st.sampled_from([YATZY, YACHT]), data=st.data())
def test_without_a_joker_every_open_box_takes_any_roll_at_its_printed_value(rules, data):
    card = Scorecard(rules=rules)
    for _ in range(len(rules.boxes)):
        dice = data.draw(dice_rolls)
        offered = options(card, dice)
        assert offered == {box: box_points(box, dice) for box in card.open_boxes}
        card = card.score(data.draw(st.sampled_from(list(offered))), dice)
    assert card.is_complete
    assert options(card, "12345") == {}
    assert card.yahtzee_bonus_count == 0


@pytest.mark.parametrize(
    ("box", "dice", "points", "joker"),
    [
        ("full_house", "33333", 0, 25),
        ("large_straight", "66666", 0, 40),
        ("chance", "22222", 10, 10),
    ],
)
def test_a_box_named_by_id_alone_is_a_yahtzee_box(box, dice, points, joker):
    assert box_points(box, dice) == points
    assert joker_points(box, dice) == joker
    assert joker_points(box, dice, Rules()) == joker_points(Category(box), dice)


@pytest.mark.parametrize(
    ("box", "dice", "matched"),
    [
        (YatzyBox.THREES, "33123", (3, 3, 3)),
        (YatzyBox.THREES, "12456", ()),
        (YatzyBox.ONE_PAIR, "55662", (6, 6)),
        (YatzyBox.TWO_PAIRS, "55662", (5, 5, 6, 6)),
        (YatzyBox.TWO_PAIRS, "55552", None),
        (YachtBox.FOUR_OF_A_KIND, "44444", (4, 4, 4, 4)),
        (YachtBox.FULL_HOUSE, "44444", None),
    ],
)
def test_a_box_names_the_dice_that_make_its_pattern(box, dice, matched):
    assert box.scoring.matched(tuple(int(d) for d in dice)) == matched
