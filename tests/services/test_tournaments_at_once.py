"""Arena pairing from several threads at once (their own database connections, as two
server processes have): each table is made once and nobody is seated twice. On PostgreSQL
when ``DATABASE_URL`` says so."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connections

from games.models import Entry, Seat, TournamentTable
from games.services.tournaments import tournament_pair
from tests.arena import arena
from tests.conftest import PASSWORD, player_of


def _pair_through_locks(tournament_id: int) -> int:
    for _attempt in range(10_000):
        try:
            return len(tournament_pair(tournament_id=tournament_id))
        except OperationalError as error:
            if "locked" not in str(error):
                raise
    raise AssertionError("the database stayed locked")


@pytest.mark.django_db(transaction=True)
def test_pairing_from_two_threads_at_once_makes_each_table_once(frozen_clock):
    users = [
        get_user_model().objects.create_user(username=f"p{i}", password=PASSWORD) for i in range(8)
    ]
    t = arena(player_of(users[0]), frozen_clock.now(), size=2)
    for user in users:
        Entry.objects.create(
            tournament=t, user=user, joined_at=frozen_clock.now(), waiting_since=frozen_clock.now()
        )
    start = threading.Barrier(4)
    made: list[object] = [None] * 4

    def pair(index: int) -> None:
        try:
            start.wait()
            made[index] = _pair_through_locks(t.pk)
        except Exception as error:  # the test reads it
            made[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pair, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(made, key=str) == [0, 0, 0, 4], made
    assert TournamentTable.objects.count() == 4
    seated = list(Seat.objects.values_list("user_id", flat=True))
    assert sorted(seated) == sorted(u.pk for u in users)
