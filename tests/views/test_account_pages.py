"""An account you own, over HTTP (games/views/accounts.py): the password reset by e-mail,
the password change, deleting the account and downloading its data; each page in every
language, each form under a limit (games/limits.py).

Limited requests come from documentation addresses (203.0.113.0/24): the test client's own
127.0.0.1 is exempt. The counts' fixtures come from ``tests/test_limits.py``.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Move, Rating, Seat
from tests.conftest import PASSWORD, full_card, player_of
from tests.test_languages import english_in, english_left
from tests.test_limits import (  # noqa: F401  (autouse fixtures, used by name)
    browser,
    empty_counts,
    logged_in,
    one_window,
    retry_after,
)
from tests.views.helpers import error_of_form, text

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW_PASSWORD = "a-brand-new-pair-of-dice-77"


@pytest.fixture
def alice(make_user):
    alice = make_user("alice")
    alice.email = "alice@example.com"
    alice.save()
    return alice


def ask_reset(client: Client, email: str):
    return client.post("/accounts/password/reset/", {"email": email})


def reset_link(message) -> str:
    found = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body)
    assert found, "the e-mail carries no reset link"
    return found.group(1)


def without_token(response) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text(response))


# -- the password reset -------------------------------------------------------------------


def test_a_reset_answers_the_same_for_a_known_and_an_unknown_address(client, alice):
    known = ask_reset(client, "alice@example.com")
    unknown = ask_reset(client, "nobody@example.com")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/accounts/password/reset/sent/"
    page = client.get(known["Location"])
    assert "If an account has that e-mail address" in text(page)
    # One e-mail, to the account's address only.
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_the_reset_link_sets_a_new_password_once(client, alice):
    ask_reset(client, "ALICE@example.com")  # any case of the address
    link = reset_link(mail.outbox[0])
    assert "alice" in mail.outbox[0].body  # it names the account

    form = client.get(link, follow=True)
    assert form.status_code == 200 and 'name="new_password1"' in text(form)
    set_url = form.redirect_chain[-1][0]
    mismatch = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": "other"})
    assert mismatch.status_code == 400
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert done["Location"] == "/accounts/password/reset/done/"
    assert "Your password is set" in text(client.get(done["Location"]))
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    again = client.get(link, follow=True)
    assert "This link does not work" in text(again)


def test_the_log_in_page_links_the_reset(client):
    assert 'href="/accounts/password/reset/"' in text(client.get("/accounts/login/"))


def test_reset_requests_are_limited_per_address(settings, alice):
    settings.LIMIT_PASSWORD_RESETS_PER_IP = "3/h"
    asker = browser("203.0.113.9")
    for number in range(3):
        assert ask_reset(asker, f"someone{number}@example.com").status_code == 302

    assert retry_after(ask_reset(asker, "alice@example.com")) <= 60 * 60
    assert mail.outbox == []  # the refused one sent nothing
    assert ask_reset(browser("203.0.113.10"), "alice@example.com").status_code == 302


def test_reset_requests_are_limited_per_email_address_from_anywhere(alice):
    for number in range(3):  # LIMIT_PASSWORD_RESETS_PER_EMAIL: 3/h
        assert ask_reset(browser(f"203.0.113.{number}"), "Alice@Example.com").status_code == 302
    assert len(mail.outbox) == 3

    refused = ask_reset(browser("203.0.113.50"), "alice@example.com")

    assert retry_after(refused) <= 60 * 60
    assert len(mail.outbox) == 3
    # An unknown address is counted the same way: the 429 tells nothing either.
    for number in range(3):
        ask_reset(browser(f"203.0.113.{number}"), "nobody@example.com")
    assert retry_after(ask_reset(browser("203.0.113.50"), "nobody@example.com"))


def test_new_passwords_refused_on_a_reset_link_are_limited_per_address(settings, alice):
    settings.LIMIT_PASSWORD_FAILURES_PER_IP = "2/5m"
    asker = browser("203.0.113.9")
    ask_reset(asker, "alice@example.com")
    set_url = asker.get(reset_link(mail.outbox[0]), follow=True).redirect_chain[-1][0]
    for _ in range(2):
        bad = asker.post(set_url, {"new_password1": "x", "new_password2": "y"})
        assert bad.status_code == 400

    assert retry_after(
        asker.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    )
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


# -- the password change ------------------------------------------------------------------


def change(client: Client, old: str, new: str = NEW_PASSWORD):
    return client.post(
        "/accounts/password/",
        {"old_password": old, "new_password1": new, "new_password2": new},
    )


def test_a_logged_in_account_changes_its_password_and_stays_logged_in(alice_client, alice):
    assert 'name="old_password"' in text(alice_client.get("/accounts/password/"))

    response = change(alice_client, PASSWORD)

    assert response["Location"] == "/accounts/"
    assert "Your password is changed." in text(alice_client.get("/accounts/"))
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert logged_in(alice_client)


def test_a_wrong_old_password_changes_nothing(alice_client, alice):
    response = change(alice_client, "not-my-password")

    assert response.status_code == 400
    assert "Your old password was entered incorrectly" in error_of_form(response)
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_stranger_is_sent_to_log_in_for_the_password_change(client):
    response = client.get("/accounts/password/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/password/")


def test_wrong_old_passwords_are_limited_per_address_and_account(alice):
    thief = browser("203.0.113.9")
    thief.force_login(alice)  # a session left open on a shared computer
    for _ in range(10):  # LIMIT_PASSWORD_FAILURES: 10/5m
        assert change(thief, "guess").status_code == 400

    assert retry_after(change(thief, PASSWORD)) <= 5 * 60
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


# -- deleting the account -----------------------------------------------------------------


def test_the_deletion_page_asks_for_the_password_and_a_wrong_one_deletes_nothing(
    alice_client, alice
):
    page = alice_client.get("/accounts/delete/")
    assert page.status_code == 200
    assert 'name="password"' in text(page) and 'href="/accounts/data.json"' in text(page)

    wrong = alice_client.post("/accounts/delete/", {"password": "not-it"})

    assert wrong.status_code == 400
    assert "That is not your password" in error_of_form(wrong)
    assert User.objects.filter(pk=alice.pk).exists()


def test_deleting_the_account_logs_out_and_the_name_is_gone_for_good(
    alice_client, alice, bob, finished_game, client
):
    game = finished_game((alice, full_card(chance=30)), (bob, full_card(chance=20)))

    response = alice_client.post("/accounts/delete/", {"password": PASSWORD})

    assert response["Location"] == "/"
    assert "Your account is deleted." in text(alice_client.get("/"))
    assert not logged_in(alice_client)
    assert not User.objects.filter(username="alice").exists()
    assert client.get("/u/alice/").status_code == 404
    assert "alice" not in text(client.get("/u/bob/"))
    assert Seat.objects.get(game=game, position=0).display_name == "A former player"
    for name in ("alice", "Alice"):
        signup = client.post(
            "/accounts/signup/",
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
        )
        assert signup.status_code == 400
        assert "belonged to an account that was deleted" in error_of_form(signup)
    assert not User.objects.filter(username__iexact="alice").exists()


def test_a_stranger_cannot_delete_anything(client, alice):
    response = client.post("/accounts/delete/", {"password": PASSWORD})

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert User.objects.filter(pk=alice.pk).exists()


def test_wrong_passwords_on_the_deletion_form_are_limited(alice):
    thief = browser("203.0.113.9")
    thief.force_login(alice)
    for _ in range(10):
        assert thief.post("/accounts/delete/", {"password": "guess"}).status_code == 400

    assert retry_after(thief.post("/accounts/delete/", {"password": PASSWORD}))
    assert User.objects.filter(pk=alice.pk).exists()


# -- downloading the data -----------------------------------------------------------------


def test_the_data_holds_the_account_its_rating_and_every_game_with_its_own_moves(
    alice_client, alice, make_game, bob, play_out
):
    ann, ben = player_of(alice), player_of(bob)
    game = make_game(ann, ben, start=True, starter=0)
    play_out(game, [ann, ben])
    rating = Rating.objects.get(user=alice)  # a rated game, played through the services
    services.account_language_set(user_id=alice.pk, language="uz")
    game.refresh_from_db()

    response = alice_client.get("/accounts/data.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert 'filename="yahtzee-alice.json"' in response["Content-Disposition"]
    data = response.json()
    assert (data["username"], data["email"], data["language"]) == (
        "alice",
        "alice@example.com",
        "uz",
    )
    assert data["date_joined"].startswith(str(alice.date_joined.date()))
    assert data["rating"] == {
        "rating": rating.ordinal,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "rated_games": 1,
    }
    seat = Seat.objects.get(game=game, user=alice)
    assert data["rating_history"] == [
        {
            "game": game.code,
            "at": game.finished_at.isoformat(),
            "rating": seat.rating_after,
            "ruleset": "yahtzee",
        }
    ]
    [played] = data["games"]
    assert played["code"] == game.code and played["status"] == "finished"
    assert played["options"]["upper_first"] is False and played["options"]["pace"] == game.pace
    assert (played["seat"], played["total"], played["place"]) == (0, seat.total, seat.place)
    assert played["scorecard"] == seat.scorecard and played["players"] == 2
    own = Move.objects.filter(game=game, seat=0, kind__in=["roll", "keep", "score"])
    assert [m["version"] for m in played["moves"]] == [m.version for m in own]
    assert {m["kind"] for m in played["moves"]} <= {"roll", "keep", "score"}
    assert "bob" not in response.content.decode()  # nobody else's account


def test_a_stranger_asking_for_data_is_sent_to_log_in(client):
    response = client.get("/accounts/data.json")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_data_takes_the_same_queries_for_one_game_or_many(
    alice_client, alice, bob, finished_game, django_assert_num_queries
):
    finished_game((alice, full_card(chance=30)), (bob, full_card(chance=20)))
    with CaptureQueriesContext(connection) as one:
        alice_client.get("/accounts/data.json")
    for _ in range(6):
        finished_game((alice, full_card(chance=10)), (bob, full_card(chance=20)))

    with django_assert_num_queries(len(one.captured_queries)):
        response = alice_client.get("/accounts/data.json")

    assert len(response.json()["games"]) == 7


# -- the account page, and every page in every language -----------------------------------


def test_the_account_page_links_everything_an_account_owns(alice_client):
    page = text(alice_client.get("/accounts/"))

    for link in ("/accounts/password/", "/accounts/data.json", "/accounts/delete/"):
        assert f'href="{link}"' in page


@pytest.mark.parametrize("language", ["te", "uz"])
def test_every_account_page_speaks_the_readers_language(alice, language):
    reader = Client(HTTP_ACCEPT_LANGUAGE=language)
    pages = [reader.get("/accounts/password/reset/")]
    pages.append(ask_reset(reader, "alice@example.com"))
    pages.append(reader.get("/accounts/password/reset/sent/"))
    link = reset_link(mail.outbox[0])
    pages.append(reader.get(link, follow=True))
    pages.append(reader.get("/accounts/password/reset/MQ/bad-token/"))  # a broken link
    pages.append(reader.get("/accounts/password/reset/done/"))
    pages.append(reader.get("/accounts/login/"))
    reader.force_login(alice)
    pages.append(reader.get("/accounts/"))
    pages.append(reader.get("/accounts/password/"))
    pages.append(reader.post("/accounts/password/", {"old_password": "x"}))
    pages.append(reader.get("/accounts/delete/"))
    pages.append(reader.post("/accounts/delete/", {"password": "x"}))

    for page in pages:
        if page.status_code == 302:
            continue
        assert page.status_code in (200, 400)
        assert english_left(page, language) == [], page.request["PATH_INFO"]
    message = mail.outbox[0]  # the e-mail, in the language it was asked for in
    assert english_in(f"{message.subject}\n{message.body}", language) == []
    assert "Someone (we hope you)" not in message.body
