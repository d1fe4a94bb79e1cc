"""Talking to the site as a browser does, for the view tests: links, form posts, what the
reader sees."""

from __future__ import annotations

import html
import re

from django.test import Client

from games.models import Game
from tests.conftest import HTMX, version_of


def url(game: Game | str, action: str = "") -> str:
    code = game if isinstance(game, str) else game.code
    return f"/g/{code}/{action}/" if action else f"/g/{code}/"


def post(browser: Client, game: Game, action: str, htmx: bool = False, **data: object):
    data.setdefault("version", version_of(game))
    return browser.post(url(game, action), data, headers=HTMX if htmx else {})


def text(response) -> str:
    """The response body as a reader sees it (entities decoded)."""
    return html.unescape(response.content.decode())


def error_of(response) -> str:
    found = re.findall(r'<p class="error">(.*?)</p>', text(response), re.S)
    assert found, "the page shows no error message"
    return found[0]


def error_of_form(response) -> str:
    found = re.findall(r'class="error"[^>]*>(.*?)</', text(response), re.S)
    assert found, "the page shows no error message"
    return " ".join(found)


def stat(response, label: str) -> str:
    match = re.search(rf"<dt>{label}</dt><dd>(.*?)</dd>", text(response))
    assert match, f"no {label!r} on the page"
    return match.group(1)


def state_of(browser: Client, game: Game | str) -> dict:
    response = browser.get(url(game, "state.json").rstrip("/"))
    assert response.status_code == 200
    return response.json()
