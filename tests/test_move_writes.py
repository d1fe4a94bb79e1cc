"""A move's writes (games/services/move_writes.py) store what the ORM would have stored."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.clock import clock
from games.models import Game, Move, Player
from games.services import move_writes
from games.services.turns import SEAT_FIELDS
from tests.conftest import ScriptedDice, version_of


@pytest.mark.django_db
def test_a_seat_write_stores_its_named_fields_converted_and_nothing_else(duel: Game) -> None:
    seat = duel.seats.get(position=0)
    seat.scorecard = {"ones": 3, "yahtzee": 50}
    seat.total, seat.yahtzees = 53, 1
    seat.name = "Not written"  # not one of the fields a move changes

    assert move_writes.update(seat, SEAT_FIELDS) == 1

    seat.refresh_from_db()
    assert (seat.scorecard, seat.total, seat.yahtzees) == ({"ones": 3, "yahtzee": 50}, 53, 1)
    assert seat.name == "alice"


@pytest.mark.django_db
def test_a_game_write_against_a_version_it_no_longer_holds_changes_nothing(duel: Game) -> None:
    version = duel.version
    duel.rolls_left, duel.version = 0, version + 1
    duel.turn_deadline = clock.now() + timedelta(minutes=5)

    assert move_writes.update(duel, ["rolls_left", "version"], version_was=version - 1) == 0
    assert Game.objects.values_list("version", "rolls_left").get(pk=duel.pk) == (version, 3)

    fields = ["rolls_left", "turn_deadline", "version"]
    assert move_writes.update(duel, fields, version_was=version) == 1
    stored = Game.objects.get(pk=duel.pk)
    assert (stored.version, stored.rolls_left) == (version + 1, 0)
    assert stored.turn_deadline == duel.turn_deadline  # an aware moment, stored as one


@pytest.mark.django_db
def test_a_moves_log_row_is_added_with_its_moment(duel: Game, ann: Player) -> None:
    services.turn_roll(
        code=duel.code, player=ann, version=version_of(duel), rng=ScriptedDice("66612")
    )
    move = Move.objects.get(game=duel, kind=Move.Kind.ROLL)
    assert (move.seat, move.dice, move.held, move.by_coach) == (0, "66612", "00000", False)
    assert move.user_id == ann.user_id
    assert abs(move.created_at - clock.now()) < timedelta(minutes=1)
