"""Real servers and real clients for the live-room scale test and the load benchmark.

Starts daphne processes the way production does (``daphne -b HOST -p PORT APP``), gives
them a fresh PostgreSQL database (or a temporary SQLite file) and a Redis database, and
drives them over HTTP (httpx; aiohttp for the load benchmark) and websockets (the
``websockets`` client) as browsers do: session and CSRF cookies, the ``X-CSRFToken``
header, ``HX-Request`` for partials, an ``Origin`` header on every socket.

Used by ``tests/scale/`` and ``bench/bench_load.py``; nothing here imports the site.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SITE_APP = "yahtzee_site.asgi:application"
ECHO_APP = "bench.echo_asgi:application"

POSTGRES_ADMIN_URL = os.environ.get(
    "YAHTZEE_SCALE_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"
)
REDIS_BASE_URL = os.environ.get("YAHTZEE_SCALE_REDIS", "redis://127.0.0.1:6379")

BOARD_VERSION = re.compile(r'id="board"[^>]*data-version="(\d+)"')
SCORE_CHOICES = re.compile(r'name="category" value="([a-z_]+)"')
CLK_TCK = os.sysconf("SC_CLK_TCK")

# Settings the servers must not inherit from whoever runs the test or the benchmark.
_SCRUBBED = (
    "DATABASE_URL",
    "REDIS_URL",
    "SQLITE_PATH",
    "SQLITE_TEST_PATH",
    "DJANGO_SETTINGS_MODULE",
    "PRESENCE_HEARTBEAT_SECONDS",
    "WS_MAX_SOCKETS_PER_CLIENT",
    "JOBS_START_WITH_APPLICATION",
    "PYTEST_VERSION",  # a server started by a test starts its background work as in production
)


class ServiceUnavailable(RuntimeError):
    """PostgreSQL or Redis cannot be reached."""


def board_version(html: str) -> int | None:
    match = BOARD_VERSION.search(html)
    return int(match.group(1)) if match else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- PostgreSQL and Redis -------------------------------------------------------------------


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def check_services(postgres: bool = True, redis: bool = True) -> None:
    """Raise :class:`ServiceUnavailable` with a readable reason if a service is down."""
    problems = []
    if postgres:
        import psycopg

        try:
            with psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=5) as conn:
                conn.execute("SELECT 1")
        except Exception as error:
            problems.append(f"PostgreSQL at {POSTGRES_ADMIN_URL}: {error}")
    if redis:
        import redis as redis_lib

        try:
            redis_lib.Redis.from_url(REDIS_BASE_URL, socket_timeout=5).ping()
        except Exception as error:
            problems.append(f"Redis at {REDIS_BASE_URL}: {error}")
    if problems:
        raise ServiceUnavailable("; ".join(problems))


@contextlib.contextmanager
def postgres_database(prefix: str = "yahtzee_scale") -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one run; dropped afterwards. Yields its URL."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_path(POSTGRES_ADMIN_URL, f"/{name}")
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_url() -> str:
    """A Redis database for one run. Channel and group names carry random parts (game
    codes, channel suffixes), so a run sharing a database number with another is harmless."""
    return _with_path(REDIS_BASE_URL, f"/{secrets.randbelow(15) + 1}")


@contextlib.contextmanager
def sqlite_database() -> Iterator[str]:
    """A temporary SQLite file for one run; yields its path."""
    with tempfile.TemporaryDirectory(prefix="yahtzee-bench-") as folder:
        yield str(Path(folder) / "db.sqlite3")


def server_env(**settings: str) -> dict[str, str]:
    """The environment of a server process: this one's, minus the site's settings, plus
    ``settings``."""
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env.update(
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        # The benchmark's clients all come from here and open a hundred tables in a second:
        # never limited (games/limits.py, docs/security.md).
        LIMITS_EXEMPT_IPS="127.0.0.1",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(REPO),
        # Every page of the scale test and the load benchmark comes from 127.0.0.1: the
        # per-visitor socket limit would refuse all but the first few (docs/deploy.md,
        # Configuration).
        WS_MAX_SOCKETS_PER_CLIENT="0",
    )
    env.update(settings)
    return env


def manage(env: dict[str, str], *args: str) -> None:
    """Run ``manage.py`` with ``args`` for the servers' environment; raise if it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{result.stdout}\n{result.stderr}")


def migrate(env: dict[str, str]) -> None:
    manage(env, "migrate", "--noinput")


