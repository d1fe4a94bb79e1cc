"""Accounts over HTTP (games/views/accounts.py): signing up, logging in and out, the account
page, and a guest's seats following them into their account."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import (
    PASSWORD,
    player_of,
)
from tests.views.helpers import text, url

pytestmark = pytest.mark.django_db


# -- accounts -------------------------------------------------------------------------------


def test_signup_creates_an_account_logs_in_and_goes_home(client):
    response = client.post(
        "/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] == "/"
    dora = get_user_model().objects.get(username="dora")
    assert client.session["_auth_user_id"] == str(dora.pk)
    home = client.get("/")
    assert 'href="/u/dora/"' in text(home)
    assert "Log out" in text(home)


def test_signup_returns_to_the_table_it_came_from(client, make_game, alice):
    game = make_game(player_of(alice), seats=2)

    response = client.post(
        "/accounts/signup/",
        {"username": "dora", "password1": PASSWORD, "password2": PASSWORD, "next": url(game)},
    )

    assert response["Location"] == url(game)


def test_signup_ignores_a_next_address_on_another_site(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )

    assert response["Location"] == "/"


@pytest.mark.parametrize(
    ("username", "password2"), [("dora", "something-else-42"), ("alice", PASSWORD), ("", PASSWORD)]
)
def test_a_bad_signup_shows_the_form_again_and_creates_no_account(
    client, alice, username, password2
):
    form = {"username": username, "password1": PASSWORD, "password2": password2}

    response = client.post("/accounts/signup/", form)

    assert response.status_code == 400
    assert 'class="error"' in text(response)
    assert get_user_model().objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_an_email_address_too_long_to_store_is_refused_and_the_old_one_kept(alice_client, alice):
    alice.email = "alice@example.com"
    alice.save()
    too_long = "a" * 250 + "@example.com"  # a valid form, but longer than an account holds

    response = alice_client.post("/accounts/", {"email": too_long})

    assert response.status_code == 400
    assert "Ensure this value has at most 254 characters (it has 262)." in text(response)
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_login_page_renders(client):
    response = client.get("/accounts/login/")

    assert response.status_code == 200
    assert 'name="password"' in text(response)


def test_signup_page_renders(client):
    response = client.get("/accounts/signup/")

    assert response.status_code == 200
    assert 'name="password1"' in text(response)


def test_login_with_the_right_password_logs_in(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_login_with_a_wrong_password_is_refused(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong-one"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert 'class="error"' in text(response)


def test_logout_is_a_post(alice_client):
    assert alice_client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in alice_client.session

    response = alice_client.post("/accounts/logout/")

    assert response.status_code == 302
    assert "_auth_user_id" not in alice_client.session
