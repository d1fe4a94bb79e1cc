"""What a person does on the site, written once for every browser scenario.

Every helper clicks, taps or types as a person would; none of them posts forms by hand or
reloads a page unless the scenario is about reloading. After each move the helper waits for
the server's answer and for the board's ``data-version`` to move on, so the next step never
races the previous one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Frame, Locator, Page, expect

PASSWORD = "a-long-table-of-dice-42"
AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
BOXES = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
_DIE_LABEL = re.compile(r"Die (\d): (\d)(?:(, kept)|, keep)?")
_SCORE_LABEL = re.compile(r"Score (\d+) in (.+)")


# -- accounts and tables -------------------------------------------------------------------


def sign_up(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(username)


def open_table(
    page: Page, seats: int, guest_name: str | None = None, series: int | None = None
) -> str:
    """From the home page, open a table (the first of a series of ``series`` games, if
    given); returns the link read from the share box."""
    page.goto("/")
    page.get_by_label("Players").select_option(str(seats))
    if series is not None:
        page.get_by_label("Games in the series").select_option(str(series))
    if guest_name is not None:
        page.get_by_label("Your display name").fill(guest_name)
    press(page.get_by_role("button", name="Open a table"))
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()
    link = page.get_by_label("Invite friends with this link").input_value()
    assert link == page.url, (link, page.url)
    wait_live(page)
    return link


def open_table_in_any_language(page: Page, seats: int, guest_name: str) -> str:
    """:func:`open_table` for a page in any language: by the home page form's fields, not
    their (translated) labels; returns the table's link from its share box."""
    page.goto("/")
    page.locator("#id_seats").select_option(str(seats))
    page.locator("#id_name").fill(guest_name)
    press(page.locator('form[action="/games/new/"] button[type="submit"]'))
    expect(page.locator("#board")).to_be_visible()
    wait_live(page)
    return page.locator("#share-link").input_value()


def code_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


def take_seat(page: Page, link: str, guest_name: str | None = None) -> None:
    if page.url != link:
        page.goto(link)
    wait_live(page)
    if guest_name is not None:
        page.get_by_label("Your display name").fill(guest_name)
    act(page, "/join/", lambda: press(page.get_by_role("button", name="Take a seat")))
    expect(page.locator("#board .seat.you")).to_be_visible()


def start_game(page: Page, players: int) -> None:
    label = f"Start with {players} player{'s' if players > 1 else ''}"
    act(page, "/start/", lambda: press(page.get_by_role("button", name=label)))
    expect(page.locator("#board .turn")).to_be_visible()


# -- the live board ------------------------------------------------------------------------


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or 0)


def wait_version(page: Page, at_least: int, timeout: float | None = None) -> int:
    """Wait (without reloading) until the page shows version ``at_least`` or later and htmx
    has settled it (until then the new buttons would submit as plain forms)."""
    page.wait_for_function(
        "v => { const b = document.getElementById('board');"
        " return !!b && Number(b.dataset.version) >= v"
        " && !document.querySelector('.htmx-added, .htmx-settling, .htmx-swapping'); }",
        arg=at_least,
        timeout=timeout,
    )
    return version(page)


# Counts each page's websocket openings, closings (close codes) and messages since the last
# opening; every context gets it (see the ``person`` fixture).
WS_LOG = """
window.__ws = {opens: 0, closes: [], fresh: 0};
document.addEventListener('htmx:wsOpen', () => { window.__ws.opens += 1; window.__ws.fresh = 0; });
document.addEventListener('htmx:wsClose', e => { window.__ws.closes.push(e.detail.event.code); });
document.addEventListener('htmx:wsAfterMessage', () => { window.__ws.fresh += 1; });
"""


# Every page reports what its Content Security Policy blocks (``reportCspViolation`` is
# exposed by the ``person`` fixture, which fails the test if anything was reported).
CSP_LOG = """
window.__cspReported = 0;
document.addEventListener('securitypolicyviolation', e => {
  window.reportCspViolation(
    `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`
  ).then(() => { window.__cspReported += 1; });
});
"""


def wait_live(page: Page, timeout: float | None = None) -> None:
    """The page's websocket is open and has delivered the table and who is here."""
    page.wait_for_function(
        "() => window.__ws && window.__ws.fresh >= 2"
        " && !document.querySelector('.htmx-added, .htmx-settling, .htmx-swapping')",
        timeout=timeout,
    )
    expect(page.locator("#presence .watching")).to_be_visible()


def act(page: Page, path: str, do: Callable[[], Any]) -> int:
    """Do one move (a click or a key) and wait for the server's answer and the new board."""
    before = version(page)
    with page.expect_response(
        lambda r: path in r.url and r.request.method == "POST"
    ) as response_info:
        do()
    response = response_info.value
    assert response.ok, f"{path} answered {response.status}"
    return wait_version(page, before + 1)


def watch_navigations(page: Page) -> list[str]:
    """From now on, every page load of ``page`` (a reload, a plain form post) lands here."""
    loads: list[str] = []

    def loaded(frame: Frame) -> None:
        if frame is page.main_frame:
            loads.append(frame.url)

    page.on("framenavigated", loaded)
    return loads


