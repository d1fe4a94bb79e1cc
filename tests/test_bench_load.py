"""The load benchmark's pieces (bench/bench_load.py). Its verdict: a run that misses a
target says so in its exit status, after printing its table and writing its JSON (the
figures of a run are given). Its HTTP client: the guests' requests, cookies and answers,
against a small server in this process standing in for the site (no daphne is started)."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
import httpx
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bench import bench_load, live


def figures(**changes: object) -> dict:
    """A run's figures that meet every target of both modes, with ``changes``."""
    run = {
        "actions": 6000,
        "actions_per_s": 100.0,
        "latency_ms": {"p50": 20.0, "p95": 60.0, "p99": 90.0, "max": 120.0},
        "latency_timeline_ms": [{"p99": 90.0}],
        "http_ms": {"p50": 8.0},
        "server_cpu_ms_per_action": 9.0,
        "server_cpu_percent": 90.0,
        "generator_cpu_ms_per_action": 2.0,
        "postgres_redis_cpu_ms_per_action": 1.0,
        "machine_busy_percent": 60.0,
        "memory": {"kb_per_socket": 80.0, "idle_cpu_ms_per_s": 1.0},
        "errors": 0,
        "timeouts": 0,
        "updates": {"lost": 0, "duplicated": 0, "out_of_order": 0},
        "missed_slots": 0,
        "schedule_lag_ms": {"p99": 1.0},
        "server_log": {"database_is_locked": 0, "over_capacity": 0, "tracebacks": 0},
        "error_samples": [],
        "mean_board_bytes": 4000,
    }
    run.update(changes)
    return run


def run_benchmark(monkeypatch, tmp_path, mode: str, rate: float, site: dict) -> int:
    async def measured_site(options):
        return site

    async def measured_floor(options, payload_bytes):
        return figures(server_cpu_ms_per_action=4.0)

    monkeypatch.setattr(bench_load, "run_site", measured_site)
    monkeypatch.setattr(bench_load, "run_floor", measured_floor)
    output = tmp_path / "run.json"
    status = bench_load.main(["--mode", mode, "--rate", str(rate), "--output", str(output)])
    assert json.loads(output.read_text())["site"] == site  # written whatever the verdict
    return status


@pytest.mark.parametrize("mode", ["embedded", "scale"])
def test_a_run_that_meets_every_target_exits_with_success(monkeypatch, tmp_path, capsys, mode):
    rate = 50.0 if mode == "embedded" else 100.0
    assert run_benchmark(monkeypatch, tmp_path, mode, rate, figures(actions_per_s=rate)) == 0
    assert "all targets met" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("mode", "site", "missed"),
    [
        (
            "embedded",
            figures(actions_per_s=50.0, latency_ms={"p50": 20, "p95": 90, "p99": 160, "max": 200}),
            "p99_ms",
        ),
        ("embedded", figures(actions_per_s=50.0, server_cpu_ms_per_action=13.0), "cpu_floor_ratio"),
        ("scale", figures(updates={"lost": 1, "duplicated": 0, "out_of_order": 0}), "no_lost"),
        ("scale", figures(actions_per_s=97.0), "sustained_rate"),
        ("scale", figures(actions_per_s=100.0, missed_slots=3), "sustained_rate"),
    ],
)
def test_a_run_that_misses_a_target_prints_its_table_and_exits_with_failure(
    monkeypatch, tmp_path, capsys, mode, site, missed
):
    rate = 50.0 if mode == "embedded" else 100.0
    assert run_benchmark(monkeypatch, tmp_path, mode, rate, site) == 1
    out = capsys.readouterr().out
    assert "latency p99 ms" in out  # the table
    assert "targets missed:" in out and missed in out


# -- the generator's HTTP client -------------------------------------------------------------


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    form: dict[str, str]


