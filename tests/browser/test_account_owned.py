"""An account you own, in the browser: a forgotten password reset through the e-mailed link
(read where the embedded server prints its e-mails, its console), and an account deleted
in the middle of a game, which the other player sees live and plays on against the coach."""

from __future__ import annotations

import re
import secrets
import time

from playwright.sync_api import Page, expect

from .conftest import LiveServer
from .people import (
    MY_TURN,
    PASSWORD,
    code_of,
    open_table,
    play_turn,
    sign_up,
    start_game,
    take_seat,
    version,
    wait_live,
    wait_version,
)

NEW_PASSWORD = "a-brand-new-pair-of-dice-77"


def log_in(page: Page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def mailed_link(server: LiveServer, username: str, timeout: float = 10) -> str:
    """The reset link of the last e-mail to ``username``, from the server's console."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log_path.read_text(errors="replace")
        mails = log.split(f"Hello {username},")
        if len(mails) > 1:
            found = re.search(r"https?://\S+/accounts/password/reset/\S+/", mails[-1])
            if found:
                return found.group(0)
        time.sleep(0.1)
    raise AssertionError(f"no reset e-mail to {username} in {server.log_path}")


def ask_for_a_link(page: Page, email: str) -> str:
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send me a link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    return page.locator("main").inner_text()


def test_a_forgotten_password_is_reset_through_the_mailed_link(person, server):
    name = f"dora_{secrets.token_hex(3)}"
    email = f"{name}@example.com"
    dora = person()
    sign_up(dora, name)
    dora.goto("/accounts/")
    dora.get_by_label("E-mail address").fill(email)
    dora.get_by_role("button", name="Save").click()
    expect(dora.get_by_text("Your e-mail address is saved.")).to_be_visible()
    dora.get_by_role("button", name="Log out").click()

    # A stranger asking for an unknown address reads exactly what Dora reads.
    stranger = person()
    unknown = ask_for_a_link(stranger, f"nobody_{name}@example.com")
    answer = ask_for_a_link(dora, email)
    assert answer == unknown

    dora.goto(mailed_link(server, name))
    dora.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    dora.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    dora.get_by_role("button", name="Set my password").click()
    expect(dora.get_by_role("heading", name="Your password is set")).to_be_visible()

    log_in(dora, name, PASSWORD)  # the old password is gone
    expect(dora.locator("main .error")).to_be_visible()
    log_in(dora, name, NEW_PASSWORD)
    expect(dora.get_by_role("navigation", name="Account")).to_contain_text(name)


def test_an_account_deleted_mid_game_leaves_its_seat_to_the_coach_and_its_name_behind(
    person, server
):
    tag = secrets.token_hex(3)
    ann_name, ben_name = f"ann_{tag}", f"ben_{tag}"
    ann, ben = person(), person()
    sign_up(ann, ann_name)
    sign_up(ben, ben_name)
    link = open_table(ann, seats=2)
    take_seat(ben, link)
    start_game(ann, players=2)
    wait_live(ben)
    before = version(ben)

    # Ann deletes her account from the account page, confirming with her password.
    ann.goto("/accounts/")
    ann.get_by_role("link", name="Delete your account").click()
    ann.get_by_label("Your password").fill("not my password")
    ann.get_by_role("button", name="Delete my account").click()
    expect(ann.locator("main .error")).to_contain_text("That is not your password")
    ann.get_by_label("Your password").fill(PASSWORD)
    ann.get_by_role("button", name="Delete my account").click()
    expect(ann.get_by_text("Your account is deleted.")).to_be_visible()
    expect(ann.get_by_role("navigation", name="Account")).to_contain_text("Log in")

    # Ben's open table drops her name without a reload, and plays on against the coach.
    wait_version(ben, before + 1)
    head = ben.locator("#board .scorecard thead")
    expect(head).to_contain_text("A former player")
    expect(head).not_to_contain_text(ann_name)
    for _ in range(2):  # whoever is on turn, Ben gets to play twice: the coach plays Ann's
        ben.wait_for_function(MY_TURN, timeout=20_000)
        play_turn(ben, keyboard=False)
    ben.wait_for_function(MY_TURN, timeout=20_000)
    state = server.state(code_of(link))
    assert state["status"] == "playing"
    assert [seat["name"] for seat in state["seats"]] in (
        ["A former player", ben_name],
        [ben_name, "A former player"],
    )

    # Her history is gone, and her name cannot be taken again.
    assert ben.goto(f"/u/{ann_name}/").status == 404
    stranger = person()
    stranger.goto("/accounts/signup/")
    stranger.get_by_label("Username").fill(ann_name.upper())
    stranger.get_by_label("Password", exact=True).fill(PASSWORD)
    stranger.get_by_label("Password confirmation").fill(PASSWORD)
    stranger.get_by_role("button", name="Create account").click()
    expect(stranger.locator("main")).to_contain_text("belonged to an account that was deleted")
