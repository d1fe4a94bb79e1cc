"""Scenario: the create form makes "rated" and the coach exclusive. With the box ticked
(the default) and more than one seat, hints "on" and feedback are greyed out; unticking
it, or choosing a solo table, offers them again; a casual table opens with hints on."""

from __future__ import annotations

from playwright.sync_api import expect

from .people import press


def test_rated_greys_out_hints_and_feedback_until_the_table_is_casual(person, server):
    page = person()
    page.goto("/")
    rated = page.locator("[name=rated]")
    hints_on = page.locator("[name=coach_hints] option[value=on]")
    feedback = page.locator("[name=feedback]")

    expect(rated).to_be_checked()
    expect(hints_on).to_be_disabled()
    expect(feedback).to_be_disabled()

    page.get_by_label("Players").select_option("1")
    expect(hints_on).to_be_enabled()  # one person is casual whatever the box says
    expect(feedback).to_be_enabled()
    page.get_by_label("Players").select_option("2")
    expect(hints_on).to_be_disabled()

    rated.uncheck()
    expect(hints_on).to_be_enabled()
    page.get_by_label("Coach hints").select_option("on")
    page.get_by_label("Your display name").fill("Ann")
    press(page.get_by_role("button", name="Open a table"))
    expect(page.get_by_text("Casual: this game moves no rating.")).to_be_visible()
