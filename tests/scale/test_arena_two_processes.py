"""An arena across two daphne processes on PostgreSQL and Redis: eight accounts wait, the
tournament starts, and joins posted at the same moment to both processes (with both
heartbeats sweeping too) pair everyone exactly once: four tables, nobody seated twice."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

from bench import live

PASSWORD = "a-long-table-of-dice-42"
NAMES = [f"arena{i}" for i in range(8)]
MAKE_ACCOUNTS = f"""
from django.contrib.auth import get_user_model
for name in {NAMES!r}:
    get_user_model().objects.create_user(name, password={PASSWORD!r})
"""
START_NOW = """
from django.utils import timezone
from games.models import Tournament
Tournament.objects.update(starts_at=timezone.now())
"""
NEW = {
    "name": "Two processes",
    "minutes": "30",
    "pace": "blitz",
    "table_size": "2",
    "ruleset": "yahtzee",
    "public": "on",
}


async def log_in(client, person: live.Guest, base: str) -> None:
    await person.get(client, f"{base}/accounts/login/")
    answer = await person.post(
        client,
        f"{base}/accounts/login/",
        {"username": person.name, "password": PASSWORD},
        htmx=False,
    )
    assert answer.status_code == 302, answer.text[:300]


async def test_joins_at_the_same_moment_on_two_processes_pair_everyone_once(two_servers):
    here, there = two_servers
    live.manage(here.env, "shell", "-c", MAKE_ACCOUNTS)
    people = [live.Guest(name) for name in NAMES]
    servers = [here if i % 2 else there for i in range(len(people))]
    async with live.http_client() as client:
        for person, server in zip(people, servers, strict=True):
            await log_in(client, person, server.base_url)
        # Tomorrow; moved to now below, once six have joined (the form takes no past start).
        tomorrow = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
        made = await people[0].post(
            client, f"{here.base_url}/tournaments/new/", {**NEW, "starts_at": tomorrow}, htmx=False
        )
        assert made.status_code == 302, made.text[:500]
        found = re.search(r"/tournaments/(\d+)/", made.headers["location"])
        assert found
        tournament = int(found.group(1))
        for person, server in zip(people[:6], servers, strict=False):
            joined = await person.post(
                client, f"{server.base_url}/tournaments/{tournament}/join/", {}, htmx=False
            )
            assert joined.status_code == 302, joined.text[:300]
        live.manage(here.env, "shell", "-c", START_NOW)
        answers = await asyncio.gather(
            people[6].post(
                client, f"{here.base_url}/tournaments/{tournament}/join/", {}, htmx=False
            ),
            people[7].post(
                client, f"{there.base_url}/tournaments/{tournament}/join/", {}, htmx=False
            ),
        )
        assert [a.status_code for a in answers] == [302, 302], [a.text[:300] for a in answers]
        data = (await client.get(f"{there.base_url}/tournaments/{tournament}.json")).json()
        assert data["status"] == "running"
        assert len(data["games"]) == 4, data
        seated = []
        for code in data["games"]:
            # A round's dice are every table's dice: only the table's own players may look
            # while the round runs, so each table is read by whichever person sits there.
            hidden = await client.get(f"{here.base_url}/g/{code}/state.json")
            assert hidden.status_code == 403
            answers = [
                await person.get(client, f"{here.base_url}/g/{code}/state.json")
                for person in people
            ]
            tables = [answer.json() for answer in answers if answer.status_code == 200]
            assert len(tables) == 2  # the table's two players, and nobody else
            table = tables[0]
            assert table["status"] == "playing"
            seated += [seat["name"] for seat in table["seats"]]
        assert sorted(seated) == sorted(NAMES)  # everyone at exactly one table
    for server in two_servers:
        assert "Traceback" not in server.log(), server.log()[-4000:]
