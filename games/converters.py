"""The two kinds of name a link carries: a game's code and an account's username.

A path whose code or username the site could not have made matches no URL: it is a 404
before any view or socket runs, so nothing such as a NUL byte (which PostgreSQL refuses
with an error rather than finding nothing) reaches the database or the channel layer.
"""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import get_converters

from games.models import CODE_ALPHABET, CODE_LENGTH

# django.contrib.auth's username: letters, digits and @ . + - _ (UnicodeUsernameValidator),
# at most 150 characters (AbstractUser.username).
USERNAME_MAX_LENGTH = 150


class GameCodeConverter:
    """A code as ``models.new_game_code`` makes them: ``CODE_LENGTH`` characters of
    ``CODE_ALPHABET``."""

    regex = f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter:
    """A username Django's account forms accept."""

    regex = rf"[\w.@+-]{{1,{USERNAME_MAX_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    """Make ``<game_code:…>`` and ``<username:…>`` known to ``path()``, for the URLconf
    and the socket routes alike; once per process, whichever asks first."""
    known = get_converters()
    for name, converter in (("game_code", GameCodeConverter), ("username", UsernameConverter)):
        if name not in known:
            register_converter(converter, name)
