"""Scenario 1: two friends sign up, share a link and play all thirteen rounds live."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from .people import (
    code_of,
    dice,
    keep,
    open_table,
    play_turn,
    roll,
    save_screenshot,
    score,
    score_options,
    sign_up,
    start_game,
    take_seat,
    totals,
    version,
    wait_version,
    watch_navigations,
    your_turn,
)


def test_two_friends_sign_up_and_play_thirteen_rounds_seeing_each_other_live(
    person, server, csp_violations
):
    tag = secrets.token_hex(3)
    ann_name, ben_name = f"ann_{tag}", f"ben_{tag}"
    ann = person(viewport={"width": 1100, "height": 900})
    ben = person(viewport={"width": 1100, "height": 900})
    sign_up(ann, ann_name)
    sign_up(ben, ben_name)

    # Ann opens a two-seat table from the home page and copies its link.
    link = open_table(ann, seats=2)
    code = code_of(link)
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    copy = ann.locator("button[data-copy]")
    expect(copy).to_have_text("Copy link")
    copy.click()
    expect(copy).to_have_text("Copied!")
    assert ann.evaluate("() => navigator.clipboard.readText()") == link

    # Ben opens the link and sits down; Ann's lobby shows him without a reload.
    lobby_version = version(ann)
    take_seat(ben, link)
    wait_version(ann, lobby_version + 1)
    expect(ann.locator("#board .seat-list")).to_contain_text(ben_name)
    expect(ann.get_by_role("button", name="Start with 2 players")).to_be_enabled()
    expect(ann.locator("#presence")).to_contain_text(ben_name)
    save_screenshot(ann, "lobby")

    start_game(ann, players=2)
    wait_version(ben, version(ann))
    expect(ben.locator("#board .turn")).to_be_visible()

    loads = {page: watch_navigations(page) for page in (ann, ben)}
    turns = 0
    while server.state(code)["status"] == "playing":
        assert your_turn(ann) != your_turn(ben), "exactly one player is to play"
        player, watcher = (ann, ben) if your_turn(ann) else (ben, ann)
        round_number = turns // 2 + 1
        expect(player.locator(".turn-banner")).to_contain_text("Your turn!")
        expect(player.locator(".turn-banner")).to_contain_text(f"Round {round_number} of 13")
        expect(watcher.locator(".turn-banner")).to_contain_text(f"Round {round_number} of 13")
        expect(player).to_have_title(re.compile(r"^▶ Your turn"))
        expect(watcher).not_to_have_title(re.compile(r"^▶"))
        # Each player alternates between the mouse and the keyboard, round by round.
        keyboard = round_number % 2 == 0
        if round_number == 6 and player is ann:
            # A turn in progress, for the screenshot: roll, keep a pair or better, roll again.
            roll(ann, keyboard=keyboard, watchers=[ben])
            faces = [d.value for d in dice(ann)]
            best = max(set(faces), key=faces.count)
            for die in dice(ann):
                if die.value == best:
                    keep(ann, die.number, keyboard=keyboard, watchers=[ben])
            expect(ben.locator("#board .die.held:visible")).to_have_count(faces.count(best))
            save_screenshot(ann, "turn")
            box, _ = max(score_options(ann), key=lambda option: option[1])
            score(ann, box, keyboard=keyboard, watchers=[ben])
        else:
            play_turn(player, keyboard=keyboard, watchers=[watcher])
        turns += 1
        assert turns <= 26

    assert turns == 26
    assert loads == {ann: [], ben: []}, "a page was reloaded during the game"
    state = server.state(code)
    assert state["status"] == "finished"
    for page in (ann, ben):
        wait_version(page, state["version"])

    # Both see the final ranking, in the order of the totals the server stored.
    by_total = sorted(state["seats"], key=lambda seat: seat["place"])
    for page in (ann, ben):
        ranking = page.get_by_role("region", name="Final ranking")
        expect(ranking).to_be_visible()
        names = ranking.locator(".standings .name").all_inner_texts()
        points = [int(p) for p in ranking.locator(".standings .points").all_inner_texts()]
        assert names == [seat["name"] for seat in by_total]
        assert points == [seat["total"] for seat in by_total]
        assert totals(page) == [str(seat["total"]) for seat in state["seats"]]
    ann.evaluate("() => window.scrollTo(0, 0)")
    save_screenshot(ann, "ranking", full_page=False)

    # The coach's review of the game arrives by itself, live, on both pages.
    for page in (ann, ben):
        review = page.get_by_role("region", name="The coach’s review")
        expect(review).to_be_visible(timeout=60_000)
        for name in (ann_name, ben_name):
            expect(review.locator(".review-summary")).to_contain_text(name)

    # And both find the game in their history.
    for page, name in ((ann, ann_name), (ben, ben_name)):
        page.get_by_role("navigation", name="Account").get_by_role("link", name=name).click()
        expect(page).to_have_url(re.compile(rf"/u/{name}/$"))
        expect(page.get_by_role("heading", level=1)).to_contain_text(name)
        row = page.locator("table.history tbody tr", has_text=f"Table {code}")
        expect(row).to_have_count(1)
        mine = next(seat for seat in state["seats"] if seat["name"] == name)
        expect(row).to_contain_text(str(mine["total"]))
        expect(page.locator(".stats")).to_contain_text("Games played")
    save_screenshot(ann, "history")

    # The whole game ran under the strict Content Security Policy without one violation
    # (the ``person`` fixture fails the test on any); and the policy is really enforced
    # and reported: a script slipped into the page is blocked, and the report arrives.
    assert csp_violations == []
    ran = ann.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.__injected = true";
            document.head.append(script);
            return window.__injected === true;
        }"""
    )
    assert ran is False
    ann.wait_for_function("() => window.__cspReported === 1")
    assert len(csp_violations) == 1
    assert csp_violations[0].startswith("script-src-elem blocked inline")
    csp_violations.clear()
