"""The home page and the game page, in every state a table goes through, carry no English
UI words for a Telugu or an Uzbek reader (the English of the catalogs, tests/test_languages.py)."""

from __future__ import annotations

import pytest

from .conftest import player_of
from .test_languages import english_left, what_a_person_reads

LANGUAGES = ["te", "uz"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_speaks_the_readers_language(client, make_game, ann, language):
    make_game(ann, seats=3, public=True, upper_first=True)

    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert english_left(response, language) == []
    assert '/rules/#upper-first"' in response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_of_an_account_speaks_the_readers_language(
    alice_client, make_game, ann, language
):
    make_game(ann, seats=2)

    response = alice_client.get("/", HTTP_ACCEPT_LANGUAGE=language)

    assert english_left(response, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_speaks_the_readers_language(alice_client, client, make_game, ann, language):
    game = make_game(ann, seats=3, upper_first=True)

    for browser in (alice_client, client):  # the host, and a visitor who may sit down
        response = browser.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)

        assert response.status_code == 200
        assert english_left(response, language) == []
        assert '/rules/#upper-first"' in response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_in_play_speaks_the_readers_language(
    alice_client, bob_client, client, duel, language
):
    for browser in (alice_client, bob_client, client):  # on turn, waiting, watching
        response = browser.get(duel.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)

        assert response.status_code == 200
        assert english_left(response, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_finished_game_speaks_the_readers_language(
    alice_client, alice, bob, duel, play_out, language
):
    play_out(duel, [player_of(alice), player_of(bob)])

    response = alice_client.get(duel.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert english_left(response, language) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_pages_of_a_game_with_a_computer_player_speak_the_readers_language(
    alice, make_client, dice, coach_advisor, language
):
    from games import services
    from games.models import BotLevel
    from tests.test_coach import add_bot, play_game_as

    game = services.game_create(player=player_of(alice), seat_count=2)
    add_bot(game, player_of(alice), BotLevel.BEGINNER)
    play_game_as(player_of(alice), game)
    browser = make_client(alice)

    for address, status in [
        (game.get_absolute_url(), 200),
        (f"/g/{game.code}/replay/", 200),
        (f"/g/{game.code}/verify/", 200),
        ("/leaderboard/", 200),
        ("/practice/", 200),
        ("/accounts/", 200),
        ("/u/alice/", 200),
        (f"/g/{game.code}/series/", 404),
    ]:
        response = browser.get(address, HTTP_ACCEPT_LANGUAGE=language)

        assert response.status_code == status, address
        assert english_left(response, language) == [], address
        assert "Beginner bot" not in response.content.decode(), address


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_coachs_hints_and_the_last_score_name_boxes_in_the_readers_language(
    alice_client, make_game, ann, take_turn, loaded_dice, coach_advisor, language
):
    from games import services
    from tests.conftest import version_of

    game = make_game(ann, seats=1, start=True)  # alone: the coach's hints are on
    take_turn(game, ann, "12346", "chance")
    loaded_dice.load("11234")
    services.turn_roll(code=game.code, player=ann, version=version_of(game))

    response = alice_client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert 'class="last-move"' in page and "coach" in page
    assert english_left(response, language) == []
    assert "Chance" not in what_a_person_reads(response)
