"""/practice/: positions from real games where players gave away the most, anonymised;
"what would you keep?", the ranking revealed, and the accuracy kept on the account."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game, Move, PracticeRecord
from games.rules import Category, Rules
from games.strategy.review import LoggedMove, review_game
from tests.conftest import scorecard_of

pytestmark = pytest.mark.django_db

# A Large Straight in round 1; in round 2, rolled 6 6 6 1 2 and kept the 1 and the 2:
# a costly keep.
MOVES = [
    LoggedMove("roll", 0, dice="12345", held="00000"),
    LoggedMove("score", 0, dice="12345", category="large_straight"),
    LoggedMove("roll", 0, dice="66612", held="00000"),
    LoggedMove("roll", 0, dice="66612", held="00011"),
    LoggedMove("score", 0, dice="66612", category="chance"),
]
# Rolled a Yahtzee and kept two of it: costlier still, but the best was the Yahtzee box,
# which is no answer to "what would you keep?".
YAHTZEE_REROLLED = [
    LoggedMove("roll", 0, dice="66666", held="00000"),
    LoggedMove("roll", 0, dice="66123", held="11000"),
    LoggedMove("score", 0, dice="66123", category="chance"),
]


def reviewed_game(finished_game, advisor, who, moves: list[LoggedMove]) -> Game:
    """A finished solo game of ``moves``, with its move log and the coach's review."""
    review = review_game(advisor, Rules(), 1, moves)[0]
    game = finished_game((who, {"boxes": {"chance": 21, "large_straight": 40}}))
    for version, move in enumerate(moves, start=1):
        Move.objects.create(
            game=game,
            version=version,
            kind=move.kind,
            seat=move.seat,
            dice=move.dice,
            held=move.held,
            category=move.category,
        )
    services.review_store(
        code=game.code, review={"seats": {"0": review.to_dict()}}, mean_losses={0: review.mean_loss}
    )
    game.refresh_from_db()
    return game


@pytest.fixture
def costly_game(bob, finished_game, coach_advisor):
    return reviewed_game(finished_game, coach_advisor, bob, MOVES)


def token_of(page: str) -> str:
    return re.search(r'name="token" value="([^"]+)"', page).group(1)


def test_the_page_shows_a_costly_position_without_names(client, costly_game):
    page = client.get("/practice/").content.decode()

    assert "Practice: what would you keep?" in page
    assert page.count('name="keep"') == 5
    assert 'class="die-face"' in page
    assert "bob" not in page and costly_game.code not in page
    assert "csrfmiddlewaretoken" in page


def test_the_best_keep_is_counted_on_the_account(alice_client, alice, costly_game):
    page = alice_client.get("/practice/").content.decode()

    answer = alice_client.post(
        "/practice/", {"token": token_of(page), "keep": ["0", "1", "2"]}
    ).content.decode()

    assert "Right: that is the best keep." in answer
    assert "The coach’s five best choices in this position" in answer
    assert re.search(r'<tr class="choice chosen best" data-place="1">', answer)
    record = PracticeRecord.objects.get(user=alice)
    assert (record.answered, record.best) == (1, 1)
    assert "Your accuracy so far: the best play in 1 of 1 answer." in answer


def test_a_keep_outside_the_five_best_is_told_and_counted(alice_client, alice, costly_game):
    page = alice_client.get("/practice/").content.decode()

    answer = alice_client.post("/practice/", {"token": token_of(page), "keep": ["3", "4"]})

    assert "not among the coach’s five best choices" in answer.content.decode()
    record = PracticeRecord.objects.get(user=alice)
    assert (record.answered, record.best) == (1, 0)


def test_answering_the_same_position_again_counts_only_the_first_answer(
    alice_client, alice, costly_game
):
    token = token_of(alice_client.get("/practice/").content.decode())
    alice_client.post("/practice/", {"token": token, "keep": ["3", "4"]})

    again = alice_client.post("/practice/", {"token": token, "keep": ["0", "1", "2"]})

    page = again.content.decode()
    assert again.status_code == 200
    assert "Right: that is the best keep." in page  # the answer is still judged
    assert "only your first answer counts" in page
    record = PracticeRecord.objects.get(user=alice)
    assert (record.answered, record.best) == (1, 0)


def test_only_positions_whose_best_choice_is_a_keep_are_offered(
    client, bob, finished_game, coach_advisor, costly_game
):
    yahtzee = reviewed_game(finished_game, coach_advisor, bob, YAHTZEE_REROLLED)
    decision = yahtzee.review["seats"]["0"]["decisions"][0]
    assert decision["kind"] == "keep" and decision["best"] == "yahtzee"
    assert decision["loss"] > costly_game.review["seats"]["0"]["decisions"][1]["loss"]

    pages = [client.get(f"/practice/?n={n}").content.decode() for n in range(3)]

    for page in pages:  # only the 6 6 6 1 2 keep, however far one counts
        assert "Keep die 4: 1" in page and "Keep die 5: 2" in page
        assert "Keep die 4: 6" not in page


