"""The language a board is being rendered in, read once per render instead of on every
memoised fragment.

The room's memoised fragments (games/templatetags/room.py, a seat's boxes, the seat
marker) are keyed by the language they are rendered in. Django keeps the active language
in an asgiref ``Local``, and reading it costs about as much as the memo lookup it keys:
one board asks some forty times. :func:`fixed` notes the active language once, for the
length of one render, in a plain ``ContextVar``; :func:`current` answers from there, or
from Django outside a render. Figures: ``docs/benchmarks.md``.

Invariant: nothing activates another language inside a :func:`fixed` block (a render
does not), so :func:`current` is always the language Django would report.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.translation import get_language

_rendering_in: ContextVar[str | None] = ContextVar("language of the render", default=None)


def current() -> str:
    """The language being rendered in: Django's active language."""
    return _rendering_in.get() or get_language()


@contextmanager
def fixed() -> Iterator[None]:
    """Read the active language once for everything rendered inside this block."""
    token = _rendering_in.set(get_language())
    try:
        yield
    finally:
        _rendering_in.reset(token)
