"""The lobby's writes (games/services/lobby.py): opening a table, sitting down and leaving,
the start, the rematch.

Each service runs in one transaction, checks the version the action was made against, lets the
engine decide, saves, logs the move, and announces the new version on commit. A refused action
raises a GameError and changes nothing."""

from __future__ import annotations

import pytest

from games import services
from games.models import CODE_ALPHABET, Game, Move
from games.rules import Rules
from games.services import GameError, GameNotFound, NotAllowed, Player, StaleAction
from tests.conftest import (
    ScriptedDice,
    dice_of,
    guest_player,
    snapshot,
    version_of,
)

pytestmark = pytest.mark.django_db


# -- create -------------------------------------------------------------------------------


def test_creator_sits_in_seat_zero_and_hosts_a_table_in_its_lobby(ann):
    game = services.game_create(player=ann, seat_count=3)

    seat = game.seats.get()
    assert (seat.position, seat.user_id, seat.name) == (0, ann.user_id, "alice")
    assert game.host_user_id == ann.user_id
    assert (game.status, game.seat_count, game.version) == (Game.Status.LOBBY, 3, 1)
    assert ann.hosts(game)


def test_guest_creates_a_table_under_their_display_name():
    gus = guest_player("Gus")

    game = services.game_create(player=gus, seat_count=2)

    seat = game.seats.get()
    assert (seat.user_id, seat.guest, seat.name) == (None, gus.guest, "Gus")
    assert (game.host_user_id, game.host_guest) == (None, gus.guest)


def test_table_options_are_stored(ann):
    game = services.game_create(
        player=ann, seat_count=2, rules=Rules(upper_first=True), is_public=True
    )

    game.refresh_from_db()
    assert game.upper_first is True
    assert game.is_public is True
    assert game.rules == Rules(upper_first=True)


def test_game_code_is_long_and_drawn_from_an_unambiguous_alphabet(ann):
    codes = {services.game_create(player=ann, seat_count=1).code for _ in range(20)}

    assert len(codes) == 20
    for code in codes:
        assert len(code) >= 8
        assert set(code) <= set(CODE_ALPHABET)
        assert not set(code) & set("01oli")


@pytest.mark.parametrize("seat_count", [1, 8])
def test_a_table_may_have_one_to_eight_seats(ann, seat_count):
    assert services.game_create(player=ann, seat_count=seat_count).seat_count == seat_count


@pytest.mark.parametrize("seat_count", [0, 9, -1])
def test_a_table_outside_one_to_eight_seats_is_refused(ann, seat_count):
    with pytest.raises(GameError, match="1 to 8 seats"):
        services.game_create(player=ann, seat_count=seat_count)
    assert Game.objects.count() == 0


def test_nobody_without_account_or_guest_name_cannot_create():
    with pytest.raises(NotAllowed):
        services.game_create(player=Player(name=""), seat_count=2)
    assert Game.objects.count() == 0


def test_guest_with_a_blank_name_cannot_sit_and_no_table_is_left_behind():
    with pytest.raises(GameError, match="display name"):
        services.game_create(player=Player(name="   ", guest="token"), seat_count=2)
    assert Game.objects.count() == 0


def test_display_names_are_tidied_and_shortened():
    game = services.game_create(player=guest_player("  Gus   the\tBus  "), seat_count=2)
    long = services.game_create(player=guest_player("x" * 60), seat_count=2)

    assert game.seats.get().name == "Gus the Bus"
    assert long.seats.get().name == "x" * 40


# -- join and leave -------------------------------------------------------------------------


def test_joining_takes_the_first_free_seat_and_bumps_the_version(make_game, ann, ben, cat):
    game = make_game(ann, seats=3)

    joined = services.game_join(code=game.code, player=ben, version=1)
    services.game_join(code=game.code, player=cat, version=2)

    seat = joined.seats[-1]
    assert (seat.position, seat.user_id) == (1, ben.user_id)
    assert [s.name for s in game.seats.order_by("position")] == ["alice", "bob", "carol"]
    assert version_of(game) == 3


def test_joining_twice_changes_nothing(make_game, ann, ben):
    game = make_game(ann, ben, seats=3)
    before = snapshot(game)

    again = services.game_join(code=game.code, player=ben, version=1)

    assert [s.user_id for s in again.seats] == [ann.user_id, ben.user_id]
    assert snapshot(game) == before


