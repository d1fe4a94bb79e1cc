"""The turn clock (games/services/turn_clock.py): the pace and the clock, a clock that runs out
(the coach plays, the seat is away), what the coach played shown as such, and each expiry
done exactly once.

Time is a :class:`~tests.conftest.FrozenClock` moved by hand; nothing here sleeps."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games import jobs, services
from games.models import Game, Move
from games.rules import Category
from games.services import GameError, NotAllowed, StaleAction
from tests.clock_tables import on_turn, seat_of
from tests.conftest import HTMX, snapshot, version_of
from tests.test_shared_boards import board_of

pytestmark = pytest.mark.django_db(transaction=True)


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
