"""Accounts' open pages of the site: recorded per process, forgotten with a dead process."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import LastSeen, LiveServer, SiteConnection

pytestmark = pytest.mark.django_db


def test_a_closed_page_moves_last_seen(alice, frozen_clock):
    services.site_presence_open(server_id="one", user_id=alice.pk, channel_name="c1")
    assert SiteConnection.objects.filter(user=alice).count() == 1
    services.site_presence_close(user_id=alice.pk, channel_name="c1")
    assert not SiteConnection.objects.exists()
    assert LastSeen.objects.get(user=alice).at == frozen_clock.now()


def test_a_dead_process_takes_its_site_pages_with_it(alice, bob):
    services.site_presence_open(server_id="dead", user_id=alice.pk, channel_name="c1")
    services.site_presence_open(server_id="alive", user_id=bob.pk, channel_name="c2")
    long_ago = timezone.now() - LiveServer.stale_after() - timedelta(seconds=1)
    LiveServer.objects.filter(id="dead").update(last_seen=long_ago)
    services.server_heartbeat("alive")
    assert list(SiteConnection.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_dead_processs_accounts_were_last_seen_when_it_last_answered(alice, bob, carol):
    for user, server in ((alice, "dead"), (bob, "dead"), (carol, "dead"), (bob, "alive")):
        services.site_presence_open(
            server_id=server, user_id=user.pk, channel_name=f"{user.username}-{server}"
        )
    heard_of = timezone.now() - LiveServer.stale_after() - timedelta(seconds=1)
    LiveServer.objects.filter(id="dead").update(last_seen=heard_of)
    # Carol closed another page on a live process after the dead one last answered.
    LastSeen.objects.create(user=carol, at=heard_of + timedelta(seconds=1))

    services.server_heartbeat("alive")

    seen = dict(LastSeen.objects.values_list("user__username", "at"))
    assert seen == {
        "alice": heard_of,
        "bob": heard_of,
        "carol": heard_of + timedelta(seconds=1),  # never moved back
    }
