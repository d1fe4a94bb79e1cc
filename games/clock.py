"""The one clock every piece of time-based code reads (:data:`clock`).

Deadlines are stored, never slept on: the turn clock, the computer players' human pace,
the review and the e-mails are all due at a moment kept in the database, and the code
that decides whether that moment has come asks ``clock.now()``. Tests replace the clock
with one they move by hand (``tests/conftest.py``: ``frozen_clock``), so no test sleeps.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


class Clock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return timezone.now()


clock = Clock()
