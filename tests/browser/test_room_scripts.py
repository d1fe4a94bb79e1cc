"""The room page's scripts (static/js/room.js and the modules it loads) in a real browser:
every module arrives, none logs an error, and the jobs that listen for the page's events
from the start (the seed proposed on load, the keys, the turn cue, the pushed board) work
for two players at one table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .people import (
    dice,
    keep,
    open_table,
    roll,
    start_game,
    take_seat,
    version,
    wait_version,
    your_turn,
)

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
ROOM_MODULES = {
    "js/push.js",  # every page registers the service worker
    "js/room.js",
    "js/seeds.js",
    *(f"js/room/{module.name}" for module in (STATIC_JS / "room").glob("*.js")),
}
# htmx says so when the table's form disables "#board [data-once]" and the board has none
# (a visitor's lobby): the template's doing, not a script's, and harmless.
HTMX_NOTHING_TO_DISABLE = re.compile(r'^The selector "#board \[data-once\]" on hx-disabled-elt')


def watch_scripts(page: Page) -> tuple[dict[str, tuple[int, str]], list[str]]:
    """From now on: each script of ``static/js/`` the page loads (path -> status and content
    type), and each error the page's console shows."""
    scripts: dict[str, tuple[int, str]] = {}
    errors: list[str] = []

    def loaded(response: Any) -> None:
        match = re.search(r"/static/(js/.+\.js)$", response.url)
        if match:
            scripts[match[1]] = (response.status, response.headers.get("content-type", ""))

    def logged(message: Any) -> None:
        if message.type == "error" and not HTMX_NOTHING_TO_DISABLE.match(message.text):
            errors.append(f"{message.location.get('url')}: {message.text}")

    page.on("response", loaded)
    page.on("console", logged)
    return scripts, errors


def test_the_room_pages_modules_load_without_errors_and_play_along(person, server):
    mo = person(viewport={"width": 1100, "height": 900})
    ned = person(viewport={"width": 1100, "height": 900})
    mo_scripts, mo_errors = watch_scripts(mo)
    ned_scripts, ned_errors = watch_scripts(ned)

    # The home page's module proposes this browser's dice seed once the page has loaded.
    mo.goto("/")
    expect(mo.locator("input[name=client_seed]")).to_have_value(re.compile(r"^[0-9a-f]{32}$"))
    assert set(mo_scripts) == {"js/home.js", "js/push.js", "js/seeds.js"}

    link = open_table(mo, seats=2, guest_name="Mo")
    take_seat(ned, link, guest_name="Ned")
    # Ned came straight to the table: the room page loads each of its modules, as scripts.
    assert set(ned_scripts) == ROOM_MODULES
    for name, (status, content_type) in ned_scripts.items():
        assert status == 200, name
        assert "javascript" in content_type, (name, content_type)

    wait_version(mo, version(ned))
    start_game(mo, players=2)
    wait_version(ned, version(mo))
    player, watcher = (mo, ned) if your_turn(mo) else (ned, mo)

    # The game started without a page load on either side: the tab's title tells the
    # player on turn, and only them.
    expect(player).to_have_title(re.compile(r"^▶ Your turn · "))
    expect(watcher).not_to_have_title(re.compile("Your turn"))

    # R rolls and 1 holds the first die, then releases it; the watcher's board follows
    # each move over the websocket (the helpers wait for the same version, dice and totals).
    roll(player, keyboard=True, watchers=[watcher])
    keep(player, 1, keyboard=True, watchers=[watcher])
    assert dice(player)[0].kept
    expect(player.locator('#board [data-die="1"]:visible')).to_have_attribute(
        "aria-pressed", "true"
    )
    keep(player, 1, keyboard=True, watchers=[watcher])
    assert not dice(player)[0].kept
    assert not dice(watcher)[0].kept

    assert mo_errors == []
    assert ned_errors == []
