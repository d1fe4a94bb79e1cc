"""Provably fair dice in the browser: the page proposes a seed when a person sits down
(and again in a rematch's lobby), they may change it in the lobby, and after the game
/verify/ recomputes every roll with WebCrypto, confirms it and finds a kept die the log
changed."""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import parse_qs

from playwright.sync_api import Request, expect

from .people import act, code_of, open_table, play_turn, press, start_game


def test_after_a_game_the_verify_page_confirms_every_roll(person, server):
    player = person()
    with player.expect_request(sends_a_seed) as opening:
        link = open_table(player, seats=1, guest_name="Vera")
    code = code_of(link)

    # Sitting down, the page proposed a seed from the browser's generator: the one the form
    # sent (had it sent none, the server would have made another).
    proposed = server.state(code)["seats"][0]["client_seed"]
    assert re.fullmatch(r"[0-9a-f]{32}", proposed), proposed
    assert proposed == seed_sent(opening.value)
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

    # A die the log says was kept, changed: the page finds that roll.
    version = change_a_kept_die(server.env["SQLITE_PATH"], code)
    player.reload()
    expect(player.locator("#verify-summary")).to_have_text(
        "Some dice do not match the seeds: see the rolls marked below."
    )
    changed = player.locator(
        "tr[data-roll]", has=player.locator("td:first-child", has_text=re.compile(rf"^{version}$"))
    )
    expect(changed.locator("[data-check]")).to_contain_text("does not match the seeds")

    # The rematch seats Vera again without a seed: her page proposes one and sends it.
    player.get_by_role("link", name="Back to the table").click()
    with player.expect_request(lambda r: sends_a_seed(r) and r.url.endswith("/seed/")) as sending:
        press(player.get_by_role("button", name="Rematch", exact=True))
    expect(player.get_by_role("heading", name="Waiting for players")).to_be_visible()
    rematch = code_of(player.url)
    assert rematch != code
    sent = seed_sent(sending.value)
    assert re.fullmatch(r"[0-9a-f]{32}", sent), sent
    expect(player.get_by_label("Your dice seed")).to_have_value(sent)
    assert server.state(rematch)["seats"][0]["client_seed"] == sent


def sends_a_seed(request: Request) -> bool:
    return request.method == "POST" and "client_seed=" in (request.post_data or "")


def seed_sent(request: Request) -> str:
    """The dice seed a form post carried."""
    return parse_qs(request.post_data or "")["client_seed"][0]


def change_a_kept_die(database: str, code: str) -> int:
    """In the server's move log, change the first die kept on a roll; its version."""
    with sqlite3.connect(database) as db:
        version, dice, held = db.execute(
            "SELECT m.version, m.dice, m.held FROM games_move m JOIN games_game g"
            " ON g.id = m.game_id WHERE g.code = ? AND m.kind = 'roll' AND m.held LIKE '%1%'"
            " ORDER BY m.version LIMIT 1",
            (code,),
        ).fetchone()
        i = held.index("1")
        changed = dice[:i] + str(int(dice[i]) % 6 + 1) + dice[i + 1 :]
        db.execute(
            "UPDATE games_move SET dice = ? WHERE version = ? AND game_id ="
            " (SELECT id FROM games_game WHERE code = ?)",
            (changed, version, code),
        )
    return int(version)
