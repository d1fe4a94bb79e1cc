"""The committed-games cache (games/committed.py) and the invariant it rests on.

A move made against the version this process already holds starts from its copy of the
game *and its seats*, and its write only checks the game row's version. That is safe
because every write to a seat field a snapshot carries bumps the game's version in the
same transaction. The scenario below runs every public write of the services that names a
game, and fails if one of them changes such a field without bumping the version. (Fields
no snapshot carries, such as when a seated player last had the page open, may change
freely.)
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from games import engine, services
from games.committed import CommittedGames
from games.models import BotLevel, Game, Seat
from games.rules import Category
from games.snapshots import SEAT_WIRE_FIELDS, Snapshot
from tests.conftest import ScriptedDice, guest_player, player_of, rolloff_won_by, version_of


def seats_by_game() -> dict[int, list[dict[str, Any]]]:
    """Each game's seats, as far as a snapshot carries them."""
    rows: dict[int, list[dict[str, Any]]] = {}
    seats = Seat.objects.order_by("game_id", "position").values("game_id", *SEAT_WIRE_FIELDS)
    for seat in seats:
        rows.setdefault(seat.pop("game_id"), []).append(seat)
    return rows


def versions() -> dict[int, int]:
    return dict(Game.objects.values_list("id", "version"))


called: set[str] = set()


@contextmanager
def recorded(name: str) -> Iterator[None]:
    """Run one service call; fail if a game's seats changed as a snapshot shows them and its
    version did not grow."""
    seats_before, versions_before = seats_by_game(), versions()
    yield
    called.add(name)
    seats_after, versions_after = seats_by_game(), versions()
    for game_id in set(seats_before) | set(seats_after):
        if game_id not in versions_before:
            continue  # a game this call created: no older version of it exists anywhere
        if seats_before.get(game_id) != seats_after.get(game_id):
            assert versions_after.get(game_id, 0) > versions_before[game_id], (
                f"services.{name} changed the seats of game {game_id} without bumping its version"
            )


def call(name: str, **arguments: Any) -> Any:
    with recorded(name):
        return getattr(services, name)(**arguments)


def writes_to_a_game() -> set[str]:
    """Every public service that acts on an existing game (named by its code)."""
    names = set()
    for name in services.__all__:
        function = getattr(services, name)
        if inspect.isfunction(function) and "code" in inspect.signature(function).parameters:
            names.add(name)
    return names


@pytest.mark.django_db
def test_every_write_to_a_seat_bumps_its_games_version(alice, bob, make_user, frozen_clock):
    a_whole_game(alice, make_user)
    clocks_away_seats_and_leaving(alice, bob, frozen_clock)

    missing = writes_to_a_game() - called
    assert not missing, f"add these services to the scenarios here: {sorted(missing)}"


