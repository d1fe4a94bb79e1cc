"""Away seats and leaving (games/services/absence.py): leaving a game in play, handing a silent
player's turn to the coach on untimed tables, abandoned tables.

Time is a :class:`~tests.conftest.FrozenClock` moved by hand; nothing here sleeps."""

from __future__ import annotations

import re

import pytest

from games import jobs, selectors, services
from games.models import Connection, Game, LiveServer, Move
from games.services import GameError, NotAllowed, StaleAction
from tests.clock_tables import on_turn, seat_of
from tests.conftest import snapshot, version_of
from tests.test_shared_boards import board_of

pytestmark = pytest.mark.django_db(transaction=True)


# -- leaving ----------------------------------------------------------------------------------


def test_the_host_leaving_mid_game_passes_the_host_on_and_ranks_below_those_who_stay(
    make_game, ann, ben, frozen_clock, coach_advisor, play_out
):
    game = make_game(ann, ben, start=True, pace="untimed")

    services.game_leave(code=game.code, player=ann, version=version_of(game))

    game.refresh_from_db()
    alice = seat_of(game, 0)
    assert (alice.status, alice.left_round) == ("left", 1)
    assert game.host_user_id == ben.user_id
    assert game.status == "playing"
    # Bob plays on; the coach plays Alice's seat to the end (at once, in tests).
    game = play_out(game, [None, ben], faces_for=lambda seat, turn: "11111", whole=True)
    assert game.status == "finished"
    assert seat_of(game, 1).place == 1 and seat_of(game, 0).place == 2


def test_a_game_left_counts_as_left_and_never_as_a_win(
    make_game, ann, ben, alice, frozen_clock, coach_advisor, play_out, client
):
    game = make_game(ann, ben, start=True, pace="untimed")
    services.game_leave(code=game.code, player=ann, version=version_of(game))
    # Bob scores nothing at all, yet Alice, who left, still ranks below him.
    play_out(game, [None, ben], faces_for=lambda seat, turn: "12346", whole=True)

    history = selectors.user_history("alice")
    assert history.games_played == 1 and history.wins == 0
    assert history.entries[0].left_round == 1 and not history.entries[0].won
    assert "left in round 1" in client.get("/u/alice/").content.decode()


def test_a_guest_leaving_mid_game_is_shown_as_left_in_the_final_ranking(
    make_game, ann, frozen_clock, coach_advisor, play_out, make_client
):
    guest = make_client(guest="Gus")
    game = make_game(ann, guest, start=True, pace="untimed")

    response = guest.post(f"/g/{game.code}/leave/", {"version": version_of(game)})

    assert response.status_code == 302
    game = play_out(game, [ann, None], whole=True)
    page = guest.get(f"/g/{game.code}/").content.decode()
    assert "left in round 1" in page


def test_the_last_person_leaving_ends_the_table_as_abandoned(
    make_game, ann, ben, frozen_clock, client
):
    game = make_game(ann, ben, start=True, pace="untimed")
    services.game_leave(code=game.code, player=ann, version=version_of(game))

    services.game_leave(code=game.code, player=ben, version=version_of(game))

    game.refresh_from_db()
    assert game.status == "abandoned" and game.due_at is None
    assert client.get(f"/g/{game.code}/state.json").json()["status"] == "abandoned"
    assert Game.objects.filter(pk=game.pk).exists()  # kept for the history


def test_a_table_away_for_a_whole_round_is_abandoned(blitz, frozen_clock, settings):
    settings.BOT_DELAY_SECONDS = 1
    for _ in range(8):  # each clock runs out, then the coach plays at its pace
        frozen_clock.advance(seconds=31)
        while jobs.sweep():
            frozen_clock.advance(seconds=1)
        blitz.refresh_from_db()
        if blitz.status == "abandoned":
            break

    assert blitz.status == "abandoned"
    assert blitz.turn_number <= 4  # both away: a round of the coach, and no more


def test_leaving_twice_or_as_a_stranger_is_refused_and_changes_nothing(
    make_game, ann, ben, cat, frozen_clock
):
    game = make_game(ann, ben, start=True)
    services.game_leave(code=game.code, player=ben, version=version_of(game))
    before = snapshot(game)

    with pytest.raises(GameError, match="already left"):
        services.game_leave(code=game.code, player=ben, version=version_of(game))
    with pytest.raises(NotAllowed):
        services.game_leave(code=game.code, player=cat, version=version_of(game))
    with pytest.raises(StaleAction):
        services.game_leave(code=game.code, player=ann, version=version_of(game) - 1)
    assert snapshot(game) == before


