"""Durable turn clocks on real daphne processes and PostgreSQL: the deadlines live in the
database, so two processes racing for one expiry act once, and a process killed with -9
before a deadline leaves it to the next process to fire.

Nothing here waits for a real 30-second clock: the test moves a table's deadline into the
past in the database (as if its time had come), then watches ``state.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator

import psycopg
import pytest

from bench import live

PATIENCE = 60.0  # how long a page may take to see what the processes did, at most


@pytest.fixture
def database(scale_services: None) -> Iterator[tuple[str, dict[str, str]]]:
    with live.postgres_database("yahtzee_clocks") as url:
        env = live.server_env(
            DATABASE_URL=url,
            REDIS_URL=live.redis_url(),
            BOT_DELAY_SECONDS="0.1",
            JOBS_TICK_SECONDS="0.2",
        )
        live.migrate(env)
        yield url, env


@contextlib.contextmanager
def serving(servers: list[live.Server]) -> Iterator[list[live.Server]]:
    try:
        with live.running(servers):
            yield servers
    finally:
        for server in servers:
            log = server.log()
            if "Traceback" in log:
                print(f"\n--- daphne :{server.port} ---\n{log[-4000:]}")
            server.cleanup()


async def blitz_duel(client, base: str) -> str:
    """Ann and Bea at a started blitz table; returns its code."""
    ann, bea = live.Guest("Ann"), live.Guest("Bea")
    await ann.get(client, base + "/")
    created = await ann.post(
        client, base + "/games/new/", {"seats": 2, "name": "Ann", "pace": "blitz"}, htmx=False
    )
    assert created.status_code == 302, created.text
    code = created.headers["location"].rstrip("/").rsplit("/", 1)[1]
    version = await bea.join(client, base, code)
    started = await ann.act(client, base, code, "start", version)
    assert started.status_code == 200, started.text
    return code


def run_out_the_clock(database_url: str, codes: list[str]) -> None:
    """The turn's time has come: its deadline (and the game's due work) is now past."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE games_game SET turn_deadline = now() - interval '1 second',"
            " due_at = now() - interval '1 second' WHERE code = ANY(%s)",
            (codes,),
        )


async def until(check, what: str) -> None:
    async def wait() -> None:
        while not await check():
            await asyncio.sleep(0.1)

    try:
        await asyncio.wait_for(wait(), PATIENCE)
    except TimeoutError:
        raise AssertionError(f"never saw {what}") from None


def coach_turns(database_url: str, code: str) -> list[tuple[int, str, int]]:
    """(turn, box, seat) of every box the coach filled for a person in game ``code``."""
    with psycopg.connect(database_url) as conn:
        return conn.execute(
            "SELECT m.turn_number, m.category, m.seat FROM games_move m"
            " JOIN games_game g ON g.id = m.game_id"
            " WHERE g.code = %s AND m.by_coach AND m.kind = 'score' ORDER BY m.version",
            (code,),
        ).fetchall()


async def test_two_processes_racing_for_one_expiry_act_exactly_once(database):
    url, env = database
    with serving([live.Server(env), live.Server(env)]) as (here, there):
        async with live.http_client() as client:
            codes = [await blitz_duel(client, (here, there)[i % 2].base_url) for i in range(6)]
            first = {c: (await live.state(client, here.base_url, c))["current_seat"] for c in codes}
            run_out_the_clock(url, codes)

            async def all_passed() -> bool:
                states = {code: await live.state(client, there.base_url, code) for code in codes}
                return all(s["current_seat"] != first[c] for c, s in states.items())

            await until(all_passed, "every expired turn handed on")
            for code in codes:
                state = await live.state(client, here.base_url, code)
                statuses = [s["status"] for s in state["seats"]]
                assert statuses[first[code]] == "away" and statuses.count("away") == 1
                assert state["turn_deadline"] is not None  # the other player's own clock runs
                # One turn finished by the coach: one box, never two.
                assert [(t, seat) for t, _, seat in coach_turns(url, code)] == [(0, first[code])]


async def test_a_deadline_pending_when_the_process_is_killed_fires_after_the_restart(database):
    url, env = database
    server = live.Server(env)
    with serving([server]):
        async with live.http_client() as client:
            code = await blitz_duel(client, server.base_url)
            first = (await live.state(client, server.base_url, code))["current_seat"]
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)  # mid-deadline, no goodbye
        server.process.wait(timeout=15)
    run_out_the_clock(url, [code])  # its time came while no process was running

    with serving([live.Server(env)]) as (restarted,):
        async with live.http_client() as client:

            async def handed_on() -> bool:
                state = await live.state(client, restarted.base_url, code)
                return state["current_seat"] != first

            await until(handed_on, "the expired turn played by the coach after the restart")
            state = await live.state(client, restarted.base_url, code)
            assert state["seats"][first]["status"] == "away"
            assert len(coach_turns(url, code)) == 1
