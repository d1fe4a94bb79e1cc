"""Scenario: two people sign up, become friends, one opens a table and invites the other,
who sees the invitation arrive on the page they have open (the badge and a notice with a
Join button, no reload), joins, and both play."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from .people import (
    code_of,
    open_table,
    play_turn,
    save_screenshot,
    sign_up,
    start_game,
    take_seat,
    version,
    your_turn,
)


def test_friends_invite_each_other_live_and_play(person, server):
    tag = secrets.token_hex(3)
    ann_name, ben_name = f"ann_{tag}", f"ben_{tag}"
    ann = person(viewport={"width": 1100, "height": 900})
    ben = person(viewport={"width": 1100, "height": 900})
    sign_up(ann, ann_name)
    sign_up(ben, ben_name)

    # Ben waits on the home page; Ann asks him to be friends from his history page.
    ben.goto("/")
    expect(ben.locator("#inbox-badge")).to_be_visible()
    ben.wait_for_function("() => window.__siteSocketOpen === true")
    ann.goto(f"/u/{ben_name}/")
    ann.get_by_role("button", name="Add friend").click()
    expect(ann.get_by_text(f"Friend request sent to {ben_name}.")).to_be_visible()

    # Ben's badge counts the request without a reload; he accepts from the friends page.
    expect(ben.locator("#inbox-badge .badge")).to_contain_text("1")
    ben.locator("#inbox-badge").click()
    expect(ben.get_by_text(f"{ann_name} sent you a friend request.")).to_be_visible()
    ben.goto("/friends/")
    ben.get_by_role("button", name="Accept").click()
    expect(ben.get_by_text(f"You and {ann_name} are friends now.")).to_be_visible()
    expect(ben.locator(".people-list")).to_contain_text(ann_name)
    save_screenshot(ben, "friends")

    # Ben stays on his friends page. Ann opens a table and invites him from its lobby.
    ben.wait_for_function("() => window.__siteSocketOpen === true")
    link = open_table(ann, seats=2)
    code = code_of(link)
    ann.get_by_label("Invite someone by username").fill(ben_name)
    ann.get_by_role("button", name="Invite", exact=True).click()
    expect(ann.locator("#flash")).to_contain_text(f"{ben_name} is invited to this table.")

    # The invitation appears live on Ben's open page: the badge and a notice to join.
    notice = ben.locator(f'.site-notice[data-game="{code}"]')
    expect(notice).to_contain_text(f"{ann_name} invites you to table {code}.")
    expect(ben.locator("#inbox-badge .badge")).to_contain_text("1")
    expect(notice.get_by_role("link", name="Join")).to_have_attribute("href", f"/g/{code}/")
    save_screenshot(ben, "invitation-notice", full_page=False)
    # Dismissed from the page, the invitation stays in the inbox, with its Join button.
    notice.get_by_role("button", name="Dismiss").click()
    expect(notice).to_have_count(0)
    ben.locator("#inbox-badge").click()
    entry = ben.locator(".inbox-list li.invitation")
    expect(entry).to_contain_text(f"{ann_name} invites you to table {code}.")
    entry.get_by_role("link", name="Join").click()
    take_seat(ben, link)

    # Ann starts; the invitation has ended; each plays a turn.
    start_game(ann, players=2)
    expect(ben.locator("#board .turn")).to_be_visible()
    for _ in range(2):
        player, watcher = (ann, ben) if your_turn(ann) else (ben, ann)
        before = version(watcher)
        play_turn(player, keyboard=False, watchers=[watcher], rolls=1)
        assert version(watcher) > before
    assert server.state(code)["status"] == "playing"
    inbox = ben.request.get("/inbox.json").json()
    texts = [item["text"] for item in inbox["items"]]
    assert f"{ann_name} invited you to table {code}; that game has started." in texts
    ben.goto("/inbox/")
    save_screenshot(ben, "inbox")
