"""The inbox page, inbox.json, dismissing, the header's badge and invitations as a browser
sends them (from a lobby, with the new table's form)."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.conf import settings

from games import services
from games.models import Game, InboxItem, Invitation
from tests.conftest import HTMX, version_of
from tests.views.helpers import text

pytestmark = pytest.mark.django_db


def befriend(a, b) -> None:
    services.friend_request(user_id=a.pk, username=b.username)
    services.friend_accept(user_id=b.pk, username=a.username)


def test_the_badge_counts_unread_entries_on_every_page(alice_client, bob_client, alice, bob):
    assert 'id="inbox-badge"' in text(bob_client.get("/"))
    services.friend_request(user_id=alice.pk, username="bob")
    page = text(bob_client.get("/rules/"))
    assert '<span class="badge">1<span class="visually-hidden"> unread entry</span>' in page


def test_opening_the_inbox_marks_it_read(bob_client, alice, bob):
    services.friend_request(user_id=alice.pk, username="bob")
    page = text(bob_client.get("/inbox/"))
    assert "alice sent you a friend request." in page and "new" in page
    assert not InboxItem.objects.filter(read=False).exists()
    assert '<span class="badge">' not in text(bob_client.get("/inbox/"))


def test_inbox_json_shape_newest_first(bob_client, alice, bob, carol, make_game):
    services.friend_request(user_id=alice.pk, username="bob")
    services.friend_request(user_id=carol.pk, username="bob")
    data = bob_client.get("/inbox.json").json()
    assert data["unread"] == 2
    assert [item["from"] for item in data["items"]] == ["carol", "alice"]
    first = data["items"][0]
    assert set(first) >= {"kind", "read", "created", "from", "game", "text"}
    assert first["kind"] == "friend_request" and first["read"] is False and first["game"] is None
    assert first["text"] == "carol sent you a friend request."
    datetime.fromisoformat(first["created"])
    assert bob_client.get("/inbox.json").json()["unread"] == 2  # reading the JSON marks nothing


def test_inbox_json_in_the_readers_language(bob_client, alice, bob):
    services.friend_request(user_id=alice.pk, username="bob")
    bob_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "te"
    telugu = bob_client.get("/inbox.json").json()["items"][0]["text"]
    bob_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "uz"
    uzbek = bob_client.get("/inbox.json").json()["items"][0]["text"]
    english = "alice sent you a friend request."
    assert "alice" in telugu and "alice" in uzbek
    assert telugu != english and uzbek != english and telugu != uzbek


def test_inbox_json_for_a_visitor_is_403(client):
    assert client.get("/inbox.json").status_code == 403
    assert client.get("/inbox/").status_code == 302


def test_dismiss_own_entry_and_refuse_others(alice_client, bob_client, alice, bob):
    services.friend_request(user_id=alice.pk, username="bob")
    item = InboxItem.objects.get()
    assert alice_client.post("/inbox/dismiss/", {"id": item.pk}).status_code == 404
    assert bob_client.post("/inbox/dismiss/", {"id": "nope"}).status_code == 400
    assert bob_client.post("/inbox/dismiss/", {"id": ""}).status_code == 400
    assert bob_client.post("/inbox/dismiss/", {"id": "99999"}).status_code == 404
    assert InboxItem.objects.count() == 1
    response = bob_client.post("/inbox/dismiss/", {"id": item.pk}, headers=HTMX)
    assert response.status_code == 200 and not InboxItem.objects.exists()


def test_invite_from_the_lobby_and_the_entry_says_when_the_game_started(
    alice_client, bob_client, alice, bob, make_game
):
    befriend(alice, bob)
    game = make_game(alice_client, seats=2)
    page = text(alice_client.get(f"/g/{game.code}/"))
    assert "Invite someone by username" in page
    response = alice_client.post(f"/g/{game.code}/invite/", {"username": "bob"})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert "bob is invited to this table." in text(alice_client.get(f"/g/{game.code}/"))
    inbox = text(bob_client.get("/inbox/"))
    assert f"alice invites you to table {game.code}." in inbox and "Join" in inbox
    bob_client.post(f"/g/{game.code}/join/", {"version": version_of(game)})
    alice_client.post(f"/g/{game.code}/start/", {"version": version_of(game)})
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    item = bob_client.get("/inbox.json").json()["items"][0]
    assert item["text"] == f"alice invited you to table {game.code}; that game has started."


def test_a_refused_invitation_is_a_4xx_and_changes_nothing(alice_client, alice, bob, make_game):
    game = make_game(alice_client, seats=2)
    response = alice_client.post(f"/g/{game.code}/invite/", {"username": "bob"}, headers=HTMX)
    assert response.status_code == 403
    assert "bob takes invitations from friends only." in text(response)
    assert response["HX-Reswap"] == "none"
    response = alice_client.post(f"/g/{game.code}/invite/", {"username": "ghost"})
    assert response.status_code == 404 and "There is no player named ghost." in text(response)
    assert not Invitation.objects.exists() and not InboxItem.objects.exists()


def test_a_guest_cannot_invite(guest_client, make_game, bob):
    game = make_game(guest_client, seats=2)
    assert guest_client.post(f"/g/{game.code}/invite/", {"username": "bob"}).status_code == 403
    assert not Invitation.objects.exists()


def test_the_new_tables_form_invites(alice_client, alice, bob, carol):
    befriend(alice, bob)
    assert 'name="invite"' in text(alice_client.get("/?invite=bob"))
    response = alice_client.post(
        "/games/new/",
        {"seats": 3, "name": "alice", "series": 1, "invite": ["bob", "carol"], "rated": ""},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert list(Invitation.objects.values_list("receiver__username", flat=True)) == ["bob"]
    page = text(alice_client.get(response["Location"]))
    assert "carol takes invitations from friends only." in page
    assert game.code in response["Location"]


def test_the_result_and_your_turn_entries_read_well(bob_client, alice, bob, make_game, take_turn):
    ann = services.Player(name="alice", user_id=alice.pk)
    ben = services.Player(name="bob", user_id=bob.pk)
    game = make_game(ann, ben, start=True, starter=0, pace="daily")
    take_turn(game, ann, "12345", "chance")
    items = bob_client.get("/inbox.json").json()["items"]
    assert items[0]["text"] == f"It is your turn at table {game.code}."
    assert items[0]["kind"] == "your_turn" and items[0]["game"] == game.code


def test_invitations_are_rate_limited(settings, one_limit_window, alice, make_user, make_game):
    from django.core.cache import cache
    from django.test import Client

    from tests.conftest import PASSWORD

    cache.clear()
    settings.LIMIT_INVITATIONS = "2/h"
    browser = Client(REMOTE_ADDR="203.0.113.10")
    assert browser.login(username="alice", password=PASSWORD)
    game = make_game(services.Player(name="alice", user_id=alice.pk), seats=4)
    for name in ("p1", "p2", "p3"):
        user = make_user(name)
        services.social_settings_set(
            user_id=user.pk, friend_requests_from="everyone", invitations_from="everyone"
        )
    assert browser.post(f"/g/{game.code}/invite/", {"username": "p1"}).status_code == 302
    assert browser.post(f"/g/{game.code}/invite/", {"username": "nobody"}).status_code == 404
    response = browser.post(f"/g/{game.code}/invite/", {"username": "p3"})
    assert response.status_code == 429 and response["Retry-After"]
    assert list(Invitation.objects.values_list("receiver__username", flat=True)) == ["p1"]
    cache.clear()


def test_an_htmx_invitation_from_the_lobby_answers_in_the_message_area(
    alice_client, alice, bob, make_game
):
    befriend(alice, bob)
    game = make_game(alice_client, seats=2)
    response = alice_client.post(f"/g/{game.code}/invite/", {"username": "bob"}, headers=HTMX)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert 'id="flash"' in text(response) and "bob is invited to this table." in text(response)


@pytest.mark.parametrize("raw", ["99999999999999999999", "-1", "1.5", "１２"])
def test_dismiss_with_ids_no_entry_could_have_is_a_400(bob_client, raw):
    assert bob_client.post("/inbox/dismiss/", {"id": raw}).status_code == 400
