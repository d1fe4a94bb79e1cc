"""A table of the same dice as others still being played (a daily game, an arena round) is
shown to its own players only: over its socket as on its pages."""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from games import services
from games.clock import clock
from games.live.consumers import CLOSE_HIDDEN_DICE
from games.rules import Rules
from games.services import Player
from tests.live.test_consumers import connect, make_user, receive_board

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]


@database_sync_to_async
def shared_dice_game(host, *, secret_for: timedelta):
    player = Player(host.username, user_id=host.pk)
    game = services.game_create(
        player=player,
        seat_count=1,
        rules=Rules(),
        rated=False,
        dice_draw="same",
        dice_seed=secrets.token_bytes(32),
        seed_secret_until=clock.now() + secret_for,
    )
    services.game_start(code=game.code, player=player, version=game.version)
    return game


async def test_a_stranger_socket_on_a_shared_dice_table_in_play_is_closed_with_a_reason():
    host = await make_user("ann")
    stranger = await make_user("sam")
    game = await shared_dice_game(host, secret_for=timedelta(hours=3))
    comm = await connect(game.code, stranger)
    closed = await comm.receive_output(timeout=3)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == CLOSE_HIDDEN_DICE
    assert "same dice" in closed["reason"]
    await comm.wait()


async def test_the_tables_own_player_gets_the_board_live():
    host = await make_user("ann")
    game = await shared_dice_game(host, secret_for=timedelta(hours=3))
    comm = await connect(game.code, host)
    assert 'id="board"' in await receive_board(comm)
    await comm.disconnect()


async def test_once_the_dice_may_be_published_anyone_may_watch():
    host = await make_user("ann")
    stranger = await make_user("sam")
    game = await shared_dice_game(host, secret_for=timedelta(seconds=-1))
    comm = await connect(game.code, stranger)
    assert 'id="board"' in await receive_board(comm)
    await comm.disconnect()