def collectstatic(env: dict[str, str]) -> None:
    """The manifest ``DJANGO_DEBUG=0`` serves static files from (into ``staticfiles/``)."""
    manage(env, "collectstatic", "--noinput")


# -- server processes -------------------------------------------------------------------------


@dataclass
class Server:
    """One daphne process on a free port, its stderr kept in a file."""

    env: dict[str, str]
    app: str = SITE_APP
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    log_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        handle, path = tempfile.mkstemp(prefix=f"daphne-{self.port}-", suffix=".log")
        self.log_path = Path(path)
        with os.fdopen(handle, "wb") as log:
            self.process = subprocess.Popen(
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), self.app],
                cwd=REPO,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def wait_ready(self, timeout: float = 60.0) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"daphne on port {self.port} exited:\n{self.log()}")
            try:
                if httpx.get(self.base_url + "/", timeout=2).status_code < 500:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"daphne on port {self.port} did not answer:\n{self.log()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)

    def log(self) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")

    def cleanup(self) -> None:
        self.stop()
        if self.log_path is not None:
            self.log_path.unlink(missing_ok=True)

    # -- what the process costs (Linux /proc) --
    def cpu_seconds(self) -> float:
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime, all threads

    def rss_bytes(self) -> int:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


@contextlib.contextmanager
def running(servers: list[Server]) -> Iterator[list[Server]]:
    """Start every server, wait until each answers, and stop them all afterwards."""
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


# -- browsers ---------------------------------------------------------------------------------


def http_client(connections: int = 20, timeout: float = 30.0):
    """One pooled httpx client shared by many guests; it keeps no cookies of its own (each
    :class:`Guest` sends its own), so any guest can talk to any server through it."""
    import httpx

    jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(cookies=jar, limits=limits, timeout=timeout)


def aiohttp_client(connections: int = 20, timeout: float = 30.0) -> AiohttpClient:
    """The same shared client as :func:`http_client` over aiohttp (its HTTP parser is C, so
    a request costs the load generator a fraction of httpx's CPU); ``async with`` it."""
    return AiohttpClient(connections, timeout)


