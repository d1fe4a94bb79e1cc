"""The table laid out for play, measured in the browser: on a desktop the dice, Roll and
every open box in view at once; on phones and tablets the tray (dice and Roll) fixed in
thumb reach while the card scrolls; no page wider than a 320 px screen; a refusal gone at
the next update; onlookers never see a possible score as if it were scored; the invite
shrinks to a button once the game is on. Screenshots for the README are taken here too
(``test-artifacts/screenshots/table-*.png``)."""

from __future__ import annotations

import re
import secrets
from typing import Any

from playwright.sync_api import Page, expect

from .people import (
    act,
    code_of,
    open_table,
    roll,
    save_screenshot,
    score,
    score_options,
    sign_up,
    start_game,
    take_seat,
    version,
    wait_live,
    wait_version,
    your_turn,
)

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
TABLET = {
    "viewport": {"width": 768, "height": 1024},
    "is_mobile": True,
    "has_touch": True,
    "reduced_motion": "reduce",
}
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "reduced_motion": "reduce",
}
NARROW = {**PHONE, "viewport": {"width": 320, "height": 640}}
# The error pages as a visitor meets them (this server runs with DEBUG on, which would show
# Django's technical pages instead: yahtzee_site/urls.py serves them there for a look).
ERROR_PAGES = {"/errors/400/": 400, "/errors/403/": 403, "/errors/404/": 404, "/errors/500/": 500}
NAMES = ("Ann", "Bea", "Cy", "Dot", "Eve", "Flo", "Gus", "Hal")

IN_VIEW = """([selector, width, height]) => [...document.querySelectorAll(selector)]
  .filter(e => e.getClientRects().length).map(e => {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    return {label: e.getAttribute('aria-label') || e.textContent.trim(),
            inside: r.top >= 0 && r.left >= 0 && r.bottom <= height && r.right <= width,
            uncovered: !!top && (top === e || e.contains(top))};
})"""


def outside(page: Page, selector: str) -> list[dict[str, Any]]:
    """The elements matching ``selector`` shown on this page (one board serves the whole
    table: CSS hides what is another person's) that are not wholly visible and uncovered."""
    size = page.viewport_size
    assert size is not None
    found = page.evaluate(IN_VIEW, [selector, size["width"], size["height"]])
    assert found, f"nothing matches {selector}"
    return [e for e in found if not (e["inside"] and e["uncovered"])]


