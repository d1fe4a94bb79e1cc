"""Live rooms under load: R rooms of 4 seats, every seat's page open, the seat on turn
acting (roll, roll, score) at a set total rate.

    python -m bench.bench_load --mode embedded --rooms 100 --rate 50 --duration 60
    python -m bench.bench_load --mode scale --rooms 100 --rate 100 --duration 60

``embedded``: one daphne, SQLite in a temporary file, the in-memory channel layer.
``scale``: two daphne processes on a fresh PostgreSQL database and Redis; each seat's page
is open on one process and its moves are POSTed to the other.

The benchmark starts the servers itself and drives them from one asyncio process: aiohttp
for the moves, the setup and the state reads (its C parser leaves more of the machine to
the servers than httpx did), ``websockets`` for the pages. It reports actions per second;
latency from sending an action to the last of the room's sockets receiving the new
version; server CPU milliseconds per action (the daphne processes' own utime+stime, every
push included); server memory per idle socket (RSS delta / sockets); errors, lost,
duplicated and out-of-order updates; and "database is locked" / "over capacity" lines in
the servers' logs. In the same run it measures the floor: a bare Channels consumer
echoing a message of the same size to a 4-socket group (``bench/echo_asgi.py``), served
the same way, so each figure also reads as a ratio to it. Prints a table and writes JSON
to ``bench/results/``, then exits with status 1 if the run missed any of its mode's
``TARGETS``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import resource
import secrets
import subprocess
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import aiohttp

from bench import live

RESULTS = Path(__file__).resolve().parent / "results"
TIMELINE_WINDOW = 10.0  # seconds
ACTION_TIMEOUT = 15.0
CONNECT_CONCURRENCY = 20
SETUP_CONCURRENCY = 8
IDLE_SETTLE_SECONDS = 3.0
# Machines of one kind differ in speed by up to 2x, so server CPU is judged as a multiple
# of the bare-Channels floor measured in the same run; latencies are absolute. At scale the
# run must also keep up with the rate offered (``sustained_rate``: at least that share of
# it, and no action slot missed): latencies of a run that fell behind mean nothing.
TARGETS = {
    "embedded": {"p50_ms": 40, "p99_ms": 150, "cpu_floor_ratio": 3.0, "kb_per_socket": 150},
    "scale": {"p99_ms": 250, "cpu_floor_ratio": 3.5, "kb_per_socket": 150, "sustained_rate": 0.98},
}
APPS = {"site": live.SITE_APP, "stock": "bench.stock_asgi:application"}
# What a request of live.aiohttp_client() that got no answer raises (refused, reset, timed
# out, garbled): a move's is counted as an error and its room catches up with the server.
TRANSPORT_ERRORS = (aiohttp.ClientError, TimeoutError)


@dataclass
class Options:
    mode: str
    rooms: int
    rate: float
    duration: float
    warmup: float
    floor_duration: float
    seats: int
    servers: int
    floor: bool
    output: Path | None
    profile: str = ""
    debug: bool = False
    keep_logs: bool = False
    env: dict[str, str] = field(default_factory=dict)
    app: str = "site"


# -- measuring -------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summary_ms(values: list[float]) -> dict[str, float | None]:
    def ms(v: float | None) -> float | None:
        return None if v is None else round(v * 1000, 1)

    return {
        "p50": ms(percentile(values, 50)),
        "p95": ms(percentile(values, 95)),
        "p99": ms(percentile(values, 99)),
        "max": ms(max(values) if values else None),
    }


def timeline_ms(tally: Tally, start: float, window: float = TIMELINE_WINDOW) -> list[dict]:
    """Latency percentiles per window of the measured phase, by when the action was sent:
    shows whether a run holds steady or drifts (a game filling up, a queue building)."""
    windows: dict[int, list[float]] = {}
    for sent, latency in zip(tally.sent_at, tally.latencies, strict=True):
        windows.setdefault(int((sent - start) // window), []).append(latency)
    return [
        {"from_s": index * window, "actions": len(values), **summary_ms(values)}
        for index, values in sorted(windows.items())
    ]


def process_cpu(servers: list[live.Server]) -> float:
    return sum(server.cpu_seconds() for server in servers)


def process_rss(servers: list[live.Server]) -> int:
    return sum(server.rss_bytes() for server in servers)


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def infrastructure_cpu() -> float:
    """CPU seconds of every PostgreSQL and Redis server process on the machine (reaped
    PostgreSQL backends count through the postmaster's children time). Machine-wide: other
    users of the same servers are included."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1 : text.rindex(")")], text.rsplit(")", 1)[1]
        if name in {"postgres", "redis-server"} or name.startswith("postgres"):
            fields = rest.split()
            total += sum(int(fields[i]) for i in (11, 12, 13, 14))
    return total / live.CLK_TCK


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def log_counts(servers: list[live.Server]) -> dict[str, int]:
    text = "".join(server.log() for server in servers)
    return {
        "database_is_locked": text.count("database is locked"),
        "over_capacity": text.count("over capacity"),
        "tracebacks": text.count("Traceback"),
        "log_warnings": sum(
            1 for line in text.splitlines() if "WARNING" in line or "ERROR" in line
        ),
    }


