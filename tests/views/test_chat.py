"""Table talk over HTTP: the forms, their refusals (a 4xx sentence, nothing stored), the
flood limit, mute, report, the host's setting, chat.json, the replay and "chat off"."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from games import services
from games.models import ChatLevel, ChatMessage, ChatMute, ChatReport, TableChat
from games.services import chat as chat_services
from tests.conftest import HTMX, player_of, version_of
from tests.views.helpers import text, url

pytestmark = pytest.mark.django_db


def chat(browser, game, action="", htmx=False, **data):
    path = url(game, "chat") + (f"{action}/" if action else "")
    return browser.post(path, data, headers=HTMX if htmx else {})


def log_of(response) -> str:
    """The chat log of a page, as its reader reads it."""
    found = re.search(r'<ol id="chat-log".*?</ol>', text(response), re.S)
    assert found, "the page shows no chat log"
    return found.group(0)


def said(browser, game) -> list[dict]:
    response = browser.get(f"/g/{game.code}/chat.json")
    assert response.status_code == 200
    return response.json()["messages"]


@pytest.fixture(autouse=True)
def empty_counts():
    cache.clear()
    yield
    cache.clear()


def test_a_phrase_posted_without_javascript_redirects_back_to_the_table(
    duel, alice_client, bob_client
):
    response = chat(alice_client, duel, phrase="good_luck")
    assert response.status_code == 302
    assert response["Location"] == f"/g/{duel.code}/"
    [message] = said(bob_client, duel)
    assert message["name"] == "alice"
    assert message["phrase"] == "good_luck"
    assert message["text"] is None
    assert set(message) == {"id", "seat", "name", "phrase", "text", "created"}


def test_the_table_shows_the_chat_in_the_readers_language(duel, alice_client, bob_client):
    chat(alice_client, duel, phrase="good_luck")
    page = text(bob_client.get(url(duel), headers={"Accept-Language": "en"}))
    assert 'id="chat-log"' in page and 'aria-live="polite"' in page
    assert "Good luck!" in log_of(bob_client.get(url(duel)))
    assert "This table allows quick phrases and free text." in page


def test_text_is_shown_escaped_and_links_stay_text(duel, alice_client, bob_client):
    chat(alice_client, duel, text="<script>x</script> see https://example.com")
    page = bob_client.get(url(duel)).content.decode()
    assert "<script>x</script>" not in page
    assert "&lt;script&gt;x&lt;/script&gt; see https://example.com" in page
    assert 'href="https://example.com' not in page


def test_an_htmx_post_answers_with_fresh_controls(duel, alice_client):
    response = chat(alice_client, duel, htmx=True, text="hello there")
    assert response.status_code == 200
    assert 'id="chat-controls"' in response.content.decode()
    assert ChatMessage.objects.get().text == "hello there"


@pytest.mark.parametrize(
    ("data", "status", "sentence"),
    [
        ({"phrase": "shout"}, 400, "There is no such quick phrase."),
        ({"text": ""}, 400, "Write something"),
        ({"text": "x" * 201}, 400, "at most 200 characters"),
        ({}, 400, "Write something"),
    ],
)
def test_bad_messages_get_a_sentence_and_nothing_is_stored(
    duel, alice_client, data, status, sentence
):
    for htmx in (False, True):
        response = chat(alice_client, duel, htmx=htmx, **data)
        assert response.status_code == status
        assert sentence in text(response)
    assert not ChatMessage.objects.exists()


def test_a_stranger_and_a_spectator_are_refused(duel, make_client, carol, guest_client):
    for browser in (make_client(carol), guest_client, make_client()):
        response = chat(browser, duel, htmx=True, phrase="hello")
        assert response.status_code == 403
        assert "Only the players at this table can talk here." in text(response)
    assert not ChatMessage.objects.exists()


def test_a_spectator_reads_along(duel, alice_client, guest_client):
    chat(alice_client, duel, phrase="hello")
    page = text(guest_client.get(url(duel)))
    assert "Hello!" in log_of(guest_client.get(url(duel)))
    assert "you can read along" in page
    assert [m["phrase"] for m in said(guest_client, duel)] == ["hello"]


def test_text_at_a_phrases_table_is_refused(make_game, alice_client, bob_client, alice):
    game = make_game(alice_client, bob_client, public=True)
    response = chat(alice_client, game, htmx=True, text="hi")
    assert response.status_code == 400
    assert "quick phrases only" in text(response)
    assert 'name="text"' not in text(bob_client.get(url(game)))


def test_a_flood_is_refused_with_429_and_the_others_go_on(duel, alice_client, bob_client, settings):
    settings.CHAT_MESSAGES = "3/10s"
    for _ in range(3):
        assert chat(alice_client, duel, htmx=True, phrase="yes").status_code == 200
    refused = chat(alice_client, duel, htmx=True, phrase="yes")
    assert refused.status_code == 429
    assert "Too many requests" in text(refused)
    assert refused["Retry-After"]
    assert chat(bob_client, duel, htmx=True, phrase="no").status_code == 200
    assert ChatMessage.objects.count() == 4


def test_mute_and_unmute_a_seat(duel, alice_client, bob_client):
    chat(alice_client, duel, phrase="hello")
    response = chat(bob_client, duel, "mute", htmx=True, seat="0")
    assert response.status_code == 200
    assert "Unmute alice" in text(response)
    assert said(bob_client, duel) == []
    assert "Hello!" not in log_of(bob_client.get(url(duel)))
    assert chat(bob_client, duel, "unmute", seat="0").status_code == 302
    assert len(said(bob_client, duel)) == 1


def test_mute_from_a_line_the_lobby_renumbered_since_silences_its_author_only(
    alice_client, ann, ben, cat, make_user
):
    dan = player_of(make_user("dan"))
    game = services.game_create(player=ann, seat_count=3, chat="text")
    for person in (ben, cat):
        services.game_join(code=game.code, player=person, version=version_of(game))
    rude = chat_services.chat_post(code=game.code, player=cat, text="you all play like bots")
    line = log_of(alice_client.get(url(game)))  # alice's page, as it stays open
    form = re.search(r'name="seat" value="(\d+)"><input [^>]*name="message" value="(\d+)"', line)
    assert form and form.groups() == ("2", str(rude.pk))
    services.game_leave(code=game.code, player=ben, version=version_of(game))
    services.game_join(code=game.code, player=dan, version=version_of(game))  # seat 2

    stale = chat(alice_client, game, "mute", htmx=True, seat="2", message=str(rude.pk))
    assert stale.status_code == 200

    chat_services.chat_post(code=game.code, player=cat, text="still rude")
    chat_services.chat_post(code=game.code, player=dan, text="hello everyone")
    assert [(m["name"], m["seat"]) for m in said(alice_client, game)] == [("dan", 2)]


@pytest.mark.parametrize("seat", ["9", "zero", ""])
def test_muting_an_unknown_seat_is_a_4xx_sentence(duel, bob_client, seat):
    response = chat(bob_client, duel, "mute", htmx=True, seat=seat)
    assert response.status_code == 400
    assert "There is no such seat at this table." in text(response)
    assert not ChatMute.objects.exists()


def test_a_report_reaches_the_queue_and_a_stale_one_is_refused(duel, alice_client, bob_client):
    chat(alice_client, duel, text="buy cheap dice")
    message = ChatMessage.objects.get()
    response = chat(bob_client, duel, "report", message=message.pk, reason="spam")
    assert response.status_code == 302
    assert ChatReport.objects.get().reason == "spam"
    for data in ({"message": message.pk, "reason": "ugly"}, {"message": 999, "reason": "spam"}):
        refused = chat(bob_client, duel, "report", htmx=True, **data)
        assert refused.status_code == 400
    message.hidden_at = message.created_at
    message.save()
    assert (
        chat(bob_client, duel, "report", htmx=True, message=message.pk, reason="abuse").status_code
        == 400
    )
    assert said(bob_client, duel) == []


def test_the_host_lowers_the_chat_and_the_table_says_so(duel, alice_client, bob_client):
    assert chat(bob_client, duel, "setting", htmx=True, chat="off").status_code == 403
    response = chat(alice_client, duel, "setting", htmx=True, chat="phrases")
    assert response.status_code == 200
    assert "This table talks in quick phrases." in text(response)
    assert chat(alice_client, duel, "setting", htmx=True, chat="text").status_code == 400
    assert TableChat.objects.get(game=duel).level == ChatLevel.PHRASES
    assert chat(alice_client, duel, "setting", chat="off").status_code == 302
    assert "Chat is off at this table." in text(bob_client.get(url(duel)))
    assert chat(bob_client, duel, htmx=True, phrase="hello").status_code == 400


def test_the_create_form_takes_the_chat(alice_client):
    response = alice_client.post("/games/new/", {"seats": 2, "chat": "phrases", "pace": ""})
    assert response.status_code == 302
    assert TableChat.objects.get().level == ChatLevel.PHRASES
    assert alice_client.post("/games/new/", {"seats": 2, "chat": "loud"}).status_code == 400


def test_chat_off_in_the_account_settings(duel, alice_client, bob_client):
    chat(bob_client, duel, phrase="hello")
    assert "Turn chat off at every table" in text(alice_client.get("/accounts/"))
    assert alice_client.post("/accounts/chat/", {"chat_off": "1"}).status_code == 302
    page = text(alice_client.get(url(duel)))
    assert "Chat is off for you" in page and "Hello!" not in page and 'id="chat-log"' not in page
    assert said(alice_client, duel) == []
    assert chat(alice_client, duel, htmx=True, phrase="hi").status_code == 400
    alice_client.post("/accounts/chat/", {"chat_off": "0"})
    assert len(said(alice_client, duel)) == 1


def test_the_replay_shows_the_chat_at_the_move_it_was_said(duel, alice_client, loaded_dice):
    from tests.views.helpers import post

    chat(alice_client, duel, phrase="good_luck")
    loaded_dice.load("12345")
    post(alice_client, duel, "roll")
    duel.refresh_from_db()
    chat(alice_client, duel, phrase="ouch")
    first = text(alice_client.get(url(duel, "replay") + f"?v={duel.version - 1}"))
    assert "Good luck!" in first and "Ouch!" not in first
    last = text(alice_client.get(url(duel, "replay") + f"?v={duel.version}"))
    assert "Good luck!" in last and "Ouch!" in last


def test_get_is_not_allowed_on_the_chat_forms(duel, alice_client):
    for action in ("", "mute/", "unmute/", "report/", "setting/"):
        assert alice_client.get(url(duel, "chat") + action).status_code == 405


def test_an_unknown_table_is_a_404(alice_client):
    assert alice_client.post("/g/2222222222/chat/", {"phrase": "hello"}).status_code == 404
    assert alice_client.get("/g/2222222222/chat.json").status_code == 404