class StandIn:
    """An HTTP server in this process standing in for the site: each (method, path) answers
    with the handler set for it, and every request is recorded."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Callable[[web.Request], Awaitable[web.Response]]] = {}
        self.seen: list[Seen] = []
        self.base_url = ""
        self.port = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        form = {k: str(v) for k, v in (await request.post()).items()}
        self.seen.append(Seen(request.method, request.path, dict(request.headers), form))
        return await self.routes[request.method, request.path](request)

    def answer(self, method: str, path: str, **response: object) -> None:
        """Answer ``method path`` with ``web.Response(**response)``; ``cookies`` (a dict of
        name to value, or to None to delete it) are set on it."""
        cookies = response.pop("cookies", {})

        async def handler(request: web.Request) -> web.Response:
            answer = web.Response(**response)
            for name, value in cookies.items():
                if value is None:
                    answer.del_cookie(name)
                else:
                    answer.set_cookie(name, value)
            return answer

        self.routes[method, path] = handler


@pytest.fixture
async def stand_in():
    site = StandIn()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", site.handle)
    async with TestServer(app, host="127.0.0.1") as server:
        site.port = server.port
        site.base_url = f"http://127.0.0.1:{server.port}"
        yield site


# The tests and the scale suite talk through httpx, the load benchmark through aiohttp: a
# guest behaves the same through either.
CLIENTS = [
    pytest.param(live.http_client, id="httpx"),
    pytest.param(live.aiohttp_client, id="aiohttp"),
]


@pytest.mark.parametrize("client", CLIENTS)
async def test_a_guest_keeps_the_cookies_it_is_given_and_sends_them_with_its_csrf_token(
    stand_in, client
):
    stand_in.answer("GET", "/", text="home", cookies={"csrftoken": "tok", "sessionid": "s1"})
    stand_in.answer("POST", "/games/new/", status=302, headers={"Location": "/g/ABCD/"})
    ann = live.Guest("Ann")
    async with client() as http:
        code = await ann.create_game(http, stand_in.base_url, seats=4)
    assert code == "ABCD"
    assert ann.cookies == {"csrftoken": "tok", "sessionid": "s1"}
    create = stand_in.seen[-1]
    assert (create.method, create.path) == ("POST", "/games/new/")
    assert create.headers["Cookie"] == "csrftoken=tok; sessionid=s1"
    assert create.headers["X-CSRFToken"] == "tok"
    assert "HX-Request" not in create.headers  # a plain form post, as without JavaScript
    assert create.form == {"seats": "4", "name": "Ann"}
    assert len(stand_in.seen) == 2  # the redirect to the new table is not followed


@pytest.mark.parametrize("client", CLIENTS)
async def test_guests_sharing_one_client_never_send_each_others_cookies(stand_in, client):
    stand_in.answer("GET", "/ann/", text="", cookies={"sessionid": "ann"})
    stand_in.answer("GET", "/bea/", text="")
    ann, bea = live.Guest("Ann"), live.Guest("Bea")
    # By name: a cookie jar would keep a cookie for a host name that it drops for an address.
    base = f"http://localhost:{stand_in.port}"
    async with client() as http:
        await ann.get(http, base + "/ann/")
        await bea.get(http, base + "/bea/")
    assert ann.cookies == {"sessionid": "ann"}
    assert bea.cookies == {}
    assert "Cookie" not in stand_in.seen[-1].headers


@pytest.mark.parametrize("client", CLIENTS)
async def test_a_cookie_the_server_deletes_is_not_sent_back(stand_in, client):
    stand_in.answer("GET", "/", text="", cookies={"sessionid": None, "csrftoken": "tok"})
    stand_in.answer("POST", "/g/ABCD/roll/", text="rolled")
    guest = live.Guest("Ann")
    async with client() as http:
        await guest.get(http, stand_in.base_url + "/")
        answer = await guest.act(http, stand_in.base_url, "ABCD", "roll", 3)
    assert answer.status_code == 200 and answer.text == "rolled"
    roll = stand_in.seen[-1]
    assert roll.headers["Cookie"] == "csrftoken=tok"
    assert roll.headers["HX-Request"] == "true"
    assert roll.form == {"version": "3"}


@pytest.mark.parametrize(
    ("client", "error"),
    [
        pytest.param(live.http_client, httpx.HTTPError, id="httpx"),
        pytest.param(live.aiohttp_client, aiohttp.ClientError, id="aiohttp"),
    ],
)
async def test_the_state_of_a_table_is_read_as_json_and_a_missing_table_raises(
    stand_in, client, error
):
    table = {"version": 7, "status": "playing", "current_seat": 1, "rolls_left": 2}
    stand_in.answer("GET", "/g/ABCD/state.json", text=json.dumps(table))
    stand_in.answer("GET", "/g/GONE/state.json", status=404, text="no such table")
    async with client() as http:
        assert await live.state(http, stand_in.base_url, "ABCD") == table
        with pytest.raises(error):
            await live.state(http, stand_in.base_url, "GONE")


# -- a move through the benchmark ------------------------------------------------------------


def board(version: int, choices: tuple[str, ...] = ()) -> str:
    boxes = "".join(f'<button name="category" value="{c}">' for c in choices)
    return f'<section id="board" class="board" data-version="{version}">{boxes}</section>'


def room_at(version: int, seats: int = 2) -> bench_load.GameRoom:
    """Table ABCD at ``version``, seat 0 to roll for the first time; each guest its cookies."""
    room = bench_load.GameRoom(0, seats)
    room.code, room.version, room.first_version = "ABCD", version, version
    for seat, guest in enumerate(room.guests):
        guest.cookies.update(sessionid=f"s{seat}", csrftoken=f"t{seat}")
    return room


async def test_a_move_is_measured_once_its_version_has_reached_every_socket_of_its_room(
    stand_in,
):
    room = room_at(version=5)

    async def roll(request: web.Request) -> web.Response:
        for _ in range(room.socket_count):  # the pushes, before the answer as usual
            room.arrived(6, time.perf_counter())
        return web.Response(text=board(6, ("chance", "yahtzee")), content_type="text/html")

    stand_in.routes["POST", "/g/ABCD/roll/"] = roll
    tally = bench_load.Tally()
    async with live.aiohttp_client() as http:
        site = bench_load.Site([live.Server({}, port=stand_in.port)], http, seats=2)
        await site.act(room, tally)
    assert (tally.sent, tally.completed, tally.errors, tally.timeouts) == (1, 1, 0, 0)
    assert len(tally.latencies) == len(tally.http_latencies) == 1
    assert (room.version, room.current, room.step) == (6, 0, 1)
    assert room.choices == ["chance", "yahtzee"]
    sent = stand_in.seen[-1]
    assert sent.form == {"version": "5"}
    assert sent.headers["Cookie"] == "sessionid=s0; csrftoken=t0"
    assert sent.headers["X-CSRFToken"] == "t0"
    assert sent.headers["HX-Request"] == "true"


async def drop_the_connection(request: web.Request) -> web.Response:
    assert request.transport is not None
    request.transport.abort()
    return web.Response()


async def answer_the_board_unchanged(request: web.Request) -> web.Response:
    return web.Response(text=board(5), content_type="text/html")


@pytest.mark.parametrize(
    ("move", "sample"),
    [
        pytest.param(None, "roll: ClientConnectorError", id="server down"),
        pytest.param(drop_the_connection, "roll: ServerDisconnectedError", id="dropped"),
        pytest.param(answer_the_board_unchanged, "roll v5: HTTP 200 -> v5", id="stale"),
    ],
)
async def test_a_move_without_its_new_version_counts_as_an_error_and_its_room_catches_up(
    stand_in, move, sample
):
    room = room_at(version=5)
    table = {"version": 7, "status": "playing", "current_seat": 1, "rolls_left": 1}
    stand_in.answer("GET", "/g/ABCD/state.json", text=json.dumps(table))
    stand_in.answer("GET", "/g/ABCD/", text=board(7, ("ones", "sixes")), content_type="text/html")
    servers = [live.Server({}, port=stand_in.port)]
    if move is None:  # seat 0's moves go to the second server, where nothing listens
        servers.append(live.Server({}, port=live.free_port()))
    else:
        stand_in.routes["POST", "/g/ABCD/roll/"] = move
    tally = bench_load.Tally()
    async with live.aiohttp_client() as http:
        await bench_load.Site(servers, http, seats=2).act(room, tally)
    assert (tally.sent, tally.completed, tally.errors, tally.timeouts) == (1, 0, 1, 0)
    assert tally.error_samples[0].startswith(sample)
    # Caught up: seat 1 on its last roll, the boxes its board offers read as seat 1.
    assert (room.version, room.current, room.step, room.finished) == (7, 1, 2, False)
    assert room.choices == ["ones", "sixes"]
    assert stand_in.seen[-1].headers["Cookie"] == "sessionid=s1; csrftoken=t1"
