"""Where a game's forms post: its action URLs, reversed once per game."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from urllib.parse import quote

from django.urls import reverse

from games import caches

ACTIONS = (
    "game_join",
    "game_leave",
    "game_add_bot",
    "game_remove_bot",
    "game_start",
    "turn_roll",
    "turn_keep",
    "turn_score",
    "game_rematch",
    "seat_set_client_seed",
    "game_verify",
    "game_replay",
    "game_series",
    "turn_takeover",
    "seat_return",
)


@caches.memoize("action URLs by game code", maxsize=4096)
def action_urls(code: str) -> Mapping[str, str]:
    """Where a game's forms post, by URL name (reversed once per game, not per render)."""
    urls = {name: reverse(name, args=[code]) for name in ACTIONS}
    # Logging in from a table comes back to it.
    urls["login"] = f"{reverse('login')}?next={quote(reverse('game', args=[code]))}"
    return MappingProxyType(urls)
