"""Limits on abuse: too many failed log-ins or sign-ups, tables or POSTs from one client are
answered ``429 Too Many Requests`` with when to try again, and change nothing.

Counts live in Django's cache (local memory here; Redis under ``make test-scale``); each
test starts and ends with it empty. Clients come from documentation addresses
(203.0.113.0/24, 198.51.100.0/24): the test client's own 127.0.0.1 is exempt everywhere else.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from games.models import Game
from tests.conftest import HTMX, PASSWORD, snapshot, version_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
WRONG = "not-the-password-at-all"


@pytest.fixture(autouse=True)
def empty_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def one_window(one_limit_window: None) -> None:
    """Every test here counts in one window of the limits (conftest's one_limit_window)."""


def browser(address: str = "203.0.113.7", **headers: str) -> Client:
    return Client(REMOTE_ADDR=address, headers=headers)


def guest(address: str = "203.0.113.7") -> Client:
    """A browser that has a session already (as after a first table or a game page)."""
    client = browser(address)
    session = client.session
    session["guest_name"] = "Gus"
    session["guest_token"] = "a-guest-token"
    session.save()
    return client


def log_in(client: Client, username: str, password: str = WRONG, path: str = "/accounts/login/"):
    return client.post(path, {"username": username, "password": password})


def retry_after(response) -> int:
    """A 429 says when to retry twice, in its header and in a sentence; they agree."""
    assert response.status_code == 429
    seconds = int(response.headers["Retry-After"])
    assert seconds >= 1
    sentence = re.search(
        r"Too many requests\. Please try again in (\d+) (second|minute)s?\.",
        response.content.decode(),
    )
    assert sentence, "the answer does not say when to try again"
    count, unit = int(sentence.group(1)), sentence.group(2)
    if unit == "second":
        assert count == seconds
    else:
        assert (count - 1) * 60 < seconds <= count * 60
    return seconds


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


# -- logging in ---------------------------------------------------------------------------


def test_an_address_gets_ten_failed_log_ins_on_a_name_then_429_even_with_the_right_password(
    alice,
):
    client = browser()
    for _ in range(10):
        refused = log_in(client, "alice")
        assert refused.status_code == 200
        assert "correct username and password" in refused.content.decode()
    blocked = log_in(client, "alice", PASSWORD)
    assert retry_after(blocked) <= 5 * 60
    assert not logged_in(client)
    # Another address is not held back.
    other = browser("203.0.113.8")
    assert log_in(other, "alice", PASSWORD).status_code == 302
    assert logged_in(other)


def test_a_name_counts_the_same_however_it_is_typed(alice, bob):
    client = browser()
    for typed in ["alice", " ALICE ", "Alice", "alice  "] * 2 + ["ALICE", "alice"]:
        assert log_in(client, typed).status_code == 200
    assert retry_after(log_in(client, "alice", PASSWORD)) <= 5 * 60
    assert retry_after(log_in(client, " ALICE ", PASSWORD))
    assert not logged_in(client)
    assert log_in(client, "bob", PASSWORD).status_code == 302  # another name is not held


def test_right_passwords_do_not_count_as_failures(alice):
    client = browser()
    for _ in range(12):
        assert log_in(client, "alice", PASSWORD).status_code == 302
        client.post("/accounts/logout/")
    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_the_admin_log_in_shares_the_limit_on_failures(alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    client = browser()
    for _ in range(5):
        assert log_in(client, "alice").status_code == 200
        assert log_in(client, "alice", path="/admin/login/").status_code == 200
    blocked = log_in(client, "alice", PASSWORD, path="/admin/login/")
    assert retry_after(blocked)
    assert not logged_in(client)
    assert browser().get("/admin/login/").status_code == 200  # looking costs nothing


def test_the_wait_is_over_when_the_window_has_passed(alice, monkeypatch):
    import django_ratelimit.core

    client = browser()
    for _ in range(10):
        log_in(client, "alice")
    wait = retry_after(log_in(client, "alice", PASSWORD))
    later = time.time() + wait + 1
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: later))
    assert log_in(client, "alice", PASSWORD).status_code == 302


# -- signing up -----------------------------------------------------------------------------


def sign_up(client: Client, username: str, confirmation: str = PASSWORD):
    return client.post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": confirmation},
    )


def test_an_address_gets_ten_refused_sign_ups_for_a_name_then_429_and_no_account():
    client = browser()
    for _ in range(10):
        assert sign_up(client, "newcomer", confirmation="different").status_code == 400
    assert retry_after(sign_up(client, "newcomer"))
    assert not get_user_model().objects.exists()
    assert sign_up(browser("203.0.113.9"), "newcomer").status_code == 302


