"""Table talk in the browser: a Telugu reader and an Uzbek reader at one table exchange
quick phrases and each reads them in their own language; one mutes the other; a reported
message hidden by a moderator in the admin vanishes from the open pages."""

from __future__ import annotations

import subprocess
import sys

from playwright.sync_api import expect

from .conftest import ROOT
from .people import (
    PASSWORD,
    act,
    open_table_in_any_language,
    press,
    serious_violations_in_both_themes,
    version,
    wait_live,
    wait_version,
)

MODERATOR = "moderator"


def make_moderator(server) -> None:
    script = (
        "from django.contrib.auth import get_user_model;"
        f"get_user_model().objects.create_superuser({MODERATOR!r}, '', {PASSWORD!r})"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=server.env,
        check=True,
        capture_output=True,
    )


def say(page, phrase: str) -> None:
    page.locator("#chat .chat-phrases").get_by_role("button", name=phrase, exact=True).click()


def line(page, words: str):
    return page.locator("#chat-log li", has_text=words)


def test_two_languages_talk_mute_and_a_hidden_report_vanishes(person, server):
    ravi = person(locale="te-IN", viewport={"width": 1100, "height": 900})
    zarina = person(locale="uz-UZ", viewport={"width": 1100, "height": 900})

    link = open_table_in_any_language(ravi, 2, "Ravi")
    zarina.goto(link)
    wait_live(zarina)
    zarina.locator("#join-name").fill("Zarina")
    before = version(ravi)
    act(zarina, "/join/", lambda: press(zarina.locator('button[formaction$="/join/"]')))
    wait_version(ravi, before + 1)

    # Quick phrases, each read in the reader's own language; the log is a polite live region.
    expect(ravi.locator("#chat-log")).to_have_attribute("aria-live", "polite")
    say(ravi, "ఆల్ ది బెస్ట్!")
    expect(line(zarina, "Omad!")).to_contain_text("Ravi")
    expect(line(ravi, "ఆల్ ది బెస్ట్!")).to_be_visible()
    say(zarina, "Rahmat!")
    expect(line(ravi, "థాంక్స్!")).to_contain_text("Zarina")
    expect(line(zarina, "Rahmat!")).to_be_visible()
    # The phrase buttons are keyboard reachable: focus one and press Enter.
    zarina.locator("#chat .chat-phrases").get_by_role("button", name="Salom!").focus()
    zarina.keyboard.press("Enter")
    expect(line(ravi, "హలో!")).to_be_visible()

    # Free text goes out as written, untranslated.
    ravi.locator("#chat-text").fill("మళ్ళీ కలుద్దాం <b>")
    ravi.locator("#chat-text").press("Enter")
    expect(line(zarina, "మళ్ళీ కలుద్దాం <b>")).to_be_visible()
    assert serious_violations_in_both_themes(zarina) == {}

    # Ravi mutes Zarina: her next phrase never reaches his page (his own later one does).
    ravi_line = line(ravi, "థాంక్స్!")
    ravi_line.locator("summary").click()
    ravi_line.get_by_role("button", name="Zarina ను మ్యూట్ చేయండి").click()
    expect(line(ravi, "థాంక్స్!")).to_have_count(0)
    expect(ravi.locator("#chat .chat-muted")).to_contain_text("Zarina")
    say(zarina, "Xayr!")
    expect(line(zarina, "Xayr!")).to_be_visible()
    say(ravi, "మంచి ఆట!")
    expect(line(ravi, "మంచి ఆట!")).to_be_visible()
    expect(line(ravi, "బై!")).to_have_count(0)

    # Zarina reports Ravi's text; a moderator hides it in the admin: gone from both pages.
    reported = line(zarina, "మళ్ళీ కలుద్దాం")
    reported.locator("summary").click()
    reported.locator("select[name=reason]").select_option("spam")
    reported.get_by_role("button", name="Shikoyat qilish").click()
    make_moderator(server)
    moderator = person(locale="en-GB")
    moderator.goto("/admin/login/?next=/admin/games/chatreport/")
    moderator.locator("#id_username").fill(MODERATOR)
    moderator.locator("#id_password").fill(PASSWORD)
    moderator.locator("#login-form [type=submit]").click()
    expect(moderator.locator("#result_list")).to_contain_text("మళ్ళీ కలుద్దాం")
    moderator.locator("#result_list input.action-select").first.check()
    moderator.locator("select[name=action]").select_option("hide")
    moderator.locator("button[name=index]").click()
    expect(moderator.locator(".messagelist")).to_contain_text("1 message hidden.")
    expect(line(zarina, "మళ్ళీ కలుద్దాం")).to_have_count(0)
    expect(line(ravi, "మళ్ళీ కలుద్దాం")).to_have_count(0)
    expect(line(zarina, "Omad!")).to_be_visible()
