"""Scenario 4: a double click rolls once; an action from a stale tab is refused with a
message and the tab shows the table as it stands."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from .people import (
    act,
    code_of,
    dice,
    open_table,
    roll,
    score_options,
    sign_up,
    start_game,
    totals,
    unfocus,
    version,
    wait_live,
    wait_version,
)

STALE = "older view of the table"


def solo_game(person) -> tuple[Page, str]:
    page = person()
    sign_up(page, f"dora_{secrets.token_hex(3)}")
    link = open_table(page, seats=1)
    start_game(page, players=1)
    return page, link


def test_a_double_click_on_roll_rolls_once(person, server):
    page, link = solo_game(person)
    code = code_of(link)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    before = server.state(code)
    assert before["rolls_left"] == 3

    page.locator("[data-roll]").dblclick()
    wait_version(page, before["version"] + 1)
    page.wait_for_timeout(500)  # time enough for a second roll to land, were there one

    after = server.state(code)
    assert after["version"] == before["version"] + 1
    assert after["rolls_left"] == 2
    assert [url for url in posts if url.endswith("/roll/")] == [f"{server.url}/g/{code}/roll/"]
    expect(page.locator("[data-roll]")).to_contain_text("2 left")
    expect(page.locator("#flash")).to_have_text("")

    # A double click on a score box scores once too, and play moves on to the next round.
    box, points = score_options(page)[0]
    page.locator(f'button.box-button[value="{box}"]').dblclick()
    wait_version(page, after["version"] + 1)
    page.wait_for_timeout(500)
    final = server.state(code)
    assert final["version"] == after["version"] + 1
    assert final["round"] == 2
    assert final["seats"][0]["card"][box] == points
    expect(page.locator("#flash")).to_have_text("")


def test_dice_pressed_in_quick_succession_are_all_kept(person, server):
    page, link = solo_game(person)
    code = code_of(link)
    roll(page, keyboard=True)
    start = server.state(code)["version"]

    unfocus(page)
    page.keyboard.press("1")
    page.keyboard.press("2")  # while the first press is still on its way
    page.keyboard.press("4")
    wait_version(page, start + 3)

    assert server.state(code)["kept"] == [True, True, False, True, False]
    assert [d.kept for d in dice(page)] == [True, True, False, True, False]
    expect(page.locator("#flash")).to_have_text("")


def test_an_action_from_a_stale_tab_is_refused_with_a_message_and_shows_the_table(person, server):
    live, link = solo_game(person)
    code = code_of(link)

    # A second tab of the same player whose live updates stop arriving (a dead connection
    # that nobody noticed): the websocket is routed through the test, which drops pushes.
    frozen = {"on": False}
    stale = live.context.new_page()

    def through(page_side) -> None:
        server_side = page_side.connect_to_server()
        server_side.on_message(lambda message: None if frozen["on"] else page_side.send(message))

    stale.route_web_socket(re.compile(r"/ws/g/"), through)
    stale.goto(link)
    wait_live(stale)
    assert version(stale) == version(live)
    frozen["on"] = True

    # The live tab plays on: roll, keep the first die, roll again.
    act(live, "/roll/", lambda: live.locator("[data-roll]").click())
    act(live, "/keep/", lambda: live.locator('[data-die="1"]').click())
    act(live, "/roll/", lambda: live.locator("[data-roll]").click())
    stored = server.state(code)
    assert version(stale) < stored["version"]
    expect(stale.locator(".dice.empty")).to_be_visible()  # it still shows the turn unrolled

    # The stale tab rolls: refused, nothing changes, and it now shows the table as it is.
    with stale.expect_response(lambda r: r.url.endswith("/roll/")) as answer:
        stale.locator("[data-roll]").click()
    assert answer.value.status == 409
    expect(stale.locator("#flash")).to_contain_text(STALE)
    wait_version(stale, stored["version"])
    assert server.state(code) == stored
    assert [d.value for d in dice(stale)] == stored["dice"]
    assert [d.kept for d in dice(stale)] == stored["kept"]
    expect(stale.locator("[data-roll]")).to_contain_text("1 left")

    # The live tab scores; the stale tab (still frozen) tries to score too: refused again.
    box, _ = score_options(stale)[-1]
    act(live, "/score/", lambda: live.locator('button.box-button[value="chance"]').click())
    stored = server.state(code)
    with stale.expect_response(lambda r: r.url.endswith("/score/")) as answer:
        stale.locator(f'button.box-button[value="{box}"]').click()
    assert answer.value.status == 409
    expect(stale.locator("#flash")).to_contain_text(STALE)
    wait_version(stale, stored["version"])
    assert server.state(code) == stored
    assert totals(stale) == totals(live)
    expect(stale.locator(".turn-banner")).to_contain_text("Round 2 of 13")

    # The next good action clears the message.
    frozen["on"] = False
    act(stale, "/roll/", lambda: stale.locator("[data-roll]").click())
    expect(stale.locator("#flash")).to_have_text("")
    wait_version(live, version(stale))


def test_a_stale_tab_without_javascript_is_refused_and_shown_the_table(person, server):
    live, link = solo_game(person)
    code = code_of(link)
    plain = person(java_script_enabled=False, storage_state=live.context.storage_state())
    plain.goto(link)
    expect(plain.locator("[data-roll]")).to_contain_text("Roll")

    act(live, "/roll/", lambda: live.locator("[data-roll]").click())
    stored = server.state(code)

    with plain.expect_response(lambda r: r.url.endswith("/roll/")) as answer:
        plain.locator("[data-roll]").click()
    assert answer.value.status == 409
    expect(plain.locator("#flash[role=alert]")).to_contain_text(STALE)
    assert version(plain) == stored["version"]
    assert [d.value for d in dice(plain)] == stored["dice"]
    assert server.state(code) == stored

    # Without JavaScript a good move is a full page load (post/redirect/get).
    plain.locator("[data-roll]").click()
    expect(plain.locator("[data-roll]")).to_contain_text("1 left")
    assert server.state(code)["version"] == stored["version"] + 1