# -- opening tables -------------------------------------------------------------------------


def open_table(client: Client, name: str = "Gus"):
    return client.post("/games/new/", {"name": name, "seats": 2})


def test_a_session_opens_five_tables_a_minute_then_429_and_no_table():
    client = guest()
    for _ in range(5):
        assert open_table(client).status_code == 302
    assert Game.objects.count() == 5
    assert retry_after(open_table(client)) <= 60
    assert Game.objects.count() == 5


def test_an_address_opens_ten_tables_a_minute_however_many_sessions_it_makes():
    for _ in range(10):
        assert open_table(browser()).status_code == 302  # a fresh session each time
    assert retry_after(open_table(browser())) <= 60
    assert Game.objects.count() == 10
    assert open_table(browser("203.0.113.50")).status_code == 302


# -- posting --------------------------------------------------------------------------------


def test_posts_per_session_are_limited_and_an_htmx_move_keeps_the_board(settings, dice):
    settings.LIMIT_POSTS_PER_SESSION = "4/m"
    client = guest()
    assert open_table(client, "Ann").status_code == 302
    game = Game.objects.get()
    for _ in range(3):
        assert client.post(f"/g/{game.code}/start/", {"version": version_of(game)}).status_code
    before = snapshot(game)
    refused = client.post(f"/g/{game.code}/roll/", {"version": version_of(game)}, headers=HTMX)
    assert retry_after(refused) <= 60
    assert refused.headers["HX-Reswap"] == "none"  # the board stays as it is
    assert 'id="flash"' in refused.content.decode()
    assert snapshot(game) == before
    # Without htmx: the page that says so.
    page = client.post(f"/g/{game.code}/roll/", {"version": version_of(game)})
    assert retry_after(page)
    assert "<h1>Too many requests</h1>" in page.content.decode()
    assert snapshot(game) == before


def test_a_made_up_session_cookie_does_not_start_a_fresh_count(settings):
    settings.LIMIT_POSTS_PER_SESSION = "3/m"
    for attempt in range(3):
        client = browser()
        client.cookies["sessionid"] = f"made-up-{attempt}"
        assert client.post("/accounts/logout/").status_code == 302
    client = browser()
    client.cookies["sessionid"] = "made-up-again"
    assert retry_after(client.post("/accounts/logout/"))


# -- who the client is ----------------------------------------------------------------------


def test_x_forwarded_for_is_ignored_unless_a_proxy_is_trusted(alice):
    for attempt in range(10):
        spoofed = browser(**{"X-Forwarded-For": f"192.0.2.{attempt}"})
        assert log_in(spoofed, "alice").status_code == 200
    assert retry_after(log_in(browser(**{"X-Forwarded-For": "192.0.2.99"}), "alice", PASSWORD))


def test_behind_a_trusted_proxy_clients_are_told_apart_by_what_the_proxy_saw(settings, alice):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"  # every request arrives from the proxy
    for attempt in range(10):
        # The client writes the left entries; the proxy appends the address it saw.
        client = browser(proxy, **{"X-Forwarded-For": f"192.0.2.{attempt}, 203.0.113.7"})
        assert log_in(client, "alice").status_code == 200
    blocked = browser(proxy, **{"X-Forwarded-For": "203.0.113.7"})
    assert retry_after(log_in(blocked, "alice", PASSWORD))
    neighbour = browser(proxy, **{"X-Forwarded-For": "203.0.113.8"})
    assert log_in(neighbour, "alice", PASSWORD).status_code == 302


def test_an_ipv6_host_counts_as_one_client_across_its_addresses():
    for attempt in range(10):
        assert open_table(browser(f"2001:db8:1:2::{attempt + 1}")).status_code == 302
    assert retry_after(open_table(browser("2001:db8:1:2:ffff::1")))
    assert open_table(browser("2001:db8:1:3::1")).status_code == 302


def test_exempt_addresses_are_never_limited(settings, alice):
    # The load benchmark's setting: its clients all come from 127.0.0.1.
    settings.LIMITS_EXEMPT_IPS = ["198.51.100.0/24"]
    client = browser("198.51.100.7")
    for attempt in range(15):
        assert log_in(client, f"nobody{attempt}").status_code == 200
        assert open_table(client).status_code == 302
    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_a_rate_that_is_not_a_rate_stops_the_site_with_a_clear_message():
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "LIMIT_POSTS_PER_SESSION": "lots"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "LIMIT_POSTS_PER_SESSION='lots' is not a rate" in result.stderr
