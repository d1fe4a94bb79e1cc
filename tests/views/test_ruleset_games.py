"""Whole games of every rule set through the site's own forms (issue 31): the table, its
scorecard, state.json, the replay, the dice check and the history all follow the rule
set's card."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Move
from games.rules import Rules
from tests.conftest import version_of
from tests.views.helpers import state_of, text, url

pytestmark = pytest.mark.django_db


def play_alone(browser, code: str) -> int:
    """Roll once and score the first box offered, turn after turn, until the game is over;
    returns the number of turns."""
    turns = 0
    while (state := state_of(browser, code))["status"] == "playing":
        assert browser.post(url(code, "roll"), {"version": state["version"]}).status_code == 302
        page = text(browser.get(url(code)))
        offered = re.findall(r'name="category" value="(\w+)"', page)
        assert offered, "the player to move is offered boxes to score"
        version = version_of(browser.get(url(code)))
        scored = browser.post(url(code, "score"), {"version": version, "category": offered[0]})
        assert scored.status_code == 302
        turns += 1
    return turns


@pytest.mark.parametrize(
    ("ruleset", "boxes", "rows", "absent"),
    [
        ("yatzy", 15, ["One Pair", "Two Pairs", "Yatzy", "Bonus (63+)"], ["Yahtzee bonus"]),
        ("yacht", 12, ["Little Straight", "Choice", "Yacht"], ["Bonus (63+)", "Yahtzee bonus"]),
        ("yahtzee", 13, ["Aces", "Yahtzee", "Bonus (63+)", "Yahtzee bonus"], ["One Pair"]),
    ],
)
def test_a_whole_game_of_each_rule_set_plays_to_its_end_on_its_own_card(
    alice_client, dice, ruleset, boxes, rows, absent
):
    created = alice_client.post("/games/new/", {"seats": 1, "ruleset": ruleset})
    code = created["Location"].strip("/").split("/")[-1]
    alice_client.post(url(code, "start"), {"version": version_of(alice_client.get(url(code)))})
    first = text(alice_client.get(url(code)))
    for row in rows:
        assert f">{row}<" in first, row
    for row in absent:
        assert f">{row}<" not in first, row
    assert f"Round 1 of {boxes}" in first

    assert play_alone(alice_client, code) == boxes

    game = Game.objects.get(code=code)
    assert game.status == Game.Status.FINISHED
    assert game.moves.filter(kind=Move.Kind.SCORE).count() == boxes
    state = state_of(alice_client, code)
    [seat] = state["seats"]
    ids = [box.value for box in Rules(ruleset=ruleset).boxes]
    assert [key for key in seat["card"] if key in ids] == ids
    assert all(seat["card"][box] is not None for box in ids)
    assert state["ruleset"] == ruleset
    for page in ("replay/", "verify/"):
        assert alice_client.get(f"/g/{code}/{page}").status_code == 200
    replay = text(alice_client.get(f"/g/{code}/replay/?v={game.version}"))
    assert "scored" in replay
    history = text(alice_client.get("/u/alice/"))
    assert code in history


def test_a_box_of_another_rule_set_is_refused_with_a_sentence_and_changes_nothing(
    alice_client, dice
):
    created = alice_client.post("/games/new/", {"seats": 1, "ruleset": "yacht"})
    code = created["Location"].strip("/").split("/")[-1]
    alice_client.post(url(code, "start"), {"version": version_of(alice_client.get(url(code)))})
    alice_client.post(url(code, "roll"), {"version": state_of(alice_client, code)["version"]})
    before = state_of(alice_client, code)

    response = alice_client.post(
        url(code, "score"), {"version": before["version"], "category": "one_pair"}
    )

    assert response.status_code in (400, 409)
    assert "A Yacht scorecard has no such box." in text(response)
    assert state_of(alice_client, code) == before


NAMES = {  # a few boxes of each card, as Telugu and Uzbek players call them
    ("yatzy", "te"): ["ఒక జత", "రెండు జతలు", "యాట్సీ", "బోనస్ (63+)"],
    ("yatzy", "uz"): ["Bir juft", "Ikki juft", "Yatzy", "Bonus (63+)"],
    ("yacht", "te"): ["ఛాయిస్", "చిన్న వరుస", "యాట్"],
    ("yacht", "uz"): ["Tanlov", "Kichik ketma-ketlik", "Yaxta"],
}


@pytest.mark.parametrize(("ruleset", "language"), list(NAMES))
def test_a_table_of_each_rule_set_names_its_boxes_in_the_readers_language(
    alice_client, dice, ruleset, language
):
    from tests.test_languages import english_left

    created = alice_client.post("/games/new/", {"seats": 1, "ruleset": ruleset})
    code = created["Location"].strip("/").split("/")[-1]
    alice_client.post(url(code, "start"), {"version": version_of(alice_client.get(url(code)))})
    alice_client.post(url(code, "roll"), {"version": state_of(alice_client, code)["version"]})

    response = alice_client.get(url(code), HTTP_ACCEPT_LANGUAGE=language)

    page = text(response)
    for name in NAMES[ruleset, language]:
        assert f">{name}<" in page, name
    assert english_left(response, language) == []
