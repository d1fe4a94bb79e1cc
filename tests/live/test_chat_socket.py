"""Table talk on the table's socket: a new message reaches every open page at once, in each
reader's language, as a small fragment (never the board); a muted or blocked author never
reaches that reader; a hidden message leaves every page; a lowered setting shows at once."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games import services
from games.languages import SESSION_KEY
from games.live.routing import websocket_urlpatterns
from games.models import Block
from games.services import Player
from games.services import chat as chat_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]

LINE = re.compile(
    r'<li id="chat-m(\d+)"[^>]*>.*?<span class="chat-words[^"]*"[^>]*>(.*?)</span>', re.S
)


@database_sync_to_async
def three_at_a_table():
    users = [
        get_user_model().objects.create_user(name, password="a long enough password")
        for name in ("ravi", "dilnoza", "carol")
    ]
    players = [Player(u.username, user_id=u.pk) for u in users]
    game = services.game_create(player=players[0], seat_count=3)
    for other in players[1:]:
        game.refresh_from_db()
        services.game_join(code=game.code, player=other, version=game.version)
    game.refresh_from_db()
    return game, users, players


async def open_page(code: str, user, language: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        f"/ws/g/{code}/",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    comm.scope["user"] = user
    comm.scope["session"] = {SESSION_KEY: language}
    comm.scope["url_route"] = {"kwargs": {"code": code}}
    comm.scope["cookies"] = {"django_language": language}
    connected, _ = await comm.connect()
    assert connected
    return comm


async def next_chat(comm: WebsocketCommunicator) -> str:
    """The next chat fragment pushed to the page, skipping boards and presence."""
    for _ in range(20):
        html = await comm.receive_from(timeout=5)
        if "chat-" in html:
            return html
    raise AssertionError("no chat fragment was pushed")


async def next_line(comm: WebsocketCommunicator) -> tuple[int, str]:
    html = await next_chat(comm)
    assert 'id="board"' not in html
    match = LINE.search(html)
    assert match, html
    return int(match.group(1)), match.group(2)


async def say(code: str, player: Player, **said):
    return await database_sync_to_async(chat_services.chat_post)(code=code, player=player, **said)


async def test_a_phrase_reaches_every_page_each_in_its_readers_language():
    game, (ravi, dilnoza, carol), (p_ravi, *_) = await three_at_a_table()
    te = await open_page(game.code, ravi, "te")
    uz = await open_page(game.code, dilnoza, "uz")
    en = await open_page(game.code, carol, "en")
    await say(game.code, p_ravi, phrase="good_luck")
    assert (await next_line(te))[1] == "ఆల్ ది బెస్ట్!"
    assert (await next_line(uz))[1] == "Omad!"
    html = await next_chat(en)
    assert 'hx-swap-oob="beforeend"' in html and 'id="chat-log"' in html
    assert "Good luck!" in html
    for comm in (te, uz, en):
        await comm.disconnect()


async def test_free_text_is_pushed_escaped_and_untranslated():
    game, (_ravi, dilnoza, _), (p_ravi, *_) = await three_at_a_table()
    uz = await open_page(game.code, dilnoza, "uz")
    await say(game.code, p_ravi, text="<b>నమస్తే</b>")
    assert (await next_line(uz))[1] == "&lt;b&gt;నమస్తే&lt;/b&gt;"
    await uz.disconnect()


async def test_a_muted_seat_never_reaches_the_reader_who_muted_it():
    game, (_ravi, dilnoza, carol), (p_ravi, p_dilnoza, p_carol) = await three_at_a_table()
    page = await open_page(game.code, dilnoza, "en")
    other = await open_page(game.code, carol, "en")
    await database_sync_to_async(chat_services.chat_mute)(code=game.code, player=p_dilnoza, seat=0)
    muted = await say(game.code, p_ravi, phrase="hello")
    later = await say(game.code, p_carol, phrase="thanks")
    # Carol's later message is the first that reaches Dilnoza: Ravi's never came before it.
    assert await next_line(page) == (later.pk, "Thanks!")
    assert await next_line(other) == (muted.pk, "Hello!")
    for comm in (page, other):
        await comm.disconnect()


async def test_a_mute_follows_its_person_when_the_lobby_closes_up_and_spares_the_newcomer():
    game, (ravi, *_), (p_ravi, p_dilnoza, p_carol) = await three_at_a_table()
    erin = await database_sync_to_async(get_user_model().objects.create_user)(
        "erin", password="a long enough password"
    )
    p_erin = Player(erin.username, user_id=erin.pk)
    page = await open_page(game.code, ravi, "en")
    await database_sync_to_async(chat_services.chat_mute)(code=game.code, player=p_ravi, seat=2)

    @database_sync_to_async
    def dilnoza_leaves_and_erin_sits_down() -> None:
        game.refresh_from_db()
        services.game_leave(code=game.code, player=p_dilnoza, version=game.version)
        game.refresh_from_db()  # carol in seat 1 now; erin takes seat 2
        services.game_join(code=game.code, player=p_erin, version=game.version)

    await dilnoza_leaves_and_erin_sits_down()
    await say(game.code, p_carol, phrase="hello")
    later = await say(game.code, p_erin, phrase="thanks")
    # Erin's message is the first to reach Ravi: Carol, muted in seat 2, still is in seat 1.
    assert await next_line(page) == (later.pk, "Thanks!")
    await page.disconnect()


@pytest.mark.parametrize("blocker", ["reader", "author"])
async def test_a_block_either_way_keeps_the_authors_messages_off_the_page(blocker):
    game, (ravi, dilnoza, _carol), (p_ravi, _, p_carol) = await three_at_a_table()
    pair = (dilnoza, ravi) if blocker == "reader" else (ravi, dilnoza)
    await database_sync_to_async(Block.objects.create)(blocker=pair[0], blocked=pair[1])
    page = await open_page(game.code, dilnoza, "en")
    await say(game.code, p_ravi, phrase="hello")
    later = await say(game.code, p_carol, phrase="yes")
    assert await next_line(page) == (later.pk, "Yes")
    await page.disconnect()


async def test_a_hidden_message_leaves_every_open_page():
    game, (_ravi, dilnoza, carol), (p_ravi, *_) = await three_at_a_table()
    pages = [await open_page(game.code, u, "en") for u in (dilnoza, carol)]
    message = await say(game.code, p_ravi, text="rude words")
    for page in pages:
        assert (await next_line(page))[0] == message.pk
    await database_sync_to_async(chat_services.chat_message_hide)(message_id=message.pk)
    for page in pages:
        html = await next_chat(page)
        assert html == f'<li id="chat-m{message.pk}" hx-swap-oob="delete"></li>'
        await page.disconnect()


async def test_a_lowered_setting_is_pushed_to_each_reader():
    game, (_ravi, dilnoza, _), (p_ravi, *_) = await three_at_a_table()
    page = await open_page(game.code, dilnoza, "uz")
    await database_sync_to_async(chat_services.chat_setting_lower)(
        code=game.code, player=p_ravi, chat="phrases"
    )
    html = await next_chat(page)
    assert '<section id="chat"' in html and 'hx-swap-oob="true"' in html
    assert "Bu stolda tayyor iboralar bilan gaplashiladi." in html
    assert 'name="text"' not in html
    await page.disconnect()


async def test_a_reader_with_chat_off_is_pushed_no_message():
    game, (_ravi, dilnoza, _), (p_ravi, *_) = await three_at_a_table()
    await database_sync_to_async(chat_services.chat_preference_set)(
        user_id=dilnoza.pk, chat_off=True
    )
    page = await open_page(game.code, dilnoza, "en")
    await say(game.code, p_ravi, phrase="hello")
    await database_sync_to_async(chat_services.chat_setting_lower)(
        code=game.code, player=p_ravi, chat="phrases"
    )
    # The setting's push comes first: the message before it never reached this page.
    html = await next_chat(page)
    assert '<section id="chat"' in html and "Chat is off for you" in html
    assert 'id="chat-log"' not in html
    await page.disconnect()
