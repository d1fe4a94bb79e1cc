"""An accessibility pass with axe-core (vendored under tests/browser/vendor/): no serious or
critical violation on the lobby, the game (your turn, someone else's turn, the final
ranking) and the history pages, in the light and the dark theme. Every violation found, of
any impact, is written to ``test-artifacts/browser/axe.json`` for a person to read."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from playwright.sync_api import Page, expect

from .people import (
    axe_violations,
    open_table,
    play_turn,
    roll,
    sign_up,
    start_game,
    take_seat,
    version,
    wait_version,
    your_turn,
)

REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser" / "axe.json"
ALL = ("minor", "moderate", "serious", "critical")


def test_no_serious_accessibility_violations_on_lobby_game_and_history_pages_in_both_themes(
    person, server
):
    tag = secrets.token_hex(3)
    found: dict[str, list] = {}

    def check(page: Page, name: str) -> None:
        found[name] = axe_violations(page, impacts=ALL)
        page.emulate_media(color_scheme="dark")
        found[f"{name}, dark"] = axe_violations(page, impacts=ALL)
        page.emulate_media(color_scheme="light")

    ada = person()
    sign_up(ada, f"ada_{tag}")
    check(ada, "home (signed in)")
    link = open_table(ada, seats=2)
    check(ada, "game lobby (host)")

    gil = person()
    gil.goto("/accounts/signup/")
    check(gil, "sign-up page")
    gil.goto("/accounts/login/")
    check(gil, "log-in page")
    gil.goto("/")
    check(gil, "home (guest)")
    gil.goto(link)
    check(gil, "game lobby (visitor)")
    take_seat(gil, link, guest_name="Gil")
    wait_version(ada, version(gil))
    start_game(ada, players=2)
    wait_version(gil, version(ada))

    player, watcher = (ada, gil) if your_turn(ada) else (gil, ada)
    check(player, "game, your turn before rolling")
    roll(player, keyboard=False, watchers=[watcher])
    check(player, "game, your turn after a roll")
    check(watcher, "game, someone else's turn")

    while True:
        player, watcher = (ada, gil) if your_turn(ada) else (gil, ada)
        play_turn(player, keyboard=False, watchers=[watcher], rolls=1)
        if ada.get_by_role("region", name="Final ranking").count():
            break
    expect(ada.get_by_role("region", name="Final ranking")).to_be_visible()
    expect(ada.get_by_role("region", name="The coach’s review")).to_be_visible(timeout=60_000)
    for summary in ada.locator("#board details > summary").all():
        summary.click()
    check(ada, "game, final ranking and review")
    ada.goto(f"/u/ada_{tag}/")
    expect(ada.locator("table.history tbody tr")).to_have_count(1)
    check(ada, "history page")

    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(found, indent=2))
    serious = {
        page: [v for v in violations if v["impact"] in ("serious", "critical")]
        for page, violations in found.items()
    }
    serious = {page: v for page, v in serious.items() if v}
    assert not serious, f"serious accessibility violations: {json.dumps(serious, indent=2)}"
