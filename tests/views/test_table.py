"""A table over HTTP (games/views/table.py): the page at its link, starting, a turn, the page
without JavaScript, and a whole game played through the forms.

Every action is a plain form POST. Without htmx a success redirects to the game page; with
htmx (header HX-Request) the answer is the board fragment."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Move, Seat
from games.rules import Category
from tests.conftest import (
    HTMX,
    PASSWORD,
    client_player,
    dice_of,
    held_of,
    player_of,
    seen_from,
    snapshot,
    version_of,
)
from tests.views.helpers import error_of, post, stat, state_of, text, url

pytestmark = pytest.mark.django_db


# -- the table at its link ---------------------------------------------------------------------


def test_anyone_with_the_link_sees_the_lobby(client, make_game, alice):
    game = make_game(player_of(alice), seats=3)

    response = client.get(url(game))

    page = text(response)
    assert response.status_code == 200
    assert game.code in page
    assert "alice" in page
    assert page.count("Free seat") == 2
    assert "Take a seat" in page


def test_an_unknown_game_code_is_a_404_page(client, alice_client):
    response = client.get(url("nosuchgame"))

    assert response.status_code == 404
    assert "There is no game with that link" in text(response)
    assert "<html" in text(response)
    assert alice_client.post(url("nosuchgame", "roll"), {"version": 1}).status_code == 404
    assert client.get("/g/nosuchgame/state.json").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/g/%00/",
        "/g/%00/state.json",
        "/g/%00/roll/",
        "/g/23456789ab%00/",
        "/g/23456789abc/",  # one character too many
        "/g/" + "2" * 300 + "/",
        "/g/%C3%BCn%C3%AFc%C3%B6d%C3%A9/",
        "/u/%00/",
        "/u/ann%00/",
        "/u/" + "a" * 151 + "/",
    ],
)
def test_a_link_the_site_could_not_have_made_is_a_404_that_never_asks_the_database(
    client, path, django_assert_num_queries
):
    """PostgreSQL refuses a NUL byte in a query with an error (a 500), so such a link must
    be turned away before any query is made."""
    with django_assert_num_queries(0):
        response = client.get(path)
    assert response.status_code == 404
    assert "no game with that link" in text(response) or "No player by that name" in text(response)


def test_account_holder_takes_a_free_seat(make_game, alice, bob_client, bob):
    game = make_game(player_of(alice), seats=3)

    response = post(bob_client, game, "join")

    assert response.status_code == 302
    assert response["Location"] == url(game)
    assert list(game.seats.values_list("position", "user_id")) == [(0, alice.pk), (1, bob.pk)]
    assert '<li class="seat you">bob' in text(bob_client.get(url(game)))


def test_guest_takes_a_seat_that_belongs_to_their_session(client, make_game, alice):
    game = make_game(player_of(alice), seats=3)
    client.get(url(game))

    response = post(client, game, "join", name="Gus")

    seat = game.seats.get(position=1)
    assert response.status_code == 302
    assert (seat.name, seat.user_id, seat.guest) == ("Gus", None, client.session["guest_token"])
    assert client.session["guest_name"] == "Gus"
    assert '<li class="seat you">Gus' in text(client.get(url(game)))
    assert '<li class="seat you">' not in text(Client().get(url(game)))


@pytest.mark.parametrize("looked_first", [False, True])
def test_a_visitor_without_a_name_gets_no_seat(client, make_game, alice, looked_first):
    game = make_game(player_of(alice), seats=3)
    if looked_first:
        client.get(url(game))
    before = snapshot(game)

    response = post(client, game, "join")

    assert 400 <= response.status_code < 500
    assert "name" in error_of(response)
    assert snapshot(game) == before


def test_joining_twice_changes_nothing(make_game, alice_client, bob_client):
    game = make_game(alice_client, bob_client, seats=3)
    before = snapshot(game)

    response = post(bob_client, game, "join", version=1)

    assert response.status_code == 302
    assert snapshot(game) == before


def test_a_full_table_refuses_another_player(make_game, alice_client, bob_client, carol):
    game = make_game(alice_client, bob_client)
    before = snapshot(game)

    response = post(Client(), game, "join", name="Gus")

    assert response.status_code == 400
    assert "Every seat at this table is taken" in error_of(response)
    assert snapshot(game) == before


def test_a_started_table_takes_no_new_players(duel, carol, make_client):
    before = snapshot(duel)

    response = post(make_client(carol), duel, "join")

    assert response.status_code == 400
    assert "already started" in error_of(response)
    assert snapshot(duel) == before


def test_a_seated_player_may_leave_the_lobby(make_game, alice_client, bob_client):
    game = make_game(alice_client, bob_client, seats=3)

    response = post(bob_client, game, "leave")

    assert response.status_code == 302
    assert game.seats.count() == 1


# -- starting ---------------------------------------------------------------------------------


def test_the_host_starts_with_fewer_seats_taken(make_game, alice_client, bob_client, dice):
    game = make_game(alice_client, bob_client, seats=4)

    response = post(alice_client, game, "start")

    game.refresh_from_db()
    assert response.status_code == 302
    assert (game.status, game.seat_count) == (Game.Status.PLAYING, 2)
    assert "Round 1 of 13" in text(alice_client.get(url(game)))


def test_a_host_alone_can_start_a_solo_game(make_game, alice_client, dice):
    game = make_game(alice_client, seats=4)

    post(alice_client, game, "start")

    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    assert "Your turn!" in text(alice_client.get(url(game)))


@pytest.mark.parametrize("who", ["bob", "carol", "anonymous"])
def test_only_the_host_may_start(make_game, alice_client, bob_client, carol, make_client, who):
    game = make_game(alice_client, bob_client)
    browser = {"bob": bob_client, "carol": make_client(carol), "anonymous": Client()}[who]
    before = snapshot(game)

    response = post(browser, game, "start")

    assert response.status_code == 403
    assert "Only the host can start this game." in error_of(response)
    assert snapshot(game) == before


def test_the_rolloff_shows_each_seats_dice_and_total(
    make_game, alice_client, bob_client, loaded_dice
):
    game = make_game(alice_client, bob_client)
    loaded_dice.load("66655", "12345")

    post(alice_client, game, "start")

    page = text(bob_client.get(url(game)))
    assert "alice: 6 6 6 5 5 = 28" in page
    assert "bob: 1 2 3 4 5 = 15" in page
    assert "alice won the roll-off" in page
    assert "Tie!" not in page


def test_a_tied_rolloff_rolls_again_and_shows_both_rounds(
    make_game, alice_client, bob_client, carol, make_client, loaded_dice
):
    game = make_game(alice_client, bob_client, make_client(carol))
    loaded_dice.load("66666", "11111", "66666", "11112", "33333")

    post(alice_client, game, "start")

    page = text(alice_client.get(url(game)))
    assert "alice: 6 6 6 6 6 = 30" in page
    assert "carol: 6 6 6 6 6 = 30" in page
    assert "Tie! Roll again" in page
    assert "carol: 3 3 3 3 3 = 15" in page
    assert "carol won the roll-off" in page
    assert state_of(alice_client, game)["current_seat"] == 2


def test_play_goes_round_the_table_from_the_starter(
    make_game, alice_client, bob_client, carol, make_client, loaded_dice
):
    browsers = [alice_client, bob_client, make_client(carol)]
    game = make_game(*browsers, start=True, starter=1)

    order = []
    for category in ("chance", "chance", "chance", "ones"):
        seat = state_of(alice_client, game)["current_seat"]
        order.append(seat)
        loaded_dice.load("12345")
        assert post(browsers[seat], game, "roll").status_code == 302
        assert post(browsers[seat], game, "score", category=category).status_code == 302

    assert order == [1, 2, 0, 1]


# -- a turn ---------------------------------------------------------------------------------


def test_roll_without_htmx_redirects_to_the_game_page(duel, alice_client, loaded_dice):
    loaded_dice.load("31456")

    response = post(alice_client, duel, "roll")

    assert response.status_code == 302
    assert response["Location"] == url(duel)
    page = text(alice_client.get(url(duel)))
    assert 'aria-label="Die 1: 3, keep"' in page
    assert 'aria-label="Die 5: 6, keep"' in page
    assert "2 left" in page


def test_roll_with_htmx_answers_with_the_board_fragment(duel, alice_client, loaded_dice):
    loaded_dice.load("31456")

    response = post(alice_client, duel, "roll", htmx=True)

    body = text(response)
    assert response.status_code == 200
    assert "<html" not in body
    assert 'id="board"' in body
    assert version_of(response) == version_of(duel)
    assert 'aria-label="Die 2: 1, keep"' in body


def test_keep_marks_the_held_dice_and_the_next_roll_keeps_them(rolled, alice_client, loaded_dice):
    response = post(alice_client, rolled, "keep", held="01001")

    assert response.status_code == 302
    assert held_of(Game.objects.get(pk=rolled.pk)) == "01001"
    page = seen_from(text(alice_client.get(url(rolled))), 0)
    assert len(re.findall(r'aria-pressed="true"', page)) == 2
    assert 'aria-label="Die 2: 2, kept"' in page
    assert 'aria-label="Die 5: 3, kept"' in page

    loaded_dice.load("666")
    post(alice_client, rolled, "roll")

    assert dice_of(Game.objects.get(pk=rolled.pk)) == "62663"


def test_score_fills_the_named_box_and_passes_the_turn(rolled, alice_client, bob_client):
    response = post(alice_client, rolled, "score", category="full_house")

    assert response.status_code == 302
    seat = Seat.objects.get(game=rolled, position=0)
    assert seat.scorecard["boxes"] == {"full_house": 25}
    assert seat.total == 25
    page = text(bob_client.get(url(rolled)))
    assert "Your turn!" in page
    assert '<td class="filled">25</td>' in page


def test_the_scorecard_offers_the_current_players_points(rolled, alice_client):
    page = text(alice_client.get(url(rolled)))

    for points, label in [(25, "Full House"), (9, "Threes"), (13, "Chance"), (0, "Yahtzee")]:
        assert f'aria-label="Score {points} in {label}"' in page
    assert page.count('name="category"') == 13


@pytest.mark.parametrize("viewer", ["bob", "anonymous"])
def test_others_see_the_current_players_points_but_cannot_score(rolled, bob_client, viewer):
    browser = bob_client if viewer == "bob" else Client()

    page = seen_from(text(browser.get(url(rolled))), 1 if viewer == "bob" else None)

    assert 'name="category"' not in page
    assert 'title="Would score 25 here"' in page
    assert page.count('class="preview for-others"') == 13  # Alice's open boxes only
    assert "data-roll" not in page
    assert 'aria-label="Die 1: 2, keep"' not in page and 'aria-label="Die 1: 2"' in page


def test_boards_rendered_one_after_another_keep_each_viewers_controls(
    rolled, alice_client, bob_client
):
    """Rows and cells are rendered once and shared: never a button for the wrong viewer."""
    for _ in range(2):
        player = seen_from(text(alice_client.get(url(rolled))), 0)
        watcher = seen_from(text(bob_client.get(url(rolled))), 1)

        assert player.count('name="category"') == 13
        assert 'class="preview' not in player
        assert 'name="category"' not in watcher
        assert watcher.count('title="Would score 25 here"') == 1


def test_the_upper_subtotal_says_how_many_more_for_the_bonus(rolled, alice_client):
    post(alice_client, rolled, "score", category="threes")

    page = text(alice_client.get(url(rolled)))

    assert "54 more for the bonus" in page  # Alice: 9 in Threes
    assert "63 more for the bonus" in page  # Bob: nothing yet


def test_the_yahtzee_bonus_count_and_totals_are_shown(make_game, alice, take_turn, client):
    ann = player_of(alice)
    game = make_game(ann, start=True)
    take_turn(game, ann, "66666", "yahtzee")
    take_turn(game, ann, "66666", "sixes")

    page = text(client.get(url(game)))

    assert "1 × 100" in page
    assert re.search(r'<tr class="total">.*?<td>180</td>', page, re.S)


# -- progressive enhancement ----------------------------------------------------------------


@pytest.fixture
def action_setup(make_game, alice_client, bob_client, loaded_dice):
    """For each action: (browser, game, form data) ready for it to succeed."""

    def setup(action: str):
        if action in ("join", "leave"):
            game = make_game(alice_client, seats=3)
            if action == "leave":
                post(bob_client, game, "join")
            return bob_client, game, {}
        if action == "start":
            loaded_dice.load("66666", "11111")
            return alice_client, make_game(alice_client, bob_client), {}
        game = make_game(alice_client, bob_client, start=True)
        loaded_dice.load("22333", "22333")
        if action == "roll":
            return alice_client, game, {}
        post(alice_client, game, "roll")
        return (
            alice_client,
            game,
            {"keep": {"held": "01001"}, "score": {"category": "chance"}}[action],
        )

    return setup


ACTIONS = ["join", "leave", "start", "roll", "keep", "score"]


@pytest.mark.parametrize("action", ACTIONS)
def test_each_action_without_htmx_redirects_to_the_game_page(action_setup, action):
    browser, game, data = action_setup(action)
    version = version_of(game)

    response = post(browser, game, action, **data)

    assert response.status_code == 302
    assert response["Location"] == url(game)
    assert version_of(game) == version + 1
    assert version_of(browser.get(url(game))) == version + 1


@pytest.mark.parametrize("action", ACTIONS)
def test_each_action_with_htmx_answers_with_the_board_fragment(action_setup, action):
    browser, game, data = action_setup(action)
    version = version_of(game)

    response = post(browser, game, action, htmx=True, **data)

    body = text(response)
    assert response.status_code == 200
    assert "<html" not in body
    assert 'id="board"' in body
    assert version_of(response) == version + 1 == version_of(game)


def test_a_refused_action_with_htmx_answers_with_the_fragment_and_the_message(rolled, bob_client):
    response = post(bob_client, rolled, "roll", htmx=True)

    body = text(response)
    assert response.status_code == 403
    assert "<html" not in body
    assert 'id="board"' in body
    assert "It is alice's turn, not yours." in body


# -- a whole game over HTTP ---------------------------------------------------------------------


def signed_up(username: str) -> Client:
    browser = Client()
    response = browser.post(
        "/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    return browser


def test_two_players_sign_up_and_play_a_whole_game_to_the_final_ranking(dice):
    ann, ben = signed_up("ann"), signed_up("ben")

    created = ann.post("/games/new/", {"seats": "2", "is_public": "on"})
    code = created["Location"].strip("/").split("/")[-1]
    assert len(code) >= 8
    game = Game.objects.get(code=code)
    assert code in text(ben.get("/"))  # listed as an open table
    joined = ben.post(url(code, "join"), {"version": version_of(ben.get(url(code)))})
    assert joined.status_code == 302
    started = ann.post(url(code, "start"), {"version": version_of(ann.get(url(code)))})
    assert started.status_code == 302

    browsers = [ann, ben]
    turns = 0
    while (state := state_of(ann, code))["status"] == "playing":
        me = browsers[state["current_seat"]]
        htmx = HTMX if turns % 2 else {}
        rolled = me.post(url(code, "roll"), {"version": state["version"]}, headers=htmx)
        assert rolled.status_code == (200 if htmx else 302)
        if turns % 3 == 0:  # keep the first two dice and roll again
            page = me.get(url(code))
            kept = me.post(url(code, "keep"), {"version": version_of(page), "held": "11000"})
            assert kept.status_code == 302
            again = me.post(url(code, "roll"), {"version": version_of(game)})
            assert again.status_code == 302
        page = text(me.get(url(code)))
        offered = re.findall(r'name="category" value="(\w+)"', page)
        assert offered, "the player to move is offered boxes to score"
        scored = me.post(
            url(code, "score"),
            {"version": version_of(game), "category": offered[0]},
            headers=htmx,
        )
        assert scored.status_code == (200 if htmx else 302)
        turns += 1

    assert turns == 26
    assert game.moves.filter(kind=Move.Kind.SCORE).count() == 26
    final = state_of(ben, code)
    assert final["status"] == "finished"
    assert final["current_seat"] is None
    assert final["version"] == version_of(game)
    totals = {}
    for seat in final["seats"]:
        assert all(seat["card"][c.value] is not None for c in Category)
        assert seat["card"]["total"] == seat["total"]
        totals[seat["name"]] = (seat["total"], seat["place"])
    best = max(total for total, _ in totals.values())
    for total, place in totals.values():
        assert place == (1 if total == best else 2)

    page = text(ann.get(url(code)))
    assert "Final ranking" in page
    for name, (total, place) in totals.items():
        assert re.search(
            rf'<span class="place">{place}\.</span> <span class="name">{name}</span> '
            rf'<span class="points">{total}</span>',
            page,
        )

    for name, (total, place) in totals.items():
        history = ben.get(f"/u/{name}/")
        assert history.status_code == 200
        assert stat(history, "Games played") == "1"
        assert stat(history, "Wins") == ("1" if place == 1 else "0")
        assert stat(history, "Best score") == str(total)
        assert stat(history, "Average score") == f"{total}.0"
        yahtzees = Seat.objects.get(game=game, name=name).yahtzees
        assert stat(history, "Yahtzees rolled") == str(yahtzees)
        assert f'href="{url(code)}"' in text(history)
        assert "<svg" in text(history)


def test_a_guest_who_signs_up_mid_game_keeps_their_seat(make_game, alice, guest_client, dice):
    guest = client_player(guest_client)
    game = make_game(player_of(alice), guest, start=True, starter=1)

    response = guest_client.post(
        "/accounts/signup/",
        {
            "username": "gus",
            "password1": "a long enough password",
            "password2": "a long enough password",
        },
    )

    assert response.status_code == 302
    seat = game.seats.get(position=1)
    assert seat.user.username == "gus" and seat.guest == ""
    before = version_of(Game.objects.get(pk=game.pk))
    assert guest_client.post(f"/g/{game.code}/roll/", {"version": before}).status_code == 302
    assert Game.objects.get(pk=game.pk).rolls_left == 2


def test_a_guest_who_logs_in_takes_over_the_table_they_host(make_game, bob, make_client):
    gus = make_client(guest="Gus")
    game = make_game(client_player(gus))

    response = gus.post("/accounts/login/", {"username": "bob", "password": PASSWORD})

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.host_user == bob and game.host_guest == ""
    assert game.seats.get().user == bob
    start = gus.post(f"/g/{game.code}/start/", {"version": game.version})
    assert start.status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


@pytest.mark.parametrize("path", ["/g/23456789ab", "/g/23456789ab/replay", "/u/ann"])
def test_a_link_without_its_last_slash_is_sent_on_to_the_page(client, path):
    answer = client.get(path)
    assert answer.status_code == 301
    assert answer["Location"] == f"{path}/"
