"""Presence bookkeeping (games/services/presence.py): the pages of a process that died are
swept once, and only by the heartbeat. The live-room side is in tests/live/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Connection, LiveServer

pytestmark = pytest.mark.django_db


# -- a dead process's pages ----------------------------------------------------------------


def test_a_dead_process_is_swept_once_and_names_the_rooms_it_leaves(duel, make_game, ann):
    other = make_game(ann)
    now = timezone.now()
    services.presence_open(server_id="alive", code=duel.code, channel_name="a", seat=0)
    services.presence_open(server_id="dead", code=duel.code, channel_name="b", seat=1)
    services.presence_open(server_id="dead", code=duel.code, channel_name="c", seat=None)
    services.presence_open(server_id="dead", code=other.code, channel_name="d", seat=None)
    LiveServer.objects.filter(id="dead").update(last_seen=now - timedelta(minutes=5))

    assert services.server_heartbeat("alive", now=now) == sorted([duel.code, other.code])
    assert services.server_heartbeat("another", now=now) == []  # swept once, not twice
    assert list(Connection.objects.values_list("channel_name", flat=True)) == ["a"]


def test_a_process_that_stops_beating_is_swept_when_its_time_is_up(duel):
    start = timezone.now()
    services.server_heartbeat("quiet", now=start)
    services.presence_open(server_id="quiet", code=duel.code, channel_name="q", seat=None)
    stale = LiveServer.stale_after()

    assert services.server_heartbeat("alive", now=start + stale) == []
    assert services.server_heartbeat("alive", now=start + stale + timedelta(seconds=1)) == [
        duel.code
    ]
    assert not Connection.objects.exists()


def test_opening_a_page_does_not_sweep_the_dead_behind_the_rooms_back(duel):
    services.presence_open(server_id="dead", code=duel.code, channel_name="b", seat=None)
    LiveServer.objects.filter(id="dead").update(last_seen=timezone.now() - timedelta(hours=1))

    services.presence_open(server_id="new", code=duel.code, channel_name="n", seat=None)

    assert LiveServer.objects.filter(id="dead").exists()  # left for the heartbeat, which pushes
    assert services.server_heartbeat("new") == [duel.code]
