""" "Play now" through the browser's own forms: /play/, its refusals, cancel, the computer
instead, and status.json."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Block, Game, Rating, Ticket
from tests.views.helpers import error_of_form as error_of
from tests.views.helpers import text

pytestmark = pytest.mark.django_db

LIVE_RATED = {"pace": "live", "players": "2", "rated": "yes"}
CASUAL = {"pace": "blitz", "players": "2", "rated": "no"}


def status_of(browser: Client) -> dict:
    response = browser.get("/play/status.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_the_form_offers_pace_players_and_rated(alice_client):
    page = text(alice_client.get("/play/"))
    for choice in ('value="blitz"', 'value="live"', 'value="relaxed"', 'value="3"', 'value="4"'):
        assert choice in page
    assert 'name="rated" value="yes"' in page and 'name="rated" value="no"' in page
    assert 'value="daily"' not in page
    for ruleset in ('value="yahtzee"', 'value="yatzy"', 'value="yacht"'):
        assert ruleset in page
    assert status_of(alice_client) == {"status": "idle", "waited_seconds": 0, "game": None}


def test_home_page_links_to_play_now(client):
    assert 'href="/play/"' in client.get("/").content.decode()


def test_posting_waits_then_the_second_person_is_taken_to_the_same_table(
    alice_client, bob_client, frozen_clock
):
    response = alice_client.post("/play/", LIVE_RATED)
    assert response.status_code == 302 and response["Location"] == "/play/"
    page = alice_client.get("/play/")
    assert "Looking for players…" in text(page)
    assert '<meta http-equiv="refresh" content="5;url=/play/?waiting=1">' in text(page)
    assert "/static/js/play" in text(page)
    frozen_clock.advance(seconds=7)
    assert status_of(alice_client) == {"status": "waiting", "waited_seconds": 7, "game": None}
    assert "You have waited 7 seconds." in text(alice_client.get("/play/"))

    response = bob_client.post("/play/", LIVE_RATED)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert status_of(alice_client) == {"status": "matched", "waited_seconds": 0, "game": game.code}
    # Alice's waiting page, reloading itself without JavaScript, goes to the table.
    assert alice_client.get("/play/?waiting=1")["Location"] == f"/g/{game.code}/"
    assert "Your table is ready." in text(alice_client.get("/play/"))
    assert game.status == Game.Status.PLAYING and game.rated


def test_a_guest_plays_casual_under_the_name_they_give(client, make_client):
    assert client.post("/play/", {**CASUAL, "name": "Gus"}).status_code == 302
    other = make_client(guest="Hal")
    response = other.post("/play/", CASUAL)
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.code}/"
    assert list(game.seats.order_by("position").values_list("name", flat=True)) == ["Gus", "Hal"]
    assert status_of(client)["game"] == game.code


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"pace": "daily", "players": "2", "rated": "no"},
        {"pace": "live", "players": "5", "rated": "no"},
        {"pace": "live", "players": "two", "rated": "no"},
        {"pace": "live", "players": "2", "rated": "maybe"},
        {"ruleset": "farkle", "pace": "live", "players": "2", "rated": "no"},
    ],
)
def test_a_malformed_form_is_refused_with_a_sentence_and_changes_nothing(alice_client, data):
    response = alice_client.post("/play/", data)
    assert response.status_code == 400
    assert error_of(response).startswith("Choose")
    assert not Ticket.objects.exists()


def test_rated_as_a_guest_is_refused(guest_client):
    response = guest_client.post("/play/", LIVE_RATED)
    assert response.status_code == 403
    assert "needs an account" in error_of(response)
    assert not Ticket.objects.exists()


def test_a_guest_without_a_name_is_asked_for_one(client):
    response = client.post("/play/", CASUAL)
    assert response.status_code == 400
    assert "display name" in error_of(response)
    assert not Ticket.objects.exists()


def test_a_second_post_is_refused_and_changes_nothing(alice_client):
    alice_client.post("/play/", LIVE_RATED)
    response = alice_client.post("/play/", CASUAL)
    assert response.status_code == 409
    assert "already waiting" in error_of(response)
    assert Ticket.objects.count() == 1 and Ticket.objects.get().pace == "live"


def test_cancel_leaves_the_queue_and_cancel_when_idle_is_refused(alice_client):
    alice_client.post("/play/", LIVE_RATED)
    assert alice_client.post("/play/cancel/")["Location"] == "/play/"
    assert status_of(alice_client)["status"] == "idle"
    response = alice_client.post("/play/cancel/")
    assert response.status_code == 409
    assert "not waiting" in error_of(response)
    assert alice_client.get("/play/cancel/").status_code == 405


def test_blocked_people_are_not_matched(alice_client, bob_client, alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)
    alice_client.post("/play/", LIVE_RATED)
    assert bob_client.post("/play/", LIVE_RATED)["Location"] == "/play/"
    assert not Game.objects.exists()


def test_the_computer_is_offered_after_the_wait_and_not_before(
    alice_client, alice, frozen_clock, settings
):
    settings.PLAY_NOW_WAIT_SECONDS = 30
    alice_client.post("/play/", LIVE_RATED)
    frozen_clock.advance(seconds=10)
    page = text(alice_client.get("/play/"))
    assert 'id="play-computer" class="play-computer" hidden' in page
    response = alice_client.post("/play/computer/")
    assert response.status_code == 400 and "20 seconds" in error_of(response)
    assert status_of(alice_client)["status"] == "waiting"  # nothing changed

    frozen_clock.advance(seconds=20)
    page = text(alice_client.get("/play/"))
    assert 'id="play-computer" class="play-computer">' in page
    assert "Play the computer instead" in page
    assert "Casual bot" in page and "without a rating yet" in page
    assert status_of(alice_client)["status"] == "waiting"  # still waiting until she chooses
    response = alice_client.post("/play/computer/")
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.code}/"
    assert list(game.seats.values_list("bot", flat=True).order_by("position")) == ["", "casual"]
    assert status_of(alice_client) == {"status": "matched", "waited_seconds": 0, "game": game.code}


def test_a_rated_player_is_offered_the_computer_closest_to_their_rating(
    alice_client, alice, frozen_clock, settings
):
    settings.PLAY_NOW_WAIT_SECONDS = 0
    Rating.objects.create(user=alice, mu=30, sigma=2, ordinal=24.0, games=20)
    alice_client.post("/play/", LIVE_RATED)
    page = text(alice_client.get("/play/"))
    assert "Casual bot" in page and "closest to your rating" in page
    Rating.objects.filter(user=alice).update(ordinal=29.2)
    alice_client.post("/play/computer/")
    assert Game.objects.get().seats.get(position=1).bot == "coach"


def test_the_computer_when_not_waiting_is_refused(alice_client):
    response = alice_client.post("/play/computer/")
    assert response.status_code == 409
    assert not Game.objects.exists()


def test_a_flood_of_posts_is_refused_with_429(settings, alice):
    settings.LIMIT_TABLES_PER_SESSION = "2/m"
    flooder = Client(REMOTE_ADDR="10.9.8.7")
    flooder.force_login(alice)
    answers = []
    for _ in range(3):
        answers.append(flooder.post("/play/", CASUAL).status_code)
        flooder.post("/play/cancel/")
    assert answers == [302, 302, 429]
    assert Ticket.objects.count() == 2


def test_the_pages_are_translated(alice_client):
    alice_client.post("/play/", LIVE_RATED)
    page = text(alice_client.get("/play/", headers={"Accept-Language": "uz"}))
    assert "Looking for players…" not in page


def test_the_no_script_reload_keeps_the_place_while_waiting(alice_client, frozen_clock):
    alice_client.post("/play/", CASUAL)
    frozen_clock.advance(seconds=20)
    response = alice_client.get("/play/?waiting=1")
    assert response.status_code == 200 and "Looking for players…" in text(response)
    assert Ticket.objects.get().seen_at == frozen_clock.now()  # its page still counts as open


def test_two_people_who_choose_yacht_are_taken_to_one_yacht_table(alice_client, bob_client):
    alice_client.post("/play/", {**LIVE_RATED, "ruleset": "yacht"})
    assert "Yacht" in text(alice_client.get("/play/"))  # the waiting page names it
    response = bob_client.post("/play/", {**LIVE_RATED, "ruleset": "yacht"})
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.code}/"
    assert game.ruleset == "yacht"
    assert status_of(alice_client)["game"] == game.code


def test_posting_again_once_matched_goes_back_to_the_table_not_to_the_queue(
    alice_client, bob_client
):
    assert alice_client.post("/play/", CASUAL)["Location"] == "/play/"
    first = bob_client.post("/play/", CASUAL)  # a double click: the same form posted twice
    game = Game.objects.get()
    assert first["Location"] == f"/g/{game.code}/"
    second = bob_client.post("/play/", CASUAL)
    # Bob is at his table: the repeat takes him there again, not to "Looking for players…"
    # while Alice waits for him at the table.
    assert second.status_code == 302 and second["Location"] == f"/g/{game.code}/"
    assert not Ticket.objects.filter(status="waiting").exists()


def test_someone_taken_out_of_the_rated_queue_by_a_pause_is_told_why(
    alice_client, bob_client, alice, pause_begins
):
    alice_client.post("/play/", LIVE_RATED)
    pause_begins(alice)  # she left a rated game elsewhere while she waited
    assert bob_client.post("/play/", LIVE_RATED)["Location"] == "/play/"
    assert status_of(alice_client)["status"] == "idle"
    # Her waiting page (its no-script reload, or the socket's push) comes back to the form,
    # which says why and until when.
    page = alice_client.get("/play/?waiting=1")
    assert page.status_code == 200 and "Looking for players…" not in text(page)
    assert "may not sit down at a rated table until" in error_of(page)
    assert status_of(bob_client)["status"] == "waiting"  # for someone else to come
