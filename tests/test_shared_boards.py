"""A board is rendered once and shared by everyone who sees the table the same way, so it
must show nothing of the request that happened to render it first. For every viewpoint,
at every stage of a game, the board of the full page, of an htmx swap and of the push
over the socket are the same markup."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Game
from games.services import Player
from tests.conftest import HTMX, PASSWORD, ScriptedDice, new_client, rolloff_won_by
from yahtzee_site.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]

VIEWERS = ("host", "seated guest", "seated account", "spectator", "anonymous visitor")
STAGES = ("lobby", "playing", "finished")


class _Element(HTMLParser):
    """Finds the source of the element with a given id (its start tag to its end tag)."""

    def __init__(self, element_id: str) -> None:
        super().__init__(convert_charrefs=False)
        self.element_id = element_id
        self.start: tuple[int, int] | None = None
        self.end: tuple[int, int] | None = None
        self.tag = ""
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.start is None:
            if ("id", self.element_id) in attrs:
                self.start, self.tag, self.depth = self.getpos(), tag, 1
        elif self.end is None and tag == self.tag:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.start is not None and self.end is None and tag == self.tag:
            self.depth -= 1
            if self.depth == 0:
                self.end = self.getpos()


def board_of(html: str) -> str:
    finder = _Element("board")
    finder.feed(html)
    assert finder.start is not None and finder.end is not None, "no board in this HTML"
    lines = html.splitlines(keepends=True)

    def offset(position: tuple[int, int]) -> int:
        line, column = position
        return sum(len(text) for text in lines[: line - 1]) + column

    return html[offset(finder.start) : offset(finder.end) + len("</div>")]


@database_sync_to_async
def table_at(stage: str) -> tuple[Game, dict[str, Client]]:
    """A four-seat table with its host, a guest and an account seated, at ``stage``; a
    spectator with an account and an anonymous visitor look on."""
    User = get_user_model()
    ann, bob, cat = (User.objects.create_user(n, password=PASSWORD) for n in ("ann", "bob", "cat"))
    clients = {
        "host": new_client(ann),
        "seated guest": new_client(guest="Gus"),
        "seated account": new_client(bob),
        "spectator": new_client(cat),
        "anonymous visitor": Client(),
    }
    host = Player("ann", user_id=ann.pk)
    gus = Player("Gus", guest=clients["seated guest"].session["guest_token"])
    people = [host, gus, Player("bob", user_id=bob.pk)]
    game = services.game_create(player=host, seat_count=4)
    for person in people[1:]:
        game.refresh_from_db()
        services.game_join(code=game.code, player=person, version=game.version)
    if stage != "lobby":
        game.refresh_from_db()
        services.game_start(
            code=game.code, player=host, version=game.version, rng=rolloff_won_by(0, 3)
        )
        turns = 1 if stage == "playing" else 13 * 3
        for turn in range(turns):
            game.refresh_from_db()
            person = people[turn % 3]
            services.turn_roll(
                code=game.code, player=person, version=game.version, rng=ScriptedDice("22345")
            )
            game.refresh_from_db()
            state = game.engine_state(list(game.seats.order_by("position")))
            if stage == "finished":
                services.turn_score(
                    code=game.code,
                    player=person,
                    version=game.version,
                    category=state.cards[turn % 3].open_boxes[0],
                )
        if stage == "playing":  # the second roll of the host's turn, two dice kept
            game.refresh_from_db()
            services.turn_keep(
                code=game.code, player=host, version=game.version, held=(True, True) + (False,) * 3
            )
    game.refresh_from_db()
    return game, clients


async def socket_of(code: str, browser: Client) -> WebsocketCommunicator:
    """The room's socket, opened as ``browser`` (its cookies, a same-origin page)."""
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in browser.cookies.items())
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookies:
        headers.append((b"cookie", cookies.encode()))
    socket = WebsocketCommunicator(application, f"/ws/g/{code}/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def pushed_board(code: str, browser: Client) -> str:
    socket = await socket_of(code, browser)
    try:
        for _ in range(10):
            html = await socket.receive_from(timeout=5)
            if 'id="board"' in html:
                return board_of(html)
        raise AssertionError("the socket pushed no board")
    finally:
        # Wait for the consumer to finish its own database work (its presence row) before the
        # test ends and its tables are flushed: under load that takes longer than 1 s.
        await socket.disconnect(timeout=10)


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("viewer", VIEWERS)
async def test_the_page_the_swap_and_the_push_show_one_board(stage, viewer):
    game, clients = await table_at(stage)
    browser = clients[viewer]
    url = game.get_absolute_url()

    page = await database_sync_to_async(browser.get)(url)
    swap = await database_sync_to_async(lambda: browser.get(url, headers=HTMX))()
    push = await pushed_board(game.code, browser)

    assert page.status_code == swap.status_code == 200
    assert board_of(page.content.decode()) == board_of(swap.content.decode()) == push


async def test_a_guest_keeps_their_name_and_the_way_back_after_a_push():
    """The join form of a shared lobby board offers a guest their own name, and the log-in
    link leads back to this table."""
    game, _ = await table_at("lobby")
    guest = await database_sync_to_async(new_client)(guest="Hana")

    board = await pushed_board(game.code, guest)

    assert 'value="Hana"' in board
    assert f"?next={game.get_absolute_url()}" in board


async def next_board(socket: WebsocketCommunicator, after: int) -> str:
    """The first board the socket receives with a version newer than ``after``."""
    for _ in range(20):
        html = await socket.receive_from(timeout=5)
        if 'id="board"' in html:
            board = board_of(html)
            version = int(board.split('data-version="', 1)[1].split('"', 1)[0])
            if version > after:
                return board
    raise AssertionError("the socket pushed no newer board")


@pytest.mark.parametrize("stage", ("lobby", "playing"))
@pytest.mark.parametrize("viewer", VIEWERS)
async def test_a_board_pushed_after_someone_elses_move_is_the_viewers_own_page(stage, viewer):
    """The push that follows a move is rendered while another person's request is being
    answered: each viewer must still get exactly the board their own page shows."""
    game, clients = await table_at(stage)
    browser = clients[viewer]
    socket = await socket_of(game.code, browser)
    try:
        await next_board(socket, after=0)
        if stage == "lobby":  # a newcomer sits down through the join form
            actor, path = Client(), f"{game.get_absolute_url()}join/"
            data = {"version": game.version, "name": "Hana"}
        else:  # the host, on turn, keeps one die more
            actor, path = clients["host"], f"{game.get_absolute_url()}keep/"
            data = {"version": game.version, "held": "11100"}
        answer = await database_sync_to_async(
            lambda: actor.post(path, data, headers=HTMX if stage == "playing" else {})
        )()
        assert answer.status_code in (200, 302)
        pushed = await next_board(socket, after=game.version)
    finally:
        await socket.disconnect(timeout=10)
    page = await database_sync_to_async(browser.get)(game.get_absolute_url())
    assert pushed == board_of(page.content.decode())
