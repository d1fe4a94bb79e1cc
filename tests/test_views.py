"""The web game over HTTP: accounts, tables, seats, turns, versions, permissions, the end.

Every action is a plain form POST. Without htmx a success redirects to the game page; with
htmx (header HX-Request) the answer is the board fragment. A refused action re-renders the
table with a readable message and a 4xx status, and changes nothing.
"""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game, Move, Seat
from games.rules import Category
from tests.conftest import (
    HTMX,
    PASSWORD,
    client_player,
    dice_of,
    full_card,
    guest_player,
    held_of,
    player_of,
    seen_from,
    snapshot,
    version_of,
)

pytestmark = pytest.mark.django_db


def url(game: Game | str, action: str = "") -> str:
    code = game if isinstance(game, str) else game.code
    return f"/g/{code}/{action}/" if action else f"/g/{code}/"


def post(browser: Client, game: Game, action: str, htmx: bool = False, **data: object):
    data.setdefault("version", version_of(game))
    return browser.post(url(game, action), data, headers=HTMX if htmx else {})


def text(response) -> str:
    """The response body as a reader sees it (entities decoded)."""
    return html.unescape(response.content.decode())


def error_of(response) -> str:
    found = re.findall(r'<p class="error">(.*?)</p>', text(response), re.S)
    assert found, "the page shows no error message"
    return found[0]


def error_of_form(response) -> str:
    found = re.findall(r'class="error"[^>]*>(.*?)</', text(response), re.S)
    assert found, "the page shows no error message"
    return " ".join(found)


def stat(response, label: str) -> str:
    match = re.search(rf"<dt>{label}</dt><dd>(.*?)</dd>", text(response))
    assert match, f"no {label!r} on the page"
    return match.group(1)


def state_of(browser: Client, game: Game | str) -> dict:
    response = browser.get(url(game, "state.json").rstrip("/"))
    assert response.status_code == 200
    return response.json()


@pytest.fixture
def duel(make_game, alice_client, bob_client):
    """Alice and Bob at a started table; Alice won the roll-off and is to play."""
    return make_game(alice_client, bob_client, start=True, starter=0)


@pytest.fixture
def rolled(duel, alice_client, loaded_dice):
    """Alice has rolled 2 2 3 3 3 in the duel."""
    loaded_dice.load("22333")
    assert post(alice_client, duel, "roll").status_code == 302
    return duel


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


# -- versions: stale and repeated actions --------------------------------------------------------


def test_stale_roll_changes_nothing_and_shows_current_table(duel, alice_client, loaded_dice):
    old = version_of(duel)
    loaded_dice.load("12345")
    post(alice_client, duel, "roll", version=old)
    before = snapshot(duel)

    response = post(alice_client, duel, "roll", version=old)

    assert response.status_code == 409
    assert "nothing changed" in error_of(response)
    assert version_of(response) == old + 1
    assert 'aria-label="Die 5: 5, keep"' in text(response)
    assert snapshot(duel) == before


def test_one_click_sent_twice_never_rolls_twice(duel, alice_client, loaded_dice):
    version = version_of(duel)
    loaded_dice.load("12345")  # only one roll's worth: a second roll would run out

    first = post(alice_client, duel, "roll", htmx=True, version=version)
    second = post(alice_client, duel, "roll", htmx=True, version=version)

    assert (first.status_code, second.status_code) == (200, 409)
    assert "<html" not in text(second)
    assert "nothing changed" in text(second)
    assert duel.moves.filter(kind=Move.Kind.ROLL).count() == 1
    assert Game.objects.get(pk=duel.pk).rolls_left == 2


@pytest.mark.parametrize(
    ("action", "data"),
    [("keep", {"held": "11000"}), ("score", {"category": "chance"}), ("roll", {})],
)
def test_stale_keep_score_or_roll_changes_nothing(rolled, alice_client, action, data):
    before = snapshot(rolled)

    response = post(alice_client, rolled, action, version=version_of(rolled) - 1, **data)

    assert response.status_code == 409
    assert snapshot(rolled) == before


def test_stale_start_changes_nothing(make_game, alice_client, bob_client):
    game = make_game(alice_client, bob_client)
    before = snapshot(game)

    response = post(alice_client, game, "start", version=1)

    assert response.status_code == 409
    assert snapshot(game) == before


def test_stale_join_changes_nothing(make_game, alice_client, bob_client, carol, make_client):
    game = make_game(alice_client, bob_client, seats=3)
    before = snapshot(game)

    response = post(make_client(carol), game, "join", version=1)

    assert response.status_code == 409
    assert snapshot(game) == before


# -- who may act -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "data"),
    [("roll", {}), ("keep", {"held": "10000"}), ("score", {"category": "chance"})],
)
def test_a_player_out_of_turn_gets_403_and_nothing_changes(rolled, bob_client, action, data):
    before = snapshot(rolled)

    response = post(bob_client, rolled, action, **data)

    assert response.status_code == 403
    assert "It is alice's turn, not yours." in error_of(response)
    assert snapshot(rolled) == before