@dataclass
class Tally:
    """What one load phase saw from the generator's side."""

    latencies: list[float] = field(default_factory=list)
    http_latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter, one per latency
    sent: int = 0
    completed: int = 0
    errors: int = 0
    timeouts: int = 0
    missed_slots: int = 0
    schedule_lag: list[float] = field(default_factory=list)
    error_samples: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(message[:300])


class Room:
    """Common to the site and the floor: which sockets have seen which sequence number."""

    def __init__(self, index: int, sockets: int) -> None:
        self.index = index
        self.socket_count = sockets
        self.arrivals: dict[int, int] = {}
        self.waiters: dict[int, asyncio.Future[float]] = {}
        self.logs: list[live.SocketLog] = []
        self.sockets: list = []
        self.readers: list[asyncio.Task] = []
        self.finished = False

    def arrived(self, seq: int, when: float) -> None:
        count = self.arrivals.get(seq, 0) + 1
        self.arrivals[seq] = count
        if count == self.socket_count:
            del self.arrivals[seq]
            waiter = self.waiters.pop(seq, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(when)

    def expect(self, seq: int) -> asyncio.Future[float]:
        waiter = asyncio.get_running_loop().create_future()
        self.waiters[seq] = waiter
        return waiter


async def drive(
    rooms: list, rate: float, seconds: float, act: Callable[..., Awaitable[None]], tally: Tally
) -> float:
    """Open-loop load: one action every 1/rate seconds, each given to the next room that is
    ready (its previous action has reached all its sockets). Returns the elapsed time."""
    ready = deque(room for room in rooms if not room.finished)
    running: set[asyncio.Task] = set()
    interval = 1.0 / rate
    start = time.perf_counter()
    slot = 0

    async def one(room) -> None:
        try:
            await act(room, tally)
        finally:
            if not room.finished:
                ready.append(room)

    while True:
        due = start + slot * interval
        if due >= start + seconds:
            break
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tally.schedule_lag.append(max(0.0, time.perf_counter() - due))
        slot += 1
        if not ready:
            tally.missed_slots += 1
            continue
        task = asyncio.create_task(one(ready.popleft()))
        running.add(task)
        task.add_done_callback(running.discard)
    elapsed = time.perf_counter() - start
    if running:
        await asyncio.wait(running, timeout=ACTION_TIMEOUT + 5)
    return elapsed


async def close_all(rooms: list) -> None:
    async def close(ws) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 5)

    sockets = [ws for room in rooms for ws in room.sockets]
    for i in range(0, len(sockets), 50):
        await asyncio.gather(*(close(ws) for ws in sockets[i : i + 50]))
    readers = [task for room in rooms for task in room.readers]
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)


async def bounded(coroutines: list[Awaitable], limit: int) -> list:
    gate = asyncio.Semaphore(limit)

    async def run(coroutine: Awaitable):
        async with gate:
            return await coroutine

    return await asyncio.gather(*(run(c) for c in coroutines))


