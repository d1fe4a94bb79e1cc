"""The home page and the game page, in every state a table goes through, carry no English
UI words for a Telugu or an Uzbek reader (the English of the catalogs, tests/test_languages.py)."""

from __future__ import annotations

import pytest

from .conftest import player_of
from .test_languages import english_left

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
