"""The end of a game over HTTP: the final ranking and the rematch (games/views/table.py)."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.conftest import (
    HTMX,
    player_of,
    snapshot,
)
from tests.views.helpers import error_of, text, url

pytestmark = pytest.mark.django_db


# -- the end and the rematch ---------------------------------------------------------------------


@pytest.fixture
def finished(make_game, alice_client, bob_client, alice, bob, play_out):
    """Alice and Bob's finished game: they rolled the same every turn and tied on 100."""
    game = make_game(alice_client, bob_client, start=True)
    play_out(game, [player_of(alice), player_of(bob)])
    return game


def test_the_final_ranking_shares_a_tie(finished, client):
    page = text(client.get(url(finished)))

    assert "Final ranking" in page
    assert len(re.findall(r'<span class="place">1\.</span> <span class="name">', page)) == 2
    assert page.count("shared win") == 2
    assert "Game over. Winner: alice and bob." in page


def test_the_final_ranking_orders_by_total(
    make_game, alice_client, bob_client, alice, bob, play_out, client
):
    game = make_game(alice_client, bob_client, start=True)
    play_out(
        game,
        [player_of(alice), player_of(bob)],
        lambda seat, turn: "11112" if seat == 0 else "12345",
    )

    page = text(client.get(url(game)))

    standings = re.findall(
        r'<span class="place">(\d)\.</span> <span class="name">(\w+)</span> '
        r'<span class="points">(\d+)</span>',
        page,
    )
    assert standings == [("1", "bob", "100"), ("2", "alice", "24")]
    assert "shared win" not in page


def test_rematch_opens_a_new_table_with_the_same_players(finished, alice_client, alice, bob):
    response = alice_client.post(url(finished, "rematch"))

    new = Game.objects.get(rematch_of=finished)
    assert response.status_code == 302
    assert response["Location"] == url(new)
    assert new.status == Game.Status.LOBBY
    assert list(new.seats.values_list("position", "user_id")) == [(0, alice.pk), (1, bob.pk)]


def test_a_second_rematch_click_by_the_other_player_goes_to_the_same_rematch(
    finished, alice_client, bob_client
):
    first = alice_client.post(url(finished, "rematch"))
    second = bob_client.post(url(finished, "rematch"))

    assert second["Location"] == first["Location"]
    assert Game.objects.filter(rematch_of=finished).count() == 1
    assert "Go to the rematch" in text(bob_client.get(url(finished)))


def test_rematch_with_htmx_redirects_the_browser(finished, bob_client):
    response = bob_client.post(url(finished, "rematch"), headers=HTMX)

    new = Game.objects.get(rematch_of=finished)
    assert response.status_code == 200  # htmx follows HX-Redirect on a 2xx answer
    assert response["HX-Redirect"] == url(new)


def test_only_players_can_open_a_rematch(finished, carol, make_client):
    before = snapshot(finished)

    response = make_client(carol).post(url(finished, "rematch"))

    assert response.status_code == 403
    assert "Only the players" in error_of(response)
    assert snapshot(finished) == before


def test_a_rematch_before_the_end_is_refused(duel, alice_client):
    response = alice_client.post(url(duel, "rematch"))

    assert response.status_code == 400
    assert "once the game is over" in error_of(response)
    assert Game.objects.count() == 1


def test_the_rematch_lobby_marks_its_actual_host(finished, bob_client, alice_client):
    bob_client.post(url(finished, "rematch"))
    new = Game.objects.get(rematch_of=finished)

    page = text(alice_client.get(url(new)))

    assert re.search(r'<li class="seat">bob <span class="tag">host</span>', page)
    assert not re.search(
        r'<li class="seat you">alice <span class="tag">you</span> <span class="tag">host</span>',
        page,
    )
