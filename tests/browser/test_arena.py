"""A short arena with four people: they make and join it on its page, two tables of two are
paired at once when it starts, the games end (their first twelve rounds jumped through in
the engine, the last played by clicking), the next pairing follows at once, and a page left
open on the tournament shows every change of the standings live, without a reload."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect

from .conftest import ROOT
from .people import play_turn, sign_up, your_turn

# Run against the server's own database (its environment names it): the start moved to now,
# or every table of a round brought to its last round as if played (the version moved on,
# so the server's pages and moves read the rows anew).
SHELL_START = """
from django.utils import timezone
from games.models import Tournament
Tournament.objects.filter(pk={pk}).update(starts_at=timezone.now())
"""
SHELL_JUMP = """
from datetime import timedelta
from django.db.models import F
from django.utils import timezone
from games.models import Game, TournamentTable
from tests.conftest import jump_to_last_round
for table in TournamentTable.objects.filter(tournament_id={pk}, round={round}):
    game = table.game
    jump_to_last_round(game, lambda seat, turn: "66666" if seat == 0 else "11112")
    later = timezone.now() + timedelta(seconds=90)
    Game.objects.filter(pk=game.pk).update(
        version=F("version") + 1, turn_deadline=later, due_at=later
    )
"""


def on_server(server, code: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=server.env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def make_arena(page: Page, name: str) -> int:
    page.goto("/tournaments/")
    expect(page.get_by_text("The time is in UTC.")).to_be_visible()
    page.get_by_label("Name", exact=True).fill(name)
    start = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label("Starts at (UTC)").fill(start)
    page.get_by_label("Minutes", exact=True).fill("20")
    page.get_by_label("Pace", exact=True).select_option("live")
    page.get_by_label("Players at a table").select_option("2")
    page.get_by_label("Rated", exact=True).uncheck()
    page.get_by_role("button", name="Make the tournament").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def standings(page: Page):
    return page.locator("#standings")


def finish_tables(people: list[Page], names: list[str], tournament: int) -> None:
    """Everyone goes to their table in play and plays the last round's turn there."""
    for page, name in zip(people, names, strict=True):
        page.goto(f"/tournaments/{tournament}/")
        rows = page.locator("#standings .tournament-tables li")
        row = rows.filter(has_text=name).filter(has_text="in play")
        page.goto(row.locator("a").get_attribute("href") or "")
    for _ in range(3):  # each table's last round: two turns, whoever is on turn plays
        for page in people:
            page.reload()
            if your_turn(page):
                play_turn(page, keyboard=False, rolls=1)


def test_four_people_play_a_short_arena_and_the_standings_move_live(person, server, csp_violations):
    tag = secrets.token_hex(2)
    names = [f"{who}{tag}" for who in ("ann", "ben", "cat", "dan")]
    people = [person() for _ in names]
    for page, name in zip(people, names, strict=True):
        sign_up(page, name)
    tournament = make_arena(people[0], f"Arena {tag}")
    watcher = person()
    watcher.goto(f"/tournaments/{tournament}/")
    expect(standings(watcher)).to_contain_text("Nobody has joined yet.")
    for page in people[:3]:
        page.goto(f"/tournaments/{tournament}/")
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
    # The open page saw each of them join, live.
    for name in names[:3]:
        expect(standings(watcher).locator(f'tr[data-player="{name}"]')).to_be_visible()
    on_server(server, SHELL_START.format(pk=tournament))
    people[3].goto(f"/tournaments/{tournament}/")
    people[3].get_by_role("button", name="Join").click()  # the fourth join pairs everyone
    tables = standings(watcher).locator(".tournament-tables li")
    expect(tables).to_have_count(2)
    expect(standings(watcher)).to_contain_text("Running")
    on_server(server, SHELL_JUMP.format(pk=tournament, round=1))
    finish_tables(people, names, tournament)
    # Scored and paired again at once: the open page shows it without a reload.
    expect(tables).to_have_count(4, timeout=30_000)
    games = standings(watcher).locator("tbody tr td:nth-child(4)")
    expect(games).to_have_text(["1", "1", "1", "1"])
    points = [int(p) for p in standings(watcher).locator("td.points").all_inner_texts()]
    assert sum(points) >= 2
    data = watcher.request.get(f"/tournaments/{tournament}.json").json()
    assert data["status"] == "running" and len(data["games"]) == 4
    assert sorted(p["username"] for p in data["players"]) == sorted(names)
    assert watcher.evaluate("() => window.__ws.opens") == 1  # never reloaded
    assert csp_violations == []
