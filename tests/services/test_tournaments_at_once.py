"""Arena pairing from several threads at once (their own database connections, as two
server processes have): each table is made once and nobody is seated twice. On PostgreSQL
when ``DATABASE_URL`` says so."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Entry, Seat, TournamentTable
from games.services.tournaments import tournament_pair
from tests.arena import arena
from tests.conftest import PASSWORD, player_of
from tests.threads import at_once


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
    made = at_once([lambda: len(tournament_pair(tournament_id=t.pk))] * 4)
    assert sorted(made, key=str) == [0, 0, 0, 4], made
    assert TournamentTable.objects.count() == 4
    seated = list(Seat.objects.values_list("user_id", flat=True))
    assert sorted(seated) == sorted(u.pk for u in users)
