"""The friends page, its form posts, the history page's friend box and the settings, as a
browser meets them."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from games.models import Block, FriendRequest, Friendship, SocialSettings
from tests.conftest import PASSWORD
from tests.views.helpers import text

pytestmark = pytest.mark.django_db


def befriend(a, b) -> None:
    services.friend_request(user_id=a.pk, username=b.username)
    services.friend_accept(user_id=b.pk, username=a.username)


def rows() -> tuple[int, int, int]:
    return Friendship.objects.count(), FriendRequest.objects.count(), Block.objects.count()


def test_the_friends_page_asks_a_visitor_to_log_in(client):
    response = client.get("/friends/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post("/friends/request/", {"username": "bob"}).status_code == 403


def test_request_accept_through_the_forms(alice_client, bob_client, alice, bob):
    response = alice_client.post("/friends/request/", {"username": "bob"})
    assert response.status_code == 302 and response["Location"] == "/friends/"
    page = text(alice_client.get("/friends/"))
    assert "Friend request sent to bob." in page and "Requests you sent" in page
    assert "Friend requests for you" in text(bob_client.get("/friends/"))
    response = bob_client.post("/friends/accept/", {"username": "alice", "next": "/u/alice/"})
    assert response.status_code == 302 and response["Location"] == "/u/alice/"
    assert Friendship.objects.count() == 2


@pytest.mark.parametrize(
    ("path", "name", "status", "words"),
    [
        ("/friends/request/", "alice", 400, "That is you."),
        ("/friends/request/", "stranger", 404, "There is no player named stranger."),
        ("/friends/request/", "", 400, "Type the username of a player."),
        ("/friends/accept/", "bob", 409, "There is no friend request from bob."),
        ("/friends/decline/", "bob", 409, "There is no friend request from bob."),
        ("/friends/cancel/", "bob", 409, "You have no request waiting with bob."),
        ("/friends/remove/", "bob", 409, "You have no request waiting with bob."),
        ("/friends/unblock/", "bob", 409, "You have not blocked bob."),
    ],
)
def test_refusals_are_4xx_sentences_and_change_nothing(
    alice_client, bob, path, name, status, words
):
    response = alice_client.post(path, {"username": name})
    assert response.status_code == status
    assert words in text(response)
    assert rows() == (0, 0, 0)


def test_a_get_of_an_action_is_refused(alice_client):
    assert alice_client.get("/friends/request/").status_code == 405


def test_block_and_unblock_from_the_page(alice_client, alice, bob):
    befriend(alice, bob)
    assert alice_client.post("/friends/block/", {"username": "bob"}).status_code == 302
    assert rows() == (0, 0, 1)
    page = text(alice_client.get("/friends/"))
    assert "People you blocked" in page and "Unblock" in page
    assert alice_client.post("/friends/unblock/", {"username": "bob"}).status_code == 302
    assert rows() == (0, 0, 0)


def test_a_status_is_shown_to_friends_only_and_a_block_hides_it(
    alice_client, bob_client, alice, bob, carol, make_game
):
    befriend(alice, bob)
    page = text(alice_client.get("/friends/"))
    assert "bob" in page and "not seen yet" in page
    services.site_presence_open(server_id="test-server", user_id=bob.pk, channel_name="c1")
    assert "on the site" in text(alice_client.get("/friends/"))
    services.site_presence_close(user_id=bob.pk, channel_name="c1")
    assert "last seen " in text(alice_client.get("/friends/"))
    services.site_presence_open(server_id="test-server", user_id=bob.pk, channel_name="c1")
    # A stranger's page shows no status of bob's.
    carol_client = Client()
    carol_client.force_login(carol)
    assert "on the site" not in text(carol_client.get("/friends/"))
    assert "on the site" not in text(carol_client.get("/u/bob/"))
    services.user_block(user_id=bob.pk, username="alice")
    assert "on the site" not in text(alice_client.get("/friends/"))


def test_at_a_table_links_a_public_table_only(alice_client, alice, bob, make_game):
    from django.utils import timezone

    from games.models import Connection, LiveServer

    befriend(alice, bob)
    bob_player = services.Player(name="bob", user_id=bob.pk)
    private = make_game(bob_player, seats=2)
    LiveServer.objects.create(id="s", last_seen=timezone.now())
    Connection.objects.create(game=private, channel_name="x", server_id="s", seat=0)
    page = text(alice_client.get("/friends/"))
    assert "at a table" in page and f"/g/{private.code}/" not in page
    public = make_game(bob_player, seats=2, public=True)
    Connection.objects.create(game=public, channel_name="y", server_id="s", seat=0)
    assert f"/g/{public.code}/" in text(alice_client.get("/friends/"))


def test_the_history_page_offers_add_friend_and_shows_the_requests_state(
    alice_client, bob_client, alice, bob, client
):
    bob_client.get("/")  # bob exists; his page
    page = text(alice_client.get("/u/bob/"))
    assert "Add friend" in page and "Invite to a table" in page
    alice_client.post("/friends/request/", {"username": "bob"})
    assert "Friend request sent" in text(alice_client.get("/u/bob/"))
    assert "asked to be your friend" in text(bob_client.get("/u/alice/"))
    assert "Add friend" not in text(client.get("/u/bob/"))  # a visitor sees no box
    assert "Add friend" not in text(alice_client.get("/u/alice/"))  # nor on one's own page


def test_the_history_page_invites_to_ones_open_table(alice_client, alice, bob, make_game):
    befriend(alice, bob)
    game = make_game(services.Player(name="alice", user_id=alice.pk), seats=2)
    page = text(alice_client.get("/u/bob/"))
    assert f"Invite to table {game.code}" in page


def test_settings_on_the_account_page(alice_client, alice):
    page = text(alice_client.get("/accounts/"))
    assert "Who may send you friend requests" in page and "Friends only" in page
    response = alice_client.post(
        "/friends/settings/", {"friend_requests_from": "nobody", "invitations_from": "everyone"}
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    row = SocialSettings.objects.get(user=alice)
    assert (row.friend_requests_from, row.invitations_from) == ("nobody", "everyone")
    bad = alice_client.post(
        "/friends/settings/", {"friend_requests_from": "x", "invitations_from": "everyone"}
    )
    assert bad.status_code == 400
    assert SocialSettings.objects.get(user=alice).friend_requests_from == "nobody"


def test_friend_requests_are_rate_limited(settings, one_limit_window, alice, make_user):
    cache.clear()
    settings.LIMIT_FRIEND_REQUESTS = "3/h"
    browser = Client(REMOTE_ADDR="203.0.113.9")
    assert browser.login(username="alice", password=PASSWORD)
    for index in range(3):
        make_user(f"p{index}")
        assert browser.post("/friends/request/", {"username": f"p{index}"}).status_code == 302
    make_user("p3")
    response = browser.post("/friends/request/", {"username": "p3"})
    assert response.status_code == 429 and "Too many requests" in text(response)
    assert FriendRequest.objects.count() == 3
    cache.clear()


@pytest.mark.parametrize("name", ["bob\x00", "b" * 151, "bob smith!", "<script>"])
def test_names_no_account_could_have_are_refused_without_a_query_error(alice_client, bob, name):
    response = alice_client.post("/friends/request/", {"username": name})
    assert response.status_code in (400, 404)
    assert rows() == (0, 0, 0)


def test_the_accounts_data_has_its_people(alice_client, alice, bob, carol, make_game):
    befriend(alice, bob)
    services.user_block(user_id=alice.pk, username="carol")
    game = make_game(services.Player(name="alice", user_id=alice.pk), seats=2)
    services.invitation_send(
        code=game.code, player=services.Player(name="alice", user_id=alice.pk), username="bob"
    )
    people = alice_client.get("/accounts/data.json").json()["people"]
    assert people["settings"] == {"friend_requests_from": "everyone", "invitations_from": "friends"}
    assert [f["username"] for f in people["friends"]] == ["bob"]
    assert people["blocked"] == ["carol"]
    assert people["invitations"][0]["game"] == game.code and people["invitations"][0]["to"] == "bob"
    assert [entry["kind"] for entry in people["inbox"]] == ["friend_accepted"]