def test_stale_join_is_refused_and_changes_nothing(make_game, ann, ben, cat):
    game = make_game(ann, ben, seats=3)  # now at version 2
    before = snapshot(game)

    with pytest.raises(StaleAction):
        services.game_join(code=game.code, player=cat, version=1)
    assert snapshot(game) == before


def test_a_full_table_refuses_another_player(make_game, ann, ben, cat):
    game = make_game(ann, ben)
    before = snapshot(game)

    with pytest.raises(GameError, match="Every seat"):
        services.game_join(code=game.code, player=cat, version=version_of(game))
    assert snapshot(game) == before


def test_a_started_game_takes_no_new_players(make_game, ann, ben, cat):
    game = make_game(ann, ben, seats=3, start=True)
    before = snapshot(game)

    with pytest.raises(GameError, match="already started"):
        services.game_join(code=game.code, player=cat, version=version_of(game))
    assert snapshot(game) == before


def test_an_anonymous_visitor_cannot_take_a_seat(make_game, ann):
    game = make_game(ann, seats=2)

    with pytest.raises(NotAllowed):
        services.game_join(code=game.code, player=Player(name=""), version=1)
    assert game.seats.count() == 1


def test_joining_an_unknown_game_is_not_found(ann):
    with pytest.raises(GameNotFound):
        services.game_join(code="nosuchgame", player=ann, version=1)


def test_a_second_guest_with_the_same_name_is_asked_for_another(make_game, ann):
    """Seats belong to a guest's token, not their name; and two seats never look alike."""
    game = make_game(ann, seats=3)
    first, second = guest_player("Gus"), guest_player("Gus")

    services.game_join(code=game.code, player=first, version=1)
    with pytest.raises(GameError, match="already called Gus"):
        services.game_join(code=game.code, player=second, version=2)
    second = Player("Gus B", guest=second.guest)
    services.game_join(code=game.code, player=second, version=2)

    guests = list(game.seats.filter(user=None).order_by("position"))
    assert [s.guest for s in guests] == [first.guest, second.guest]
    assert first.owns(guests[0]) and not first.owns(guests[1])


def test_leaving_frees_the_seat_and_closes_the_gap(make_game, ann, ben, cat):
    game = make_game(ann, ben, cat)

    services.game_leave(code=game.code, player=ben, version=version_of(game))

    seats = list(game.seats.order_by("position"))
    assert [(s.position, s.name) for s in seats] == [(0, "alice"), (1, "carol")]
    assert version_of(game) == 4


def test_the_host_keeps_their_seat(make_game, ann, ben):
    game = make_game(ann, ben)
    before = snapshot(game)

    with pytest.raises(GameError, match="host keeps"):
        services.game_leave(code=game.code, player=ann, version=version_of(game))
    assert snapshot(game) == before


def test_a_finished_game_cannot_be_left(make_game, ann, ben, play_out):
    game = play_out(make_game(ann, ben, start=True), [ann, ben])
    before = snapshot(game)

    with pytest.raises(GameError, match="This game is over"):
        services.game_leave(code=game.code, player=ben, version=version_of(game))
    assert snapshot(game) == before


def test_leaving_without_a_seat_is_not_allowed(make_game, ann, cat):
    game = make_game(ann, seats=2)

    with pytest.raises(NotAllowed):
        services.game_leave(code=game.code, player=cat, version=1)


# -- start -------------------------------------------------------------------------------


def test_host_starts_with_fewer_players_than_seats(make_game, ann, ben):
    game = make_game(ann, ben, seats=4)

    services.game_start(
        code=game.code, player=ann, version=version_of(game), rng=ScriptedDice("66666", "11111")
    )

    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.seat_count == 2
    assert game.started_at is not None
    assert (game.turn_number, dice_of(game), game.rolls_left) == (0, "", 3)


def test_a_solo_table_can_start(make_game, ann):
    game = make_game(ann, seats=3)

    services.game_start(code=game.code, player=ann, version=1, rng=ScriptedDice("12345"))

    game.refresh_from_db()
    assert (game.status, game.seat_count, game.starter) == (Game.Status.PLAYING, 1, 0)


