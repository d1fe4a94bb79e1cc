"""Tables that never stall: the turn clock, away seats, the coach standing in, leaving,
handing a silent player's turn to the coach, abandoned tables and the durable sweep.

Time is a :class:`~tests.conftest.FrozenClock` moved by hand; nothing here sleeps.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail

from games import jobs, selectors, services
from games.models import Connection, Game, LiveServer, Move, Seat, new_game_code
from games.rules import Category
from games.services import GameError, NotAllowed, StaleAction
from tests.conftest import HTMX, snapshot, version_of
from tests.test_shared_boards import board_of

pytestmark = pytest.mark.django_db(transaction=True)


def seat_of(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def on_turn(game: Game) -> int:
    game.refresh_from_db()
    return game.engine_state(list(game.seats.order_by("position"))).current_seat


@pytest.fixture
def blitz(make_game, ann, ben, frozen_clock, coach_advisor):
    """Alice and Bob at a blitz table (30 s a turn); Alice won the roll-off."""
    return make_game(ann, ben, start=True, starter=0, pace="blitz")


# -- pace and the clock -----------------------------------------------------------------------


def test_a_table_for_two_is_live_and_a_solo_table_untimed_by_default(ann, make_game):
    assert make_game(ann, seats=2).pace == "live"
    assert make_game(ann, seats=1).pace == "untimed"


def test_the_create_form_opens_a_table_at_the_chosen_pace(alice_client):
    response = alice_client.post("/games/new/", {"seats": 2, "pace": "blitz"})

    assert response.status_code == 302
    assert Game.objects.get().pace == "blitz"


def test_an_unknown_pace_is_refused_and_opens_no_table(alice_client):
    response = alice_client.post("/games/new/", {"seats": 2, "pace": "lightning"})

    assert response.status_code == 400
    assert "Choose blitz, live, relaxed, daily or untimed." in response.content.decode()
    assert not Game.objects.exists()


def start_alone(browser, code: str) -> Game:
    browser.post(f"/g/{code}/start/", {"version": Game.objects.get(code=code).version})
    return Game.objects.get(code=code)


def test_an_automatic_table_started_by_one_person_is_untimed(alice_client, coach_advisor):
    alice_client.post("/games/new/", {"seats": 2})  # pace: automatic, the form's default
    alone = Game.objects.get()
    alice_client.post("/games/new/", {"seats": 3})
    with_computers = Game.objects.exclude(pk=alone.pk).get()
    alice_client.post(
        f"/g/{with_computers.code}/bots/add/", {"version": with_computers.version, "level": "coach"}
    )

    for game in (
        start_alone(alice_client, alone.code),
        start_alone(alice_client, with_computers.code),
    ):
        assert game.status == "playing"
        assert game.pace == "untimed" and game.turn_deadline is None


def test_an_automatic_table_started_by_two_people_is_live_and_a_chosen_pace_stays(
    alice_client, bob_client, make_game, ann, frozen_clock
):
    alice_client.post("/games/new/", {"seats": 2})
    game = Game.objects.get()
    bob_client.post(f"/g/{game.code}/join/", {"version": game.version})
    chosen = make_game(ann, seats=2, pace="blitz")

    assert start_alone(alice_client, game.code).pace == "live"
    assert start_alone(alice_client, chosen.code).pace == "blitz"


def test_a_started_turn_has_its_deadline_in_state_json(blitz, frozen_clock, client):
    state = client.get(f"/g/{blitz.code}/state.json").json()

    assert state["pace"] == "blitz"
    assert state["turn_deadline"] == "2026-06-01T12:00:30Z"
    assert [seat["status"] for seat in state["seats"]] == ["playing", "playing"]


def test_the_clock_runs_per_turn_not_per_roll(blitz, ann, ben, frozen_clock, take_turn):
    frozen_clock.advance(seconds=20)
    services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))
    blitz.refresh_from_db()
    assert blitz.turn_deadline == frozen_clock.now() + timedelta(seconds=10)  # unchanged

    take_turn(blitz, ann, "12345", Category.CHANCE)  # the turn passes: Bob's clock starts
    assert blitz.turn_deadline == frozen_clock.now() + timedelta(seconds=30)


def test_the_page_shows_the_pace_and_the_deadline_and_the_servers_time(
    blitz, alice_client, frozen_clock
):
    page = alice_client.get(f"/g/{blitz.code}/").content.decode()

    assert page.count("Blitz: 30 seconds a turn") == 1
    assert 'data-deadline="2026-06-01T12:00:30+00:00"' in page
    assert 'id="server-time" data-now="2026-06-01T12:00:00+00:00"' in page
    assert "Time left for your turn:" in page


def test_nothing_happens_before_the_clock_runs_out(blitz, frozen_clock):
    frozen_clock.advance(seconds=29)
    before = snapshot(blitz)

    assert jobs.sweep() == 0
    assert snapshot(blitz) == before


# -- expiry: the coach plays, the seat is away ------------------------------------------------


def test_expiry_mid_turn_lets_the_coach_finish_it_with_the_dice_held(
    blitz, ann, loaded_dice, frozen_clock
):
    loaded_dice.load("66612")
    services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))
    services.turn_keep(
        code=blitz.code,
        player=ann,
        version=version_of(blitz),
        held=(True, True, True, False, False),
    )
    loaded_dice.load("66" + "12345" * 6)  # the coach's rolls keep the three sixes
    frozen_clock.advance(seconds=31)

    assert jobs.sweep() == 1

    assert seat_of(blitz, 0).status == "away"
    coach_moves = Move.objects.filter(game=blitz, by_coach=True)
    assert coach_moves.exists() and all(m.seat == 0 and m.user is None for m in coach_moves)
    first_roll = coach_moves.filter(kind=Move.Kind.ROLL).first()
    assert first_roll.dice[:3] == "666"  # the held dice stayed on the table
    assert coach_moves.last().kind == Move.Kind.SCORE
    assert on_turn(blitz) == 1  # Bob's turn, on his own clock
    assert blitz.turn_deadline == frozen_clock.now() + timedelta(seconds=30)


def test_the_coach_finishing_a_turn_keeps_the_dice_the_player_held(
    blitz, ann, loaded_dice, frozen_clock
):
    loaded_dice.load("13456")
    services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))
    # Alice holds the lone 1; the coach would keep 3 4 5 6 and roll it again.
    services.turn_keep(
        code=blitz.code, player=ann, version=version_of(blitz), held=(True,) + (False,) * 4
    )
    loaded_dice.load("6" * 10)
    frozen_clock.advance(seconds=31)

    jobs.sweep()

    coachs_roll = Move.objects.filter(game=blitz, kind="roll", by_coach=True).first()
    assert coachs_roll.dice[0] == "1" and coachs_roll.held[0] == "1"  # her 1 stayed kept
    assert on_turn(blitz) == 1


def test_expiry_before_the_first_roll_has_the_coach_play_the_whole_turn(blitz, frozen_clock):
    frozen_clock.advance(seconds=30)

    jobs.sweep()

    moves = list(Move.objects.filter(game=blitz, seat=0).values_list("kind", "by_coach"))
    played = [kind for kind, by_coach in moves if by_coach]
    assert played[0] == "roll" and played[-1] == "score"
    assert [kind for kind, by_coach in moves if not by_coach] == ["start"]
    assert on_turn(blitz) == 1
    assert seat_of(blitz, 0).status == "away"


def test_the_coach_plays_every_turn_of_an_away_seat(blitz, ben, frozen_clock, take_turn):
    frozen_clock.advance(seconds=31)
    jobs.sweep()  # Alice is away now

    take_turn(blitz, ben, "11111", Category.YAHTZEE)  # Bob plays; Alice's turn comes round

    assert on_turn(blitz) == 1  # the coach played hers at once (no pace in tests)
    assert Move.objects.filter(game=blitz, seat=0, kind="score", by_coach=True).count() == 2


def test_an_away_player_is_back_with_the_button(blitz, ann, frozen_clock, alice_client):
    frozen_clock.advance(seconds=31)
    jobs.sweep()
    blitz.refresh_from_db()

    response = alice_client.post(f"/g/{blitz.code}/back/", {"version": blitz.version}, headers=HTMX)

    assert response.status_code == 200
    assert seat_of(blitz, 0).status == "playing"
    # Her page says she plays her seat again: the way back is hidden from her now.
    assert 'id="me" data-seat="0" data-status="playing"' in response.content.decode()


def test_im_back_works_whatever_version_the_page_had_and_twice_is_harmless(
    blitz, ann, cat, frozen_clock, settings, alice_client
):
    settings.BOT_DELAY_SECONDS = 1
    frozen_clock.advance(seconds=31)
    jobs.sweep()  # away
    pressed_at = version_of(blitz)
    frozen_clock.advance(seconds=1)
    jobs.sweep()  # the coach moves for her meanwhile: the page's version is old
    assert version_of(blitz) > pressed_at

    response = alice_client.post(f"/g/{blitz.code}/back/", {"version": pressed_at}, headers=HTMX)

    assert response.status_code == 200
    assert seat_of(blitz, 0).status == "playing"
    after = snapshot(blitz)
    again = alice_client.post(f"/g/{blitz.code}/back/", {"version": pressed_at}, headers=HTMX)
    assert again.status_code == 200 and snapshot(blitz) == after
    with pytest.raises(NotAllowed):
        services.seat_return(code=blitz.code, player=cat, version=version_of(blitz))


def test_an_away_player_is_back_by_playing(blitz, ann, ben, frozen_clock, settings, take_turn):
    frozen_clock.advance(seconds=31)
    jobs.sweep()
    settings.BOT_DELAY_SECONDS = 1  # the coach waits a human moment before each move
    take_turn(blitz, ben, "12345", Category.CHANCE)
    assert on_turn(blitz) == 0 and seat_of(blitz, 0).status == "away"

    services.turn_roll(code=blitz.code, player=ann, version=version_of(blitz))

    assert seat_of(blitz, 0).status == "playing"
    assert not Move.objects.filter(game=blitz, kind="roll").last().by_coach
    blitz.refresh_from_db()
    assert blitz.turn_deadline == frozen_clock.now() + timedelta(seconds=30)


def test_the_away_page_offers_the_way_back(blitz, frozen_clock, alice_client, bob_client, client):
    frozen_clock.advance(seconds=31)
    jobs.sweep()

    mine = alice_client.get(f"/g/{blitz.code}/").content.decode()
    theirs = bob_client.get(f"/g/{blitz.code}/").content.decode()
    watching = client.get(f"/g/{blitz.code}/").content.decode()

    # One board for everyone not on turn; each page's seat marker says whose it is, and the
    # site's CSS shows "you are away" and "I'm back" to the away player alone (the browser
    # scenario in tests/browser/test_blitz_table.py looks at what each person sees).
    assert board_of(mine) == board_of(watching)
    assert 'id="me" data-seat="0" data-status="away"' in mine
    assert 'id="me" data-seat="1" data-status="playing"' in theirs
    board = board_of(theirs)  # bob is on turn: his board is his own, and says the same
    assert (
        '<span class="about-you">You are away: the coach plays your turns until you are back.'
        in board
    )
    assert '<span class="about-them">alice is away; the coach plays their turns.' in board
    assert re.search(r'class="button primary when-away"[^>]*>I’m back<', board)


# -- what the coach played for a person, shown as such -----------------------------------------


@pytest.fixture
def coach_mid_turn(blitz, loaded_dice, frozen_clock, settings):
    """Alice's clock ran out before her first roll; the coach, at a human pace, has just
    rolled 66612 for her."""
    settings.BOT_DELAY_SECONDS = 1
    frozen_clock.advance(seconds=31)
    jobs.sweep()  # her clock: she is away
    loaded_dice.load("66612")
    frozen_clock.advance(seconds=1)
    jobs.sweep()  # the coach's first roll for her
    return blitz


def finish_the_coachs_turn(game, frozen_clock, loaded_dice) -> None:
    loaded_dice.load("6" * 10)
    while on_turn(game) == 0:
        frozen_clock.advance(seconds=1)
        assert jobs.sweep()


def test_the_table_says_which_moves_the_coach_played_for_an_away_player(
    coach_mid_turn, loaded_dice, frozen_clock, bob_client
):
    page = bob_client.get(f"/g/{coach_mid_turn.code}/").content.decode()
    assert "The coach for alice: rolled 6 6 6 1 2." in page
    assert "alice rolled" not in page

    finish_the_coachs_turn(coach_mid_turn, frozen_clock, loaded_dice)

    page = bob_client.get(f"/g/{coach_mid_turn.code}/").content.decode()
    scored = Move.objects.filter(game=coach_mid_turn, kind="score").get()
    box = Category(scored.category).label
    assert f"The coach for alice: scored {scored.points} in {box}." in page


def test_a_reader_in_telugu_is_told_the_coach_played_in_telugu(coach_mid_turn, bob_client):
    bob_client.cookies["django_language"] = "te"

    page = bob_client.get(f"/g/{coach_mid_turn.code}/").content.decode()

    assert "The coach for alice" not in page
    assert "alice కోసం కోచ్: 6 6 6 1 2 విసిరింది." in page


def test_moves_json_marks_the_moves_the_coach_played(
    coach_mid_turn, loaded_dice, frozen_clock, client
):
    finish_the_coachs_turn(coach_mid_turn, frozen_clock, loaded_dice)

    moves = client.get(f"/g/{coach_mid_turn.code}/moves.json").json()["moves"]

    alices = [m["seat"] == 0 and m["kind"] != "start" for m in moves]  # all the coach's
    assert [m["by_coach"] for m in moves] == alices
    assert all(isinstance(m["by_coach"], bool) for m in moves)
    roll = next(m for m in moves if m["kind"] == "roll")
    assert set(roll) == {"version", "kind", "seat", "dice", "held", "by_coach"}
    score = next(m for m in moves if m["kind"] == "score")
    assert set(score) == {"version", "kind", "seat", "dice", "category", "points", "by_coach"}
    assert set(moves[0]) == {"version", "kind", "seat", "rolloff", "by_coach"}


def test_the_replay_says_which_moves_the_coach_played(coach_mid_turn, client):
    roll = Move.objects.filter(game=coach_mid_turn, kind="roll").get()

    coachs = client.get(f"/g/{coach_mid_turn.code}/replay/?v={roll.version}").content.decode()
    start = client.get(f"/g/{coach_mid_turn.code}/replay/").content.decode()

    assert "The coach played this move for alice." in coachs
    assert "The coach played this move" not in start


# -- exactly once ------------------------------------------------------------------------------


def test_a_claimed_expiry_is_not_found_again_by_another_process(blitz, frozen_clock):
    frozen_clock.advance(seconds=31)

    first = jobs.claim(frozen_clock.now())
    second = jobs.claim(frozen_clock.now())

    assert first == [(blitz.code, blitz.version)]
    assert second == []


def test_a_late_second_look_at_the_same_version_changes_nothing(blitz, frozen_clock):
    frozen_clock.advance(seconds=31)
    version = blitz.version
    jobs.run(blitz.code, version)
    after = snapshot(blitz)

    jobs.run(blitz.code, version)  # another process, a restart, a late timer

    assert snapshot(blitz) == after


def test_work_left_by_a_killed_process_is_done_when_its_lease_runs_out(blitz, frozen_clock):
    frozen_clock.advance(seconds=31)
    jobs.claim(frozen_clock.now())  # claimed, then the process was killed before acting
    assert jobs.sweep() == 0

    frozen_clock.advance(seconds=jobs.LEASE.total_seconds())

    assert jobs.sweep() == 1
    assert seat_of(blitz, 0).status == "away"


def test_an_expiry_refused_before_its_time(blitz, frozen_clock):
    before = snapshot(blitz)

    with pytest.raises(GameError, match="still has time"):
        services.turn_expire(code=blitz.code, version=blitz.version)
    with pytest.raises(StaleAction):
        services.turn_expire(code=blitz.code, version=blitz.version - 1)
    assert snapshot(blitz) == before


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

    from games import selectors

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


@pytest.fixture
def untimed(make_game, ann, ben, frozen_clock, coach_advisor):
    return make_game(ann, ben, start=True, pace="untimed")


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


# -- the review, off the request path ---------------------------------------------------------


def test_the_last_box_does_not_wait_for_the_review(
    make_game, ann, ben, frozen_clock, coach_advisor, settings, play_out
):
    settings.BOT_DELAY_SECONDS = 1  # as in production: nothing automatic on the committing thread
    game = play_out(make_game(ann, ben, start=True, pace="untimed"), [ann, ben])

    assert game.status == "finished" and game.review is None
    assert game.due_at == frozen_clock.now()

    assert jobs.sweep() == 1
    game.refresh_from_db()
    assert set(game.review["seats"]) == {"0", "1"} and game.due_at is None


def test_the_review_rates_only_the_decisions_a_person_made_themselves(
    untimed, ann, ben, take_turn, play_out, alice_client
):
    take_turn(untimed, ann, "12345", Category.CHANCE)  # her one decision: the box
    take_turn(untimed, ben, "12345", Category.CHANCE)
    services.game_leave(code=untimed.code, player=ann, version=version_of(untimed))

    game = play_out(untimed, [None, ben], whole=True)

    alices = game.review["seats"]["0"]
    assert [d["round"] for d in alices["decisions"]] == [1]
    assert alices["skill"]["decisions"] == 1
    assert seat_of(game, 0).mean_loss == pytest.approx(alices["decisions"][0]["loss"], abs=1e-3)
    assert len(game.review["seats"]["1"]["decisions"]) >= 13  # Bob's own, every one


def test_a_person_who_left_before_deciding_anything_gets_no_rating(
    untimed, ann, ben, play_out, alice_client
):
    services.game_leave(code=untimed.code, player=ann, version=version_of(untimed))

    game = play_out(untimed, [None, ben], whole=True)

    assert game.review["seats"]["0"]["decisions"] == []
    assert seat_of(game, 0).mean_loss is None
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert page.count('class="skill" data-band=') == 1  # Bob's; none for alice
    assert "alice: skill and luck" not in page
    from games import selectors

    assert selectors.user_history("alice").band is None


def test_the_replay_links_a_persons_reviewed_decision_past_the_coachs_moves(
    blitz, ann, ben, frozen_clock, play_out, client
):
    frozen_clock.advance(seconds=31)
    jobs.sweep()  # the coach plays Alice's first turn
    services.seat_return(code=blitz.code, player=ann, version=version_of(blitz))
    game = play_out(blitz, [ann, ben], whole=True)  # then she plays every turn herself

    first = game.review["seats"]["0"]["decisions"][0]
    page = client.get(f"/g/{game.code}/replay/?seat=0&decision=0").content.decode()

    assert first["round"] == 2
    assert "The coach played this move" not in page
    assert "alice scored" in page and 'class="coach verdict"' in page


# -- daily games' e-mails ----------------------------------------------------------------------


def test_a_daily_turn_is_mailed_once_and_reminded_once_an_hour_before(
    make_game, alice, ann, ben, frozen_clock, coach_advisor
):
    alice.email = "alice@example.com"
    alice.save()
    game = make_game(ann, ben, start=True, pace="daily")

    jobs.sweep()
    jobs.sweep()

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    assert f"/g/{game.code}/" in mail.outbox[0].body
    assert "Your turn in Yahtzee game" in mail.outbox[0].subject

    frozen_clock.advance(hours=22, minutes=59)
    jobs.sweep()
    assert len(mail.outbox) == 1
    frozen_clock.advance(minutes=1)
    jobs.sweep()
    jobs.sweep()
    assert len(mail.outbox) == 2 and "One hour left" in mail.outbox[1].subject

    frozen_clock.advance(hours=1)
    jobs.sweep()
    assert seat_of(game, 0).status == "away"  # and Bob, without an address, gets no mail
    assert len(mail.outbox) == 2


@pytest.mark.parametrize(
    ("language", "subject", "body"),
    [
        ("te", "యాట్జీ", "రోజువారీ"),
        ("uz", "Yahtzee", "kunlik"),
    ],
)
def test_a_daily_turn_is_mailed_in_the_language_the_account_chose(
    make_game, alice, ann, ben, frozen_clock, coach_advisor, language, subject, body
):
    from games.models.accounts import Profile

    alice.email = "alice@example.com"
    alice.save()
    Profile.objects.create(user=alice, language=language)
    make_game(ann, ben, start=True, pace="daily")

    jobs.sweep()

    (message,) = mail.outbox
    assert "Your turn" not in message.subject and subject in message.subject
    assert "daily game" not in message.body and body in message.body.lower()
    assert "Hello" not in message.body


def test_a_guest_or_a_player_without_an_address_gets_no_mail(
    make_game, ann, ben, frozen_clock, coach_advisor
):
    make_game(ann, ben, start=True, pace="daily")

    jobs.sweep()

    assert mail.outbox == []


@pytest.mark.parametrize("pace", ["blitz", "live", "relaxed", "untimed"])
def test_only_a_daily_game_sends_e_mail(make_game, alice, ann, ben, frozen_clock, pace):
    alice.email = "alice@example.com"
    alice.save()
    make_game(ann, ben, start=True, starter=0, pace=pace)

    jobs.sweep()
    frozen_clock.advance(minutes=10)  # past any clock but a daily one: the coach plays on
    jobs.sweep()

    assert mail.outbox == []


def test_sign_up_takes_an_optional_email_and_the_account_page_changes_it(client):
    from django.contrib.auth import get_user_model

    password = "a-long-table-of-dice-42"
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dana",
            "email": "dana@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="dana")
    assert user.email == "dana@example.com"

    assert client.post("/accounts/", {"email": "not an address"}).status_code == 400
    client.post("/accounts/", {"email": "d@example.org"})
    user.refresh_from_db()
    assert user.email == "d@example.org"
    assert "d@example.org" in client.get("/accounts/").content.decode()


# -- the home page and the routes ---------------------------------------------------------------


def test_the_home_page_lists_the_games_where_it_is_your_turn_first(
    blitz, make_game, ann, cat, frozen_clock, alice_client, bob_client
):
    waiting = make_game(cat, ann, start=True, starter=0, pace="daily")  # Carol's turn there

    page = alice_client.get("/").content.decode()
    bobs = bob_client.get("/").content.decode()

    assert page.index("Your turn") < page.index("New game")
    mine = page[page.index('id="your-turn"') : page.index("New game")]
    assert f"/g/{blitz.code}/" in mine and "30 seconds left" in mine
    assert f"/g/{waiting.code}/" not in mine
    assert 'id="your-turn"' not in bobs


def copies_of(game: Game, count: int) -> list[Game]:
    """``count`` more tables exactly like ``game`` (same seats, same turn), made at once."""
    copies = []
    for _ in range(count):
        copy = Game.objects.get(pk=game.pk)
        copy.pk, copy.code = None, new_game_code()
        copies.append(copy)
    copies = Game.objects.bulk_create(copies)
    seats = list(game.seats.all())
    Seat.objects.bulk_create(
        Seat(
            **{
                f.attname: getattr(s, f.attname)
                for f in Seat._meta.concrete_fields
                if f.attname != "id"
            }
            | {"game_id": c.pk}
        )
        for c in copies
        for s in seats
    )
    return copies


def test_your_turn_lists_the_soonest_deadline_first_however_many_games_you_play(
    make_game, ann, ben, frozen_clock
):
    first = make_game(ann, ben, start=True, starter=0, pace="untimed")
    waiting = [first, *copies_of(first, 200)]
    longest = waiting.pop()  # her turn there began before all the others
    Game.objects.filter(pk=longest.pk).update(turn_started_at=first.started_at - timedelta(days=1))
    frozen_clock.advance(minutes=1)
    soonest = make_game(ann, ben, start=True, starter=0, pace="blitz")  # made last
    later = make_game(ann, ben, start=True, starter=0, pace="daily")

    listed = [entry.game.code for entry in selectors.your_turn_games(ann, frozen_clock.now())]

    assert listed[:2] == [soonest.code, later.code]
    # Untimed tables after, the one waiting longest first, and always in the same order.
    assert listed[2:] == [longest.code, *(g.code for g in waiting)][: len(listed) - 2]


def test_the_open_tables_on_the_home_page_say_each_ones_pace(make_game, ann, ben, client):
    make_game(ann, seats=2, public=True, pace="blitz")
    make_game(ben, seats=3, public=True, pace="daily")

    page = client.get("/").content.decode()
    listed = page[page.index('id="open-tables"') :]

    assert "Blitz: 30 seconds a turn" in listed and "Daily: 24 hours a turn" in listed


def test_state_json_has_no_deadline_once_the_game_is_over(
    blitz, make_game, ann, ben, frozen_clock, play_out, client
):
    assert client.get(f"/g/{blitz.code}/state.json").json()["turn_deadline"] is not None
    finished = play_out(blitz, [ann, ben])
    abandoned = make_game(ann, ben, start=True, pace="blitz")
    services.game_leave(code=abandoned.code, player=ann, version=version_of(abandoned))
    services.game_leave(code=abandoned.code, player=ben, version=version_of(abandoned))

    for game, status in ((finished, "finished"), (abandoned, "abandoned")):
        state = client.get(f"/g/{game.code}/state.json").json()
        assert state["status"] == status
        assert state["turn_deadline"] is None


@pytest.mark.parametrize(
    ("route", "stale_status"),
    # "I'm back" only ever brings one's own seat back: any version will do (none is stale).
    [("takeover", 409), ("back", 200), ("leave", 409)],
)
def test_clock_actions_answer_bad_or_stale_forms_with_a_sentence_and_change_nothing(
    blitz, alice_client, route, stale_status
):
    before = snapshot(blitz)

    malformed = alice_client.post(f"/g/{blitz.code}/{route}/", {"version": "soon"})
    stale = alice_client.post(
        f"/g/{blitz.code}/{route}/", {"version": blitz.version - 1}, headers=HTMX
    )

    assert malformed.status_code == 400
    assert "reload the page" in malformed.content.decode()
    assert stale.status_code == stale_status
    assert snapshot(blitz) == before
    assert alice_client.get(f"/g/{blitz.code}/{route}/").status_code == 405


def test_a_snapshot_from_the_wire_keeps_the_clock(blitz):
    from games.snapshots import Snapshot

    again = Snapshot.from_wire(Snapshot.of(blitz).to_wire())

    assert again.game.turn_deadline == blitz.turn_deadline
    assert again.game.pace == "blitz"
    assert [s.status for s in again.seats] == ["playing", "playing"]


def test_a_daily_turns_mail_that_the_mail_server_refused_goes_at_the_next_look(
    make_game, alice, ann, ben, frozen_clock, coach_advisor, monkeypatch
):
    """A mail server that fails once must not cost the player their e-mail: the game stays
    due and the mail goes (once) when the lease runs out."""
    alice.email = "alice@example.com"
    alice.save()
    sent = mail.send_mail

    def down(*args, **kwargs):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("games.jobs.mails.send_mail", down)
    game = make_game(ann, ben, start=True, pace="daily")  # the turn comes: mailed at once
    jobs.sweep()
    assert mail.outbox == []

    monkeypatch.setattr("games.jobs.mails.send_mail", sent)
    jobs.sweep()  # still leased: nobody looks yet
    assert mail.outbox == []
    frozen_clock.advance(seconds=jobs.LEASE.total_seconds())
    jobs.sweep()
    jobs.sweep()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.com"]
    assert f"/g/{game.code}/" in mail.outbox[0].body


def test_a_mail_server_that_stays_down_does_not_stop_a_daily_turns_clock(
    make_game, alice, ann, ben, frozen_clock, coach_advisor, monkeypatch
):
    alice.email = "alice@example.com"
    alice.save()

    def down(*args, **kwargs):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("games.jobs.mails.send_mail", down)
    game = make_game(ann, ben, start=True, pace="daily")
    frozen_clock.advance(hours=24)
    jobs.sweep()

    assert seat_of(game, 0).status == "away"
    assert mail.outbox == []
