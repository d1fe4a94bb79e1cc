"""The phone's scorecard starts with the reader's own column, and the home page's choices
fit a phone, measured in the browser.

The board is rendered once for everyone who shares its viewpoint, so the page itself puts
the reader's column first (static/js/room/layout.js): on a 360 px phone a player in seat 1
finds their own column right after the box names, on their first page and after every live
push of the other player's moves, with every score under the right name; on a desktop the
columns stay in seat order. The home page's selects read whole at 320 and 360 px, and the
site's header never breaks a link in two."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from .people import (
    choose_language,
    open_table,
    roll,
    save_screenshot,
    score,
    score_options,
    serious_violations_in_both_themes,
    start_game,
    take_seat,
    version,
    wait_version,
    your_turn,
)

PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "reduced_motion": "reduce",
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}

# The score columns as the reader sees them, left to right: each column's name, where its
# header stands, and (in document order) what a screen reader meets first.
COLUMNS = """() => {
    const heads = [...document.querySelectorAll('#board .scorecard thead th[data-seat]')];
    const name = th => th.firstChild.textContent.trim();
    const box = document.querySelector('#board .scorecard thead th:first-child')
        .getBoundingClientRect();
    return {
        shown: [...heads].sort((a, b) => a.getBoundingClientRect().left
                                         - b.getBoundingClientRect().left).map(name),
        read: heads.map(name),
        firstLeft: Math.min(...heads.map(th => th.getBoundingClientRect().left)),
        namesRight: box.right,
        you: heads.filter(th => getComputedStyle(th.querySelector('.you-tag')).display !== 'none')
                  .map(name),
    };
}"""

# Every filled box and every possible score, with the name of the column it stands under
# (the header whose left and right edges enclose the cell's middle).
UNDER = """() => {
    const heads = [...document.querySelectorAll('#board .scorecard thead th[data-seat]')];
    const under = cell => { const r = cell.getBoundingClientRect(), x = r.left + r.width / 2;
        const th = heads.find(h => { const b = h.getBoundingClientRect();
                                     return b.left <= x && x <= b.right; });
        return th ? th.firstChild.textContent.trim() : null; };
    // What this page shows of a cell the dice could fill: a button on turn, else a preview.
    const shown = e => !!e && e.getClientRects().length > 0;
    const kind = cell => cell.classList.contains('filled') ? 'filled'
                         : shown(cell.querySelector('button.box-button')) ? 'button' : 'preview';
    return [...document.querySelectorAll(
        '#board .scorecard td.filled, #board .scorecard td:has(.preview),'
        + ' #board .scorecard td:has(button.box-button)')].map(cell => [kind(cell), under(cell)]);
}"""


def columns(page: Page) -> dict[str, Any]:
    return page.evaluate(COLUMNS)


def under(page: Page) -> set[tuple[str, str]]:
    return {(kind, name) for kind, name in page.evaluate(UNDER)}


def assert_own_column_first(page: Page, me: str, other: str) -> None:
    seen = columns(page)
    assert seen["shown"] == [me, other], seen
    assert seen["read"] == seen["shown"], "a screen reader would meet the columns in another order"
    assert seen["you"] == [me]
    assert abs(seen["firstLeft"] - seen["namesRight"]) <= 1, (
        "the own column is not next to the names"
    )


def test_on_a_phone_the_second_player_sees_their_own_column_first_also_after_live_pushes(
    person, server
):
    ann = person(**DESKTOP)
    link = open_table(ann, seats=2, guest_name="Ann")
    bea = person(**PHONE)
    take_seat(bea, link, guest_name="Bea")
    wait_version(ann, version(bea))
    start_game(ann, players=2)
    wait_version(bea, version(ann))

    # Ann opened the table (seat 0), Bea sat down second (seat 1).
    assert bea.locator("#me").get_attribute("data-seat") == "1"
    assert_own_column_first(bea, "Bea", "Ann")
    assert columns(ann)["shown"] == ["Ann", "Bea"]

    scored = set()
    for _ in range(2):  # one turn each, in the order the roll-off gave
        player, name = (ann, "Ann") if your_turn(ann) else (bea, "Bea")
        watcher = bea if player is ann else ann
        roll(player, keyboard=False)
        wait_version(watcher, version(player))
        # Bea's page has just been replaced by a push (Ann's roll) or by her own swap.
        assert_own_column_first(bea, "Bea", "Ann")
        kind = "button" if player is bea else "preview"
        assert under(bea) >= {(kind, name)}
        assert {column for k, column in under(bea) if k in ("button", "preview")} == {name}
        if player is bea:
            save_screenshot(bea, "table-phone-own-column", full_page=False)
        box, _ = max(score_options(player), key=lambda option: option[1])
        score(player, box, keyboard=False)
        wait_version(watcher, version(player))
        scored.add(("filled", name))
        assert_own_column_first(bea, "Bea", "Ann")
        assert {cell for cell in under(bea) if cell[0] == "filled"} == scored

    serious = serious_violations_in_both_themes(bea)
    assert not serious, json.dumps(serious, indent=2)

    # Turned into a desktop-sized window, the same page shows the seats in their order.
    bea.set_viewport_size({"width": 1280, "height": 800})
    bea.wait_for_function(
        "() => document.querySelector('#board .scorecard thead th[data-seat]').dataset.seat === '0'"
    )
    seen = columns(bea)
    assert seen["shown"] == seen["read"] == ["Ann", "Bea"]
    assert {cell for cell in under(bea) if cell[0] == "filled"} == scored
    bea.set_viewport_size({"width": 360, "height": 740})
    bea.wait_for_function(
        "() => document.querySelector('#board .scorecard thead th[data-seat]').dataset.seat === '1'"
    )
    assert_own_column_first(bea, "Bea", "Ann")


# Whether every choice of a select reads whole inside it, with room for its arrow.
CHOICES_FIT = """async ([id, arrow]) => {
    await document.fonts.ready;  // measured in the script's own font, not a fallback's
    const select = document.getElementById(id), style = getComputedStyle(select);
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
    probe.style.font = style.font;
    document.body.appendChild(probe);
    const room = select.clientWidth - parseFloat(style.paddingLeft)
                 - parseFloat(style.paddingRight) - arrow;
    const cut = [...select.options].filter(option => {
        probe.textContent = option.text;
        return probe.getBoundingClientRect().width > room;
    }).map(option => option.text);
    probe.remove();
    const r = select.getBoundingClientRect();
    return {cut, inside: r.left >= 0 && r.right <= innerWidth, width: Math.round(r.width)};
}"""
ARROW = 24  # px Chromium keeps for a select's arrow


def test_the_home_page_coach_hints_and_pace_selects_read_whole_on_a_phone(person, server):
    for width in (320, 360):
        phone = person(**{**PHONE, "viewport": {"width": width, "height": 640}})
        phone.goto("/")
        hints = phone.get_by_label("Coach hints")
        expect(hints).to_have_accessible_description(
            "Automatic: on when you play alone or only against the computer"
        )
        for language in ("en", "te", "uz"):
            if language != "en":
                choose_language(phone, language)
            fit = phone.evaluate(CHOICES_FIT, ["id_coach_hints", ARROW])
            assert fit["inside"], f"{language} at {width}px: the hints select sticks out {fit}"
            assert fit["cut"] == [], f"{language} at {width}px: cut off in the hints select"
            fit = phone.evaluate(CHOICES_FIT, ["id_pace", ARROW])
            assert fit["inside"], f"{language} at {width}px: the pace select sticks out {fit}"
            assert fit["cut"] == [], f"{language} at {width}px: cut off in the pace select"
            assert phone.evaluate("() => document.documentElement.scrollWidth") <= width


# The header's links and buttons whose words run over more than one line.
BROKEN = """() => [...document.querySelectorAll('.site-header a, .site-header button')]
    .filter(e => { const tops = new Set();
        const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        for (let text = walk.nextNode(); text; text = walk.nextNode()) {
            if (!text.textContent.trim()) continue;
            const range = document.createRange(); range.selectNodeContents(text);
            for (const r of range.getClientRects()) tops.add(Math.round(r.top));
        }
        return tops.size > 1; })
    .map(e => e.textContent.trim())"""


def test_the_header_breaks_no_link_in_two_on_a_phone(person, server):
    phone = person(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    phone.goto("/")
    for language in ("en", "te", "uz"):
        if language != "en":
            choose_language(phone, language)
        for width in (320, 360):
            phone.set_viewport_size({"width": width, "height": 640})
            assert phone.evaluate(BROKEN) == [], f"{language} at {width}px"
            assert phone.evaluate("() => document.documentElement.scrollWidth") <= width
