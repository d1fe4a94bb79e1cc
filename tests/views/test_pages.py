"""Read-only pages of a player and a game (games/views/pages.py): a player's history and a
game's public state (state.json)."""

from __future__ import annotations

import pytest

from tests.conftest import (
    full_card,
    guest_player,
    player_of,
    version_of,
)
from tests.views.helpers import post, stat, state_of, text, url

pytestmark = pytest.mark.django_db


# -- history ------------------------------------------------------------------------------------


def test_history_shows_stats_finished_games_and_a_chart(
    client, alice, bob, finished_game, make_game
):
    won = finished_game(
        (alice, full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18, yahtzee=50)),
        (bob, full_card(chance=20)),
        yahtzees=1,
    )  # Alice 148 with the upper bonus
    tied = finished_game((alice, full_card(chance=30)), (bob, full_card(chance=30)))
    lost = finished_game((bob, full_card(chance=25)), (alice, full_card(chance=5)))
    playing = make_game(player_of(alice), player_of(bob), start=True)

    response = client.get("/u/alice/")

    assert response.status_code == 200
    assert stat(response, "Games played") == "3"
    assert stat(response, "Wins") == "2"
    assert stat(response, "Average score") == "61.0"
    assert stat(response, "Best score") == "148"
    assert stat(response, "Yahtzees rolled") == "1"
    assert stat(response, "Upper bonus rate") == "33%"
    page = text(response)
    for game in (won, tied, lost):
        assert f'href="{url(game)}"' in page
    assert url(playing) not in page
    assert "<svg" in page
    assert page.count('class="dot"') == 3


def test_a_player_with_no_finished_games_has_an_empty_history(client, alice):
    response = client.get("/u/alice/")

    assert response.status_code == 200
    assert stat(response, "Games played") == "0"
    assert "No finished games yet." in text(response)
    assert "<svg" not in text(response)


def test_guests_and_unknown_names_have_no_history(client, make_game, alice, play_out):
    gus = guest_player("Gus")
    game = make_game(gus, player_of(alice), start=True)
    play_out(game, [gus, player_of(alice)])

    assert client.get("/u/Gus/").status_code == 404
    assert client.get("/u/nobody/").status_code == 404


def test_a_best_score_of_zero_is_shown_as_zero(client, alice, finished_game):
    finished_game((alice, full_card()))

    assert stat(client.get("/u/alice/"), "Best score") == "0"


# -- state.json ------------------------------------------------------------------------------------


def test_state_json_of_a_lobby(client, make_game, alice):
    game = make_game(player_of(alice), seats=3, upper_first=True)

    state = state_of(client, game)

    assert state["code"] == game.code
    assert (state["status"], state["version"], state["seat_count"]) == ("lobby", 1, 3)
    assert state["rules"] == {"upper_first": True, "ruleset": "yahtzee"}
    assert (state["round"], state["current_seat"], state["dice"]) == (None, None, None)
    assert [(s["position"], s["name"], s["guest"]) for s in state["seats"]] == [(0, "alice", False)]


def test_state_json_of_a_turn_in_play(rolled, alice_client, client):
    post(alice_client, rolled, "keep", held="00111")

    state = state_of(client, rolled)

    assert state["status"] == "playing"
    assert state["version"] == version_of(rolled)
    assert (state["round"], state["current_seat"], state["rolls_left"]) == (1, 0, 2)
    assert state["dice"] == [2, 2, 3, 3, 3]
    assert state["kept"] == [False, False, True, True, True]
    assert [s["name"] for s in state["seats"]] == ["alice", "bob"]
    card = state["seats"][0]["card"]
    assert card["full_house"] is None
    assert (card["upper_subtotal"], card["total"]) == (0, 0)