def page_width(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def fits(page: Page, width: int, where: str) -> None:
    """The page is no wider than the screen; if it is, say what sticks out."""
    if page_width(page) <= width:
        return
    wide = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > w + 0.5
                         || e.scrollWidth > Math.max(e.clientWidth, 1) + 1)
            .map(e => e.tagName.toLowerCase() + '.' + String(e.className).split(' ').join('.')
                      + ' ' + Math.round(e.getBoundingClientRect().right))""",
        width,
    )
    raise AssertionError(f"{where}: {page_width(page)}px wide; sticking out: {wide[:12]}")


def open_with_hints(page: Page, seats: int, guest_name: str) -> str:
    page.goto("/")
    page.get_by_label("Players").select_option(str(seats))
    page.get_by_label("Your display name").fill(guest_name)
    page.locator("[name=rated]").uncheck()  # hints are for casual tables only
    page.get_by_label("Coach hints").select_option("on")
    page.get_by_role("button", name="Open a table").click()
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()
    link = page.get_by_label("Invite friends with this link").input_value()
    wait_live(page)
    return link


def full_table(person, who: dict[str, Any], players: int) -> list[Page]:
    """``players`` guests at one started table, hints on; the first opened it."""
    pages = [person(**who) for _ in range(players)]
    link = open_with_hints(pages[0], players, "Ann")
    for n, page in enumerate(pages[1:], start=1):
        take_seat(page, link, guest_name=NAMES[n])
        for other in pages[:n]:
            wait_version(other, version(page))
    start_game(pages[0], players=players)
    for page in pages[1:]:
        wait_version(page, version(pages[0]))
    return pages


def on_turn(pages: list[Page]) -> tuple[Page, list[Page]]:
    player = next(page for page in pages if your_turn(page))
    return player, [page for page in pages if page is not player]


def test_on_a_desktop_dice_roll_and_every_open_box_are_in_view_for_four_players(person, server):
    pages = full_table(person, DESKTOP, 4)
    player, others = on_turn(pages)
    assert outside(player, "#board .dice .die, [data-roll]") == []
    roll(player, keyboard=False, watchers=others)
    expect(player.locator(".coach > .legend").first).to_be_visible(timeout=30_000)

    assert player.evaluate("() => window.scrollY") == 0
    assert len(score_options(player)) == 13
    assert outside(player, "#board .dice .die, [data-roll], #board button.box-button") == []
    assert page_width(player) <= 1280
    save_screenshot(player, "table-desktop-light", full_page=False)
    player.emulate_media(color_scheme="dark")
    save_screenshot(player, "table-desktop-dark", full_page=False)
    player.emulate_media(color_scheme="light")

    # The keyboard reaches every open box: S forward, Shift+S back, Enter scores.
    player.evaluate("() => document.activeElement && document.activeElement.blur()")
    player.keyboard.press("s")
    assert player.evaluate("() => document.activeElement.value") == "ones"
    player.keyboard.press("Shift+S")
    player.keyboard.press("Shift+S")
    assert player.evaluate("() => document.activeElement.value") == "yahtzee"
    act(player, "/score/", lambda: player.keyboard.press("Enter"))
    expect(player.locator("#board .last-move")).to_contain_text("scored")
    expect(player.locator("#board .last-move")).to_contain_text("in Yahtzee.")


def test_with_eight_players_the_card_scrolls_inside_its_panel_and_the_tray_stays(person, server):
    pages = full_table(person, {"viewport": {"width": 1280, "height": 800}}, 8)
    player, others = on_turn(pages)
    roll(player, keyboard=False, watchers=others[:1])
    tray = "#board .dice .die, [data-roll]"

    assert outside(player, tray) == []
    assert page_width(player) <= 1280
    spill = player.evaluate(
        "() => { const c = document.querySelector('.card-wrap');"
        " return c.scrollWidth - c.clientWidth; }"
    )
    assert spill > 0, "eight columns should scroll inside the card's panel"
    player.evaluate("() => { const c = document.querySelector('.card-wrap'); c.scrollLeft = 1e6; }")
    assert outside(player, tray) == []
    box, _ = max(score_options(player), key=lambda option: option[1])
    score(player, box, keyboard=False, watchers=others[:1])
    assert page_width(player) <= 1280


def test_on_a_phone_the_tray_stays_in_thumb_reach_while_the_card_scrolls(person, server):
    phone = person(**PHONE)
    open_table(phone, seats=1, guest_name="Pia")
    start_game(phone, players=1)
    roll(phone, keyboard=False)
    tray = "#board .dice .die, [data-roll]"
    assert outside(phone, tray) == []
    save_screenshot(phone, "table-phone-light", full_page=False)
    phone.emulate_media(color_scheme="dark")
    save_screenshot(phone, "table-phone-dark", full_page=False)
    phone.emulate_media(color_scheme="light")

    # Down to the last box: the tray has not moved, and no box hides behind it.
    # (The card's end, not the page's: the table talk comes after the card.)
    phone.evaluate(
        """() => {
            const last = document.querySelector('#board button.box-button[value="chance"]');
            const tray = document.querySelector('#board .dice').getBoundingClientRect();
            window.scrollBy(0, last.getBoundingClientRect().bottom - tray.top + 4);
        }"""
    )
    phone.wait_for_function("() => window.scrollY > 0")
    assert outside(phone, tray) == []
    assert outside(phone, '#board button.box-button[value="chance"]') == []
    box, _ = max(score_options(phone), key=lambda option: option[1])
    score(phone, box, keyboard=False)
    assert outside(phone, "[data-roll]") == []
    assert page_width(phone) <= 360


def test_on_a_tablet_the_tray_is_in_view_and_nothing_is_wider_than_the_screen(person, server):
    tablet = person(**TABLET)
    open_table(tablet, seats=1, guest_name="Tia")
    start_game(tablet, players=1)
    roll(tablet, keyboard=False)

    assert outside(tablet, "#board .dice .die, [data-roll]") == []
    tablet.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert outside(tablet, "#board .dice .die, [data-roll]") == []
    assert outside(tablet, '#board button.box-button[value="chance"]') == []
    assert page_width(tablet) <= 768


def test_no_page_scrolls_sideways_on_a_320px_screen(person, server):
    phone = person(**NARROW)
    name = f"maximilian_{secrets.token_hex(3)}"
    for path in ("/", "/accounts/login/", "/accounts/signup/"):
        phone.goto(path)
        fits(phone, 320, path)
    sign_up(phone, name)
    fits(phone, 320, "home, signed in")
    open_table(phone, seats=1, series=6)  # the series' score pad: eight columns
    fits(phone, 320, "lobby")
    start_game(phone, players=1)
    for _ in range(13):
        roll(phone, keyboard=False)
        fits(phone, 320, "a turn")
        assert outside(phone, "[data-roll]") == []
        box, _ = max(score_options(phone), key=lambda option: option[1])
        score(phone, box, keyboard=False)
    expect(phone.get_by_role("region", name="Final ranking")).to_be_visible()
    fits(phone, 320, "final ranking")
    # The review's summary names a long username, yet fits its panel without scrolling.
    summary = phone.locator(".review-summary")
    expect(summary).to_be_visible(timeout=60_000)
    assert summary.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    fits(phone, 320, "final ranking and review")
    table = phone.url
    for path in ("replay/", "series/", "verify/"):
        phone.goto(table + path)
        fits(phone, 320, path)
    expect(phone.locator(".verify-rolls td.ok").first).to_be_visible()
    for path in ("/rules/", "/practice/", "/leaderboard/", "/accounts/"):
        phone.goto(path)
        fits(phone, 320, path)
    for path, status in ERROR_PAGES.items():
        answer = phone.goto(path)
        assert answer is not None and answer.status == status, path
        expect(phone.get_by_role("link", name="Back to the tables")).to_be_visible()
        fits(phone, 320, path)
    phone.goto(f"/u/{name}/")
    expect(phone.locator("table.history tbody tr")).to_have_count(2)  # the series, the game
    fits(phone, 320, "history")
    # On a phone each row is a block of lines, each line named by its column.
    assert phone.locator("table.history td:not([data-label])").count() == 0
    assert "\U0001f3c6" not in phone.content()  # the trophy is drawn, not a font's emoji


def test_a_refusal_vanishes_at_the_next_update(person, server):
    """A tab that missed updates is refused; the next pushed board takes the message away."""
    live = person(**DESKTOP)
    sign_up(live, f"rex_{secrets.token_hex(3)}")
    link = open_table(live, seats=1)
    start_game(live, players=1)
    frozen = {"on": False}
    stale = live.context.new_page()

    def through(page_side) -> None:
        server_side = page_side.connect_to_server()
        server_side.on_message(lambda message: None if frozen["on"] else page_side.send(message))

    stale.route_web_socket(re.compile(r"/ws/g/"), through)
    stale.goto(link)
    wait_live(stale)
    frozen["on"] = True
    act(live, "/roll/", lambda: live.locator("[data-roll]").click())
    with stale.expect_response(lambda r: r.url.endswith("/roll/")) as answer:
        stale.locator("[data-roll]").click()
    assert answer.value.status == 409
    expect(stale.locator("#flash .error")).to_be_visible()

    frozen["on"] = False  # pushes flow again: the next move of the other tab arrives
    before = version(stale)
    act(live, "/keep/", lambda: live.locator('[data-die="1"]').click())
    wait_version(stale, before + 1)
    expect(stale.locator("#flash .error")).to_have_count(0)
    assert server.state(code_of(link))["version"] == version(stale)


def test_onlookers_see_possible_scores_only_in_the_column_on_turn_and_marked(person, server):
    pages = full_table(person, DESKTOP, 2)
    spectator = person(**DESKTOP)
    spectator.goto(pages[0].url)
    wait_live(spectator)
    expect(spectator.locator(".watching-note")).to_be_visible()
    for page in pages:
        expect(page.locator(".watching-note")).to_be_hidden()
    player, others = on_turn(pages)
    roll(player, keyboard=False, watchers=[*others, spectator])

    for onlooker in (*others, spectator):
        cells = onlooker.evaluate(
            """() => {
                const current = document.querySelector('.scorecard thead th.current').cellIndex;
                const look = e => { const s = getComputedStyle(e);
                    return [s.color, s.fontWeight, s.borderTopStyle].join(' '); };
                const filled = document.querySelector('.scorecard td.filled');
                return [...document.querySelectorAll('.scorecard td:has(.preview)')]
                    .filter(td => td.querySelector('.preview').getClientRects().length)
                    .map(td => ({
                    column: td.cellIndex, current,
                    look: look(td.querySelector('.maybe')),
                    filled: filled ? look(filled) : null}));
            }"""
        )
        assert cells, "the onlooker sees no possible score at all"
        assert {c["column"] for c in cells} == {cells[0]["current"]}
        for cell in cells:
            assert "dashed" in cell["look"]
            assert cell["filled"] is None or cell["look"] != cell["filled"]
        expect(onlooker.locator("button.box-button:visible")).to_have_count(0)
    save_screenshot(spectator, "table-desktop-spectator", full_page=False)


def test_the_invite_is_a_link_box_in_the_lobby_and_a_button_once_the_game_is_on(person, server):
    host = person(**DESKTOP)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = open_table(host, seats=2, guest_name="Hal")
    expect(host.get_by_label("Invite friends with this link")).to_be_visible()
    box = host.get_by_label("Invite friends with this link").bounding_box()
    assert box is not None
    shown = host.evaluate(
        "() => { const i = document.getElementById('share-link');"
        " return i.scrollWidth <= i.clientWidth; }"
    )
    assert shown, "the link box is too narrow for the whole link"
    expect(host.locator("[data-share]")).to_be_hidden()

    guest = person(**DESKTOP)
    take_seat(guest, link, guest_name="Gil")
    wait_version(host, version(guest))
    start_game(host, players=2)
    expect(host.get_by_label("Invite friends with this link")).to_be_hidden()
    invite = host.locator("[data-share]")
    expect(invite).to_be_visible()
    assert (invite.bounding_box() or {"height": 99})["height"] < 48
    invite.click()
    expect(invite).to_contain_text("Link copied")
    assert host.evaluate("() => navigator.clipboard.readText()") == link
    assert code_of(link) in link
