"""The installable site offline: a table reloaded with no network shows the offline page
from the service worker, never a stale table, and comes back whole with the network."""

from __future__ import annotations

from playwright.sync_api import expect

from .people import open_table

# The worker of the scope "/" has finished activating, so every navigation from now on,
# a reload included, goes through it. (Waiting for this page to be *controlled* is not the
# same: the worker claims the open pages when it activates, and a page whose navigation was
# still on its way at that moment, as a table opened from the home page can be, stays
# uncontrolled until it is loaded again, yet its reload is the worker's all the same.)
WORKER_ACTIVATED = """() => navigator.serviceWorker.ready.then((registration) => {
  const worker = registration.active;
  const mark = () => { if (worker.state === "activated") window.workerActivated = true; };
  worker.addEventListener("statechange", mark);
  mark();
})"""


def wait_for_the_worker(page):
    page.evaluate(WORKER_ACTIVATED)
    page.wait_for_function("() => window.workerActivated === true")


def test_a_table_reloaded_offline_shows_the_offline_page_not_a_stale_table(person):
    page = person()
    link = open_table(page, 2, guest_name="Olga")
    wait_for_the_worker(page)
    page.context.set_offline(True)

    page.reload()

    expect(page.locator("#offline-page")).to_be_visible()
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.locator("#board")).to_have_count(0)
    assert page.url == link
    answer = page.evaluate(
        "code => fetch(`/g/${code}/state.json`).then(() => 'answered', () => 'failed')",
        link.rstrip("/").rsplit("/", 1)[-1],
    )
    assert answer == "failed"  # a JSON answer is never kept either

    page.context.set_offline(False)
    page.reload()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#offline-page")).to_have_count(0)


def test_the_offline_page_speaks_the_readers_language(person):
    page = person()
    page.goto("/")
    page.context.add_cookies([{"name": "django_language", "value": "uz", "url": page.url}])
    page.goto("/rules/")
    wait_for_the_worker(page)
    page.goto("/rules/")  # a page in Uzbek tells the worker its language
    page.context.set_offline(True)

    page.reload()

    expect(page.locator("#offline-page")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == "uz"
    page.context.set_offline(False)
