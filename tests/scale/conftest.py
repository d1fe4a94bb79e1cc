"""Live multi-process tests: real daphne processes on PostgreSQL and Redis.

They only run with ``YAHTZEE_SCALE=1`` (``make test-scale``); plain ``make test`` reports them
as skipped. With ``YAHTZEE_SCALE=1`` a PostgreSQL or Redis that cannot be reached fails the
run loudly: CI must never pass by skipping them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bench import live

SCALE = os.environ.get("YAHTZEE_SCALE") == "1"


@pytest.fixture(autouse=True)
def _scale_runs_only_when_asked() -> None:
    if not SCALE:
        pytest.skip("live multi-process test: run `make test-scale` (YAHTZEE_SCALE=1)")


@pytest.fixture(scope="session")
def scale_services() -> None:
    """PostgreSQL and Redis answer, or the run fails (never skips)."""
    problem = ""
    try:
        live.check_services()
    except live.ServiceUnavailable as error:
        problem = str(error)
    if problem:
        pytest.fail(f"YAHTZEE_SCALE=1 but a service is down: {problem}", pytrace=False)


@pytest.fixture(scope="session")
def two_servers(scale_services: None) -> Iterator[list[live.Server]]:
    """Two daphne processes serving one fresh PostgreSQL database through one Redis layer."""
    with live.postgres_database() as database_url:
        env = live.server_env(DATABASE_URL=database_url, REDIS_URL=live.redis_url())
        live.migrate(env)
        servers = [live.Server(env), live.Server(env)]
        try:
            with live.running(servers):
                yield servers
        finally:
            for server in servers:
                log = server.log()
                if log.strip():
                    print(f"\n--- daphne :{server.port} ---\n{log[-4000:]}")
                server.cleanup()
