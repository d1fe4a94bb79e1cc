"""The daily game in the browser: a guest opens /daily/, types a name, plays the day's
game at its table to the end (whatever the day's rule set), comes back to /daily/ and finds
the card beside the coach's and the line to share; a second start goes back to the game."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from playwright.sync_api import expect

from .people import play_turn, press, wait_live

RULESET_NAMES = {5: "Yatzy (Scandinavian)", 6: "Yacht"}  # Saturday, Sunday; else Yahtzee


def test_a_guest_plays_the_daily_game_to_its_share_line(person):
    player = person()
    player.goto("/daily/")
    today = datetime.now(UTC).date()
    name = RULESET_NAMES.get(today.weekday(), "Yahtzee")
    expect(player.get_by_role("heading", level=1)).to_have_text(
        f"Daily {name}, {today.isoformat()}"
    )
    player.get_by_label("Your name (a guest plays unranked)").fill("Dana")
    press(player.get_by_role("button", name="Play today's game"))
    expect(player).to_have_url(re.compile(r"/g/[^/]+/$"))
    table = player.url
    wait_live(player)
    expect(player.locator("#board .turn")).to_be_visible()

    # Leaving and coming back continues the same game; starting again goes to it too.
    player.goto("/daily/")
    press(player.get_by_role("link", name="Continue today's game"))
    expect(player).to_have_url(table)
    wait_live(player)

    for _ in range(13):  # Yacht has 12 boxes: the game ends after its last
        if player.get_by_role("heading", name="Final ranking").is_visible():
            break
        play_turn(player, keyboard=False)
    expect(player.get_by_role("heading", name="Final ranking")).to_be_visible()

    # The coach plays the day's dice once, with the rule set's table (a rule set the solver
    # cannot play yet shares the score alone).
    player.goto("/daily/", timeout=60_000)
    share = player.locator("#daily-share")
    expect(share).to_have_text(
        re.compile(rf"^Daily {re.escape(name)} {today.isoformat()}: \d+(, the coach \d+)?$")
    )
    expect(player.get_by_text("Guests play unranked: log in tomorrow")).to_be_visible()
    expect(player.get_by_role("region", name="Your card and the coach’s")).to_be_visible()
