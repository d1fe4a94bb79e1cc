"""Scenario 2: a guest joins from the link with a display name and plays; a spectator
watches every move live."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from .people import (
    BOXES,
    code_of,
    dice,
    filled,
    open_table,
    play_turn,
    sign_up,
    start_game,
    take_seat,
    totals,
    version,
    wait_live,
    wait_version,
    watch_navigations,
    your_turn,
)


def test_a_guest_joins_with_a_display_name_and_plays_while_a_spectator_sees_every_move(
    person, server
):
    tag = secrets.token_hex(3)
    host = person()
    guest = person()
    spectator = person()
    sign_up(host, f"hana_{tag}")
    link = open_table(host, seats=2)
    code = code_of(link)

    # The guest has no account: the lobby asks for a display name.
    guest.goto(link)
    expect(guest.get_by_label("Your display name")).to_be_visible()
    expect(guest.locator(".join-form").get_by_role("link", name="Log in")).to_be_visible()
    take_seat(guest, link, guest_name="Gus the Guest")
    expect(guest.locator("#board .seat.you")).to_contain_text("Gus the Guest")
    expect(guest.locator("#board .seat.you .tag", has_text="guest")).to_be_visible()
    wait_version(host, version(guest))
    expect(host.locator("#board .seat-list")).to_contain_text("Gus the Guest")

    # The table is full: a third visitor can only watch.
    spectator.goto(link)
    wait_live(spectator)
    expect(spectator.get_by_text("The table is full; you are watching.")).to_be_visible()
    expect(spectator.get_by_role("button", name="Take a seat")).to_have_count(0)
    expect(host.locator("#presence .watching")).to_have_text("1 watching")

    loads = {page: watch_navigations(page) for page in (host, guest, spectator)}
    start_game(host, players=2)
    for page in (guest, spectator):
        wait_version(page, version(host))

    # Play until the guest has played a whole turn; the spectator follows every move.
    guest_turns = 0
    while guest_turns < 1:
        player, other = (guest, host) if your_turn(guest) else (host, guest)
        assert not your_turn(spectator)
        play_turn(player, keyboard=player is guest, watchers=[other, spectator])
        guest_turns += player is guest
        # Nothing to press for the spectator: no dice, roll or score buttons are shown.
        expect(spectator.locator("[data-roll]:visible")).to_have_count(0)
        expect(spectator.locator("button.box-button:visible")).to_have_count(0)
        expect(spectator.locator("#board .dice button.die:enabled:visible")).to_have_count(0)

    assert all(not pages for pages in loads.values()), f"a page was reloaded: {loads}"
    state = server.state(code)
    assert version(spectator) == state["version"]
    assert totals(spectator) == [str(seat["total"]) for seat in state["seats"]]
    assert filled(spectator) == filled(guest) == filled(host)
    guest_seat = next(seat for seat in state["seats"] if seat["guest"])
    assert guest_seat["name"] == "Gus the Guest"
    assert sum(v is not None for k, v in guest_seat["card"].items() if k in BOXES) == 1

    # The spectator sees the next roll too, dice for dice.
    player = guest if your_turn(guest) else host
    before = version(spectator)
    player.locator("[data-roll]").click()
    wait_version(spectator, before + 1)
    wait_version(player, version(spectator))
    assert [d.value for d in dice(spectator)] == server.state(code)["dice"]
    expect(spectator.locator("#board .die[disabled]")).to_have_count(5)
