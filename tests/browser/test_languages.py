"""People reading Telugu and Uzbek: the browser's language is honoured, the menu switches
it and the choice sticks, and the rules read in each language (screenshots of both)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .people import axe_violations, save_screenshot


def test_a_telugu_browser_and_an_uzbek_one_read_the_rules_in_their_own_language(person):
    ravi = person(locale="te-IN")
    ravi.goto("/rules/")
    expect(ravi.locator("html")).to_have_attribute("lang", "te")
    expect(ravi.get_by_role("heading", level=1)).to_have_text("యాట్జీ ఎలా ఆడాలి")
    expect(ravi.locator("#joker")).to_have_text("జోకర్ నియమాలు")
    assert axe_violations(ravi) == []
    save_screenshot(ravi, "rules-te", full_page=False)

    zarina = person(locale="uz-UZ")
    zarina.goto("/rules/#upper-first")
    expect(zarina.locator("html")).to_have_attribute("lang", "uz")
    expect(zarina.get_by_role("heading", level=1)).to_have_text("Yahtzee qanday oʻynaladi")
    expect(zarina.locator("#upper-first")).to_contain_text("Avval yuqori qism")
    save_screenshot(zarina, "rules-uz", full_page=False)


def test_the_language_menu_switches_the_page_and_the_choice_stays(person):
    ann = person(locale="en-GB")
    ann.goto("/accounts/login/")
    expect(ann.get_by_role("heading", level=1)).to_have_text("Log in")

    ann.get_by_role("button", name="oʻzbek tili").click()

    expect(ann).to_have_url(re.compile(r"/accounts/login/$"))
    expect(ann.locator("html")).to_have_attribute("lang", "uz")
    expect(ann.get_by_role("heading", level=1)).to_have_text("Kirish")
    ann.get_by_role("link", name="Qanday oʻynaladi").first.click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Yahtzee qanday oʻynaladi")

    ann.get_by_role("button", name="English").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("How to play Yahtzee")
