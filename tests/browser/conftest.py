"""Browser tests: the real server (daphne), Debian's Chromium, people clicking and typing.

Run them with ``make test-browser`` (it sets ``YAHTZEE_BROWSER=1``); plain ``make test``
does not even collect this folder. Playwright drives ``/usr/bin/chromium`` (its own browser
download cannot work here). Without that file the run fails, here as in CI (``.ci/run``
installs it first): a browser suite that skips itself would pass having tested nothing.

One daphne process serves the whole session, on a free port with a temporary SQLite
database, exactly as ``make run`` starts it; :class:`LiveServer` can restart it on the same
port and database mid-test.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .people import CSP_LOG, WS_LOG

ENABLED = os.environ.get("YAHTZEE_BROWSER") == "1"
# Not collected at all by a plain `pytest` / `make test`.
collect_ignore_glob = [] if ENABLED else ["*"]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = os.environ.get("YAHTZEE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
TIMEOUT_MS = 10_000


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LiveServer:
    """``make run`` in a box: migrate a temporary SQLite database, then serve it with daphne."""

    def __init__(self, database: Path, log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self.env = {
            key: value
            for key, value in os.environ.items()
            # PYTEST_VERSION: the server starts its background work as in production.
            if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PYTEST_VERSION"}
        }
        self.env.update(
            {
                "SQLITE_PATH": str(database),
                "DJANGO_DEBUG": "1",
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "PYTHONUNBUFFERED": "1",
                # Every person of these scenarios comes from this one address.
                "LIMIT_TABLES_PER_IP": "300/m",
            }
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def migrate(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def start(self) -> None:
        assert self.process is None, "the server is already running"
        daphne = Path(sys.executable).parent / "daphne"
        log = self.log_path.open("ab")
        self.starts += 1
        log.write(f"\n--- daphne start #{self.starts} on port {self.port} ---\n".encode())
        log.flush()
        self.process = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(self.port), "yahtzee_site.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not answer on {self.url} within 30 s")

    def stop(self) -> None:
        """Stop daphne as a process manager would (SIGTERM, then SIGKILL after 10 s)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def state(self, code: str) -> dict[str, Any]:
        """The table as the server stores it (``/g/<code>/state.json``)."""
        with urllib.request.urlopen(f"{self.url}/g/{code}/state.json", timeout=5) as response:
            return json.load(response)


def coach_tables_stored() -> None:
    """The coach's tables of the rule sets the scenarios play, built before the server starts
    when this checkout has none yet (``make test`` leaves them in ``var/strategy``): built by
    the server on a scenario's first hint instead, on cores shared with the browsers, a table
    can take longer than the scenario waits for the coach."""
    from games.rules import RULESET_IDS, Rules
    from games.strategy.tablefile import table_path

    cache = Path(os.environ.get("STRATEGY_CACHE_DIR") or ROOT / "var" / "strategy")
    for ruleset in RULESET_IDS:
        if not table_path(Rules(ruleset=ruleset), cache).exists():
            build = [sys.executable, "-m", "games.strategy.build", "--cache-dir", str(cache)]
            subprocess.run(
                [*build, "--ruleset", ruleset], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
            )


@pytest.fixture(scope="session")
def server() -> Iterator[LiveServer]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    coach_tables_stored()
    with tempfile.TemporaryDirectory(prefix="yahtzee-browser-") as tmp:
        server = LiveServer(Path(tmp) / "db.sqlite3", ARTIFACTS / "daphne.log")
        server.migrate()
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture(scope="session")
def base_url(server: LiveServer) -> str:
    """pytest-playwright gives every context this base URL, so ``page.goto("/")`` works."""
    return server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing (install it: apt-get install -y chromium)", pytrace=False
        )
    return {
        "headless": True,
        **browser_type_launch_args,  # --headed still wins, for a person debugging
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture
def csp_violations() -> list[str]:
    """What the Content Security Policy blocked on any page of the test, as reported by the
    pages' ``securitypolicyviolation`` events. A test that provokes one removes it."""
    return []


@pytest.fixture
def person(new_context: Any, csp_violations: list[str]) -> Any:
    """Opens a new browser context (own cookies) with one page: ``person(viewport=...)``."""

    def open_person(**context_args: Any) -> Any:
        context = new_context(**context_args)
        context.expose_function("reportCspViolation", lambda report: csp_violations.append(report))
        context.add_init_script(WS_LOG)
        context.add_init_script(CSP_LOG)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.on("pageerror", lambda error: _page_errors.append(f"{page.url}: {error}"))
        return page

    _page_errors: list[str] = []
    yield open_person
    assert not _page_errors, "JavaScript errors on the pages:\n" + "\n".join(_page_errors)
    assert not csp_violations, "Content Security Policy violations:\n" + "\n".join(csp_violations)
