"""Two daphne processes, one game: moves made through one process reach the pages open on
both, every version once and in order (state in PostgreSQL, pushes through Redis)."""

from __future__ import annotations

import asyncio
import contextlib

from bench import live

SOCKET_TIMEOUT = 30.0
IDLE_SECONDS = 8.0


async def until_all_have(logs: list[live.SocketLog], version: int) -> None:
    async def wait() -> None:
        while any(version not in log.versions for log in logs):
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(wait(), SOCKET_TIMEOUT)
    except TimeoutError:
        missing = {
            log.label: (log.versions[-3:], log.closed or "open")
            for log in logs
            if version not in log.versions
        }
        raise AssertionError(f"version {version} never reached {missing}") from None


async def test_every_page_on_every_process_gets_every_version_once_in_order(two_servers):
    here, there = two_servers
    ann, bea, sam = live.Guest("Ann"), live.Guest("Bea"), live.Guest("Sam")
    # Each player's moves go to the process the other player's first page is not on,
    # so every version crosses from one process to the other through Redis.
    server_of = {"Ann": there, "Bea": here}
    sockets, readers, logs = [], [], []
    async with live.http_client() as client:
        code = await ann.create_game(client, here.base_url, seats=2)
        for guest in (bea, sam):  # a session (and a CSRF token) from the other process
            page = await guest.get(client, f"{there.base_url}/g/{code}/")
            assert page.status_code == 200
        try:
            for guest in (ann, bea, sam):
                for server in (here, there):
                    ws = await guest.open_socket(server.ws_url, server.base_url, code)
                    log = live.SocketLog(f"{guest.name}@{server.port}")
                    sockets.append(ws)
                    logs.append(log)
                    readers.append(asyncio.create_task(live.read_boards(ws, log)))
            await until_all_have(logs, 1)

            version = await bea.join(client, there.base_url, code)
            assert version == 2
            response = await ann.act(client, there.base_url, code, "start", version)
            assert response.status_code == 200, response.text
            version = live.board_version(response.text)

            players = {0: ann, 1: bea}
            turns = 0
            while True:
                table = await live.state(client, here.base_url, code)
                if table["status"] == "finished":
                    break
                assert table["version"] == version  # the same state, whichever process
                player = players[table["current_seat"]]
                base = server_of[player.name].base_url
                choices: list[str] = []
                for action, fields in (
                    ("roll", {}),
                    ("keep", {"held": "11000"}),
                    ("roll", {}),
                    ("score", None),
                ):
                    if fields is None:
                        fields = {"category": choices[0]}
                    response = await player.act(client, base, code, action, version, **fields)
                    assert response.status_code == 200, (action, response.text[:500])
                    answered = live.board_version(response.text)
                    # One version per action; after the last one the coach's review of the
                    # finished game may already have added its own.
                    assert answered == version + 1 or (action == "score" and answered > version)
                    version = answered
                    choices = live.SCORE_CHOICES.findall(response.text)
                turns += 1
                if turns == 2:
                    # A long think: pages sit idle for longer than the Redis client's read
                    # timeout (5 s by default since redis-py 8) and must stay connected.
                    await asyncio.sleep(IDLE_SECONDS)
            assert turns == 26
            assert [seat["place"] for seat in table["seats"]] != [None, None]

            await until_all_have(logs, version)
            await asyncio.sleep(1.0)  # room for a late duplicate to show itself
            assert not [log.closed for log in logs if log.closed]
        finally:
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)

    # Every page saw every version up to the end of the game, once and in order (and the
    # review's version too if it was written before the pages closed).
    for log in logs:
        assert log.versions == list(range(1, max(log.versions) + 1)), (
            log.label,
            log.audit(1, version),
        )
        assert max(log.versions) >= version, log.label
    for server in two_servers:
        assert "Traceback" not in server.log(), server.log()[-4000:]
