"""Real sockets on two daphne processes, ended the rude ways (issue #14, item 1): pages
whose network drops at once, and pages that send frames no page would send. None of them
may stay behind as a "watching" that nobody is."""

from __future__ import annotations

import asyncio

import psycopg

from bench import live

PAGES = 60
WAIT_SECONDS = 60.0


def open_pages(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT count(*) FROM games_connection").fetchone()[0]


async def until_open_pages(database_url: str, expected: int) -> None:
    async def wait() -> None:
        while await asyncio.to_thread(open_pages, database_url) != expected:
            await asyncio.sleep(0.2)

    try:
        await asyncio.wait_for(wait(), WAIT_SECONDS)
    except TimeoutError:
        found = await asyncio.to_thread(open_pages, database_url)
        raise AssertionError(f"{found} pages still counted open, expected {expected}") from None


async def test_pages_dropped_at_once_or_sending_garbage_leave_no_presence(two_servers):
    here, there = two_servers
    database_url = here.env["DATABASE_URL"]
    host = live.Guest("Hana")
    watchers = [live.Guest("Wren"), live.Guest("Wade")]
    async with live.http_client() as client:
        code = await host.create_game(client, here.base_url, seats=2)
        for watcher, server in zip(watchers, two_servers, strict=True):
            await watcher.get(client, server.base_url + "/")
    sockets = []
    for i in range(PAGES):
        server = two_servers[i % 2]
        sockets.append(await watchers[i % 2].open_socket(server.ws_url, server.base_url, code))
    await until_open_pages(database_url, PAGES)

    for ws in sockets[: PAGES // 3]:  # frames that used to kill the page's consumer
        await ws.send("[" * 1000)
        await ws.send("\x00" * 10)
    for ws in sockets:  # then every network drops at once, while pushes are under way
        ws.transport.abort()
    await until_open_pages(database_url, 0)

    last = await watchers[0].open_socket(here.ws_url, here.base_url, code)
    await until_open_pages(database_url, 1)
    html = ""
    while "1 watching" not in html:  # a push sent before its row was written may come first
        html = await asyncio.wait_for(last.recv(), 30)
    await last.close()
    assert "Traceback" not in here.log() + there.log()
