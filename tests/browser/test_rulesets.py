"""Issue 31: a whole game of Scandinavian Yatzy and one of Yacht, each against a computer
player, on a 360 px phone: the rule set chosen on the create form (upper section first
hidden, as neither has it), its own card and number of rounds, its rules page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .people import (
    act,
    code_of,
    play_turn,
    press,
    save_screenshot,
    score_options,
    totals,
    wait_live,
    wait_version,
    watch_navigations,
    your_turn,
)
from .test_layout import DESKTOP, outside, page_width
from .test_phone import PHONE, assert_fits

GAMES = {
    # rule set: (its name on the menu, rounds, rows its card has, rows it has not)
    "yatzy": ("Yatzy (Scandinavian)", 15, ["One Pair", "Two Pairs", "Yatzy", "Bonus (63+)"]),
    "yacht": ("Yacht", 12, ["Little Straight", "Big Straight", "Choice", "Yacht"]),
}
NOT_ON_EITHER = ["Yahtzee bonus", "3 of a kind", "Small Straight (30)"]


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_a_whole_game_against_a_computer_player_on_a_phone(person, server, ruleset):
    name, rounds, rows = GAMES[ruleset]
    phone = person(**PHONE)
    phone.goto("/")
    upper_first = phone.locator("[data-upper-first-option]")
    expect(upper_first).to_be_visible()  # Yahtzee, the default, has the option
    phone.get_by_label("Rule set").select_option(label=name)
    if ruleset != "yahtzee":
        expect(upper_first).to_be_hidden()
    phone.get_by_label("Players").select_option("2")
    phone.get_by_label("Your display name").fill("Sanna")
    press(phone.get_by_role("button", name="Open a table"))
    expect(phone.get_by_role("heading", name="Waiting for players")).to_be_visible()
    link = phone.get_by_label("Invite friends with this link").input_value()
    code = code_of(link)
    wait_live(phone)
    expect(phone.locator(".rules-line")).to_contain_text(name)
    rules_page = phone.locator(".rules-line a.ruleset-name").get_attribute("href")
    phone.locator("#bot-level").select_option("beginner")
    act(phone, "/bots/add/", lambda: press(phone.locator('button[formaction$="/bots/add/"]')))
    act(phone, "/start/", lambda: press(phone.locator('button[formaction$="/start/"]')))
    expect(phone.locator("#board .turn")).to_be_visible()
    loads = watch_navigations(phone)

    card = phone.locator("#board .scorecard")
    for row in rows:
        expect(card.locator("th", has_text=row).first).to_be_attached()
    for row in NOT_ON_EITHER if ruleset != "yahtzee" else ():
        expect(card.locator("th", has_text=row)).to_have_count(0)
    assert card.locator("tbody tr:not(.sum)").count() == rounds

    turns = 0
    for _ in range(600):
        state = server.state(code)
        if state["status"] != "playing":
            break
        wait_version(phone, state["version"])
        if not your_turn(phone):
            phone.wait_for_timeout(200)  # the computer player's move is on its way
            continue
        turns += 1
        # One turn a round for each player: this player's n-th turn is round n.
        expect(phone.locator(".turn-banner")).to_contain_text(f"Round {turns} of {rounds}")
        play_turn(phone, keyboard=False, rolls=2)
        if turns == 2:
            assert_fits(phone, f"a {ruleset} game in play")
            save_screenshot(phone, f"phone-{ruleset}-turn", full_page=False)

    state = server.state(code)
    assert state["status"] == "finished" and state["ruleset"] == ruleset
    assert turns == rounds
    assert loads == [], "the page was reloaded during the game"
    wait_version(phone, state["version"])
    ranking = phone.get_by_role("region", name="Final ranking")
    expect(ranking).to_contain_text("Sanna")
    assert sorted(totals(phone)) == sorted(str(seat["total"]) for seat in state["seats"])
    assert_fits(phone, f"a finished {ruleset} game")
    save_screenshot(phone, f"phone-{ruleset}-ranking")

    # Its rules, linked from the table, on a page that fits the phone too.
    phone.goto(rules_page)
    expect(phone).to_have_url(f"{server.url}/rules/{ruleset}/")
    expect(phone.locator("article.rules h1")).to_contain_text(name.split(" ")[0])
    assert_fits(phone, f"the {ruleset} rules")


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_on_a_desktop_dice_roll_and_every_open_box_of_the_card_are_in_view(person, server, ruleset):
    name, rounds, rows = GAMES[ruleset]
    desk = person(**DESKTOP)
    desk.goto("/")
    desk.get_by_label("Rule set").select_option(label=name)
    desk.get_by_label("Players").select_option("1")
    desk.get_by_label("Your display name").fill("Dag")
    press(desk.get_by_role("button", name="Open a table"))
    expect(desk.get_by_role("heading", name="Waiting for players")).to_be_visible()
    wait_live(desk)
    act(desk, "/start/", lambda: press(desk.locator('button[formaction$="/start/"]')))
    expect(desk.locator("#board .turn")).to_be_visible()
    act(desk, "/roll/", lambda: press(desk.locator("[data-roll]")))

    save_screenshot(desk, f"table-desktop-{ruleset}", full_page=False)
    assert len(score_options(desk)) == rounds
    for row in rows:
        expect(desk.locator("#board .scorecard th", has_text=row).first).to_be_visible()
    assert outside(desk, "#board .dice .die, [data-roll], #board button.box-button") == []
    assert page_width(desk) <= 1280
