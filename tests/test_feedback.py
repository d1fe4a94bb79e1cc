"""Feedback after every decision: on a solo or all-computer table, the coach says at once
what the last keep or box cost and what was best."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Move
from tests.conftest import HTMX, ScriptedDice, player_of, version_of

pytestmark = pytest.mark.django_db


def solo(alice, feedback: bool = True) -> Game:
    person = player_of(alice)
    game = services.game_create(player=person, seat_count=1, feedback=feedback)
    services.game_start(code=game.code, player=person, version=version_of(game))
    services.turn_roll(
        code=game.code, player=person, version=version_of(game), rng=ScriptedDice("66612")
    )
    game.refresh_from_db()
    return game


def score(client, game: Game, box: str):
    return client.post(
        f"/g/{game.code}/score/", {"version": version_of(game), "category": box}, headers=HTMX
    )


def test_scoring_a_costly_box_is_told_at_once_with_the_best_choice(
    alice, alice_client, coach_advisor
):
    game = solo(alice)

    response = score(alice_client, game, "ones")

    html = response.content.decode()
    assert response.status_code == 200
    assert '<div id="feedback"' in html and 'hx-swap-oob="true"' in html
    assert "Your last decision, Aces, cost" in html
    assert "best was keep 6 6 6" in html
    assert "Your last decision against the coach’s five best choices" in html
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert "Your last decision, Aces, cost" in page  # the page keeps it until the next one


def test_the_best_play_is_praised(alice, alice_client, coach_advisor):
    game = solo(alice)
    person = player_of(alice)
    for _ in range(2):
        services.turn_roll(
            code=game.code, player=person, version=version_of(game), rng=ScriptedDice("66666")
        )
    game.refresh_from_db()

    html = score(alice_client, game, "yahtzee").content.decode()

    assert "Your last decision, Yahtzee, was the best play." in html


def test_a_keep_is_judged_when_its_roll_is_made(alice, alice_client, coach_advisor):
    game = solo(alice)
    alice_client.post(
        f"/g/{game.code}/keep/", {"version": version_of(game), "held": "00011"}, headers=HTMX
    )
    game.refresh_from_db()

    html = alice_client.post(
        f"/g/{game.code}/roll/", {"version": version_of(game)}, headers=HTMX
    ).content.decode()

    assert "Your last decision, keep 1 2, cost" in html
    assert "best was keep 6 6 6" in html


def test_without_the_option_the_coach_stays_quiet(alice, alice_client, coach_advisor):
    game = solo(alice, feedback=False)

    html = score(alice_client, game, "ones").content.decode()

    assert 'id="feedback"' not in html


def test_a_table_of_two_people_plays_without_feedback(alice, bob):
    game = services.game_create(player=player_of(alice), seat_count=2, feedback=True, rated=False)
    services.game_join(code=game.code, player=player_of(bob), version=version_of(game))
    services.game_start(code=game.code, player=player_of(alice), version=version_of(game))
    game.refresh_from_db()
    assert game.feedback is False


def test_the_create_form_turns_feedback_on(alice, alice_client):
    response = alice_client.post("/games/new/", {"seats": 1, "feedback": "on"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.feedback is True


def test_the_home_page_offers_feedback(alice_client):
    page = alice_client.get("/").content.decode()
    assert "Feedback after every decision" in page


def test_a_watcher_hears_nothing_of_the_players_decisions(
    alice, alice_client, bob_client, coach_advisor
):
    game = solo(alice)
    score(alice_client, game, "ones")

    page = bob_client.get(f"/g/{game.code}/").content.decode()

    assert "Your last decision" not in page


@pytest.mark.django_db(transaction=True)  # the coach moves on each commit
def test_a_turn_the_coach_finished_when_the_clock_ran_out_is_not_called_yours(
    alice, alice_client, coach_advisor, frozen_clock
):
    from games import jobs

    person = player_of(alice)
    game = services.game_create(player=person, seat_count=1, feedback=True, pace="blitz")
    services.game_start(code=game.code, player=person, version=version_of(game))
    services.turn_roll(
        code=game.code, player=person, version=version_of(game), rng=ScriptedDice("66612")
    )
    game.refresh_from_db()
    score(alice_client, game, "ones")
    services.turn_roll(
        code=game.code, player=person, version=version_of(game), rng=ScriptedDice("12345")
    )

    frozen_clock.advance(seconds=31)  # the clock runs out mid-turn: the coach finishes it
    jobs.sweep()

    assert Move.objects.filter(game=game, by_coach=True, kind=Move.Kind.SCORE).exists()
    page = alice_client.get(f"/g/{game.code}/").content.decode()
    assert "Your last decision, Aces, cost" in page
