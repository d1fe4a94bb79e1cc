"""The home page and opening a table (games/views/table.py: home, game_create)."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.conftest import (
    player_of,
)
from tests.views.helpers import error_of_form, text, url

pytestmark = pytest.mark.django_db


# -- home and creating a table -------------------------------------------------------------


def test_account_holder_creates_a_table_and_sits_in_seat_zero(alice_client, alice):
    response = alice_client.post(
        "/games/new/", {"seats": "3", "upper_first": "on", "is_public": "on"}
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url(game)
    assert (game.seat_count, game.upper_first, game.is_public) == (3, True, True)
    assert (game.status, game.host_user_id) == (Game.Status.LOBBY, alice.pk)
    assert list(game.seats.values_list("position", "user_id", "name")) == [(0, alice.pk, "alice")]


def test_a_private_table_is_the_default(alice_client):
    alice_client.post("/games/new/", {"seats": "2"})

    game = Game.objects.get()
    assert (game.is_public, game.upper_first) == (False, False)


def test_guest_creates_a_table_with_a_display_name_remembered_in_session(client):
    response = client.post("/games/new/", {"seats": "2", "name": "  Gus  "})

    game = Game.objects.get()
    seat = game.seats.get()
    assert response["Location"] == url(game)
    assert client.session["guest_name"] == "Gus"
    assert (seat.name, seat.user_id, seat.guest) == ("Gus", None, client.session["guest_token"])
    assert game.host_guest == client.session["guest_token"]
    home = client.get("/")
    assert 'value="Gus"' in text(home)
    assert url(game) in text(home)  # listed under "Your tables"


@pytest.mark.parametrize("looked_at_a_table_first", [False, True])
def test_guest_without_a_name_cannot_create_a_table(
    client, make_game, alice, looked_at_a_table_first
):
    if looked_at_a_table_first:  # the visit gives the session a guest token, not a name
        client.get(url(make_game(player_of(alice), seats=2)))
    tables = Game.objects.count()

    response = client.post("/games/new/", {"seats": "2", "name": "   "})

    assert 400 <= response.status_code < 500
    assert re.search(r"(guest|display) name", error_of_form(response))
    assert Game.objects.count() == tables


@pytest.mark.parametrize("seats", ["1", "8"])
def test_tables_seat_one_to_eight(alice_client, seats):
    response = alice_client.post("/games/new/", {"seats": seats})

    assert response.status_code == 302
    assert Game.objects.get().seat_count == int(seats)


@pytest.mark.parametrize("seats", ["0", "9", "many", ""])
def test_a_table_outside_one_to_eight_seats_is_refused(alice_client, seats):
    response = alice_client.post("/games/new/", {"seats": seats})

    assert response.status_code == 400
    assert error_of_form(response)
    assert Game.objects.count() == 0


def test_creating_needs_a_post(alice_client):
    assert alice_client.get("/games/new/").status_code == 405
    assert Game.objects.count() == 0


def test_home_lists_only_public_tables_waiting_for_players(client, make_game, alice, bob, carol):
    ann, ben, cec = player_of(alice), player_of(bob), player_of(carol)
    waiting = make_game(ann, seats=3, public=True)
    private = make_game(ben, seats=3)
    full = make_game(ann, ben, public=True)
    started = make_game(cec, seats=2, public=True, start=True)

    page = text(client.get("/"))

    assert url(waiting) in page
    assert "1 of 3 seated" in page
    for hidden in (private, full, started):
        assert url(hidden) not in page
    assert page.count('<li><a href="/g/') == 1
