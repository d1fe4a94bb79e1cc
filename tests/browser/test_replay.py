"""The replay in the browser: the arrow keys and the buttons step through the moves."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .people import code_of, keep, open_table, roll, score, score_options, start_game


def press_key(page, key: str) -> None:
    """Press a key on a loaded replay page and wait for the moment it leads to."""
    page.wait_for_load_state("load")
    with page.expect_navigation():
        page.keyboard.press(key)
    page.wait_for_load_state("load")


def test_the_arrow_keys_and_the_links_step_through_the_moves(person):
    player = person()
    link = open_table(player, seats=1, guest_name="Rita")
    code = code_of(link)
    start_game(player, players=1)
    roll(player, keyboard=False)
    keep(player, 1, keyboard=False)
    roll(player, keyboard=False)
    box, _ = max(score_options(player), key=lambda option: option[1])
    score(player, box, keyboard=False)

    player.goto(f"/g/{code}/replay/")
    sentence = player.locator(".replay-sentence")
    expect(sentence).to_have_text("Rita won the roll-off and starts.")
    expect(player.get_by_text("Move 1 of 5")).to_be_visible()

    press_key(player, "ArrowRight")
    expect(sentence).to_have_text("Rita rolled.")
    expect(player).to_have_url(re.compile(r"\?v=\d+$"))
    press_key(player, "ArrowRight")
    expect(sentence).to_have_text(re.compile(r"^Rita kept \d\.$"))
    expect(player.locator(".replay-step .die.held")).to_have_count(1)
    press_key(player, "End")
    expect(sentence).to_have_text(re.compile(r"^Rita scored \d+ in .+\.$"))
    expect(player.get_by_text("Move 5 of 5")).to_be_visible()
    press_key(player, "ArrowLeft")
    expect(sentence).to_have_text(re.compile(r"^Rita rolled again, keeping \d\.$"))
    player.get_by_role("link", name="First move").click()
    expect(sentence).to_have_text("Rita won the roll-off and starts.")
    player.get_by_role("link", name="Next").click()
    expect(sentence).to_have_text("Rita rolled.")
