"""Provably fair dice in the browser: the page proposes a seed when a person sits down,
they may change it in the lobby, and after the game /verify/ recomputes every roll with
WebCrypto and confirms it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .people import act, code_of, open_table, play_turn, press, start_game


def test_after_a_game_the_verify_page_confirms_every_roll(person, server):
    player = person()
    link = open_table(player, seats=1, guest_name="Vera")
    code = code_of(link)

    # Sitting down, the page proposed a seed from the browser's generator.
    proposed = server.state(code)["seats"][0]["client_seed"]
    assert re.fullmatch(r"[0-9a-f]{32}", proposed), proposed
    expect(player.get_by_label("Your dice seed")).to_have_value(proposed)
    player.get_by_label("Your dice seed").fill("Vera's own seed, typed by hand!")
    act(player, "/seed/", lambda: press(player.get_by_role("button", name="Change seed")))
    assert server.state(code)["seats"][0]["client_seed"] == "Vera's own seed, typed by hand!"

    start_game(player, players=1)
    commitment = server.state(code)["dice_commitment"]
    expect(player.locator("#board [data-commitment]")).to_have_text(commitment)
    for _ in range(13):
        play_turn(player, keyboard=False)
    expect(player.get_by_role("heading", name="Final ranking")).to_be_visible()

    player.get_by_role("link", name="Check every die of this game.").click()
    expect(player).to_have_url(re.compile(rf"/g/{code}/verify/$"))
    expect(player.locator("#verify-summary")).to_have_text(
        "Every die of this game matches its seeds."
    )
    expect(player.locator("#verify-commitment")).to_have_text(
        "The revealed seed matches the commitment published at the start."
    )
    checks = player.locator("tr[data-roll] [data-check]")
    assert checks.count() >= 1 + 13
    for text in checks.all_inner_texts():
        assert text == "matches"
    assert server.state(code)["dice_seed"]