def a_whole_game(alice, make_user) -> None:
    """The lobby, every kind of move to the end, the review, the rematch, a guest's sign-up."""
    ann, gus = player_of(alice), guest_player("Gus")
    game = call("game_create", player=ann, seat_count=3)
    code = game.code
    call("game_join", code=code, player=gus, version=version_of(game))
    call("game_leave", code=code, player=gus, version=version_of(game))
    call("game_join", code=code, player=gus, version=version_of(game))
    call("game_add_bot", code=code, player=ann, version=version_of(game), level=BotLevel.COACH)
    call("game_remove_bot", code=code, player=ann, version=version_of(game), position=2)
    call(
        "seat_set_client_seed",
        code=code,
        player=gus,
        version=version_of(game),
        client_seed="lucky dice",
    )
    # Invitations to the table (issue 28) change no seat.
    ivy = make_user("ivy")
    services.friend_request(user_id=alice.pk, username="ivy")
    services.friend_accept(user_id=ivy.pk, username=alice.get_username())
    call("invitation_send", code=code, player=ann, username="ivy")
    call("invitations_send", code=code, player=ann, usernames=["ivy"])
    call("game_start", code=code, player=ann, version=version_of(game), rng=rolloff_won_by(0, 2))
    # Ann opens the table and closes it again: her seat's last_seen, which no snapshot carries.
    page = {"server_id": "this process", "code": code, "channel_name": "ann's page", "seat": 0}
    call("presence_open", **page)
    call("presence_close", channel_name=page["channel_name"])
    for turn in range(26):
        player = (ann, gus)[turn % 2]
        call(
            "turn_roll",
            code=code,
            player=player,
            version=version_of(game),
            rng=ScriptedDice("12345"),
        )
        if turn == 0:
            held = (True, True, False, False, False)
            call("turn_keep", code=code, player=player, version=version_of(game), held=held)
        game.refresh_from_db()
        seat = game.seats.get(position=turn % 2)
        card = game.engine_state(list(game.seats.order_by("position"))).cards[seat.position]
        category: Category = card.open_boxes[0]
        call("turn_score", code=code, player=player, version=version_of(game), category=category)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    call("review_store", code=code, review={"seats": {}}, mean_losses={0: 0.5, 1: 1.5})
    call("game_rematch", code=code, player=ann)
    with recorded("guest_seats_claim"):
        services.guest_seats_claim(guest=gus.guest, user_id=make_user("gus").pk)


def clocks_away_seats_and_leaving(alice, bob, frozen_clock) -> None:
    """Clocks, away seats, the coach standing in, leaving and takeovers, on two tables."""
    ann, ben, gus = player_of(alice), player_of(bob), guest_player("Gus")
    game = call("game_create", player=ann, seat_count=3, pace="blitz")
    code = game.code
    for person in (ben, gus):
        call("game_join", code=code, player=person, version=version_of(game))
    call("game_start", code=code, player=ann, version=version_of(game), rng=rolloff_won_by(0, 3))
    frozen_clock.advance(seconds=31)  # Ann's clock runs out
    call("turn_expire", code=code, version=version_of(game))
    call("coach_stands_in", code=code, version=version_of(game))
    roll = engine.Roll(0)
    call("turn_coach", code=code, version=version_of(game), action=roll, rng=ScriptedDice("12345"))
    call("seat_return", code=code, player=ann, version=version_of(game))
    game.refresh_from_db()
    call("mail_marked", code=code, version=game.version, field="mailed_turn", turn=0)
    call("reschedule", code=code, version=version_of(game))
    call("game_leave", code=code, player=gus, version=version_of(game))

    untimed = call("game_create", player=ben, seat_count=2, pace="untimed")
    call("game_join", code=untimed.code, player=ann, version=version_of(untimed))
    rolloff = rolloff_won_by(0, 2)
    call("game_start", code=untimed.code, player=ben, version=version_of(untimed), rng=rolloff)
    frozen_clock.advance(minutes=3)  # Ben has had no page open for three minutes
    call("turn_takeover", code=untimed.code, player=ann, version=version_of(untimed))


@pytest.mark.django_db
def test_the_cache_keeps_only_the_newest_version_of_each_game(duel):
    cache = CommittedGames("committed games under test", size=2)
    older, newer = Snapshot.of(duel), Snapshot.of(duel)
    newer.game.version += 1

    cache.remember(newer)
    cache.remember(older)  # arrives late: changes nothing

    assert cache.at(duel.code, newer.game.version) is newer
    assert cache.at(duel.code, older.game.version) is None
    cache.forget(duel.code)
    assert cache.at(duel.code, newer.game.version) is None


@pytest.mark.django_db
def test_the_cache_holds_a_bounded_number_of_games(make_game, ann):
    cache = CommittedGames("a small committed-games cache", size=2)
    games = [make_game(ann) for _ in range(3)]
    for game in games:
        cache.remember(Snapshot.of(game))

    assert cache.at(games[0].code, games[0].version) is None  # the oldest is forgotten
    assert all(cache.at(g.code, g.version) is not None for g in games[1:])
