"""The moderators' queue of chat reports in the Django admin: a report shows its message,
its table and the author's recent messages; the actions hide the message and silence the
author site-wide for 24 hours or 7 days."""

from __future__ import annotations

import pytest

from games.models import ChatMessage, ChatReport, ChatSilence
from games.services import NotAllowed
from games.services import chat as chat_services
from tests.views.helpers import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(duel, ann, ben, frozen_clock):
    chat_services.chat_post(code=duel.code, player=ann, text="first words")
    message = chat_services.chat_post(code=duel.code, player=ann, text="rude words")
    return chat_services.chat_report(code=duel.code, player=ben, message=message.pk, reason="abuse")


@pytest.fixture
def moderator(make_user, client):
    user = make_user("moderator")
    user.is_staff = user.is_superuser = True
    user.save()
    client.force_login(user)
    return client


def act(client, action: str, report: ChatReport):
    return client.post(
        "/admin/games/chatreport/", {"action": action, "_selected_action": [report.pk]}
    )


def test_the_queue_lists_the_report_with_its_message_table_and_recent_messages(
    reported, moderator, duel
):
    listing = text(moderator.get("/admin/games/chatreport/"))
    assert "Chat reports" in listing and "rude words" in listing
    assert f'href="/g/{duel.code}/"' in listing
    detail = text(moderator.get(f"/admin/games/chatreport/{reported.pk}/change/"))
    assert "first words" in detail and "rude words" in detail


def test_hide_takes_the_message_off_every_page(reported, moderator, ann, duel):
    assert act(moderator, "hide", reported).status_code == 302
    assert ChatMessage.objects.get(pk=reported.message_id).hidden_at is not None
    reported.refresh_from_db()
    assert reported.handled_at is not None
    assert moderator.get(f"/g/{duel.code}/chat.json").json()["messages"] == [
        {
            "id": reported.message_id - 1,
            "seat": 0,
            "name": "alice",
            "phrase": None,
            "text": "first words",
            "created": "2026-06-01T12:00:00+00:00",
        }
    ]


@pytest.mark.parametrize(("action", "hours"), [("silence_day", 24), ("silence_week", 168)])
def test_silence_refuses_the_author_until_it_ends(
    reported, moderator, ann, duel, frozen_clock, action, hours
):
    assert act(moderator, action, reported).status_code == 302
    silence = ChatSilence.objects.get()
    assert silence.person == f"u:{ann.user_id}"
    assert (silence.until - frozen_clock.now()).total_seconds() == hours * 3600
    frozen_clock.advance(hours=hours, seconds=-1)
    with pytest.raises(NotAllowed, match="silenced you until"):
        chat_services.chat_post(code=duel.code, player=ann, phrase="sorry")
    frozen_clock.advance(seconds=1)
    chat_services.chat_post(code=duel.code, player=ann, phrase="sorry")


def test_a_silenced_author_is_told_until_when_over_http(reported, moderator, duel, alice_client):
    act(moderator, "silence_day", reported)
    response = alice_client.post(
        f"/g/{duel.code}/chat/", {"phrase": "sorry"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 403
    assert "A moderator has silenced you until" in text(response)
    assert "2026" in text(response)
