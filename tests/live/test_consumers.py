"""The live room: what every open game page receives over its websocket."""

import asyncio
import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games import services
from games.committed import committed
from games.live import broadcast
from games.live.broadcast import group_name
from games.live.consumers import CLOSE_TOO_MANY_MESSAGES, CLOSE_UNKNOWN_GAME
from games.live.routing import websocket_urlpatterns
from games.models import Connection, Game
from games.rules import Category
from games.services import Player
from games.services.dice_supply import dice_supply
from games.snapshots import Snapshot
from tests.conftest import rolloff_won_by, seen_from
from yahtzee_site.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]

VERSION = re.compile(r'id="board"[^>]*data-version="(\d+)"')
ANNOUNCEMENT = re.compile(r'<div id="announce"[^>]*>.*?</div>', re.S)


def room_members(code: str) -> set[str]:
    """The channels of this process in the game's group, on either channel layer."""
    layer = get_channel_layer()
    group = group_name(code)
    if hasattr(layer, "prefix"):  # channels_redis's pub/sub layer names its groups itself
        group = f"{layer.prefix}__group__{group}"
    return set(layer.groups.get(group, ()))


def version_of(html: str) -> int | None:
    match = VERSION.search(html)
    return int(match.group(1)) if match else None


@database_sync_to_async
def make_user(name: str):
    return get_user_model().objects.create_user(name, password="a long enough password")


@database_sync_to_async
def two_player_game(host, guest_token="guest-token-1"):
    game = services.game_create(player=Player(host.username, user_id=host.pk), seat_count=2)
    services.game_join(
        code=game.code, player=Player("Bea", guest=guest_token), version=game.version
    )
    game.refresh_from_db()
    return game


async def act(fn, **kwargs):
    """Run a service as a request would; the game row as the service committed it."""
    changed = await database_sync_to_async(fn)(**kwargs)
    return changed.game if isinstance(changed, Snapshot) else changed


async def connect(
    code: str, user=None, *, origin=b"http://localhost", language: str | None = None
) -> WebsocketCommunicator:
    app = URLRouter(websocket_urlpatterns) if user is not None else application
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if language is not None:
        headers.append((b"accept-language", language.encode()))
    comm = WebsocketCommunicator(app, f"/ws/g/{code}/", headers=headers)
    if user is not None:
        comm.scope["user"] = user
        comm.scope["session"] = {}
        comm.scope["url_route"] = {"kwargs": {"code": code}}
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive_board(comm: WebsocketCommunicator) -> str:
    """The next pushed board, skipping presence updates."""
    for _ in range(10):
        html = await comm.receive_from(timeout=3)
        if 'id="board"' in html:
            return html
    raise AssertionError("no board was pushed")


async def test_connect_sends_the_whole_current_table():
    host = await make_user("ann")
    game = await two_player_game(host)
    comm = await connect(game.code)
    html = await receive_board(comm)
    assert version_of(html) == game.version
    assert "Waiting for players" in html and "Bea" in html
    await comm.disconnect()