@pytest.mark.parametrize("watcher", ["carol", "anonymous", "guest"])
def test_a_watcher_may_look_but_not_play(rolled, carol, make_client, watcher):
    browser = {
        "carol": make_client(carol),
        "anonymous": Client(),
        "guest": make_client(guest="Gus"),
    }[watcher]
    before = snapshot(rolled)

    assert browser.get(url(rolled)).status_code == 200
    response = post(browser, rolled, "roll")

    assert response.status_code == 403
    assert "You are watching this game" in error_of(response)
    assert snapshot(rolled) == before


def test_a_guests_seat_belongs_to_their_session_not_their_name(
    make_game, make_client, alice_client, loaded_dice
):
    gus = make_client(guest="Gus")
    impostor = make_client(guest="Gus")
    game = make_game(gus, alice_client, start=True, starter=0)
    before = snapshot(game)

    refused = post(impostor, game, "roll")
    assert refused.status_code == 403
    assert snapshot(game) == before

    loaded_dice.load("12345")
    assert post(gus, game, "roll").status_code == 302
    assert dice_of(Game.objects.get(pk=game.pk)) == "12345"


def test_guest_session_tokens_are_never_shown(make_game, make_client, alice_client, client):
    gus = make_client(guest="Gus")
    game = make_game(alice_client, gus, start=True)
    token = gus.session["guest_token"]

    assert token not in text(client.get(url(game)))
    assert token not in text(alice_client.get(url(game)))
    assert token not in text(client.get(f"/g/{game.code}/state.json"))


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("roll", {"version": ""}, "did not say which version of the table"),
        ("roll", {"version": "seven"}, "did not say which version of the table"),
        ("roll", {"version": "0"}, "did not say which version of the table"),
        ("keep", {"held": "0100"}, "Choose which of the five dice to keep."),
        ("keep", {"held": "01002"}, "Choose which of the five dice to keep."),
        ("keep", {"held": "yes"}, "Choose which of the five dice to keep."),
        ("keep", {}, "Choose which of the five dice to keep."),
        ("score", {"category": "bonus"}, "There is no such box on the scorecard."),
        ("score", {"category": "Full House"}, "There is no such box on the scorecard."),
        ("score", {}, "Choose a box on the scorecard to score."),
    ],
)
def test_malformed_fields_are_a_400_with_a_readable_message(
    rolled, alice_client, action, data, message
):
    before = snapshot(rolled)

    response = post(alice_client, rolled, action, **data)

    assert response.status_code == 400
    assert message in error_of(response)
    assert snapshot(rolled) == before


def test_a_missing_version_is_a_400_and_nothing_changes(rolled, alice_client):
    before = snapshot(rolled)

    response = alice_client.post(url(rolled, "roll"), {})

    assert response.status_code == 400
    assert "did not say which version of the table" in error_of(response)
    assert snapshot(rolled) == before


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("keep", {"held": "10000"}, "Roll the dice before keeping any."),
        ("score", {"category": "chance"}, "Roll the dice before choosing a box."),
    ],
)
def test_keeping_or_scoring_before_rolling_is_refused(duel, alice_client, action, data, message):
    before = snapshot(duel)

    response = post(alice_client, duel, action, **data)

    assert response.status_code == 400
    assert message in error_of(response)
    assert snapshot(duel) == before


def test_a_fourth_roll_is_refused(duel, alice_client, loaded_dice):
    loaded_dice.load("12345", "12345", "12345")
    for _ in range(3):
        assert post(alice_client, duel, "roll").status_code == 302
    before = snapshot(duel)

    response = post(alice_client, duel, "roll")

    assert response.status_code == 400
    assert "No rolls left this turn" in error_of(response)
    assert snapshot(duel) == before


def test_a_filled_box_is_refused(make_game, alice_client, alice, take_turn, loaded_dice):
    game = make_game(alice_client, start=True)
    take_turn(game, player_of(alice), "22333", "full_house")
    loaded_dice.load("44555")
    post(alice_client, game, "roll")
    before = snapshot(game)

    response = post(alice_client, game, "score", category="full_house")

    assert response.status_code == 400
    assert "The Full House box is already filled." in error_of(response)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", ["roll", "keep", "score", "start", "join"])
def test_acting_in_a_finished_game_is_refused(
    make_game, alice_client, bob_client, alice, bob, carol, make_client, play_out, action
):
    game = make_game(alice_client, bob_client, start=True)
    play_out(game, [player_of(alice), player_of(bob)])
    before = snapshot(game)
    data = {"keep": {"held": "10000"}, "score": {"category": "chance"}}.get(action, {})
    browser = make_client(carol) if action == "join" else alice_client

    response = post(browser, game, action, **data)

    assert 400 <= response.status_code < 500
    assert error_of(response)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", ["join", "leave", "start", "roll", "keep", "score", "rematch"])
