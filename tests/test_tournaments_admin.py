"""Staff look after arena tournaments in the Django admin: the list shows each with its
start and rule set, and pinning one there puts it on the home page."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.arena import arena, soon
from tests.conftest import player_of
from tests.views.helpers import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user, client):
    user = make_user("moderator")
    user.is_staff = user.is_superuser = True
    user.save()
    client.force_login(user)
    return client


def test_staff_find_a_tournament_in_the_admin_and_pin_it_on_the_home_page(
    staff, alice, frozen_clock
):
    t = arena(player_of(alice), soon(frozen_clock.now()), ruleset="yatzy")
    listing = text(staff.get("/admin/games/tournament/"))
    assert "Sunday arena" in listing and "yatzy" in listing.lower()
    assert "Sunday arena" not in text(Client().get("/"))
    answer = staff.post(
        f"/admin/games/tournament/{t.pk}/change/",
        {"name": "Sunday arena", "pinned": "on", "public": "on"},
    )
    assert answer.status_code == 302
    t.refresh_from_db()
    assert t.pinned
    assert "Sunday arena" in text(Client().get("/"))


def test_people_without_staff_rights_cannot_open_it(alice_client):
    answer = alice_client.get("/admin/games/tournament/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