async def measure_phase(
    servers: list[live.Server],
    rooms: list,
    options: Options,
    act: Callable[..., Awaitable[None]],
    seconds: float,
    profile: str = "",
) -> dict:
    """Warm up, then drive the rooms for ``seconds`` and take the figures."""
    await drive(rooms, options.rate, options.warmup, act, Tally())
    await asyncio.sleep(1.0)
    profilers = [py_spy(server, seconds, options.mode, profile) for server in servers if profile]
    tally = Tally()
    cpu0, own0, wall0 = process_cpu(servers), own_cpu(), time.perf_counter()
    infra0, (busy0, total0) = infrastructure_cpu(), machine_ticks()
    elapsed = await drive(rooms, options.rate, seconds, act, tally)
    cpu1, own1 = process_cpu(servers), own_cpu()
    infra1, (busy1, total1) = infrastructure_cpu(), machine_ticks()
    wall = time.perf_counter() - wall0
    for profiler in profilers:
        profiler.wait(timeout=60)
    done = max(tally.completed, 1)
    return {
        "seconds": round(elapsed, 2),
        "actions": tally.completed,
        "actions_sent": tally.sent,
        "actions_per_s": round(tally.completed / elapsed, 1),
        "latency_ms": summary_ms(tally.latencies),
        "latency_timeline_ms": timeline_ms(tally, wall0),
        "http_ms": summary_ms(tally.http_latencies),
        "server_cpu_ms_per_action": round((cpu1 - cpu0) * 1000 / done, 2),
        "server_cpu_percent": round((cpu1 - cpu0) * 100 / wall, 1),
        "generator_cpu_ms_per_action": round((own1 - own0) * 1000 / done, 2),
        "postgres_redis_cpu_ms_per_action": round((infra1 - infra0) * 1000 / done, 2),
        "machine_busy_percent": round((busy1 - busy0) * 100 / max(total1 - total0, 1), 1),
        "errors": tally.errors,
        "timeouts": tally.timeouts,
        "missed_slots": tally.missed_slots,
        "schedule_lag_ms": summary_ms(tally.schedule_lag),
        "error_samples": tally.error_samples,
    }


def py_spy(server: live.Server, seconds: float, mode: str, kind: str) -> subprocess.Popen:
    assert server.process is not None
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = RESULTS / f"profile-{mode}-{kind}-{server.port}-{stamp}.txt"
    command = [str(live.BIN / "py-spy"), "record", "--pid", str(server.process.pid)]
    command += ["--duration", str(int(seconds)), "--rate", "200", "--format", "raw"]
    command += ["--threads", "--nonblocking", "-o", str(out)]
    command += ["--gil"] if kind == "cpu" else []
    print(f"profiling daphne :{server.port} into {out}")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def measure_idle_memory(
    servers: list[live.Server], connect: Callable[[], Awaitable[int]]
) -> dict:
    """RSS before and after opening every socket, once the servers are idle again."""
    await asyncio.sleep(IDLE_SETTLE_SECONDS)
    before = process_rss(servers)
    sockets = await connect()
    await asyncio.sleep(IDLE_SETTLE_SECONDS)
    after = process_rss(servers)
    cpu0 = process_cpu(servers)
    await asyncio.sleep(IDLE_SETTLE_SECONDS)
    idle_cpu = (process_cpu(servers) - cpu0) * 1000 / IDLE_SETTLE_SECONDS
    return {
        "sockets": sockets,
        "rss_before_mb": round(before / 2**20, 1),
        "rss_after_mb": round(after / 2**20, 1),
        "kb_per_socket": round((after - before) / 1024 / max(sockets, 1), 1),
        "idle_cpu_ms_per_s": round(idle_cpu, 1),
    }


def audit(rooms: list, first_of: Callable, last_of: Callable) -> dict[str, int]:
    totals = {"lost": 0, "duplicated": 0, "out_of_order": 0, "closed_sockets": 0}
    for room in rooms:
        for log in room.logs:
            for key, value in log.audit(first_of(room), last_of(room)).items():
                totals[key] += value
            totals["closed_sockets"] += bool(log.closed)
    return totals


