"""A committed version of a game as one value (games/snapshots.py): the copies it is made of,
and the rows it is rebuilt into from the wire.

Its wire format is tested with the boards and sockets that use it (test_committed.py,
services/test_turn_clock.py, test_dice.py, live/test_consumers.py)."""

from __future__ import annotations

import copy
import json
from datetime import datetime

import pytest
from django.db.models.signals import post_init

from games import services
from games.models import Game, Seat
from games.row_copies import copy_row, row_from_values
from games.snapshots import TIME_WIRE_FIELDS, Snapshot
from tests.conftest import ScriptedDice, guest_player, version_of

pytestmark = pytest.mark.django_db


def rows_of(duel: Game) -> dict[str, object]:
    """A game as read, and a seat read through it (its game in the seat's fields cache)."""
    seat = duel.seats.get(position=1)
    assert seat._state.fields_cache["game"] is duel
    return {"game": duel, "seat": seat}


@pytest.mark.parametrize("which", ["game", "seat"])
def test_a_copied_row_is_the_copy_that_copy_copy_makes(duel, which):
    row = rows_of(duel)[which]

    quick, usual = copy_row(row), copy.copy(row)

    def fields(copied):
        # copy.copy goes through pickling, which leaves Django's version on the copy
        return {k: v for k, v in vars(copied).items() if k not in ("_state", "_django_version")}

    assert type(quick) is type(usual) is type(row)
    assert fields(quick) == fields(usual) == fields(row)
    assert vars(quick._state) == vars(usual._state)
    assert quick._state.fields_cache == row._state.fields_cache


@pytest.mark.parametrize("which", ["game", "seat"])
def test_changing_a_copied_row_leaves_the_original_as_it_was(duel, which):
    row = rows_of(duel)[which]
    before = dict(vars(row)), dict(row._state.fields_cache), row._state.adding

    copied = copy_row(row)
    copied.pk = None
    copied.__dict__["added later"] = True
    copied._state.adding = True
    copied._state.fields_cache.clear()

    assert (dict(vars(row)), dict(row._state.fields_cache), row._state.adding) == before


def built_by_init(wire: str) -> tuple[Game, list[Seat]]:
    """The game and seats of ``wire`` as ``Model.__init__`` builds them."""
    data = json.loads(wire)
    for name in TIME_WIRE_FIELDS:
        moment = data["game"][name]
        data["game"][name] = datetime.fromisoformat(moment) if moment else None
    game = Game(**data["game"])
    return game, [Seat(game_id=game.id, **seat) for seat in data["seats"]]


def every_field(row: Game | Seat) -> dict[str, object]:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


@pytest.fixture(params=["lobby", "playing", "finished"])
def table(request, make_game, ann, ben, cat, take_turn, play_out) -> Game:
    """A four-seat table, one of them a guest, as it stands in the lobby, in play after a
    roll, or over."""
    gus = guest_player("Gus")
    players = (ann, ben, cat, gus)
    if request.param == "lobby":
        return make_game(ann, ben, seats=4)
    game = make_game(*players, start=True, starter=0)
    if request.param == "playing":
        take_turn(game, ann, "22333", "full_house")
        dice = ScriptedDice("66612")
        services.turn_roll(code=game.code, player=ben, version=version_of(game), rng=dice)
        game.refresh_from_db()
        return game
    return play_out(game, players)


def test_a_snapshot_from_the_wire_has_the_rows_model_init_would_build(
    table, django_assert_num_queries
):
    wire = Snapshot.load(table.code).to_wire()
    game, seats = built_by_init(wire)
    initialised: list[object] = []

    def count(sender, instance, **kwargs):
        initialised.append(instance)

    post_init.connect(count)
    try:
        received = Snapshot.from_wire(wire)
    finally:
        post_init.disconnect(count)

    assert initialised == []  # built without walking Model.__init__

    with django_assert_num_queries(0):  # and no field is left to be read from the database
        assert every_field(received.game) == every_field(game)
        assert [every_field(s) for s in received.seats] == [every_field(s) for s in seats]
    assert received.game.server_seed == ""  # secret until the end: never on the wire
    for row in (received.game, *received.seats):
        assert (row._state.adding, row._state.db, row._state.fields_cache) == (True, None, {})


def test_a_row_from_values_draws_each_callable_default_for_itself(db):
    first, second = (row_from_values(Game, {"seat_count": 2}) for _ in range(2))

    assert first.code != second.code and len(first.code) == len(Game().code)
    assert first.held == second.held == Game().held and first.held is not second.held
    assert first.rolloff is not second.rolloff
    unset = {f.attname for f in Game._meta.concrete_fields} - {"code"}
    usual = every_field(Game(seat_count=2))
    assert {name: every_field(first)[name] for name in unset} == {n: usual[n] for n in unset}


def test_a_row_from_values_refuses_a_name_the_model_does_not_have(db):
    with pytest.raises(TypeError, match="dice_commitment"):
        row_from_values(Game, {"seat_count": 2, "dice_commitment": "ab"})
