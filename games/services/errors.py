"""The refusals a write can answer with. Each is a sentence for the player; nothing changed
(except after :class:`OutOfTime`, which says what did).

Services know nothing of HTTP: the views decide which status each kind of refusal gets.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop


class GameError(Exception):
    """A refused action; ``str(error)`` is a sentence for the player; nothing changed."""


class NotAllowed(GameError):
    """The person may not do this (not their seat, not their turn, not the host)."""


class StaleAction(GameError):
    """The action was made against an older version of the table."""


class OutOfTime(GameError):
    """The move came when the turn's clock had run out (at its deadline or after): it was
    refused, and the turn expired there and then, the coach finishing it. Unlike the other
    refusals, something did change: the seat is away."""


class GameNotFound(GameError):
    """No game has that code."""


# Marked for the catalogs, English here: the raise site translates it (gettext(STALE)).
STALE = gettext_noop(
    "That action was made on an older view of the table (a repeated click or "
    "another tab); nothing changed. Here is the table as it stands."
)

# The move came too late (OutOfTime); English here, translated where it is raised.
OUT_OF_TIME = gettext_noop("Your time ran out; the coach is finishing this turn.")
