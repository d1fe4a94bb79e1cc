"""Scenario 5: a solo game played to the end with thumbs, on a 360 px wide phone."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .people import (
    code_of,
    open_table,
    play_turn,
    press,
    roll,
    save_screenshot,
    score,
    score_options,
    start_game,
    totals,
    watch_navigations,
)

PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def assert_fits(page: Page, where: str) -> None:
    """Nothing sticks out sideways: the page never scrolls horizontally (once the dice have
    landed: mid-tumble a turned die's corners reach a little past its place)."""
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished))")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"{where}: the page is {width}px wide on a 360px screen"
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.checkVisibility() && e.getBoundingClientRect().right > 360.5
                         && !e.closest('.card-wrap') && getComputedStyle(e).position !== 'absolute')
            .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                      + (e.className && typeof e.className === 'string'
                         ? '.' + e.className.trim().split(/\\s+/).join('.') : ''))"""
    )
    assert not wide, f"{where}: these stick out past 360px: {wide}"
    spill = page.evaluate(
        """() => { const row = [...document.querySelectorAll('.turn .dice')]
                       .find(r => r.getClientRects().length);
                   return row ? row.scrollWidth - row.clientWidth : 0; }"""
    )
    assert spill <= 0, f"{where}: the dice are {spill}px wider than their panel"


def test_a_solo_game_is_played_to_the_end_on_a_360px_phone(person, server):
    phone = person(**PHONE)
    phone.goto("/")
    assert_fits(phone, "home page")
    link = open_table(phone, seats=1, guest_name="Pia on the bus")
    assert_fits(phone, "lobby")
    save_screenshot(phone, "phone-lobby")
    start_game(phone, players=1)
    loads = watch_navigations(phone)

    for round_number in range(1, 14):
        expect(phone.locator(".turn-banner")).to_contain_text(f"Round {round_number} of 13")
        if round_number == 3:
            # A turn in progress, as the phone shows it, then the best box.
            roll(phone, keyboard=False)
            phone.evaluate("() => window.scrollTo(0, 0)")
            save_screenshot(phone, "phone-turn", full_page=False)
            assert_fits(phone, "a turn in progress")
            box, _ = max(score_options(phone), key=lambda option: option[1])
            score(phone, box, keyboard=False)
        else:
            play_turn(phone, keyboard=False, rolls=3 if round_number % 2 else 2)
        assert_fits(phone, f"round {round_number}")

    assert loads == [], "the page was reloaded during the game"
    state = server.state(code_of(link))
    assert state["status"] == "finished"
    ranking = phone.get_by_role("region", name="Final ranking")
    expect(ranking).to_contain_text("Pia on the bus")
    expect(ranking.locator(".points")).to_have_text(str(state["seats"][0]["total"]))
    assert totals(phone) == [str(state["seats"][0]["total"])]
    assert_fits(phone, "final ranking")
    save_screenshot(phone, "phone-ranking")
    # Everything folded away on the final page unfolds within the screen too.
    for summary in phone.locator("#board details > summary").all():
        press(summary)
    save_screenshot(phone, "phone-ranking-unfolded")
    assert_fits(phone, "final ranking, unfolded")
