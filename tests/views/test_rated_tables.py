"""Rated or casual through the pages: the create form's box, the refusal of hints with a
rated table, no coach on a rated board for anyone, and the kind shown in the lobby list,
at the table, in the final ranking and in the history."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import services
from games.models import Game
from tests.conftest import rolloff_won_by, version_of
from tests.views.helpers import error_of_form, post, text, url

pytestmark = pytest.mark.django_db

NO_COACH = "A rated game has no coach while it runs"


def test_the_create_form_has_rated_checked_by_default(client):
    page = text(client.get("/"))
    box = re.search(r'<input type="checkbox" name="rated"[^>]*>', page)
    assert box is not None and "checked" in box.group(0)


def test_a_ticked_box_opens_a_rated_table_and_no_box_a_casual_one(alice_client):
    alice_client.post("/games/new/", {"seats": "2", "rated": "on"})
    alice_client.post("/games/new/", {"seats": "2"})

    assert [g.rated for g in Game.objects.order_by("pk")] == [True, False]


@pytest.mark.parametrize("coach", [{"coach_hints": "on"}, {"feedback": "on"}])
def test_the_form_refuses_hints_or_feedback_with_a_rated_table_and_says_why(alice_client, coach):
    response = alice_client.post("/games/new/", {"seats": "2", "rated": "on", **coach})

    assert response.status_code == 400
    assert NO_COACH in error_of_form(response)
    assert not Game.objects.exists()


def test_the_form_refuses_it_in_the_readers_language(alice_client):
    alice_client.cookies["django_language"] = "uz"
    response = alice_client.post(
        "/games/new/",
        {"seats": "2", "rated": "on", "coach_hints": "on"},
        headers={"Accept-Language": "uz"},
    )

    assert response.status_code == 400
    assert "Reytingli oʻyinda u davom etayotganda murabbiy yoʻq" in error_of_form(response)


def test_a_solo_table_with_hints_is_casual_even_with_the_box_ticked(alice_client):
    response = alice_client.post("/games/new/", {"seats": "1", "rated": "on", "coach_hints": "on"})

    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.rated, game.coach_hints) == (False, True)


def test_the_page_greys_out_hints_and_feedback_while_rated_is_ticked(client):
    assert "js/home" in client.get("/").content.decode()  # the page loads static/js/home.js
    source = (Path(__file__).resolve().parents[2] / "static" / "js" / "home.js").read_text()
    assert "hintsOn.disabled = noCoach" in source and "feedback.disabled = noCoach" in source


def rated_duel(make_game, alice_client, bob_client) -> Game:
    return make_game(alice_client, bob_client, start=True, starter=0)


def test_a_rated_board_shows_no_coach_to_the_player_the_others_or_a_spectator(
    make_game, alice_client, bob_client, client, loaded_dice
):
    game = rated_duel(make_game, alice_client, bob_client)
    loaded_dice.load("66612")
    post(alice_client, game, "roll")

    for browser in (alice_client, bob_client, client):
        page = text(browser.get(url(game)))
        assert "Rated: no coach helps anyone until the game is over." in page
        assert "Coach:" not in page
        assert 'id="feedback"' not in page


def test_the_lobby_list_and_the_table_say_which_kind(ann, client):
    rated = services.game_create(player=ann, seat_count=2, is_public=True)
    page = text(client.get("/"))
    assert re.search(rf"Table {rated.code}.*?>rated<", page, re.S)
    table = text(client.get(url(rated)))
    assert "Rated: the game moves ratings and no coach helps anyone" in table


def test_the_final_ranking_and_the_history_say_which_kind(
    make_game, ann, ben, alice, client, play_out
):
    casual = services.game_create(player=ann, seat_count=2, rated=False)
    services.game_join(code=casual.code, player=ben, version=version_of(casual))
    services.game_start(
        code=casual.code, player=ann, version=version_of(casual), rng=rolloff_won_by(0, 2)
    )
    play_out(casual, [ann, ben])
    rated = play_out(make_game(ann, ben, start=True), [ann, ben])

    assert "Casual: this game moves no rating." in text(client.get(url(casual)))
    finished_rated = text(client.get(url(rated)))
    assert "Rated: this game counts toward the ratings of its players with an account." in (
        finished_rated
    )
    history = text(client.get(f"/u/{alice.username}/"))
    assert ">rated<" in history and ">casual<" in history