# -- the site -------------------------------------------------------------------------------


class GameRoom(Room):
    def __init__(self, index: int, seats: int) -> None:
        super().__init__(index, seats)
        self.code = ""
        self.guests = [live.Guest(f"P{index}-{seat}") for seat in range(seats)]
        self.version = 0
        self.first_version = 0
        self.current = 0
        self.step = 0
        self.choices: list[str] = []


@dataclass
class Site:
    servers: list[live.Server]
    client: object
    seats: int

    def socket_server(self, seat: int) -> live.Server:
        return self.servers[seat % len(self.servers)]

    def action_server(self, seat: int) -> live.Server:
        """The process a seat's moves go to: not the one its page is open on, when there
        are two or more."""
        return self.servers[(seat + 1) % len(self.servers)]

    async def open_room(self, room: GameRoom) -> None:
        host = room.guests[0]
        base = self.action_server(0).base_url
        room.code = await host.create_game(self.client, base, self.seats)
        for seat, guest in enumerate(room.guests[1:], start=1):
            await guest.join(self.client, self.action_server(seat).base_url, room.code)
        page = await host.get(self.client, f"{base}/g/{room.code}/")
        response = await host.act(
            self.client, base, room.code, "start", live.board_version(page.text)
        )
        if response.status_code != 200:
            raise RuntimeError(f"start answered {response.status_code}")
        await self.resync(room)
        room.first_version = room.version

    async def resync(self, room: GameRoom) -> None:
        """Catch up with the table as the server has it (after setup or an error)."""
        table = await live.state(self.client, self.servers[0].base_url, room.code)
        room.version = table["version"]
        room.finished = table["status"] == "finished"
        room.current = table["current_seat"] or 0
        rolls_left = table["rolls_left"]
        room.step = 0 if rolls_left == 3 else 1 if rolls_left == 2 else 2
        if room.step == 2:
            guest = room.guests[room.current]
            page = await guest.get(self.client, f"{self.servers[0].base_url}/g/{room.code}/")
            room.choices = live.SCORE_CHOICES.findall(page.text)

    async def connect_room(self, room: GameRoom) -> int:
        for seat, guest in enumerate(room.guests):
            server = self.socket_server(seat)
            ws = await guest.open_socket(server.ws_url, server.base_url, room.code)
            log = live.SocketLog(f"{room.code}/{seat}@{server.port}")
            room.sockets.append(ws)
            room.logs.append(log)
            room.readers.append(asyncio.create_task(live.read_boards(ws, log, room.arrived)))
        return len(room.sockets)

    async def act(self, room: GameRoom, tally: Tally) -> None:
        seat, guest = room.current, room.guests[room.current]
        action = ("roll", "roll", "score")[room.step]
        fields = {"category": room.choices[0]} if action == "score" and room.choices else {}
        expected = room.version + 1
        arrival = room.expect(expected)
        tally.sent += 1
        sent = time.perf_counter()
        try:
            response = await guest.act(
                self.client,
                self.action_server(seat).base_url,
                room.code,
                action,
                room.version,
                **fields,
            )
        except TRANSPORT_ERRORS as error:
            room.waiters.pop(expected, None)
            tally.error(f"{action}: {type(error).__name__}: {error}")
            await self.resync(room)
            return
        answered = time.perf_counter()
        version = live.board_version(response.text) or 0
        # One version per action; a game's last score may come back with the coach's
        # review already written on top of it.
        if response.status_code != 200 or not (
            version == expected or (action == "score" and version > expected)
        ):
            room.waiters.pop(expected, None)
            tally.error(f"{action} v{room.version}: HTTP {response.status_code} -> v{version}")
            await self.resync(room)
            return
        room.version = version
        if action == "score":
            room.current, room.step, room.choices = (seat + 1) % self.seats, 0, []
            room.finished = "Final ranking" in response.text
        else:
            room.step += 1
            room.choices = live.SCORE_CHOICES.findall(response.text)
        try:
            last = await asyncio.wait_for(arrival, ACTION_TIMEOUT)
        except TimeoutError:
            room.waiters.pop(expected, None)
            tally.timeouts += 1
            return
        tally.completed += 1
        tally.http_latencies.append(answered - sent)
        tally.latencies.append(last - sent)
        tally.sent_at.append(sent)


