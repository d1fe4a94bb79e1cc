""" "Play now": two people ask for the same game, and both land at the same table without
reloading, then play."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from .people import roll, wait_live, watch_navigations, your_turn


def ask_to_play(page: Page, name: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Play now").first.click()
    expect(page).to_have_url(re.compile(r"/play/$"))
    page.get_by_label("Pace").select_option("blitz")
    page.get_by_label("Players").select_option("2")
    page.get_by_label("Casual", exact=True).check()
    page.get_by_label("Your display name").fill(name)
    page.get_by_role("button", name="Play now").click()


def test_two_people_asking_for_the_same_game_land_at_one_table_and_play(
    person, server, csp_violations
):
    tag = secrets.token_hex(3)
    ann, ben = person(), person()
    ask_to_play(ann, f"Ann {tag}")
    expect(ann.get_by_role("status")).to_contain_text("Looking for players…")
    # The wait is counted on the page as it goes.
    expect(ann.locator("#play-waited")).to_have_text(re.compile(r"You have waited [1-9]\d* second"))
    loads = watch_navigations(ann)

    ask_to_play(ben, f"Ben {tag}")
    expect(ben).to_have_url(re.compile(r"/g/[^/]+/$"))
    table = ben.url
    # Ann's waiting page is taken to the same table by its socket: one navigation, no reload.
    expect(ann).to_have_url(table)
    assert [url for url in loads if "/play/" in url] == []
    assert loads == [table]

    wait_live(ann)
    wait_live(ben)
    expect(ann.locator("#board .turn")).to_be_visible()
    on_turn = ann if your_turn(ann) else ben
    other = ben if on_turn is ann else ann
    assert your_turn(on_turn) and not your_turn(other)
    roll(on_turn, keyboard=False, watchers=[other])
    assert csp_violations == []