async def test_unknown_game_socket_is_closed_with_a_reason():
    comm = WebsocketCommunicator(
        application, "/ws/g/nosuchgame/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output(timeout=3)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == CLOSE_UNKNOWN_GAME
    assert "no game" in closed["reason"]
    await comm.wait()
    assert not room_members("nosuchgame")


async def test_socket_from_a_foreign_origin_is_refused():
    host = await make_user("ann")
    game = await two_player_game(host)
    comm = WebsocketCommunicator(
        application, f"/ws/g/{game.code}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected
    assert not await database_sync_to_async(Connection.objects.exists)()


def on_turn(game: Game, ann: Player, bea: Player) -> Player:
    return ann if (game.starter + game.turn_number) % 2 == 0 else bea


async def test_every_move_reaches_every_page_once_in_order(monkeypatch):
    monkeypatch.setattr(dice_supply, "source", random.Random(7))
    host = await make_user("ann")
    game = await two_player_game(host)
    ann, bea = Player("ann", user_id=host.pk), Player("Bea", guest="guest-token-1")
    pages = [await connect(game.code), await connect(game.code)]
    for page in pages:
        assert version_of(await receive_board(page)) == game.version
    game = await act(services.game_start, code=game.code, player=ann, version=game.version)
    expected = [game.version]
    for category in (Category.CHANCE, Category.SIXES):
        player = on_turn(game, ann, bea)
        game = await act(services.turn_roll, code=game.code, player=player, version=game.version)
        expected.append(game.version)
        game = await act(
            services.turn_score,
            code=game.code,
            player=player,
            version=game.version,
            category=category,
        )
        expected.append(game.version)
    for page in pages:
        assert [version_of(await receive_board(page)) for _ in expected] == expected
        while not await page.receive_nothing(timeout=0.3):  # only presence may follow
            assert 'id="board"' not in await page.receive_from()
        await page.disconnect()


async def test_versions_arriving_out_of_order_are_pushed_in_order(monkeypatch):
    from games.snapshots import Snapshot

    monkeypatch.setattr(services.writes, "listeners", [])  # the test delivers the versions itself
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    assert version_of(await receive_board(page)) == game.version
    ann = Player("ann", user_id=host.pk)
    started = await act(services.game_start, code=game.code, player=ann, version=game.version)
    first = await database_sync_to_async(Snapshot.load)(game.code)
    player = on_turn(started, ann, Player("Bea", guest="guest-token-1"))
    await act(services.turn_roll, code=game.code, player=player, version=started.version)
    second = await database_sync_to_async(Snapshot.load)(game.code)
    layer = get_channel_layer()
    for snapshot in (second, first, first):  # late, then the missing one, then a repeat
        await layer.group_send(
            group_name(game.code),
            {
                "type": "game.changed",
                "version": snapshot.game.version,
                "snapshot": snapshot.to_wire(),
            },
        )
    got = [version_of(await receive_board(page)) for _ in range(2)]
    assert got == [first.game.version, second.game.version]
    await page.disconnect()


async def test_a_process_keeps_only_the_last_few_versions_it_decoded(monkeypatch):
    """Versions heard from other processes are decoded once for all the process's pages,
    and only the last few are kept: a long evening of play piles up no old snapshots."""
    from games.live import consumers
    from games.snapshots import Snapshot

    host = await make_user("ann")
    game = await two_player_game(host)
    wire = (await database_sync_to_async(Snapshot.load)(game.code)).to_wire()
    first = consumers.snapshot_of(game.code, {"version": 1, "snapshot": wire})
    assert consumers.snapshot_of(game.code, {"version": 1, "snapshot": wire}) is first
    for version in range(2, 500):
        consumers.snapshot_of(game.code, {"version": version, "snapshot": wire})
    assert len(consumers.decoded) == consumers.DECODED_VERSIONS
    assert consumers.snapshot_of(game.code, {"version": 1, "snapshot": wire}) is not first


async def test_a_version_another_process_announced_is_kept_for_the_next_move(monkeypatch):
    from games.snapshots import Snapshot

    monkeypatch.setattr(services.writes, "listeners", [])  # made "elsewhere": this process hears it
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    ann = Player("ann", user_id=host.pk)
    started = await act(services.game_start, code=game.code, player=ann, version=game.version)
    announced = await database_sync_to_async(Snapshot.load)(game.code)
    assert committed.at(game.code, started.version) is None
    await get_channel_layer().group_send(
        group_name(game.code),
        {"type": "game.changed", "version": started.version, "snapshot": announced.to_wire()},
    )
    assert version_of(await receive_board(page)) == started.version

    kept = committed.at(game.code, started.version)
    assert kept is not None
    assert [(s.id, s.scorecard, s.total) for s in kept.seats] == [
        (s.id, s.scorecard, s.total) for s in announced.seats
    ]
    await page.disconnect()


def announcement_of(html: str) -> str:
    match = ANNOUNCEMENT.search(html)
    assert match is not None, "no announcement was pushed"
    return match.group(0)


async def test_announcements_another_process_rendered_reach_its_pages_unrendered_here(
    monkeypatch,
):
    """The process that made a change ships the screen reader's sentences (for the player
    on turn and for everyone else) with the boards: a page reading that language here is
    pushed exactly those, and only a page in another language has its own rendered."""
    from django.utils import translation

    from games.live import broadcast, rendering
    from games.snapshots import Snapshot

    monkeypatch.setattr(services.writes, "listeners", [])  # made "elsewhere": this process hears it
    host = await make_user("ann")
    game = await two_player_game(host)
    player, watcher = await connect(game.code, user=host), await connect(game.code)
    telugu = await connect(game.code, language="te")
    for page in (player, watcher, telugu):
        await receive_board(page)
    ann = Player("ann", user_id=host.pk)
    started = await act(
        services.game_start,
        code=game.code,
        player=ann,
        version=game.version,
        rng=rolloff_won_by(0, 2),
    )

    sent: list[dict] = []

    class ElsewhereLayer:
        async def group_send(self, group: str, message: dict) -> None:
            sent.append(message)

    def announce_elsewhere() -> None:
        with translation.override("en"):
            broadcast.announce(Snapshot.load(game.code))

    monkeypatch.setattr(broadcast, "get_channel_layer", ElsewhereLayer)
    await database_sync_to_async(announce_elsewhere)()
    (message,) = sent
    assert committed.at(game.code, started.version) is None  # this process only hears of it
    for cache in (rendering.boards, rendering.announcements):  # that process's, not this one's
        cache.clear()
    shipped = list(message["announcements"].values())
    heard = []
    render = rendering.render_to_string

    def counting(name, context=None):
        if name == "games/room.html#announce":
            heard.append(translation.get_language())
        return render(name, context)

    monkeypatch.setattr(rendering, "render_to_string", counting)
    await get_channel_layer().group_send(group_name(game.code), message)

    pushed = {page: await receive_board(page) for page in (player, watcher, telugu)}
    assert version_of(pushed[player]) == started.version
    (yours,) = (html for html in shipped if "Your turn." in html)
    (others,) = (html for html in shipped if "ann&#x27;s turn." in html)
    assert yours in pushed[player] and others in pushed[watcher]
    assert heard == ["te"]  # the Telugu page's own, rendered here once
    assert "ann వంతు." in announcement_of(pushed[telugu])
    for page in (player, watcher, telugu):
        await page.disconnect()


async def test_reconnecting_page_gets_the_state_it_missed(monkeypatch):
    monkeypatch.setattr(dice_supply, "source", random.Random(11))
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    await page.disconnect()
    ann = Player("ann", user_id=host.pk)
    game = await act(services.game_start, code=game.code, player=ann, version=game.version)
    player = on_turn(game, ann, Player("Bea", guest="guest-token-1"))
    game = await act(services.turn_roll, code=game.code, player=player, version=game.version)
    again = await connect(game.code)
    html = await receive_board(again)
    assert version_of(html) == game.version
    assert 'class="die' in html
    await again.disconnect()


async def test_a_move_made_while_a_page_opens_reaches_it(monkeypatch):
    """The page joins its room before reading the table: a move committed just after that
    read is still pushed to it, at once (not after a gap and a resynchronisation)."""
    from games.snapshots import Snapshot

    host = await make_user("ann")
    game = await two_player_game(host)
    ann = Player("ann", user_id=host.pk)
    read = Snapshot.load

    def read_then_someone_moves(code):
        snapshot = read(code)
        monkeypatch.setattr(Snapshot, "load", read)  # only the opening page's read
        services.game_start(code=code, player=ann, version=snapshot.game.version)
        return snapshot

    monkeypatch.setattr(Snapshot, "load", read_then_someone_moves)
    page = await connect(game.code)
    assert version_of(await receive_board(page)) == game.version
    html = await page.receive_from(timeout=0.5)
    while 'id="board"' not in html:  # presence updates may come first
        html = await page.receive_from(timeout=0.5)
    assert version_of(html) == game.version + 1
    await page.disconnect()


async def test_player_on_turn_sees_controls_and_others_see_the_table(monkeypatch):
    monkeypatch.setattr(dice_supply, "source", random.Random(3))
    host = await make_user("ann")
    game = await two_player_game(host)
    ann = Player("ann", user_id=host.pk)
    game = await act(services.game_start, code=game.code, player=ann, version=game.version)
    if game.starter != 0:  # let Bea take her turn so that it is Ann's
        bea = Player("Bea", guest="guest-token-1")
        game = await act(services.turn_roll, code=game.code, player=bea, version=game.version)
        game = await act(
            services.turn_score,
            code=game.code,
            player=bea,
            version=game.version,
            category=Category.CHANCE,
        )
    host_page = await connect(game.code, user=host)
    spectator = await connect(game.code)
    await receive_board(host_page)
    await receive_board(spectator)
    await act(services.turn_roll, code=game.code, player=ann, version=game.version)
    mine, theirs = await receive_board(host_page), await receive_board(spectator)
    # One board for the whole table; the seat marker after it says whose page it is.
    assert mine.split('<div id="announce"')[0] == theirs.split('<div id="announce"')[0]
    assert 'data-seat="0"' in mine and 'data-seat=""' in theirs
    mine, theirs = seen_from(mine, 0), seen_from(theirs, None)
    assert "Your turn!" in mine and 'name="category"' in mine and "Roll again" in mine
    assert "ann’s turn" not in mine
    assert "Your turn!" not in theirs and 'name="category"' not in theirs
    assert "ann’s turn" in theirs
    await host_page.disconnect()
    await spectator.disconnect()


async def test_resync_request_sends_the_full_state_again():
    host = await make_user("ann")
    game = await two_player_game(host)
    comm = await connect(game.code)
    await receive_board(comm)
    await comm.send_json_to({"type": "resync"})
    assert version_of(await receive_board(comm)) == game.version
    await comm.disconnect()


async def test_a_page_cannot_make_moves_over_the_socket():
    host = await make_user("ann")
    game = await two_player_game(host)
    comm = await connect(game.code)
    await receive_board(comm)
    await comm.send_json_to({"type": "roll", "version": game.version})
    notice = await comm.receive_from(timeout=3)
    while 'id="flash"' not in notice:
        notice = await comm.receive_from(timeout=3)
    assert "buttons on the page" in notice
    unchanged = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert unchanged.version == game.version
    await comm.disconnect()


async def test_flooding_the_socket_closes_it(settings):
    settings.WS_MESSAGES_PER_SECOND = 1
    settings.WS_MESSAGE_BURST = 3
    host = await make_user("ann")
    game = await two_player_game(host)
    comm = await connect(game.code)
    await receive_board(comm)
    for _ in range(6):
        await comm.send_to(text_data="{}")
    while True:
        output = await comm.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == CLOSE_TOO_MANY_MESSAGES


async def test_presence_counts_players_and_watchers_and_closing_leaves_nothing():
    host = await make_user("ann")
    game = await two_player_game(host)
    player_page = await connect(game.code, user=host)
    watcher = await connect(game.code)
    await receive_board(player_page)
    await receive_board(watcher)
    rows = await database_sync_to_async(
        lambda: sorted(
            Connection.objects.values_list("seat", flat=True), key=lambda s: (s is None, s)
        )
    )()
    assert rows == [0, None]
    html = ""
    while "1 watching" not in html:
        html = await player_page.receive_from(timeout=3)
    assert 'class="presence-seat online"' in html
    await watcher.disconnect()
    await player_page.disconnect()
    assert not await database_sync_to_async(Connection.objects.exists)()
    assert not room_members(game.code)


async def test_room_pushes_reach_pages_without_a_database_round_trip(monkeypatch):
    """A move is pushed to every page from the announced snapshot alone: no socket makes a
    worker-thread call (Channels' per-message connection check included) to show it."""
    host = await make_user("ann")
    game = await two_player_game(host)
    pages = [await connect(game.code) for _ in range(3)]
    for page in pages:
        await receive_board(page)
    calls = []

    async def counted():
        calls.append(1)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", counted)
    await act(
        services.game_start,
        code=game.code,
        player=Player("ann", user_id=host.pk),
        version=game.version,
    )
    for page in pages:
        assert version_of(await receive_board(page)) == game.version + 1
    assert calls == []
    for page in pages:
        await page.disconnect()


@pytest.fixture
async def served_from_this_loop():
    """This test's loop stands for the server's, as each request tells the live layer."""
    broadcast.serve_from(asyncio.get_running_loop())
    yield
    broadcast.serve_from(None)


async def test_a_move_is_answered_without_waiting_for_its_push_which_still_arrives_in_order(
    monkeypatch, served_from_this_loop
):
    monkeypatch.setattr(dice_supply, "source", random.Random(3))
    host = await make_user("ann")
    game = await two_player_game(host)
    ann, bea = Player("ann", user_id=host.pk), Player("Bea", guest="guest-token-1")
    page = await connect(game.code)
    assert version_of(await receive_board(page)) == game.version
    layer = get_channel_layer()
    send, held = layer.group_send, asyncio.Event()

    async def slow_send(group: str, message: dict) -> None:
        await held.wait()  # a busy channel layer (Redis across the network)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", slow_send)
    game = await asyncio.wait_for(
        act(services.game_start, code=game.code, player=ann, version=game.version), 5
    )
    player = on_turn(game, ann, bea)
    rolled = await asyncio.wait_for(
        act(services.turn_roll, code=game.code, player=player, version=game.version), 5
    )
    assert await page.receive_nothing(timeout=0.2)  # answered; the pushes still wait
    held.set()
    assert [version_of(await receive_board(page)) for _ in range(2)] == [
        game.version,
        rolled.version,
    ]
    await page.disconnect()


async def test_a_push_that_fails_is_logged_and_the_move_stands(
    monkeypatch, caplog, served_from_this_loop
):
    host = await make_user("ann")
    game = await two_player_game(host)
    ann = Player("ann", user_id=host.pk)
    layer = get_channel_layer()
    failed = asyncio.Event()

    async def broken_send(group: str, message: dict) -> None:
        failed.set()
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(layer, "group_send", broken_send)
    started = await act(services.game_start, code=game.code, player=ann, version=game.version)
    await asyncio.wait_for(failed.wait(), 5)
    await asyncio.sleep(0)  # the failed send's callback
    stored = await database_sync_to_async(Game.objects.get)(code=game.code)
    assert stored.version == started.version and stored.status == Game.Status.PLAYING
    assert "pushing a change to its room failed" in caplog.text


async def test_a_change_committed_as_the_server_loop_closes_is_still_pushed():
    class ClosingLoop:
        def is_running(self) -> bool:
            return True

        def call_soon_threadsafe(self, *args) -> None:
            raise RuntimeError("Event loop is closed")

    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    broadcast.serve_from(ClosingLoop())  # type: ignore[arg-type]
    try:
        started = await act(
            services.game_start,
            code=game.code,
            player=Player("ann", user_id=host.pk),
            version=game.version,
        )
    finally:
        broadcast.serve_from(None)
    assert version_of(await receive_board(page)) == started.version
    await page.disconnect()