def test_highest_rolloff_total_starts_and_the_rolloff_is_kept(make_game, ann, ben, cat):
    game = make_game(ann, ben, cat)

    services.game_start(
        code=game.code,
        player=ann,
        version=version_of(game),
        rng=ScriptedDice("12345", "66651", "22222"),
    )

    game.refresh_from_db()
    assert game.starter == 1
    assert game.rolloff == [[[0, [1, 2, 3, 4, 5]], [1, [6, 6, 6, 5, 1]], [2, [2, 2, 2, 2, 2]]]]
    start = game.moves.get()
    assert (start.kind, start.seat, start.version) == (Move.Kind.START, 1, game.version)


def test_tied_rolloff_leaders_roll_again(make_game, ann, ben, cat):
    game = make_game(ann, ben, cat)

    services.game_start(
        code=game.code,
        player=ann,
        version=version_of(game),
        rng=ScriptedDice("66665", "66566", "11111", "11112", "33333"),
    )

    game.refresh_from_db()
    assert [[seat for seat, _ in round_] for round_ in game.rolloff] == [[0, 1, 2], [0, 1]]
    assert game.starter == 1


def test_only_the_host_can_start(make_game, ann, ben):
    game = make_game(ann, ben)
    before = snapshot(game)

    with pytest.raises(NotAllowed, match="Only the host"):
        services.game_start(code=game.code, player=ben, version=version_of(game))
    assert snapshot(game) == before


def test_stale_start_changes_nothing(make_game, ann, ben):
    game = make_game(ann, ben)
    before = snapshot(game)

    with pytest.raises(StaleAction):
        services.game_start(code=game.code, player=ann, version=1, rng=ScriptedDice())
    assert snapshot(game) == before


def test_a_started_game_cannot_start_again(duel, ann):
    before = snapshot(duel)

    with pytest.raises(GameError, match="already started"):
        services.game_start(code=duel.code, player=ann, version=version_of(duel))
    assert snapshot(duel) == before


def test_a_guest_host_can_start(make_game, ben):
    gus = guest_player("Gus")
    game = make_game(gus, ben)

    services.game_start(
        code=game.code, player=gus, version=version_of(game), rng=ScriptedDice("66666", "11111")
    )

    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


# -- rematch --------------------------------------------------------------------------------------


@pytest.fixture
def finished_duel(make_game, ann, play_out):
    gus = guest_player("Gus")
    game = make_game(ann, gus, upper_first=True, start=True)
    play_out(game, [ann, gus])
    return game, gus


def test_rematch_opens_a_new_lobby_with_the_same_players_in_the_same_order(finished_duel, ann):
    game, gus = finished_duel

    new = services.game_rematch(code=game.code, player=gus)

    assert new.rematch_of_id == game.pk
    assert new.status == Game.Status.LOBBY
    assert new.upper_first is True
    seats = list(new.seats.order_by("position"))
    assert [(s.position, s.user_id, s.guest, s.name) for s in seats] == [
        (0, ann.user_id, "", "alice"),
        (1, None, gus.guest, "Gus"),
    ]
    assert all(s.scorecard == {} and s.total == 0 and s.place is None for s in seats)
    assert gus.hosts(new)


def test_a_second_rematch_request_goes_to_the_same_rematch(finished_duel, ann):
    game, gus = finished_duel
    first = services.game_rematch(code=game.code, player=gus)

    second = services.game_rematch(code=game.code, player=ann)

    assert second.pk == first.pk
    assert Game.objects.filter(rematch_of=game).count() == 1


def test_a_rematch_bumps_the_finished_games_version(finished_duel):
    game, gus = finished_duel
    version = version_of(game)

    services.game_rematch(code=game.code, player=gus)

    assert version_of(game) == version + 1


def test_the_rematch_host_can_start_it(finished_duel):
    game, gus = finished_duel
    new = services.game_rematch(code=game.code, player=gus)

    services.game_start(
        code=new.code, player=gus, version=new.version, rng=ScriptedDice("66666", "11111")
    )

    assert Game.objects.get(pk=new.pk).status == Game.Status.PLAYING


def test_a_rematch_before_the_end_is_refused(duel, ann):
    with pytest.raises(GameError, match="once the game is over"):
        services.game_rematch(code=duel.code, player=ann)
    assert Game.objects.count() == 1


def test_only_the_players_can_open_a_rematch(finished_duel, cat):
    game, _ = finished_duel
    before = snapshot(game)

    with pytest.raises(NotAllowed):
        services.game_rematch(code=game.code, player=cat)
    assert snapshot(game) == before
