"""The rules for the names people sit down under: one form of each name as it is shown, no
two seats at a table that look alike (computer players' names in every language included)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from games.models import BotLevel, Seat
from games.services.errors import GameError

MAX_NAME = 40


# Invisible characters that could make a name look like another: controls, format
# characters (zero-width spaces and joiners, bidirectional overrides) and lone surrogates.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def normal_name(name: str) -> str:
    """The name as it is shown: compatibility characters folded (NFKC), hidden characters
    removed, runs of spaces made one, at most ``MAX_NAME`` characters; may be empty.

    Folded again once the hidden characters are gone: one between a letter and its accent
    kept them apart the first time ("e", zero-width space, acute accent is "é")."""
    words = unicodedata.normalize("NFKC", name).split()
    visible = (
        "".join(c for c in w if unicodedata.category(c) not in HIDDEN_CATEGORIES) for w in words
    )
    folded = unicodedata.normalize("NFKC", " ".join(w for w in visible if w))
    return folded[:MAX_NAME].strip()


def clean_name(name: str) -> str:
    name = normal_name(name)
    if not name:
        raise GameError(gettext("Choose a display name to sit down."))
    return name


def same_name(a: str, b: str) -> bool:
    """Whether two names would look alike at a table: equal once normalised, in any case."""
    return normal_name(a).casefold() == normal_name(b).casefold()


def names_of(seat: Seat) -> list[str]:
    """Every name ``seat`` is shown under: a computer player's in each language."""
    if seat.bot:
        return bot_names(BotLevel(seat.bot), seat.bot_number)
    return [seat.name] + ([seat.user.get_username()] if seat.user is not None else [])


def bot_names(level: BotLevel, number: int) -> list[str]:
    names = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            names.append(level.seat_name(number))
    return names


def name_taken(seats: Iterable[Seat], name: str) -> bool:
    """Whether ``name`` is already carried at the table, by a seat (a computer player's, in
    any language) or an account holder's name."""
    return any(same_name(name, other) for seat in seats for other in names_of(seat))


def check_name_free(seats: Iterable[Seat], name: str) -> None:
    if name_taken(seats, name):
        raise GameError(
            gettext(
                "Someone at this table is already called %(name)s. "
                "Choose another display name to sit down."
            )
            % {"name": name}
        )