def test_a_player_who_left_cannot_play_or_come_back(make_game, ann, ben, frozen_clock, settings):
    settings.BOT_DELAY_SECONDS = 1  # the coach has not moved yet
    game = make_game(ann, ben, start=True)
    services.game_leave(code=game.code, player=ann, version=version_of(game))
    before = snapshot(game)

    with pytest.raises(NotAllowed, match="You left this game"):
        services.turn_roll(code=game.code, player=ann, version=version_of(game))
    with pytest.raises(GameError, match="You left this game"):
        services.seat_return(code=game.code, player=ann, version=version_of(game))
    assert snapshot(game) == before


def test_the_leave_button_asks_for_confirmation(blitz, bob_client, client):
    page = bob_client.get(f"/g/{blitz.code}/").content.decode()
    watching = client.get(f"/g/{blitz.code}/").content.decode()

    # Players and spectators share the board; only a seated player's page shows the offer.
    assert board_of(page) == board_of(watching)
    assert re.search(
        r'<details class="leave-confirm panel when-seated">\s*<summary>Leave this game</summary>',
        page,
    )
    assert "Yes, leave the game" in page
    assert 'data-status="playing"' in page and 'id="me" data-seat="" data-status=""' in watching


# -- takeover on untimed tables ---------------------------------------------------------------


def open_page(game: Game, seat: int) -> Connection:
    server = LiveServer.objects.create(id="test-server", last_seen=game.started_at)
    return Connection.objects.create(game=game, channel_name="page", server=server, seat=seat)


def test_a_silent_players_turn_can_be_handed_to_the_coach_after_two_minutes(
    untimed, ben, frozen_clock, bob_client
):
    assert untimed.turn_deadline is None and untimed.due_at is None
    frozen_clock.advance(minutes=2)

    response = bob_client.post(f"/g/{untimed.code}/takeover/", {"version": untimed.version})

    assert response.status_code == 302
    assert seat_of(untimed, 0).status == "away"
    assert on_turn(untimed) == 1  # the coach played Alice's turn
    assert Move.objects.filter(game=untimed, by_coach=True, kind="score").count() == 1


def test_no_takeover_while_the_player_has_the_page_open_or_was_just_there(
    untimed, ben, frozen_clock
):
    connection = open_page(untimed, seat=0)
    frozen_clock.advance(minutes=5)
    with pytest.raises(GameError, match="in the last two minutes"):
        services.turn_takeover(code=untimed.code, player=ben, version=untimed.version)

    services.presence_close(channel_name=connection.channel_name)  # the tab closes now
    before = snapshot(untimed)
    frozen_clock.advance(minutes=1, seconds=59)
    with pytest.raises(GameError, match="in the last two minutes"):
        services.turn_takeover(code=untimed.code, player=ben, version=untimed.version)
    assert snapshot(untimed) == before

    frozen_clock.advance(seconds=1)
    services.turn_takeover(code=untimed.code, player=ben, version=untimed.version)
    assert seat_of(untimed, 0).status == "away"


def test_a_takeover_by_a_stranger_or_on_a_timed_table_is_refused(
    untimed, blitz, cat, ben, frozen_clock, client
):
    frozen_clock.advance(minutes=3)
    before = snapshot(untimed)

    with pytest.raises(NotAllowed):
        services.turn_takeover(code=untimed.code, player=cat, version=untimed.version)
    response = client.post(f"/g/{untimed.code}/takeover/", {"version": "x"})
    assert response.status_code == 400
    with pytest.raises(GameError, match="has a clock"):
        services.turn_takeover(code=blitz.code, player=ben, version=version_of(blitz))
    assert snapshot(untimed) == before


def test_someone_who_left_cannot_hand_another_players_turn_to_the_coach(
    untimed, ben, frozen_clock, bob_client
):
    services.game_leave(code=untimed.code, player=ben, version=version_of(untimed))
    frozen_clock.advance(minutes=3)  # Alice, on turn, has been silent long enough
    before = snapshot(untimed)

    response = bob_client.post(f"/g/{untimed.code}/takeover/", {"version": version_of(untimed)})

    assert response.status_code == 403
    assert "You left this game" in response.content.decode()
    assert snapshot(untimed) == before
    assert seat_of(untimed, 0).status == "playing"