@contextlib.contextmanager
def site_servers(options: Options) -> Iterator[list[live.Server]]:
    """The site's daphne processes on a fresh database, stopped and cleaned up afterwards."""
    common = production_settings(options)
    with contextlib.ExitStack() as stack:
        if options.mode == "embedded":
            path = stack.enter_context(live.sqlite_database())
            env = live.server_env(SQLITE_PATH=path, **common)
            count = 1
        else:
            live.check_services()
            url = stack.enter_context(live.postgres_database("yahtzee_bench"))
            env = live.server_env(DATABASE_URL=url, REDIS_URL=live.redis_url(), **common)
            count = options.servers
        live.migrate(env)
        if not options.debug:
            live.collectstatic(env)
        servers = [live.Server(env, app=APPS[options.app]) for _ in range(count)]
        with cleaned_up(servers, options.keep_logs), live.running(servers):
            yield servers


def production_settings(options: Options) -> dict[str, str]:
    """The servers run as deployed (``DJANGO_DEBUG=0``, plain HTTP on loopback), unless
    ``--debug``; INFO logging so that channels_redis's "over capacity" lines show."""
    settings = {"DJANGO_LOG_LEVEL": "INFO"}
    if not options.debug:
        settings.update(
            DJANGO_DEBUG="0",
            DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
            DJANGO_SECURE_SSL_REDIRECT="0",
        )
    settings.update(options.env)
    return settings


@contextlib.contextmanager
def cleaned_up(servers: list[live.Server], keep: bool = False) -> Iterator[None]:
    """Remove the servers' log files afterwards (unless ``keep``); show their ends if
    something failed."""
    try:
        yield
    except BaseException:
        for server in servers:
            print(f"--- daphne :{server.port} (end of log) ---\n{server.log()[-3000:]}")
        raise
    finally:
        for server in servers:
            if keep:
                server.stop()
                print(f"daphne :{server.port} log kept: {server.log_path}")
            else:
                server.cleanup()


