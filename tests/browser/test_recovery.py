"""Scenario 3: a page closed and reopened mid-game, and a server restart mid-turn, lose
nothing; the live room comes back by itself."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from .people import (
    BOXES,
    code_of,
    dice,
    filled,
    keep,
    open_table,
    play_turn,
    roll,
    score,
    score_options,
    sign_up,
    start_game,
    take_seat,
    totals,
    version,
    wait_live,
    wait_version,
    your_turn,
)


def ws_opens(page: Page) -> int:
    return page.evaluate("() => window.__ws.opens")


def wait_reconnected(page: Page, opens_before: int, timeout: float = 40_000) -> None:
    page.wait_for_function("n => window.__ws.opens > n", arg=opens_before, timeout=timeout)
    wait_live(page, timeout=timeout)


def board_text(page: Page) -> str:
    """The board's text, without the turn clock's countdown (which runs on by itself)."""
    return page.locator("#board").evaluate(
        "board => { const copy = board.cloneNode(true);"
        " copy.querySelectorAll('[data-clock-left]').forEach(e => e.remove());"
        " return copy.textContent.replace(/\\s+/g, ' ').trim(); }"
    )


def everything(page: Page) -> tuple:
    return (version(page), [(d.value, d.kept) for d in dice(page)], totals(page), filled(page))


def two_players_playing(person) -> tuple[Page, Page, str]:
    tag = secrets.token_hex(3)
    rosa = person()
    sign_up(rosa, f"rosa_{tag}")
    link = open_table(rosa, seats=2)
    sami = person()
    take_seat(sami, link, guest_name="Sami")
    wait_version(rosa, version(sami))
    start_game(rosa, players=2)
    wait_version(sami, version(rosa))
    return rosa, sami, link


def test_a_page_closed_and_reopened_from_the_link_shows_the_same_table_and_play_goes_on(
    person, server
):
    rosa, sami, link = two_players_playing(person)
    code = code_of(link)
    for _ in range(3):
        player, other = (rosa, sami) if your_turn(rosa) else (sami, rosa)
        play_turn(player, keyboard=False, watchers=[other], rolls=1)
    # Mid-turn: dice on the table, one kept.
    player, other = (rosa, sami) if your_turn(rosa) else (sami, rosa)
    roll(player, keyboard=False, watchers=[other])
    keep(player, 2, keyboard=False, watchers=[other])

    before, text_before = everything(sami), board_text(sami)
    context = sami.context
    sami.close()
    expect(rosa.locator(".presence-seat", has_text="Sami")).not_to_have_class(re.compile("online"))

    sami = context.new_page()
    sami.goto(link)
    wait_live(sami)
    assert everything(sami) == before
    assert board_text(sami) == text_before
    expect(rosa.locator(".presence-seat", has_text="Sami")).to_have_class(re.compile("online"))

    # Play goes on from the reopened page.
    player, other = (rosa, sami) if your_turn(rosa) else (sami, rosa)
    box, _ = max(score_options(player), key=lambda option: option[1])
    score(player, box, keyboard=True, watchers=[other])
    player, other = other, player
    play_turn(player, keyboard=True, watchers=[other])
    assert server.state(code)["version"] == version(rosa) == version(sami)


def test_both_pages_recover_from_a_server_restart_mid_turn_without_losing_a_score(person, server):
    rosa, sami, link = two_players_playing(person)
    code = code_of(link)
    for _ in range(4):
        player, other = (rosa, sami) if your_turn(rosa) else (sami, rosa)
        play_turn(player, keyboard=False, watchers=[other], rolls=1)
    player, other = (rosa, sami) if your_turn(rosa) else (sami, rosa)
    roll(player, keyboard=True, watchers=[other])
    keep(player, 1, keyboard=True, watchers=[other])
    stored = server.state(code)
    before = {page: everything(page) for page in (rosa, sami)}
    opens = {page: ws_opens(page) for page in (rosa, sami)}

    server.stop()
    for page in (rosa, sami):  # each page says it lost the table, instead of a stale presence
        expect(page.locator("#presence")).to_contain_text("Reconnecting to the table")
    server.start()

    for page in (rosa, sami):
        wait_reconnected(page, opens[page])
        assert everything(page) == before[page], "the page lost something over the restart"
    # Each page retries on its own backoff, so only once both are back can both show both.
    for page in (rosa, sami):
        expect(page.locator(".presence-seat.online")).to_have_count(2)
    assert server.state(code) == stored

    # The new sockets carry live updates again: the turn goes on and the other page sees it.
    keep(player, 2, keyboard=False, watchers=[other])
    roll(player, keyboard=False, watchers=[other])
    box, _ = max(score_options(player), key=lambda option: option[1])
    score(player, box, keyboard=False, watchers=[other])
    play_turn(other, keyboard=True, watchers=[player])
    after = server.state(code)
    for seat_before, seat_after in zip(stored["seats"], after["seats"], strict=True):
        for box in BOXES:
            if seat_before["card"][box] is not None:
                assert seat_after["card"][box] == seat_before["card"][box], "a score was lost"
    assert sum(seat["total"] for seat in after["seats"]) >= sum(
        seat["total"] for seat in stored["seats"]
    )


def test_a_socket_closed_as_going_away_reconnects_and_the_page_stays_live(person, server):
    """A proxy or server that says goodbye cleanly (1000, 1001, 1005) is not retried by the
    htmx ws extension (it only retries 1006, 1011, 1012, 1013): static/js/room/socket.js
    must."""
    rosa, sami, _ = two_players_playing(person)
    connections = []

    def through(route) -> None:
        route.connect_to_server()
        connections.append(route)

    sami.route_web_socket(re.compile(r"/ws/g/"), through)
    sami.reload()  # the route applies to sockets opened from now on
    wait_live(sami)
    assert len(connections) == 1

    for code in (1001, 1000, 1005):
        opens = ws_opens(sami)
        connections[-1].close(code=code, reason="going away")
        wait_reconnected(sami, opens, timeout=10_000)
        assert sami.evaluate("() => window.__ws.closes.at(-1)") == code
        player, other = (rosa, sami) if your_turn(rosa) else (sami, rosa)
        play_turn(player, keyboard=False, watchers=[other], rolls=1)
    assert len(connections) == 4