def test_actions_need_a_post(duel, alice_client, action):
    assert alice_client.get(url(duel, action)).status_code == 405


def test_the_upper_first_option_explains_why_a_lower_box_is_closed(
    make_game, alice_client, loaded_dice
):
    game = make_game(alice_client, upper_first=True, start=True)
    loaded_dice.load("22333")
    post(alice_client, game, "roll")

    page = text(alice_client.get(url(game)))
    response = post(alice_client, game, "score", category="full_house")

    assert "Fill all six upper boxes before using the lower section." in page
    assert 'aria-label="Score 25 in Full House"' not in page
    assert response.status_code == 400
    assert "Fill all six upper boxes" in error_of(response)


def test_page_forms_work_with_csrf_checks_on(make_game, alice, loaded_dice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    game = make_game(player_of(alice), start=True)
    page = text(browser.get(url(game)))
    form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    header_token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)

    forged = browser.post(url(game, "roll"), {"version": version_of(game)})
    assert forged.status_code == 403
    assert dice_of(Game.objects.get(pk=game.pk)) == ""

    loaded_dice.load("12345")
    plain = browser.post(
        url(game, "roll"), {"version": version_of(game), "csrfmiddlewaretoken": form_token}
    )
    assert plain.status_code == 302
    swapped = browser.post(
        url(game, "keep"),
        {"version": version_of(game), "held": "10000"},
        headers={**HTMX, "X-CSRFToken": header_token},
    )
    assert swapped.status_code == 200
    assert held_of(Game.objects.get(pk=game.pk)) == "10000"


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


# -- history ------------------------------------------------------------------------------------


def test_history_shows_stats_finished_games_and_a_chart(
    client, alice, bob, finished_game, make_game
):
    won = finished_game(
        (alice, full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18, yahtzee=50)),
        (bob, full_card(chance=20)),
        yahtzees=1,
    )  # Alice 148 with the upper bonus
    tied = finished_game((alice, full_card(chance=30)), (bob, full_card(chance=30)))
    lost = finished_game((bob, full_card(chance=25)), (alice, full_card(chance=5)))
    playing = make_game(player_of(alice), player_of(bob), start=True)

    response = client.get("/u/alice/")

    assert response.status_code == 200
    assert stat(response, "Games played") == "3"
    assert stat(response, "Wins") == "2"
    assert stat(response, "Average score") == "61.0"
    assert stat(response, "Best score") == "148"
    assert stat(response, "Yahtzees rolled") == "1"
    assert stat(response, "Upper bonus rate") == "33%"
    page = text(response)
    for game in (won, tied, lost):
        assert f'href="{url(game)}"' in page
    assert url(playing) not in page
    assert "<svg" in page
    assert page.count('class="dot"') == 3


def test_a_player_with_no_finished_games_has_an_empty_history(client, alice):
    response = client.get("/u/alice/")

    assert response.status_code == 200
    assert stat(response, "Games played") == "0"
    assert "No finished games yet." in text(response)
    assert "<svg" not in text(response)


def test_guests_and_unknown_names_have_no_history(client, make_game, alice, play_out):
    gus = guest_player("Gus")
    game = make_game(gus, player_of(alice), start=True)
    play_out(game, [gus, player_of(alice)])

    assert client.get("/u/Gus/").status_code == 404
    assert client.get("/u/nobody/").status_code == 404


def test_a_best_score_of_zero_is_shown_as_zero(client, alice, finished_game):
    finished_game((alice, full_card()))

    assert stat(client.get("/u/alice/"), "Best score") == "0"


# -- state.json ------------------------------------------------------------------------------------


def test_state_json_of_a_lobby(client, make_game, alice):
    game = make_game(player_of(alice), seats=3, upper_first=True)

    state = state_of(client, game)

    assert state["code"] == game.code
    assert (state["status"], state["version"], state["seat_count"]) == ("lobby", 1, 3)
    assert state["rules"] == {"upper_first": True}
    assert (state["round"], state["current_seat"], state["dice"]) == (None, None, None)
    assert [(s["position"], s["name"], s["guest"]) for s in state["seats"]] == [(0, "alice", False)]


def test_state_json_of_a_turn_in_play(rolled, alice_client, client):
    post(alice_client, rolled, "keep", held="00111")

    state = state_of(client, rolled)

    assert state["status"] == "playing"
    assert state["version"] == version_of(rolled)
    assert (state["round"], state["current_seat"], state["rolls_left"]) == (1, 0, 2)
    assert state["dice"] == [2, 2, 3, 3, 3]
    assert state["kept"] == [False, False, True, True, True]
    assert [s["name"] for s in state["seats"]] == ["alice", "bob"]
    card = state["seats"][0]["card"]
    assert card["full_house"] is None
    assert (card["upper_subtotal"], card["total"]) == (0, 0)


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
