"""Actions a table refuses (games/views/table.py, views/common.py): stale and repeated actions,
actions out of turn or by strangers, and bad input. A refused action re-renders the table with
a readable message and a 4xx status, and changes nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Move
from tests.conftest import (
    HTMX,
    dice_of,
    held_of,
    player_of,
    snapshot,
    version_of,
)
from tests.views.helpers import error_of, post, text, url

pytestmark = pytest.mark.django_db


# -- versions: stale and repeated actions --------------------------------------------------------


def test_stale_roll_changes_nothing_and_shows_current_table(duel, alice_client, loaded_dice):
    old = version_of(duel)
    loaded_dice.load("12345")
    post(alice_client, duel, "roll", version=old)
    before = snapshot(duel)

    response = post(alice_client, duel, "roll", version=old)

    assert response.status_code == 409
    assert "nothing changed" in error_of(response)
    assert version_of(response) == old + 1
    assert 'aria-label="Die 5: 5, keep"' in text(response)
    assert snapshot(duel) == before


def test_one_click_sent_twice_never_rolls_twice(duel, alice_client, loaded_dice):
    version = version_of(duel)
    loaded_dice.load("12345")  # only one roll's worth: a second roll would run out

    first = post(alice_client, duel, "roll", htmx=True, version=version)
    second = post(alice_client, duel, "roll", htmx=True, version=version)

    assert (first.status_code, second.status_code) == (200, 409)
    assert "<html" not in text(second)
    assert "nothing changed" in text(second)
    assert duel.moves.filter(kind=Move.Kind.ROLL).count() == 1
    assert Game.objects.get(pk=duel.pk).rolls_left == 2


@pytest.mark.parametrize(
    ("action", "data"),
    [("keep", {"held": "11000"}), ("score", {"category": "chance"}), ("roll", {})],
)
def test_stale_keep_score_or_roll_changes_nothing(rolled, alice_client, action, data):
    before = snapshot(rolled)

    response = post(alice_client, rolled, action, version=version_of(rolled) - 1, **data)

    assert response.status_code == 409
    assert snapshot(rolled) == before


def test_stale_start_changes_nothing(make_game, alice_client, bob_client):
    game = make_game(alice_client, bob_client)
    before = snapshot(game)

    response = post(alice_client, game, "start", version=1)

    assert response.status_code == 409
    assert snapshot(game) == before


def test_stale_join_changes_nothing(make_game, alice_client, bob_client, carol, make_client):
    game = make_game(alice_client, bob_client, seats=3)
    before = snapshot(game)

    response = post(make_client(carol), game, "join", version=1)

    assert response.status_code == 409
    assert snapshot(game) == before


# -- who may act -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "data"),
    [("roll", {}), ("keep", {"held": "10000"}), ("score", {"category": "chance"})],
)
def test_a_player_out_of_turn_gets_403_and_nothing_changes(rolled, bob_client, action, data):
    before = snapshot(rolled)

    response = post(bob_client, rolled, action, **data)

    assert response.status_code == 403
    assert "It is alice's turn, not yours." in error_of(response)
    assert snapshot(rolled) == before


@pytest.mark.parametrize("watcher", ["carol", "anonymous", "guest"])
def test_a_watcher_may_look_but_not_play(rolled, carol, make_client, watcher):
    browser = {
        "carol": make_client(carol),
        "anonymous": Client(),
        "guest": make_client(guest="Gus"),
    }[watcher]
    before = snapshot(rolled)

    assert browser.get(url(rolled)).status_code == 200
    response = post(browser, rolled, "roll")

    assert response.status_code == 403
    assert "You are watching this game" in error_of(response)
    assert snapshot(rolled) == before


def test_a_guests_seat_belongs_to_their_session_not_their_name(
    make_game, make_client, alice_client, loaded_dice
):
    gus = make_client(guest="Gus")
    impostor = make_client(guest="Gus")
    game = make_game(gus, alice_client, start=True, starter=0)
    before = snapshot(game)

    refused = post(impostor, game, "roll")
    assert refused.status_code == 403
    assert snapshot(game) == before

    loaded_dice.load("12345")
    assert post(gus, game, "roll").status_code == 302
    assert dice_of(Game.objects.get(pk=game.pk)) == "12345"


def test_guest_session_tokens_are_never_shown(make_game, make_client, alice_client, client):
    gus = make_client(guest="Gus")
    game = make_game(alice_client, gus, start=True)
    token = gus.session["guest_token"]

    assert token not in text(client.get(url(game)))
    assert token not in text(alice_client.get(url(game)))
    assert token not in text(client.get(f"/g/{game.code}/state.json"))


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("roll", {"version": ""}, "did not say which version of the table"),
        ("roll", {"version": "seven"}, "did not say which version of the table"),
        ("roll", {"version": "0"}, "did not say which version of the table"),
        ("keep", {"held": "0100"}, "Choose which of the five dice to keep."),
        ("keep", {"held": "01002"}, "Choose which of the five dice to keep."),
        ("keep", {"held": "yes"}, "Choose which of the five dice to keep."),
        ("keep", {}, "Choose which of the five dice to keep."),
        ("score", {"category": "bonus"}, "There is no such box on the scorecard."),
        ("score", {"category": "Full House"}, "There is no such box on the scorecard."),
        ("score", {}, "Choose a box on the scorecard to score."),
    ],
)
def test_malformed_fields_are_a_400_with_a_readable_message(
    rolled, alice_client, action, data, message
):
    before = snapshot(rolled)

    response = post(alice_client, rolled, action, **data)

    assert response.status_code == 400
    assert message in error_of(response)
    assert snapshot(rolled) == before


def test_a_missing_version_is_a_400_and_nothing_changes(rolled, alice_client):
    before = snapshot(rolled)

    response = alice_client.post(url(rolled, "roll"), {})

    assert response.status_code == 400
    assert "did not say which version of the table" in error_of(response)
    assert snapshot(rolled) == before


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("keep", {"held": "10000"}, "Roll the dice before keeping any."),
        ("score", {"category": "chance"}, "Roll the dice before choosing a box."),
    ],
)
def test_keeping_or_scoring_before_rolling_is_refused(duel, alice_client, action, data, message):
    before = snapshot(duel)

    response = post(alice_client, duel, action, **data)

    assert response.status_code == 400
    assert message in error_of(response)
    assert snapshot(duel) == before


def test_a_fourth_roll_is_refused(duel, alice_client, loaded_dice):
    loaded_dice.load("12345", "12345", "12345")
    for _ in range(3):
        assert post(alice_client, duel, "roll").status_code == 302
    before = snapshot(duel)

    response = post(alice_client, duel, "roll")

    assert response.status_code == 400
    assert "No rolls left this turn" in error_of(response)
    assert snapshot(duel) == before


def test_a_filled_box_is_refused(make_game, alice_client, alice, take_turn, loaded_dice):
    game = make_game(alice_client, start=True)
    take_turn(game, player_of(alice), "22333", "full_house")
    loaded_dice.load("44555")
    post(alice_client, game, "roll")
    before = snapshot(game)

    response = post(alice_client, game, "score", category="full_house")

    assert response.status_code == 400
    assert "The Full House box is already filled." in error_of(response)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", ["roll", "keep", "score", "start", "join"])
def test_acting_in_a_finished_game_is_refused(
    make_game, alice_client, bob_client, alice, bob, carol, make_client, play_out, action
):
    game = make_game(alice_client, bob_client, start=True)
    play_out(game, [player_of(alice), player_of(bob)])
    before = snapshot(game)
    data = {"keep": {"held": "10000"}, "score": {"category": "chance"}}.get(action, {})
    browser = make_client(carol) if action == "join" else alice_client

    response = post(browser, game, action, **data)

    assert 400 <= response.status_code < 500
    assert error_of(response)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", ["join", "leave", "start", "roll", "keep", "score", "rematch"])
def test_actions_need_a_post(duel, alice_client, action):
    assert alice_client.get(url(duel, action)).status_code == 405


def test_the_upper_first_option_explains_why_a_lower_box_is_closed(
    make_game, alice_client, loaded_dice
):
    game = make_game(alice_client, upper_first=True, start=True)
    loaded_dice.load("22333")
    post(alice_client, game, "roll")

    page = text(alice_client.get(url(game)))
    response = post(alice_client, game, "score", category="full_house")

    assert "Fill all six upper boxes before using the lower section." in page
    assert 'aria-label="Score 25 in Full House"' not in page
    assert response.status_code == 400
    assert "Fill all six upper boxes" in error_of(response)


def test_page_forms_work_with_csrf_checks_on(make_game, alice, loaded_dice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    game = make_game(player_of(alice), start=True)
    page = text(browser.get(url(game)))
    form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    header_token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)

    forged = browser.post(url(game, "roll"), {"version": version_of(game)})
    assert forged.status_code == 403
    assert dice_of(Game.objects.get(pk=game.pk)) == ""

    loaded_dice.load("12345")
    plain = browser.post(
        url(game, "roll"), {"version": version_of(game), "csrfmiddlewaretoken": form_token}
    )
    assert plain.status_code == 302
    swapped = browser.post(
        url(game, "keep"),
        {"version": version_of(game), "held": "10000"},
        headers={**HTMX, "X-CSRFToken": header_token},
    )
    assert swapped.status_code == 200
    assert held_of(Game.objects.get(pk=game.pk)) == "10000"