def choose_language(page: Page, language: str) -> None:
    """Pick a language from the header's menu and wait until its page has fully loaded.

    The new page's ``lang`` shows as soon as its first bytes are parsed; measuring layout then
    could read it before its stylesheet has arrived.
    """
    page.locator(f'.language-menu button[value="{language}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.wait_for_load_state("load")


def unfocus(page: Page) -> None:
    """Nothing has the keyboard focus: keys go to the page itself."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


# The seat marker (#me) says whose page this is, the board's data-turn whose turn it is.
MY_TURN = """() => {
    const me = document.querySelector('#me'), board = document.querySelector('#board');
    return !!me && !!board && me.dataset.seat !== '' && me.dataset.seat === board.dataset.turn;
}"""


def your_turn(page: Page) -> bool:
    """Whether this page is the player on turn's: its seat marker is the board's seat on turn
    (one board serves the whole table; CSS shows this page the controls)."""
    return bool(page.evaluate(MY_TURN))


@dataclass(frozen=True)
class Die:
    number: int  # 1..5, as the keys and the labels count
    value: int
    kept: bool


def dice(page: Page) -> list[Die]:
    labels = page.locator("#board .dice button.die:visible").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )
    found = []
    for label in labels:
        match = _DIE_LABEL.fullmatch(label)
        assert match, label
        found.append(Die(int(match[1]), int(match[2]), bool(match[3])))
    return found


def score_options(page: Page) -> list[tuple[str, int]]:
    """``(box, points)`` for each open box the player may score now, in printed order."""
    found = page.locator("#board button.box-button:visible").evaluate_all(
        "buttons => buttons.map(b => [b.value, b.getAttribute('aria-label')])"
    )
    options = []
    for box, label in found:
        match = _SCORE_LABEL.fullmatch(label)
        assert match, label
        options.append((box, int(match[1])))
    return options


def totals(page: Page) -> list[str]:
    return page.locator("#board .scorecard tfoot td").all_inner_texts()


def filled(page: Page) -> list[str]:
    return page.locator("#board .scorecard td.filled").all_inner_texts()


# -- playing a turn ------------------------------------------------------------------------


def press(locator: Locator) -> None:
    """A tap on a touch screen, a mouse click elsewhere."""
    if locator.page.evaluate("() => navigator.maxTouchPoints > 0"):
        locator.tap()
    else:
        locator.click()


def _sync(watchers: Iterable[Page], at_least: int, player: Page) -> None:
    """Every watching page shows the new version live, with the same dice and totals."""
    for watcher in watchers:
        wait_version(watcher, at_least)
        assert [(d.value, d.kept) for d in dice(watcher)] == [
            (d.value, d.kept) for d in dice(player)
        ]
        assert totals(watcher) == totals(player)


def roll(page: Page, *, keyboard: bool, watchers: Iterable[Page] = ()) -> int:
    if keyboard:
        unfocus(page)
        new = act(page, "/roll/", lambda: page.keyboard.press("r"))
    else:
        new = act(page, "/roll/", lambda: press(page.locator("[data-roll]")))
    _sync(watchers, new, page)
    return new


def keep(page: Page, number: int, *, keyboard: bool, watchers: Iterable[Page] = ()) -> int:
    if keyboard:
        unfocus(page)
        new = act(page, "/keep/", lambda: page.keyboard.press(str(number)))
    else:
        new = act(page, "/keep/", lambda: press(page.locator(f'[data-die="{number}"]:visible')))
    _sync(watchers, new, page)
    return new


def score(page: Page, box: str, *, keyboard: bool, watchers: Iterable[Page] = ()) -> int:
    """Score the dice in ``box`` (a category value such as ``"full_house"``)."""
    button = page.locator(f'#board button.box-button[value="{box}"]')
    if keyboard:
        # Tab through the page to the box's button, as a keyboard user would, then Enter.
        unfocus(page)
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.value") == box:
                break
        else:
            raise AssertionError(f"Tab never reached the {box} box")
        new = act(page, "/score/", lambda: page.keyboard.press("Enter"))
    else:
        new = act(page, "/score/", lambda: press(button))
    for watcher in watchers:
        wait_version(watcher, new)
        assert totals(watcher) == totals(page)
        assert filled(watcher) == filled(page)
    return new


def play_turn(
    page: Page, *, keyboard: bool, watchers: Iterable[Page] = (), rolls: int = 2
) -> tuple[str, int]:
    """Roll, keep the most common face, roll again, score the best box. Returns the box."""
    watchers = list(watchers)
    roll(page, keyboard=keyboard, watchers=watchers)
    for _ in range(rolls - 1):
        faces = dice(page)
        best = Counter(d.value for d in faces).most_common(1)[0][0]
        for die in faces:
            if (die.value == best) != die.kept:
                keep(page, die.number, keyboard=keyboard, watchers=watchers)
        if all(d.kept for d in dice(page)):
            break  # five of a kind: nothing to roll
        roll(page, keyboard=keyboard, watchers=watchers)
    options = score_options(page)
    assert options, "no box to score in"
    box, points = max(options, key=lambda option: option[1])
    score(page, box, keyboard=keyboard, watchers=watchers)
    return box, points


# -- accessibility -------------------------------------------------------------------------


def axe_violations(page: Page, impacts: Iterable[str] = ("critical",)) -> list[dict[str, Any]]:
    """Run axe-core (vendored) on the page; the violations of the given impacts."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the debugger rather than added as a <script> tag, which the
        # site's Content Security Policy (no inline script) blocks.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    wanted = set(impacts)
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
        if v["impact"] in wanted
    ]


def serious_violations_in_both_themes(page: Page) -> dict[str, list[dict[str, Any]]]:
    """axe's serious and critical findings on the page, in the light and the dark theme."""
    found = {}
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        violations = axe_violations(page, impacts=("serious", "critical"))
        if violations:
            found[theme] = violations
    page.emulate_media(color_scheme="light")
    return found


def save_screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Write ``test-artifacts/screenshots/<name>.png`` (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.evaluate("() => { document.activeElement?.blur(); getSelection().removeAllRanges(); }")
    page.screenshot(path=str(path), full_page=full_page)
    return path
