"""The friends page, the inbox, the account's settings and a player's friend box carry no
English UI words for a Telugu or an Uzbek reader (as tests/test_pages_in_languages.py)."""

from __future__ import annotations

import pytest

from games import services
from games.models import LastSeen
from tests.test_languages import english_left

LANGUAGES = ["te", "uz"]


@pytest.fixture
def busy_alice(alice, bob, carol, make_user, make_game, take_turn, frozen_clock):
    """Alice with a friend last seen a while ago, a request each way, someone blocked and an
    inbox entry of every kind."""
    make_user("dan"), make_user("eve")
    services.friend_request(user_id=alice.pk, username="bob")
    services.friend_accept(user_id=bob.pk, username="alice")
    LastSeen.objects.create(user=bob, at=frozen_clock.now())
    services.friend_request(user_id=carol.pk, username="alice")
    services.friend_request(user_id=alice.pk, username="dan")
    services.user_block(user_id=alice.pk, username="eve")
    ann = services.Player(name="alice", user_id=alice.pk)
    ben = services.Player(name="bob", user_id=bob.pk)
    lobby = make_game(ben, seats=3)
    services.invitation_send(code=lobby.code, player=ben, username="alice")
    game = make_game(ben, ann, start=True, starter=0, pace="daily")
    take_turn(game, ben, "12345", "chance")
    return alice


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", ["/friends/", "/inbox/", "/accounts/", "/u/bob/", "/u/dan/"])
def test_the_people_pages_speak_the_readers_language(make_client, busy_alice, language, path):
    browser = make_client(busy_alice)
    response = browser.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert english_left(response, language) == []
