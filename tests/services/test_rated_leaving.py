"""Leaving rated games (issue 27): an account that left, or was away to the end of,
RATED_LEAVES of its last 10 rated games may not sit down at a rated table for
RATED_LEAVE_PAUSE; it is told why and until when, in its language; casual tables stay open."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.models import Game, Seat
from games.services import NotAllowed
from games.services.leaving import rated_pause
from tests.conftest import full_card, version_of
from tests.views.helpers import error_of, post, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def left_games(finished_game, frozen_clock, alice, bob):
    """``left_games(statuses, rated=True)``: finished games of Alice and Bob, oldest first,
    the last ending an hour before the frozen clock's now, Alice's seat in each status."""

    def make(statuses: list[str], rated: bool = True) -> list[Game]:
        games = []
        for age, status in enumerate(reversed(statuses), start=1):
            game = finished_game(
                (alice, full_card(chance=20)),
                (bob, full_card(chance=10)),
                finished_at=frozen_clock.now() - timedelta(hours=age),
            )
            Game.objects.filter(pk=game.pk).update(rated=rated)
            Seat.objects.filter(game=game, user=alice).update(status=status)
            games.append(game)
        return games[::-1]

    return make


LEFT, AWAY, PLAYING = Seat.Status.LEFT, Seat.Status.AWAY, Seat.Status.PLAYING


def test_three_games_left_or_away_of_the_last_ten_pause_rated_play_for_a_day(
    left_games, alice, frozen_clock
):
    left_games([LEFT, PLAYING, AWAY, PLAYING, LEFT])  # the last ended an hour ago

    pause = rated_pause(alice.pk)

    assert pause is not None and pause.left == 3
    assert pause.until == frozen_clock.now() - timedelta(hours=1) + timedelta(hours=24)


def test_two_leaves_are_not_enough(left_games, alice):
    left_games([LEFT, PLAYING, AWAY, PLAYING])
    assert rated_pause(alice.pk) is None


def test_leaves_older_than_the_last_ten_rated_games_do_not_count(left_games, alice):
    left_games([LEFT, LEFT, LEFT] + [PLAYING] * 10)
    assert rated_pause(alice.pk) is None


def test_casual_games_left_do_not_count(left_games, alice):
    left_games([LEFT, LEFT, LEFT], rated=False)
    assert rated_pause(alice.pk) is None


def test_the_pause_ends_after_its_length(left_games, alice, frozen_clock):
    left_games([LEFT, LEFT, LEFT])  # the last ended an hour ago
    frozen_clock.advance(hours=22, minutes=59)
    assert rated_pause(alice.pk) is not None
    frozen_clock.advance(minutes=1)
    assert rated_pause(alice.pk) is None


def test_the_count_and_the_pause_come_from_the_settings(left_games, alice, settings):
    settings.RATED_LEAVES = 1
    settings.RATED_LEAVE_PAUSE = timedelta(minutes=30)
    left_games([LEFT])
    assert rated_pause(alice.pk) is None  # ended an hour ago: 30 minutes are over
    settings.RATED_LEAVE_PAUSE = timedelta(hours=2)
    assert rated_pause(alice.pk) is not None


def test_a_paused_account_may_not_open_or_join_a_rated_table(left_games, ann, ben):
    left_games([LEFT, LEFT, LEFT])
    with pytest.raises(NotAllowed, match="You left 3 of your last 10 rated games"):
        services.game_create(player=ann, seat_count=2)
    rated = services.game_create(player=ben, seat_count=2)
    with pytest.raises(NotAllowed, match="until"):
        services.game_join(code=rated.code, player=ann, version=version_of(rated))


def test_casual_tables_stay_open_to_a_paused_account(left_games, ann, ben):
    left_games([LEFT, LEFT, LEFT])
    mine = services.game_create(player=ann, seat_count=2, rated=False)
    casual = services.game_create(player=ben, seat_count=2, rated=False)
    services.game_join(code=casual.code, player=ann, version=version_of(casual))
    assert mine.seats.count() == 1 and casual.seats.count() == 2


def test_a_rated_rematch_does_not_start_while_someone_seated_is_paused(
    left_games, make_game, ann, ben, play_out
):
    game = play_out(make_game(ann, ben, start=True), [ann, ben])
    rematch = services.game_rematch(code=game.code, player=ben)
    left_games([LEFT, LEFT, LEFT])  # Alice's pause began since (stored directly here)

    with pytest.raises(NotAllowed, match="alice left 3 of their last 10 rated games"):
        services.game_start(code=rematch.code, player=ben, version=version_of(rematch))


def test_joining_says_why_and_until_when_in_the_readers_language(left_games, alice_client, ben):
    left_games([LEFT, LEFT, LEFT])
    rated = services.game_create(player=ben, seat_count=2)

    english = post(alice_client, rated, "join")
    alice_client.post("/i18n/setlang/", {"language": "uz", "next": "/"})
    uzbek = post(alice_client, rated, "join")

    assert english.status_code == uzbek.status_code == 403
    assert "rated table until" in error_of(english)
    assert "2026" in error_of(english) and "UTC" in error_of(english)
    assert "reytingli stolga" in error_of(uzbek)
    assert "Reytingsiz stollar siz uchun ochiq" in text(uzbek)
