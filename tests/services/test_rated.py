"""Rated or casual (issue 27): a table is rated unless asked otherwise; one person is never
rated; a rated game has no coach while it runs; only rated games move ratings; the rematch
keeps the kind; games stored before the choice read as rated only if they moved a rating."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games import services
from games.models import BotLevel, Game, Rating, Seat
from games.services import GameError
from tests.conftest import rolloff_won_by, version_of

pytestmark = pytest.mark.django_db


def faces(seat: int, turn: int) -> str:
    return ["66666", "11111"][seat]


def started(game: Game, host) -> Game:
    services.game_start(
        code=game.code, player=host, version=version_of(game), rng=rolloff_won_by(0, 2)
    )
    game.refresh_from_db()
    return game


def test_a_table_for_two_is_rated_unless_asked_to_be_casual(ann):
    assert services.game_create(player=ann, seat_count=2).rated is True
    assert services.game_create(player=ann, seat_count=2, rated=False).rated is False


def test_a_table_of_one_seat_is_casual_whatever_is_asked(ann):
    game = services.game_create(player=ann, seat_count=1, rated=True, coach_hints=True)
    assert game.rated is False
    assert game.coach_hints is True


def test_one_person_against_computer_players_plays_casual_with_the_coach(ann):
    game = services.game_create(player=ann, seat_count=3, rated=True)
    for _ in range(2):
        services.game_add_bot(
            code=game.code, player=ann, version=version_of(game), level=BotLevel.CASUAL
        )
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game.refresh_from_db()

    assert game.rated is False
    assert game.coach_hints is True  # automatic hints: on for one person, as before


def test_two_people_play_rated_with_no_hints_and_no_feedback(ann, ben):
    game = services.game_create(player=ann, seat_count=2)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    game = started(game, ann)

    assert game.rated is True
    assert game.coach_hints is False
    assert game.feedback is False


@pytest.mark.parametrize("asked", [{"coach_hints": True}, {"feedback": True}])
def test_asking_for_the_coach_at_a_rated_table_is_refused_with_the_reason(ann, asked):
    with pytest.raises(GameError, match="A rated game has no coach while it runs"):
        services.game_create(player=ann, seat_count=2, rated=True, **asked)
    assert not Game.objects.exists()


def test_a_casual_table_may_have_hints_on_for_everyone(ann, ben):
    game = services.game_create(player=ann, seat_count=2, rated=False, coach_hints=True)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    game = started(game, ann)

    assert (game.rated, game.coach_hints) == (False, True)


def test_a_casual_game_moves_no_rating(make_game, ann, ben, play_out):
    game = services.game_create(player=ann, seat_count=2, rated=False)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    play_out(started(game, ann), [ann, ben], faces)

    assert not Rating.objects.exists()
    assert not Seat.objects.filter(rating_after__isnull=False).exists()


def test_a_rated_game_moves_both_ratings(make_game, ann, ben, alice, bob, play_out):
    play_out(make_game(ann, ben, start=True), [ann, ben], faces)

    assert Rating.objects.get(user=alice).games == 1
    assert Rating.objects.get(user=bob).games == 1


@pytest.mark.parametrize("rated", [True, False])
def test_the_rematch_keeps_the_kind(ann, ben, play_out, rated):
    game = services.game_create(player=ann, seat_count=2, rated=rated)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    game = play_out(started(game, ann), [ann, ben], faces)

    rematch = services.game_rematch(code=game.code, player=ben)

    assert rematch.rated is rated


def test_the_migration_reads_old_games_as_rated_only_if_they_moved_a_rating(
    make_game, ann, ben, play_out
):
    moved = play_out(make_game(ann, ben, start=True), [ann, ben], faces)
    never = make_game(ann, ben, start=True)
    assert Game.objects.filter(rated=True).count() == 2

    migration = importlib.import_module("games.migrations.0018_rated_games")
    migration.settle(apps, None)

    assert Game.objects.get(pk=moved.pk).rated is True
    assert Game.objects.get(pk=never.pk).rated is False


def test_state_json_says_whether_the_game_is_rated(make_game, ann, ben, client):
    rated = make_game(ann, ben)
    casual = services.game_create(player=ann, seat_count=2, rated=False)

    assert client.get(f"/g/{rated.code}/state.json").json()["rated"] is True
    assert client.get(f"/g/{casual.code}/state.json").json()["rated"] is False