async def run_site(options: Options) -> dict:
    with site_servers(options) as servers:
        try:
            async with live.aiohttp_client(connections=20) as client:
                site = Site(servers, client, options.seats)
                rooms = [GameRoom(i, options.seats) for i in range(options.rooms)]
                t0 = time.perf_counter()
                await bounded([site.open_room(room) for room in rooms], SETUP_CONCURRENCY)
                setup_s = time.perf_counter() - t0

                async def connect() -> int:
                    counts = await bounded(
                        [site.connect_room(room) for room in rooms],
                        max(1, CONNECT_CONCURRENCY // options.seats),
                    )
                    await wait_for_first_boards(rooms)
                    return sum(counts)

                memory = await measure_idle_memory(servers, connect)
                load = await measure_phase(
                    servers, rooms, options, site.act, options.duration, options.profile
                )
                await asyncio.sleep(1.5)  # room for late or duplicated pushes to arrive
                updates = audit(rooms, lambda r: r.first_version, lambda r: r.version)
                logs = [log for room in rooms for log in room.logs]
                boards = sum(len(log.versions) for log in logs)
                board_bytes = sum(log.board_bytes for log in logs) // max(boards, 1)
                finished = sum(room.finished for room in rooms)
                await close_all(rooms)
        finally:
            counts = log_counts(servers)
    return {
        "setup_seconds": round(setup_s, 1),
        **load,
        "memory": memory,
        "updates": updates,
        "server_log": counts,
        "mean_board_bytes": board_bytes,
        "games_finished": finished,
    }


async def wait_for_first_boards(rooms: list[GameRoom], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while any(len(log.versions) == 0 for room in rooms for log in room.logs):
        if time.monotonic() > deadline:
            raise RuntimeError("some pages never received their first board")
        await asyncio.sleep(0.05)


# -- the floor: a bare echo consumer ----------------------------------------------------------


class EchoRoom(Room):
    def __init__(self, index: int, seats: int) -> None:
        super().__init__(index, seats)
        self.seq = 0
        self.current = 0


@dataclass
class Echo:
    servers: list[live.Server]
    seats: int
    payload: str

    async def connect_room(self, room: EchoRoom) -> int:
        from websockets.asyncio.client import connect

        for seat in range(self.seats):
            server = self.servers[seat % len(self.servers)]
            ws = await connect(
                f"{server.ws_url}/ws/echo/r{room.index}/",
                origin=server.base_url,
                open_timeout=60,
                ping_interval=None,
                max_size=2**22,
            )
            log = live.SocketLog(f"echo{room.index}/{seat}@{server.port}")
            room.sockets.append(ws)
            room.logs.append(log)
            room.readers.append(asyncio.create_task(read_echoes(ws, log, room.arrived)))
        return len(room.sockets)

    async def act(self, room: EchoRoom, tally: Tally) -> None:
        room.seq += 1
        arrival = room.expect(room.seq)
        # The sender is the seat "on turn", on the process its page is on; in scale mode the
        # other seats' pages are on the other process, as in the site.
        ws = room.sockets[room.current]
        room.current = (room.current + 1) % self.seats
        tally.sent += 1
        sent = time.perf_counter()
        try:
            await ws.send(f"{room.seq}:{self.payload}")
        except Exception as error:
            room.waiters.pop(room.seq, None)
            tally.error(f"echo send: {error}")
            return
        try:
            last = await asyncio.wait_for(arrival, ACTION_TIMEOUT)
        except TimeoutError:
            room.waiters.pop(room.seq, None)
            tally.timeouts += 1
            return
        tally.completed += 1
        tally.latencies.append(last - sent)
        tally.sent_at.append(sent)


async def read_echoes(ws, log: live.SocketLog, on_seq) -> None:
    from websockets.exceptions import ConnectionClosed

    try:
        async for message in ws:
            now = time.perf_counter()
            seq = int(message[: message.index(":")])
            log.versions.append(seq)
            log.board_bytes += len(message)
            on_seq(seq, now)
    except ConnectionClosed as closed:
        log.closed = str(closed)


async def run_floor(options: Options, payload_bytes: int) -> dict:
    env = live.server_env(DJANGO_LOG_LEVEL="INFO")
    if options.mode == "scale":
        env["REDIS_URL"] = live.redis_url()
    count = options.servers if options.mode == "scale" else 1
    servers = [live.Server(env, app=live.ECHO_APP) for _ in range(count)]
    with cleaned_up(servers, options.keep_logs), live.running(servers):
        try:
            echo = Echo(servers, options.seats, "x" * max(payload_bytes, 1))
            rooms = [EchoRoom(i, options.seats) for i in range(options.rooms)]

            async def connect() -> int:
                counts = await bounded(
                    [echo.connect_room(room) for room in rooms],
                    max(1, CONNECT_CONCURRENCY // options.seats),
                )
                return sum(counts)

            memory = await measure_idle_memory(servers, connect)
            load = await measure_phase(servers, rooms, options, echo.act, options.floor_duration)
            await asyncio.sleep(1.0)
            updates = audit(rooms, lambda r: 1, lambda r: r.seq)
            await close_all(rooms)
        finally:
            counts = log_counts(servers)
    return {**load, "memory": memory, "updates": updates, "server_log": counts}


# -- report ---------------------------------------------------------------------------------


def ratio(a: float | None, b: float | None) -> str:
    if a is None or not b:
        return "-"
    return f"{a / b:.1f}x"


def cpu_floor_ratio(app: dict, floor: dict | None) -> float | None:
    """The site's server CPU per action as a multiple of the floor's, from one run."""
    if not floor or not floor.get("server_cpu_ms_per_action"):
        return None
    return round(app["server_cpu_ms_per_action"] / floor["server_cpu_ms_per_action"], 2)


def verdicts(mode: str, app: dict, floor: dict | None, rate: float) -> dict[str, bool]:
    """Each target of ``mode``: met or not, for a run offered ``rate`` actions/s."""
    target = TARGETS[mode]
    lat, updates = app["latency_ms"], app["updates"]
    cpu_ratio = cpu_floor_ratio(app, floor)
    checks = {
        "p99_ms": lat["p99"] is not None and lat["p99"] <= target["p99_ms"],
        "cpu_floor_ratio": cpu_ratio is not None and cpu_ratio <= target["cpu_floor_ratio"],
        "kb_per_socket": app["memory"]["kb_per_socket"] <= target["kb_per_socket"],
        "no_lost_or_duplicated": updates["lost"] == 0 and updates["duplicated"] == 0,
    }
    if "p50_ms" in target:
        checks["p50_ms"] = lat["p50"] is not None and lat["p50"] <= target["p50_ms"]
    if "sustained_rate" in target:
        checks["sustained_rate"] = (
            app["actions_per_s"] >= target["sustained_rate"] * rate and app["missed_slots"] == 0
        )
    if mode == "embedded":
        checks["no_errors"] = app["errors"] == 0 and app["timeouts"] == 0
    return checks


def table(result: dict) -> str:
    app, floor, mode = result["site"], result.get("floor"), result["options"]["mode"]
    target = TARGETS[mode]
    rows = [("", "site", "floor (echo)", "site/floor", "target")]

    def row(name: str, get, target_value: str = "", show_ratio: bool = True) -> None:
        a = get(app)
        b = get(floor) if floor else None
        rows.append(
            (
                name,
                "-" if a is None else str(a),
                "-" if b is None else str(b),
                ratio(a, b) if show_ratio and isinstance(a, int | float) else "",
                target_value,
            )
        )

    sustained = target.get("sustained_rate")
    rate = result["options"]["rate"]
    row(
        "actions/s",
        lambda r: r["actions_per_s"],
        f">= {sustained:g} x {rate:g}" if sustained else "",
        show_ratio=False,
    )
    row("actions measured", lambda r: r["actions"], show_ratio=False)
    for q in ("p50", "p95", "p99", "max"):
        want = f"<= {target[f'{q}_ms']}" if f"{q}_ms" in target else ""
        row(f"latency {q} ms", lambda r, q=q: r["latency_ms"][q], want)
    row(
        f"p99 ms per {TIMELINE_WINDOW:g} s",
        lambda r: " ".join(str(w["p99"]) for w in r["latency_timeline_ms"]),
        show_ratio=False,
    )
    row("HTTP answer p50 ms", lambda r: r["http_ms"]["p50"], show_ratio=False)
    row(
        "server CPU ms/action",
        lambda r: r["server_cpu_ms_per_action"],
        f"site/floor <= {target['cpu_floor_ratio']:g}",
    )
    row("server CPU %", lambda r: r["server_cpu_percent"])
    row("generator CPU ms/action", lambda r: r["generator_cpu_ms_per_action"])
    row("PostgreSQL+Redis CPU ms/action", lambda r: r["postgres_redis_cpu_ms_per_action"])
    row("machine busy % (all cores)", lambda r: r["machine_busy_percent"], show_ratio=False)
    row("KB per idle socket", lambda r: r["memory"]["kb_per_socket"], "<= 150")
    row("idle CPU ms/s", lambda r: r["memory"]["idle_cpu_ms_per_s"])
    row("errors", lambda r: r["errors"], "0" if mode == "embedded" else "", show_ratio=False)
    row("timeouts", lambda r: r["timeouts"], show_ratio=False)
    row("lost updates", lambda r: r["updates"]["lost"], "0", show_ratio=False)
    row("duplicated updates", lambda r: r["updates"]["duplicated"], "0", show_ratio=False)
    row("out-of-order updates", lambda r: r["updates"]["out_of_order"], "0", show_ratio=False)
    row("missed slots", lambda r: r["missed_slots"], "0" if sustained else "", show_ratio=False)
    row("schedule lag p99 ms", lambda r: r["schedule_lag_ms"]["p99"], show_ratio=False)
    row(
        "'database is locked'",
        lambda r: r["server_log"]["database_is_locked"],
        "0",
        show_ratio=False,
    )
    row("'over capacity'", lambda r: r["server_log"]["over_capacity"], "0", show_ratio=False)
    row("tracebacks in log", lambda r: r["server_log"]["tracebacks"], "0", show_ratio=False)
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def machine() -> dict:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        head = ""
    return {
        "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
        "python": platform.python_version(),
        "commit": head,
    }


async def run(options: Options) -> dict:
    started = datetime.now(UTC)
    result: dict = {
        "benchmark": "live rooms load",
        "started": started.isoformat(timespec="seconds"),
        "options": {k: str(v) if isinstance(v, Path) else v for k, v in vars(options).items()},
        "machine_before": machine(),
    }
    result["site"] = await run_site(options)
    if options.floor:
        result["floor"] = await run_floor(options, result["site"]["mean_board_bytes"])
    result["machine_after"] = machine()
    result["targets"] = TARGETS[options.mode]
    result["cpu_floor_ratio"] = cpu_floor_ratio(result["site"], result.get("floor"))
    result["verdicts"] = verdicts(options.mode, result["site"], result.get("floor"), options.rate)
    return result


def parse(argv: list[str]) -> Options:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("embedded", "scale"), default="embedded")
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rate", type=float, default=None, help="actions/s in all")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured seconds first")
    parser.add_argument("--floor-duration", type=float, default=20.0)
    parser.add_argument("--no-floor", dest="floor", action="store_false")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (scale)")
    parser.add_argument("--output", type=Path, default=None, help="JSON file to write")
    parser.add_argument(
        "--profile",
        choices=("cpu", "wall"),
        default="",
        help="record the site's servers with py-spy during the measured phase: cpu = only "
        "threads holding the GIL, wall = every thread not idle (collapsed stacks in "
        "bench/results/; `pip install py-spy` first; figures then include its cost)",
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs")
    parser.add_argument(
        "--app",
        choices=tuple(APPS),
        default="site",
        help="site: the site's own request handler; stock: Django's get_asgi_application()",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra environment for the site's servers, to try a variant (repeatable), e.g. "
        "DJANGO_SETTINGS_MODULE=my_variant_settings",
    )
    parser.add_argument(
        "--debug", action="store_true", help="run the site with DJANGO_DEBUG=1 (as `make run`)"
    )
    args = parser.parse_args(argv)
    rate = args.rate if args.rate is not None else (50.0 if args.mode == "embedded" else 100.0)
    return Options(
        mode=args.mode,
        rooms=args.rooms,
        rate=rate,
        duration=args.duration,
        warmup=args.warmup,
        floor_duration=args.floor_duration,
        seats=args.seats,
        servers=args.servers,
        floor=args.floor,
        output=args.output,
        profile=args.profile,
        debug=args.debug,
        keep_logs=args.keep_logs,
        env=dict(item.split("=", 1) for item in args.env),
        app=args.app,
    )


def main(argv: list[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    result = asyncio.run(run(options))
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    output = options.output or RESULTS / f"live-rooms-{options.mode}-{stamp}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n")
    print(
        f"\nLive rooms load: mode={options.mode} app={options.app} rooms={options.rooms} "
        f"seats={options.seats} "
        f"rate={options.rate}/s duration={options.duration}s debug={options.debug} "
        f"(load average {result['machine_before']['loadavg'][0]:.2f})"
    )
    print(table(result))
    failed = [name for name, ok in result["verdicts"].items() if not ok]
    print(f"targets missed: {', '.join(failed)}" if failed else "all targets met")
    if result["site"]["error_samples"]:
        print("error samples:", *result["site"]["error_samples"][:5], sep="\n  ")
    print(f"JSON: {output}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
