"""Arena tournaments through the browser's own forms: /tournaments/, the form and its
refusals, a tournament's page, join and withdraw, staff pinning, the JSON, the history
page's list; bad input is a 4xx sentence and changes nothing, never a 500."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.test import Client

from games.models import Entry, Tournament, TournamentTable
from games.selectors.tournaments import standings_of
from games.services.tournaments import tournaments_sweep
from tests.arena import arena, finish, seated_names
from tests.conftest import player_of

pytestmark = pytest.mark.django_db


def form(**changes: str) -> dict[str, str]:
    data = {
        "name": "Friday arena",
        "starts_at": "2026-06-01T12:30",
        "minutes": "30",
        "pace": "blitz",
        "table_size": "2",
        "ruleset": "yatzy",
        "rated": "on",
        "public": "on",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != "-"}


def test_the_list_page_shows_the_form_with_its_choices_and_says_utc(alice_client, frozen_clock):
    page = alice_client.get("/tournaments/").content.decode()
    for piece in ('name="starts_at"', 'value="blitz"', 'value="live"', 'value="yacht"', "UTC"):
        assert piece in page
    assert 'value="relaxed"' not in page
    assert "2026-06-01T12:10" in page  # ten minutes from now, in UTC


def test_making_a_tournament_leads_to_its_page(alice_client, frozen_clock):
    response = alice_client.post("/tournaments/new/", form())
    made = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{made.pk}/"
    assert made.starts_at.astimezone(UTC).strftime("%H:%M") == "12:30"
    assert (made.ruleset, made.minutes, made.rated, made.public) == ("yatzy", 30, True, True)
    page = alice_client.get(response["Location"]).content.decode()
    assert "Friday arena" in page and f'ws-connect="/ws/tournaments/{made.pk}/"' in page
    casual = alice_client.post("/tournaments/new/", form(rated="-", public="-"))
    assert casual.status_code == 302
    assert Tournament.objects.filter(rated=False, public=False).count() == 1


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"minutes": "10"}, "20 to 180 minutes"),
        ({"minutes": "abc"}, "20 to 180 minutes"),
        ({"pace": "daily"}, "blitz or live"),
        ({"table_size": "6"}, "2, 3 or 4 players"),
        ({"ruleset": "chess"}, "Yahtzee, Yatzy or Yacht"),
        ({"starts_at": "tomorrow"}, "UTC date and time"),
        ({"starts_at": "2020-01-01T10:00"}, "from now to 60 days ahead"),
        ({"name": "-"}, "name of 1 to 80"),
        ({"name": "x" * 81}, "name of 1 to 80"),
    ],
)
def test_a_bad_form_is_a_400_with_a_sentence_and_makes_nothing(
    alice_client, frozen_clock, changes, sentence
):
    response = alice_client.post("/tournaments/new/", form(**changes))
    assert response.status_code == 400
    assert sentence in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_visitor_without_an_account_cannot_make_or_join(client, alice, frozen_clock):
    assert client.post("/tournaments/new/", form()).status_code == 403
    t = arena(player_of(alice), frozen_clock.now())
    response = client.post(f"/tournaments/{t.pk}/join/")
    assert response.status_code == 403 and "Log in" in response.content.decode()
    assert not Entry.objects.exists()


def test_join_and_withdraw_and_their_refusals(alice_client, alice, frozen_clock):
    t = arena(player_of(alice), frozen_clock.now() + timedelta(hours=1))
    assert alice_client.post(f"/tournaments/{t.pk}/join/").status_code == 302
    again = alice_client.post(f"/tournaments/{t.pk}/join/")
    assert again.status_code == 400 and "already" in again.content.decode()
    assert "Withdraw" in alice_client.get(f"/tournaments/{t.pk}/").content.decode()
    assert alice_client.post(f"/tournaments/{t.pk}/withdraw/").status_code == 302
    twice = alice_client.post(f"/tournaments/{t.pk}/withdraw/")
    assert twice.status_code == 400 and "not in this tournament" in twice.content.decode()
    assert Entry.objects.get().withdrawn


def test_a_finished_tournaments_standings_stay_as_they_ended(alice_client, alice, frozen_clock):
    t = arena(player_of(alice), frozen_clock.now())
    assert alice_client.post(f"/tournaments/{t.pk}/join/").status_code == 302
    frozen_clock.advance(minutes=21)
    tournaments_sweep()

    refused = alice_client.post(f"/tournaments/{t.pk}/withdraw/")

    assert refused.status_code == 400 and "standings are final" in refused.content.decode()
    assert not Entry.objects.get().withdrawn
    [me] = standings_of(t)
    assert not me.withdrawn


def test_an_entrant_paused_from_rated_tables_is_told_why_nobody_pairs_them(
    alice_client, alice, frozen_clock, pause_begins
):
    rated = arena(player_of(alice), frozen_clock.now() + timedelta(hours=1), rated=True)
    casual = arena(player_of(alice), frozen_clock.now() + timedelta(hours=1))
    for t in (rated, casual):
        assert alice_client.post(f"/tournaments/{t.pk}/join/").status_code == 302
    pause_begins(alice)

    said = alice_client.get(f"/tournaments/{rated.pk}/").content.decode()
    assert 'id="rated-pause"' in said and "may not sit down at a rated table until" in said
    assert 'id="rated-pause"' not in alice_client.get(f"/tournaments/{casual.pk}/").content.decode()


def test_unknown_tournaments_are_404_and_gets_of_posts_are_405(alice_client):
    assert alice_client.get("/tournaments/999/").status_code == 404
    assert alice_client.get("/tournaments/99999999999999999999999/").status_code == 404
    assert alice_client.post("/tournaments/999/join/").status_code == 404
    assert alice_client.get("/tournaments/999.json").status_code == 404
    assert alice_client.get("/tournaments/1/join/").status_code == 405


def test_only_staff_pin_a_tournament_on_the_home_page(alice_client, alice, frozen_clock):
    t = arena(player_of(alice), frozen_clock.now())
    refused = alice_client.post(f"/tournaments/{t.pk}/pin/", {"pinned": "yes"})
    assert refused.status_code == 403
    alice.is_staff = True
    alice.save()
    assert alice_client.post(f"/tournaments/{t.pk}/pin/", {"pinned": "yes"}).status_code == 302
    assert "Sunday arena" in alice_client.get("/").content.decode()


def test_the_json_of_a_run_and_the_history_page(make_client, make_user, frozen_clock):
    users = [make_user(name) for name in ("ann", "ben")]
    browsers = [make_client(user) for user in users]
    t = arena(player_of(users[0]), frozen_clock.now())
    for browser in browsers:
        assert browser.post(f"/tournaments/{t.pk}/join/").status_code == 302
    (table,) = TournamentTable.objects.all()
    finish(table.game, winners=(seated_names(table.game)[0],))
    data = Client().get(f"/tournaments/{t.pk}.json").json()
    winner = seated_names(table.game)[0]
    assert data["id"] == t.pk and data["name"] == "Sunday arena" and data["status"] == "running"
    assert (data["ruleset"], data["pace"], data["table_size"]) == ("yahtzee", "blitz", 2)
    assert data["starts_at"] < data["ends_at"]
    assert data["games"] == [table.game.code]
    assert data["players"][0] == {"username": winner, "points": 1, "games": 1, "streak": 1}
    history = Client().get(f"/u/{winner}/").content.decode()
    assert "Sunday arena" in history and "place 1 of 2" in history


def test_a_streak_of_two_wins_is_marked_in_the_standings(alice_client, alice, bob, frozen_clock):
    t = arena(player_of(alice), frozen_clock.now() + timedelta(hours=1))
    Entry.objects.create(tournament=t, user=alice, joined_at=frozen_clock.now(), streak=2)
    Entry.objects.create(tournament=t, user=bob, joined_at=frozen_clock.now(), streak=1)
    page = alice_client.get(f"/tournaments/{t.pk}/").content.decode()
    row_of = {
        name: page.split(f'data-player="{name}"')[1].split("</tr>")[0] for name in ("alice", "bob")
    }
    assert "×2" in row_of["alice"] and "×2" not in row_of["bob"]
    assert "the next win counts double" in row_of["alice"]


def test_the_inbox_entry_of_a_finished_tournament_links_its_standings(
    make_client, make_user, frozen_clock
):
    users = [make_user(name) for name in ("ann", "ben")]
    browsers = [make_client(user) for user in users]
    t = arena(player_of(users[0]), frozen_clock.now())
    for browser in browsers:
        browser.post(f"/tournaments/{t.pk}/join/")
    (table,) = TournamentTable.objects.all()
    finish(table.game, winners=(seated_names(table.game)[0],))
    frozen_clock.advance(minutes=21)
    tournaments_sweep()
    for browser in browsers:
        entry = browser.get("/inbox/").content.decode().split('class="tournament')[1]
        entry = entry.split("</li>")[0]
        assert "won the tournament" in entry
        assert f'href="/tournaments/{t.pk}/"' in entry
