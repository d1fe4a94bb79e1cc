"""No stranger can lock an account out: failed log-ins and sign-ups count per (address,
name) and per address, and a name that a crowd of addresses attacks holds back only that
crowd, never its owner typing the right password somewhere else.

The helpers and the fixtures that empty the counts and hold django-ratelimit's clock in one
window come from ``tests/test_limits.py``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import PASSWORD
from tests.test_limits import (  # noqa: F401  (autouse fixtures, used by name)
    browser,
    empty_counts,
    log_in,
    logged_in,
    one_window,
    retry_after,
    sign_up,
)

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.66"
HOME = "198.51.100.5"


def test_the_owner_logs_in_from_a_clean_address_while_another_address_attacks_the_name(alice):
    attacker = browser(ATTACKER)
    for _ in range(10):
        assert log_in(attacker, "alice").status_code == 200
    # The attacker's address is held back, even when it guesses right.
    assert retry_after(log_in(attacker, "alice", PASSWORD)) <= 5 * 60
    assert retry_after(log_in(attacker, "alice")) <= 5 * 60
    assert not logged_in(attacker)
    # Alice, at home, types her password and is in.
    home = browser(HOME)
    assert log_in(home, "alice", PASSWORD).status_code == 302
    assert logged_in(home)


def test_the_owner_logs_in_on_the_admin_page_while_its_log_in_is_attacked(alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    attacker = browser(ATTACKER)
    for _ in range(10):
        assert log_in(attacker, "alice", path="/admin/login/").status_code == 200
    assert retry_after(log_in(attacker, "alice", PASSWORD, path="/admin/login/"))
    home = browser(HOME)
    assert log_in(home, "alice", PASSWORD, path="/admin/login/").status_code == 302
    assert logged_in(home)


def test_a_crowd_attacking_one_name_is_held_back_but_never_an_address_that_has_not_failed(
    settings, alice
):
    settings.LIMIT_LOGIN_FAILURES_PER_USERNAME = "20/h"
    crowd = [browser(f"203.0.113.{number}") for number in range(1, 21)]
    for member in crowd:  # one guess each: no address comes near its own limit
        assert log_in(member, "alice").status_code == 200
    # The name has had its twenty failures: every address of the crowd waits for the end of
    # the name's window (django-ratelimit's fixed windows: somewhere within the hour)...
    for member in crowd:
        assert 0 < retry_after(log_in(member, "alice", PASSWORD)) <= 60 * 60
        assert not logged_in(member)
    # ...and a new address still gets its try: a guess is refused as usual, ...
    newcomer = browser("203.0.113.200")
    assert log_in(newcomer, "alice").status_code == 200
    assert retry_after(log_in(newcomer, "alice", PASSWORD))  # ...after which it is one of them
    # ...and the owner, who has not failed, logs in.
    home = browser(HOME)
    assert log_in(home, "alice", PASSWORD).status_code == 302
    assert logged_in(home)


def test_an_address_failing_on_many_names_is_limited_across_them(alice, bob):
    client = browser(ATTACKER)
    for attempt in range(29):
        assert log_in(client, f"nobody{attempt}").status_code == 200
    # Twenty-nine names, none more than once: the address may still log in...
    assert log_in(client, "bob", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    # ...until its thirtieth failure, on the site or the admin's page alike.
    assert log_in(client, "nobody-else", path="/admin/login/").status_code == 200
    assert retry_after(log_in(client, "alice", PASSWORD)) <= 5 * 60
    assert retry_after(log_in(client, "bob", PASSWORD, path="/admin/login/"))
    assert not logged_in(client)
    assert log_in(browser(HOME), "alice", PASSWORD).status_code == 302


def test_the_admin_log_in_and_the_sites_share_the_count_per_address(alice):
    client = browser(ATTACKER)
    for attempt in range(15):
        assert log_in(client, f"nobody{attempt}").status_code == 200
        assert log_in(client, f"somebody{attempt}", path="/admin/login/").status_code == 200
    assert retry_after(log_in(client, "alice", PASSWORD))
    assert retry_after(log_in(client, "alice", PASSWORD, path="/admin/login/"))


# -- signing up -----------------------------------------------------------------------------


def test_probing_a_taken_name_on_sign_up_holds_back_the_prober_not_others(alice):
    prober = browser(ATTACKER)
    for _ in range(10):
        assert sign_up(prober, "alice").status_code == 400  # "alice" is taken
    assert retry_after(sign_up(prober, "alice")) <= 5 * 60
    # Someone else asking for the name is told it is taken, not made to wait...
    elsewhere = browser(HOME)
    assert sign_up(elsewhere, "alice").status_code == 400
    # ...and the prober may still sign up under another name.
    assert sign_up(prober, "alina").status_code == 302
    assert get_user_model().objects.filter(username="alina").exists()


def test_an_address_gets_thirty_refused_sign_ups_across_names_then_429_and_no_account():
    client = browser(ATTACKER)
    for attempt in range(30):
        assert sign_up(client, f"newcomer{attempt}", confirmation="different").status_code == 400
    assert retry_after(sign_up(client, "newcomer")) <= 5 * 60
    assert not get_user_model().objects.exists()
    assert sign_up(browser(HOME), "newcomer").status_code == 302
