"""Scenario: two guests at a blitz table; the one on turn closes their tab, the clock runs
out, the coach plays for them, and the other person finishes the game alone."""

from __future__ import annotations

import re
import sqlite3

from playwright.sync_api import expect

from .people import (
    MY_TURN,
    code_of,
    play_turn,
    press,
    start_game,
    take_seat,
    wait_live,
    your_turn,
)

CLOCK_RUNS_OUT_MS = 45_000  # a blitz turn is 30 s; the server looks twice a second


def open_blitz_table(page, name: str) -> str:
    page.goto("/")
    page.get_by_label("Players").select_option("2")
    page.get_by_label("Pace").select_option("blitz")
    page.get_by_label("Your display name").fill(name)
    press(page.get_by_role("button", name="Open a table"))
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()
    wait_live(page)
    return page.get_by_label("Invite friends with this link").input_value()


def test_the_coach_plays_for_a_player_who_closed_the_tab_and_the_other_finishes(person, server):
    ann, bea = person(), person()
    link = open_blitz_table(ann, "Ann")
    code = code_of(link)
    take_seat(bea, link, guest_name="Bea")
    start_game(ann, players=2)
    expect(bea.locator("#board .turn")).to_be_visible()

    # Both see the pace and a running clock, counted down by the page itself.
    for page in (ann, bea):
        expect(page.locator(".pace")).to_have_text("Blitz: 30 seconds a turn")
        expect(page.locator(".turn-clock [data-clock-left]")).to_have_text(
            re.compile(r"^0:[0-3]\d$")
        )

    leaver, stayer = (ann, bea) if your_turn(ann) else (bea, ann)
    gone = "Ann" if leaver is ann else "Bea"
    leaver.context.close()  # the player on turn closes their tab (and their browser)

    # The clock turns red in its last seconds, then the coach steps in.
    expect(stayer.locator(".turn-clock")).to_have_class(
        re.compile(r"\burgent\b"), timeout=CLOCK_RUNS_OUT_MS
    )
    expect(stayer.locator(".absence")).to_contain_text(
        f"{gone} is away; the coach plays their turns.", timeout=CLOCK_RUNS_OUT_MS
    )

    turns = 0
    while server.state(code)["status"] == "playing":
        stayer.wait_for_function(
            f"() => ({MY_TURN})() || document.querySelector('.standings')",
            timeout=CLOCK_RUNS_OUT_MS,
        )
        if your_turn(stayer):
            play_turn(stayer, keyboard=False, rolls=1)
            turns += 1
        assert turns <= 13

    state = server.state(code)
    assert state["status"] == "finished" and turns == 13
    statuses = {seat["name"]: seat["status"] for seat in state["seats"]}
    assert statuses == {gone: "away", "Bea" if gone == "Ann" else "Ann": "playing"}
    ranking = stayer.get_by_role("region", name="Final ranking")
    expect(ranking).to_be_visible()
    expect(ranking).to_contain_text(gone)

    # Every box of the player who left was filled by the coach, on their behalf.
    with sqlite3.connect(server.env["SQLITE_PATH"]) as db:
        (by_coach,) = db.execute(
            "SELECT count(*) FROM games_move m JOIN games_game g ON g.id = m.game_id"
            " JOIN games_seat s ON s.game_id = g.id AND s.position = m.seat"
            " WHERE g.code = ? AND s.name = ? AND m.kind = 'score' AND m.by_coach",
            (code, gone),
        ).fetchone()
    assert by_coach == 13


BACKGROUND_TAB_WITH_NOTIFICATIONS_ALLOWED = """
Object.defineProperty(document, "hidden", { get: () => true });
window.__notes = [];
window.Notification = function (title, options) { window.__notes.push([title, options.body]); };
window.Notification.permission = "granted";
"""


def test_a_background_tab_is_told_when_it_becomes_their_turn(person, server):
    ann, bea = person(), person()
    bea.context.add_init_script(BACKGROUND_TAB_WITH_NOTIFICATIONS_ALLOWED)
    link = open_blitz_table(ann, "Ann")
    take_seat(bea, link, guest_name="Bea")
    start_game(ann, players=2)
    expect(bea.locator("#board .turn")).to_be_visible()
    if your_turn(bea):  # Bea starts (and was told so): let her play, the turn comes back
        bea.wait_for_function("() => window.__notes.length === 1")
        play_turn(bea, keyboard=False, rolls=1)
        bea.evaluate("() => { window.__notes = []; }")
    bea.wait_for_function(f"() => !({MY_TURN})()")
    assert bea.evaluate("() => window.__notes") == []  # no word while it is not her turn

    play_turn(ann, keyboard=False, rolls=1)

    expect(bea).to_have_title(re.compile(r"^▶ Your turn"))
    bea.wait_for_function("() => window.__notes.length === 1")
    assert bea.evaluate("() => window.__notes") == [["Yahtzee", "It is your turn."]]


def test_only_the_away_player_sees_the_way_back_and_only_players_may_leave(person, server):
    """Everyone not on turn shares one board; each page shows its own person what is theirs."""
    ann, bea, sam = person(), person(), person()
    link = open_blitz_table(ann, "Ann")
    take_seat(bea, link, guest_name="Bea")
    start_game(ann, players=2)
    sam.goto(link)  # a spectator
    expect(sam.locator("#board .turn")).to_be_visible()
    expect(bea.locator("#board .turn")).to_be_visible()

    # The player on turn lets the clock run out with the page open: the coach steps in.
    sleeper, other = (ann, bea) if your_turn(ann) else (bea, ann)
    name = "Ann" if sleeper is ann else "Bea"
    expect(sleeper.locator(".absence")).to_be_visible(timeout=CLOCK_RUNS_OUT_MS)

    back = sleeper.get_by_role("button", name="I’m back")
    expect(back).to_be_visible()
    expect(
        sleeper.get_by_text("You are away: the coach plays your turns until you are back.")
    ).to_be_visible()
    expect(sleeper.get_by_text(f"{name} is away; the coach plays their turns.")).to_be_hidden()
    for page in (other, sam):
        expect(page.get_by_text(f"{name} is away; the coach plays their turns.")).to_be_visible()
        expect(
            page.get_by_text("You are away: the coach plays your turns until you are back.")
        ).to_be_hidden()
        expect(page.get_by_role("button", name="I’m back")).to_be_hidden()
    # Leaving is offered to the players only, never to the spectator.
    expect(sam.get_by_text("Leave this game")).to_be_hidden()
    if not your_turn(other):
        expect(other.get_by_text("Leave this game")).to_be_visible()
    expect(sleeper.get_by_text("Leave this game")).to_be_visible()

    # The coach may move between the page's last update and the press: one press is enough
    # all the same ("I'm back" names no version that could be stale).
    press(back)
    expect(sleeper.get_by_role("button", name="I’m back")).to_be_hidden()
    expect(sleeper.locator("#me")).to_have_attribute("data-status", "playing")
    expect(other.get_by_text(f"{name} is away; the coach plays their turns.")).to_be_hidden()