def test_the_position_shows_the_card_it_was_played_on(client, costly_game):
    page = client.get("/practice/").content.decode()

    card = {row.label: row for row in scorecard_of(page, "practice-card")}
    # Round 2: the Large Straight of round 1 is filled, every other box is open.
    assert (card["Large Straight"].cells, card["Large Straight"].looks) == (("40",), ("filled",))
    assert (card["Chance"].cells, card["Chance"].looks) == (("",), ("open",))
    assert sum(row.looks == ("open",) for row in card.values()) == 12
    assert card["Upper subtotal"].cells == ("0 63 more for the bonus",)
    assert card["Total"].cells == ("40",)
    assert card["Box"].cells == ("Player",)  # no name: the page is anonymous


def test_the_position_s_card_is_the_table_card_for_the_same_scores(
    client, alice_client, ann, costly_game, make_game, take_turn
):
    """The practice page draws the table's own scorecard: the same boxes, sums and total,
    cell for cell, for a card with the same Large Straight in round 1."""
    game = take_turn(make_game(ann, start=True), ann, "12345", Category.LARGE_STRAIGHT)
    table = scorecard_of(alice_client.get(f"/g/{game.code}/").content.decode())

    practice = scorecard_of(client.get("/practice/").content.decode(), "practice-card")

    assert practice[1:] == table[1:]  # every row under the column head
    assert [row.label for row in practice] == [
        "Box",
        *(c.label for c in Category if c.is_upper),
        "Upper subtotal",
        "Bonus (63+)",
        *(c.label for c in Category if not c.is_upper),
        "Yahtzee bonus",
        "Total",
    ]
    assert (practice[0].cells, table[0].cells) == (("Player",), ("alice",))


def test_a_guest_may_practise_but_keeps_no_record(client, costly_game):
    page = client.get("/practice/").content.decode()
    answer = client.post("/practice/", {"token": token_of(page), "keep": ["0", "1", "2"]})
    assert answer.status_code == 200
    assert "Log in to keep your accuracy" in answer.content.decode()
    assert PracticeRecord.objects.count() == 0


@pytest.mark.parametrize(
    "data",
    [
        {"token": "forged", "keep": ["0"]},
        {"keep": ["0"]},
        {"token": "TOKEN", "keep": ["7"]},
        {"token": "TOKEN", "keep": ["x"]},
    ],
)
def test_a_malformed_answer_is_refused_and_counts_nothing(alice_client, costly_game, data):
    page = alice_client.get("/practice/").content.decode()
    if data.get("token") == "TOKEN":
        data = {**data, "token": token_of(page)}

    answer = alice_client.post("/practice/", data)

    assert answer.status_code == 400
    assert "did not name a practice position" in answer.content.decode()
    assert PracticeRecord.objects.count() == 0


def test_without_reviewed_games_there_is_nothing_to_practise(client, db):
    page = client.get("/practice/").content.decode()
    assert "No positions yet" in page


def test_the_home_page_links_the_practice(client, db):
    assert 'href="/practice/"' in client.get("/").content.decode()


def test_the_history_shows_the_practice_accuracy(alice_client, alice, costly_game):
    page = alice_client.get("/practice/").content.decode()
    alice_client.post("/practice/", {"token": token_of(page), "keep": ["0", "1", "2"]})

    history = alice_client.get("/u/alice/").content.decode()

    assert "Practice: the best play in 1 of 1 answer." in history


def test_positions_can_be_asked_of_one_rule_set_and_the_next_one_keeps_to_it(client, costly_game):
    yahtzee = client.get("/practice/?ruleset=yahtzee").content.decode()
    assert yahtzee.count('name="keep"') == 5
    assert '<input type="hidden" name="ruleset" value="yahtzee">' in yahtzee
    assert 'href="/practice/?ruleset=yahtzee" aria-current="page"' in yahtzee

    answer = client.post(
        "/practice/", {"token": token_of(yahtzee), "keep": ["0", "1", "2"], "ruleset": "yahtzee"}
    ).content.decode()
    assert 'href="/practice/?n=1&amp;ruleset=yahtzee"' in answer

    yacht = client.get("/practice/?ruleset=yacht").content.decode()
    assert 'name="keep"' not in yacht and "No positions yet" in yacht

    every = client.get("/practice/").content.decode()
    assert every.count('name="keep"') == 5
    assert 'href="/practice/" aria-current="page"' in every


def test_a_rule_set_nobody_has_is_a_400_with_a_sentence(client, costly_game):
    answer = client.get("/practice/?ruleset=poker")

    assert answer.status_code == 400
    assert "There is no such rule set" in answer.content.decode()
