"""Deleting an account (games/services/accounts.py, ``account_delete``): in one transaction
the account, its profile, rating and sessions go; a game in play is left as "leave" leaves
it (the coach plays the seat to the end); in ended games the seat stays for the others as
"A former player"; in a lobby the seat is given up; the username is retired.

Time is a :class:`~tests.conftest.FrozenClock`; nothing here sleeps."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import translation

from games import services
from games.committed import committed
from games.models import Game, Move, Player, Profile, Rating, RetiredUsername, Seat
from tests.clock_tables import seat_of
from tests.conftest import full_card, version_of

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()


def test_deleting_an_account_removes_it_with_its_profile_rating_and_retires_the_name(alice):
    Profile.objects.create(user=alice, language="te")
    Rating.objects.create(user=alice, mu=25.0, sigma=8.0, ordinal=1.0, games=1)

    services.account_delete(user_id=alice.pk)

    assert not User.objects.filter(username="alice").exists()
    assert not Profile.objects.exists() and not Rating.objects.exists()
    assert RetiredUsername.is_retired("alice") and RetiredUsername.is_retired("ALICE")


def test_a_game_in_play_is_left_and_the_coach_plays_the_seat_to_the_end(
    make_game, ann, ben, frozen_clock, coach_advisor, play_out
):
    game = make_game(ann, ben, start=True, pace="untimed")

    services.account_delete(user_id=ann.user_id)

    game.refresh_from_db()
    seat = seat_of(game, 0)
    assert (seat.status, seat.left_round, seat.user_id, seat.name) == ("left", 1, None, "")
    assert game.host_user_id == ben.user_id  # the host role passed on
    assert game.status == "playing"
    # Announced (what open pages are sent): the newest version has no name, no account.
    newest = committed.at(game.code, game.version)
    assert newest is not None and newest.seats[0].user_id is None
    assert newest.seats[0].display_name == "A former player"
    # Bob plays on; the coach plays the former seat (at once, in tests).
    game = play_out(game, [None, ben], faces_for=lambda seat, turn: "11111", whole=True)
    assert game.status == "finished"
    assert seat_of(game, 1).place == 1 and seat_of(game, 0).place == 2
    assert Move.objects.filter(game=game, seat=0, by_coach=True, kind="score").exists()


def test_in_a_finished_game_the_seat_stays_as_a_former_player_and_the_others_keep_theirs(
    alice, bob, finished_game, client
):
    game = finished_game((alice, full_card(chance=30)), (bob, full_card(chance=20)))
    Seat.objects.filter(game=game).update(rating_after=3.5)
    version = game.version

    services.account_delete(user_id=alice.pk)

    game.refresh_from_db()
    assert game.version == version + 1  # announced: open pages drop the name
    former, other = seat_of(game, 0), seat_of(game, 1)
    assert (former.user_id, former.guest, former.name) == (None, "", "")
    assert (former.total, former.place) == (30, 1)
    assert former.display_name == "A former player"
    with translation.override("uz"):
        assert former.display_name == "Sobiq oʻyinchi"
    assert (other.user_id, other.name, other.place, other.rating_after) == (bob.pk, "bob", 2, 3.5)
    assert game.host_user_id is None
    # Bob's history still lists the game; the page names nobody called alice.
    page = client.get("/u/bob/")
    assert page.status_code == 200 and game.code in page.content.decode()
    room = client.get(f"/g/{game.code}/").content.decode()
    assert "A former player" in room and "alice" not in room
    assert client.get(f"/g/{game.code}/state.json").json()["seats"][0]["name"] == (
        "A former player"
    )


def test_in_a_lobby_the_seat_is_given_up_and_a_table_nobody_else_waits_at_goes(
    make_game, ann, ben, cat
):
    hosted = make_game(ann, ben, seats=3)
    joined = make_game(cat, ann, seats=3)
    alone = make_game(ann, seats=2)
    services.game_add_bot(code=alone.code, player=ann, version=version_of(alone), level="casual")

    services.account_delete(user_id=ann.user_id)

    hosted.refresh_from_db()
    assert [(s.position, s.user_id) for s in hosted.seats.all()] == [(0, ben.user_id)]
    assert hosted.host_user_id == ben.user_id
    assert [s.user_id for s in Game.objects.get(pk=joined.pk).seats.all()] == [cat.user_id]
    assert not Game.objects.filter(pk=alone.pk).exists()


def test_every_session_of_the_account_ends_and_no_other(alice, bob):
    phone, laptop, other = Client(), Client(), Client()
    phone.force_login(alice)
    laptop.force_login(alice)
    other.force_login(bob)

    services.account_delete(user_id=alice.pk)

    assert Session.objects.count() == 1
    assert "_auth_user_id" not in phone.session and "_auth_user_id" not in laptop.session
    assert other.session["_auth_user_id"] == str(bob.pk)
    assert phone.get("/accounts/").status_code == 302  # the cookie logs in to nothing


def test_the_other_accounts_and_guests_are_untouched(alice, bob, make_game, ben):
    game = make_game(ben, Player(name="Gus", guest="gus-token"), seats=2)

    services.account_delete(user_id=alice.pk)

    assert [s.name for s in Seat.objects.filter(game=game)] == ["bob", "Gus"]
    assert User.objects.filter(username="bob").exists()


def test_a_rematch_of_a_game_with_a_former_player_seats_only_the_others(
    alice, bob, carol, finished_game, ben
):
    game = finished_game(
        (bob, full_card(chance=10)), (alice, full_card(chance=30)), (carol, full_card())
    )
    services.account_delete(user_id=alice.pk)

    rematch = services.game_rematch(code=game.code, player=ben)

    seats = list(rematch.seats.order_by("position"))
    assert [(s.position, s.user_id) for s in seats] == [(0, bob.pk), (1, carol.pk)]
    assert rematch.seat_count == 2


@pytest.mark.parametrize("how", ["one", "the list action"])
def test_an_account_deleted_in_the_admin_is_deleted_as_it_would_delete_itself(
    how, alice, bob, finished_game, make_user, client
):
    game = finished_game((alice, full_card(chance=30)), (bob, full_card(chance=20)))
    moderator = make_user("moderator")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    admin = Client()
    admin.force_login(moderator)

    if how == "one":
        response = admin.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    else:
        response = admin.post(
            "/admin/auth/user/",
            {"action": "delete_selected", "_selected_action": [alice.pk], "post": "yes"},
        )

    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=alice.pk).exists()
    assert RetiredUsername.objects.filter(username="alice").exists()
    former = seat_of(game, 0)
    assert (former.user_id, former.name, former.total) == (None, "", 30)
    room = client.get(f"/g/{game.code}/").content.decode()
    assert "A former player" in room and "alice" not in room
    assert seat_of(game, 1).user_id == bob.pk
