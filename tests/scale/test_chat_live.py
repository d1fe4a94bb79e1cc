"""Two daphne processes, one table: a quick phrase posted through one process reaches the
pages open on the other (PostgreSQL for the message, Redis for the push), each in its
reader's language, without a board."""

from __future__ import annotations

import asyncio
import contextlib
import re

from bench import live

SOCKET_TIMEOUT = 30.0
LINE = re.compile(r'<li id="chat-m\d+".*?<span class="chat-words[^"]*"[^>]*>(.*?)</span>', re.S)


async def next_chat_line(ws) -> str:
    async def read() -> str:
        async for message in ws:
            text = message if isinstance(message, str) else message.decode()
            if 'id="chat-log"' in text:
                assert 'id="board"' not in text
                found = LINE.search(text)
                assert found, text
                return found.group(1)
        raise AssertionError("the socket closed before any chat line")

    return await asyncio.wait_for(read(), SOCKET_TIMEOUT)


async def test_a_phrase_posted_on_one_process_reaches_pages_on_the_other(two_servers):
    here, there = two_servers
    ann, bea = live.Guest("Ann"), live.Guest("Bea")
    sockets = []
    async with live.http_client() as client:
        code = await ann.create_game(client, here.base_url, seats=2)
        await bea.join(client, there.base_url, code)
        bea.cookies["django_language"] = "uz"
        try:
            on_there = await bea.open_socket(there.ws_url, there.base_url, code)
            on_here = await ann.open_socket(here.ws_url, here.base_url, code)
            sockets += [on_there, on_here]
            # Each page joined its room before its socket was accepted: no message can pass it.
            response = await ann.post(
                client, f"{here.base_url}/g/{code}/chat/", {"phrase": "good_luck"}
            )
            assert response.status_code == 200, response.text[:500]
            assert await next_chat_line(on_there) == "Omad!"
            assert await next_chat_line(on_here) == "Good luck!"
        finally:
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()
    for server in two_servers:
        assert "Traceback" not in server.log(), server.log()[-4000:]
