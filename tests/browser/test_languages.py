"""People reading Telugu and Uzbek: the browser's language is honoured, the menu switches
it and the choice sticks, and the rules read in each language (screenshots of both)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.test_languages import english_in, shown_on_purpose

from .people import (
    act,
    code_of,
    open_table_in_any_language,
    press,
    save_screenshot,
    serious_violations_in_both_themes,
    version,
    wait_live,
    wait_version,
    your_turn,
)


def test_a_telugu_browser_and_an_uzbek_one_read_the_rules_in_their_own_language(person):
    ravi = person(locale="te-IN")
    ravi.goto("/rules/")
    expect(ravi.locator("html")).to_have_attribute("lang", "te")
    expect(ravi.get_by_role("heading", level=1)).to_have_text("యాట్జీ ఎలా ఆడాలి")
    expect(ravi.locator("#joker")).to_have_text("జోకర్ నియమాలు")
    assert serious_violations_in_both_themes(ravi) == {}
    save_screenshot(ravi, "rules-te", full_page=False)

    zarina = person(locale="uz-UZ")
    zarina.goto("/rules/#upper-first")
    expect(zarina.locator("html")).to_have_attribute("lang", "uz")
    expect(zarina.get_by_role("heading", level=1)).to_have_text("Yahtzee qanday oʻynaladi")
    expect(zarina.locator("#upper-first")).to_contain_text("Avval yuqori qism")
    assert serious_violations_in_both_themes(zarina) == {}
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


# -- one table, two languages ------------------------------------------------------------------


def english_read_on(page) -> list[str]:
    """The catalog's English UI words that the page, its labels and its title still show
    (but what tests.test_languages.shown_on_purpose leaves in English by design)."""
    read = page.evaluate(
        """() => [document.title, document.body.innerText,
            ...[...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')]
              .flatMap(e => ['aria-label', 'title', 'placeholder', 'alt']
                .map(a => e.getAttribute(a) || ''))].join('\\n')"""
    )
    language = page.locator("html").get_attribute("lang")
    return english_in(shown_on_purpose(read), language)


def play_a_turn(player, watcher) -> None:
    """Roll once and fill the best-scoring open box, with the watcher's page following."""
    new = act(player, "/roll/", lambda: press(player.locator("[data-roll]")))
    wait_version(watcher, new)
    boxes = player.locator("#board button.box-button")
    best = max(range(boxes.count()), key=lambda i: int(boxes.nth(i).inner_text()))
    new = act(player, "/score/", lambda: press(boxes.nth(best)))
    wait_version(watcher, new)


def test_a_telugu_player_and_an_uzbek_one_each_read_their_own_language_at_one_table(person, server):
    ravi = person(locale="te-IN", viewport={"width": 1100, "height": 900})
    zarina = person(locale="uz-UZ", viewport={"width": 1100, "height": 900})

    # Ravi opens a table for three from the home page and seats a computer player.
    link = open_table_in_any_language(ravi, 3, "Ravi")
    ravi.locator("#bot-level").select_option("casual")
    act(ravi, "/bots/add/", lambda: press(ravi.locator('button[formaction$="/bots/add/"]')))

    # Zarina follows the link and sits down; Ravi's lobby shows her without a reload.
    zarina.goto(link)
    wait_live(zarina)
    zarina.locator("#join-name").fill("Zarina")
    before = version(ravi)
    act(zarina, "/join/", lambda: press(zarina.locator('button[formaction$="/join/"]')))
    wait_version(ravi, before + 1)
    expect(ravi.locator("#board .seat-list")).to_contain_text("Zarina")
    expect(zarina.locator("#board .seat-list")).to_contain_text("Havaskor bot")
    expect(ravi.locator("#board .seat-list")).to_contain_text("క్యాజువల్ బాట్")

    new = act(ravi, "/start/", lambda: press(ravi.locator('button[formaction$="/start/"]')))
    wait_version(zarina, new)

    # Each plays a turn when it comes (the computer player plays its own in between).
    code = code_of(link)
    played: list[object] = []
    for _ in range(300):
        if len(played) == 2:
            break
        now = server.state(code)["version"]
        for page in (ravi, zarina):
            wait_version(page, now)
        player = next((p for p in (ravi, zarina) if p not in played and your_turn(p)), None)
        if player is None:
            ravi.wait_for_timeout(100)  # the computer player's move is on its way
            continue
        cue = "మీ వంతు" if player is ravi else "Navbatingiz"
        expect(player).to_have_title(re.compile(f"^▶ {cue} · "))
        play_a_turn(player, zarina if player is ravi else ravi)
        played.append(player)
    assert len(played) == 2, "both people had a turn"

    # After the live pushes, each still reads only their own language.
    for page, language, bot in ((ravi, "te", "క్యాజువల్ బాట్"), (zarina, "uz", "Havaskor bot")):
        wait_version(page, server.state(code)["version"])
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#board .scorecard thead")).to_contain_text(bot)
        expect(page.locator("#board .last-move")).to_be_visible()
        assert english_read_on(page) == [], language
        assert "Casual bot" not in page.locator("body").inner_text()
    expect(ravi.locator("#presence")).to_contain_text("క్యాజువల్ బాట్")
    expect(zarina.locator("#presence")).to_contain_text("Havaskor bot")
    save_screenshot(ravi, "table-te", full_page=False)
    save_screenshot(zarina, "table-uz", full_page=False)


# -- a Telugu keyboard ---------------------------------------------------------------------

# A key as a Telugu (InScript) keyboard sends it: the character it types, and the place of
# the key on the keyboard (event.code), which is the same on every layout.
KEY_DOWN = """([key, code, shiftKey, selector]) =>
    (selector ? document.querySelector(selector) : document.body).dispatchEvent(
        new KeyboardEvent('keydown', {key, code, shiftKey, bubbles: true, cancelable: true}))"""


def test_on_a_telugu_keyboard_the_shortcuts_go_by_the_keys_place(person):
    ravi = person(locale="te-IN")
    open_table_in_any_language(ravi, 1, "Ravi")
    act(ravi, "/start/", lambda: press(ravi.locator('button[formaction$="/start/"]')))

    def key(char: str, code: str, *, shift: bool = False, into: str | None = None) -> bool:
        """Press it; whether the page took it as a shortcut (and so typed nothing)."""
        return not ravi.evaluate(KEY_DOWN, [char, code, shift, into])

    # In a form field the key types its letter: nothing is rolled.
    assert key("ర", "KeyR", into="#share-link") is False
    act(ravi, "/roll/", lambda: key("ర", "KeyR"))  # R: ర on a Telugu keyboard
    act(ravi, "/keep/", lambda: key("౧", "Digit1"))
    expect(ravi.locator('[data-die="1"]')).to_have_attribute("aria-pressed", "true")
    act(ravi, "/keep/", lambda: key("౩", "Numpad3"))
    expect(ravi.locator('[data-die="3"]')).to_have_attribute("aria-pressed", "true")

    boxes = ravi.locator("#board button.box-button")
    assert key("మ", "KeyS")  # S: the first open box
    expect(boxes.first).to_be_focused()
    assert key("శ", "KeyS", shift=True)  # Shift+S: back round to the last
    expect(boxes.last).to_be_focused()