class AiohttpClient:
    """One pooled aiohttp session with the face of httpx's ``AsyncClient`` that
    :class:`Guest` and :func:`state` use: ``get(url, headers=)``, ``post(url, data=,
    headers=)``, answers read whole. Like :func:`http_client` it keeps no cookies of its own
    and never follows a redirect; its connection pool and timeouts are httpx's (idle
    connections kept 5 s; 30 s to get a connection, to connect, and between reads).

    A request that gets no answer (refused, reset, timed out, garbled) raises
    ``aiohttp.ClientError`` or ``TimeoutError``."""

    def __init__(self, connections: int = 20, timeout: float = 30.0) -> None:
        self.connections = connections
        self.timeout = timeout
        self.session = None

    async def __aenter__(self) -> AiohttpClient:
        import aiohttp

        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self.connections, keepalive_timeout=5.0),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(
                total=None, connect=self.timeout, sock_connect=self.timeout, sock_read=self.timeout
            ),
        )
        return self

    async def __aexit__(self, *exc_info) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None

    async def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return await self._request("GET", url, headers=headers)

    async def post(
        self, url: str, data: dict | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        # Form values as httpx writes them: None is empty, booleans are lower case.
        form = None if data is None else {k: _form_value(v) for k, v in data.items()}
        return await self._request("POST", url, data=form, headers=headers)

    async def _request(self, method: str, url: str, **kwargs) -> Answer:
        assert self.session is not None, "use the client as `async with aiohttp_client()`"
        async with self.session.request(method, url, allow_redirects=False, **kwargs) as answer:
            return Answer(answer, await answer.read())


def _form_value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Answer:
    """An aiohttp response read whole, as httpx gives one: ``status_code``, ``headers``
    (case-insensitive), ``content``, ``text``, ``json()``, ``raise_for_status()`` and
    ``cookies``, the name and value of each cookie it sets (a cookie it deletes or sets
    already expired is left out, as httpx leaves it out)."""

    def __init__(self, response, content: bytes) -> None:
        self.status_code: int = response.status
        self.headers = response.headers
        self.content = content
        self.cookies = {
            name: morsel.value
            for name, morsel in response.cookies.items()
            if not _expired(morsel["max-age"], morsel["expires"])
        }
        self._charset: str = response.charset or "utf-8"
        self._request_info = response.request_info
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.content.decode(self._charset, errors="replace")
        return self._text

    def json(self):
        return json.loads(self.content)

    def raise_for_status(self) -> Answer:
        """Raise ``aiohttp.ClientResponseError`` unless the status is 2xx (as httpx does)."""
        if not 200 <= self.status_code < 300:
            import aiohttp

            raise aiohttp.ClientResponseError(
                self._request_info, (), status=self.status_code, headers=self.headers
            )
        return self


def _expired(max_age: str, expires: str) -> bool:
    """Whether a Set-Cookie's lifetime is already over (Max-Age wins over Expires)."""
    if max_age:
        with contextlib.suppress(ValueError):
            return int(max_age) <= 0
    if expires:
        with contextlib.suppress(TypeError, ValueError):
            return email.utils.parsedate_to_datetime(expires).timestamp() <= time.time()
    return False


@dataclass
class Guest:
    """A browser without an account: its identity is its session cookie. It talks through
    a shared client, :func:`http_client` (httpx) or :func:`aiohttp_client`."""

    name: str
    cookies: dict[str, str] = field(default_factory=dict)

    def headers(self, htmx: bool = True) -> dict[str, str]:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if htmx:
            headers["HX-Request"] = "true"
        return headers

    def _remember(self, response) -> None:
        for name, value in response.cookies.items():
            self.cookies[name] = value

    async def get(self, client, url: str, htmx: bool = False):
        response = await client.get(url, headers=self.headers(htmx))
        self._remember(response)
        return response

    async def post(self, client, url: str, data: dict, htmx: bool = True):
        response = await client.post(url, data=data, headers=self.headers(htmx))
        self._remember(response)
        return response

    async def create_game(self, client, base: str, seats: int) -> str:
        """Open a table as this guest (sitting in seat 0); returns its code."""
        await self.get(client, base + "/")
        response = await self.post(
            client, base + "/games/new/", {"seats": seats, "name": self.name}, htmx=False
        )
        if response.status_code != 302:
            raise RuntimeError(f"creating a game answered {response.status_code}")
        return response.headers["location"].rstrip("/").rsplit("/", 1)[1]

    async def join(self, client, base: str, code: str) -> int:
        page = await self.get(client, f"{base}/g/{code}/")
        version = board_version(page.text)
        response = await self.post(
            client, f"{base}/g/{code}/join/", {"version": version, "name": self.name}
        )
        if response.status_code != 200:
            raise RuntimeError(f"joining {code} answered {response.status_code}")
        return board_version(response.text)

    async def act(self, client, base: str, code: str, action: str, version: int, **fields):
        """POST one action (``roll``, ``keep``, ``score``, ``start``) as htmx does."""
        return await self.post(client, f"{base}/g/{code}/{action}/", {"version": version, **fields})

    async def open_socket(self, ws_base: str, origin: str, code: str):
        """The game page's websocket, as a browser opens it: same cookies, same origin."""
        from websockets.asyncio.client import connect

        return await connect(
            f"{ws_base}/ws/g/{code}/",
            origin=origin,
            additional_headers={"Cookie": self.headers(htmx=False).get("Cookie", "")},
            open_timeout=60,
            ping_interval=None,
            max_size=2**22,
        )


async def state(client, base: str, code: str) -> dict:
    response = await client.get(f"{base}/g/{code}/state.json")
    response.raise_for_status()
    return response.json()


@dataclass
class SocketLog:
    """Every board version one socket received, in arrival order, with arrival times."""

    label: str
    versions: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    bytes_received: int = 0
    board_bytes: int = 0
    other_messages: int = 0
    closed: str = ""

    def audit(self, first: int, last: int) -> dict[str, int]:
        """Lost, duplicated and out-of-order versions against ``first..last``."""
        seen = set(self.versions)
        return {
            "lost": sum(1 for v in range(first, last + 1) if v not in seen),
            "duplicated": len(self.versions) - len(seen),
            "out_of_order": sum(1 for a, b in pairwise(self.versions) if b <= a),
        }


async def read_boards(ws, log: SocketLog, on_version=None) -> None:
    """Record each pushed board's version until the socket closes."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for message in ws:
            now = time.perf_counter()
            text = message if isinstance(message, str) else message.decode()
            log.bytes_received += len(text)
            version = board_version(text)
            if version is None:
                log.other_messages += 1
                continue
            log.board_bytes += len(text)
            log.versions.append(version)
            log.times.append(now)
            if on_version is not None:
                on_version(version, now)
    except ConnectionClosed as closed:
        log.closed = f"{closed.rcvd.code if closed.rcvd else ''} {closed}"
    except asyncio.CancelledError:
        raise
