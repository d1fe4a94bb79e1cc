"""Calls made from several threads at once, each on its own database connection, as two
server processes make them; and a call tried again while SQLite says "locked"."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, connections


def through_locks(call: Callable[[], Any], seconds: float = 30.0) -> Any:
    """``call()``, tried again while SQLite's shared in-memory test database (whose table
    locks do not wait as a database file's do) refuses it as "locked". Each retry first
    sleeps a millisecond, which lets the thread holding the lock run: retrying at full speed
    starved it on a busy machine until any fixed count of tries ran out."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return call()
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            if time.monotonic() > deadline:
                raise AssertionError("the database stayed locked") from error
            time.sleep(0.001)


def at_once(calls: list[Callable[[], Any]]) -> list[object]:
    """Each call on its own thread, all released at the same moment and each tried again
    while "locked" (:func:`through_locks`): what each returned, or the exception it raised."""
    start = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            start.wait()
            results[index] = through_locks(calls[index])
        except Exception as error:  # the test reads it
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
