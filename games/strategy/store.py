"""Advisors in memory, from the tables on disk (:mod:`.tablefile`), built in the background
when asked."""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from games import caches
from games.rules import Rules
from games.strategy.advisor import Advisor
from games.strategy.solver import solve
from games.strategy.tablefile import (
    ENV_CACHE_DIR,
    FORMAT,
    default_cache_dir,
    fingerprint,
    load_table,
    profile_name,
    save_table,
    table_path,
)

logger = logging.getLogger(__name__)

__all__ = [
    "ENV_CACHE_DIR",
    "FORMAT",
    "advisor_for",
    "advisor_if_ready",
    "default_cache_dir",
    "fingerprint",
    "forget_advisors",
    "load_table",
    "loaded_advisor",
    "profile_name",
    "save_table",
    "strategy_status",
    "table_path",
    "wait_until_ready",
]


# -- advisors in memory ------------------------------------------------------------------------
# A registry, not a cache (games/caches.py): it holds at most one advisor per rules profile
# and folder, each costing seconds to load (minutes to build), together with the builds
# under way and the ones that failed, all under one lock. Nothing here is ever evicted, and
# caches.clear_all(), which tests call around every test, leaves it alone: emptying it
# would reload every table. Tests that need a process without advisors call
# forget_advisors().

_Key = tuple[Rules, Path]
_advisors: dict[_Key, Advisor] = {}
_key_locks: dict[_Key, threading.Lock] = {}
_builders: dict[_Key, threading.Thread] = {}
_failures: dict[_Key, BaseException] = {}
_registry_lock = threading.Lock()


# Asked on every move of a table with a coach, bot or clock: the path is resolved once.
@caches.memoize("strategy: table paths by rules and folder", maxsize=8)
def _key(rules: Rules, cache_dir: str | os.PathLike[str] | None) -> _Key:
    return rules, table_path(rules, cache_dir).resolve()


def advisor_for(
    rules: Rules | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    build: bool = True,
    workers: int | None = None,
) -> Advisor:
    """The advisor for ``rules``: from memory, else from the cache folder, else solved now
    (a few seconds) and stored. With ``build=False`` a missing table raises LookupError."""
    rules = rules or Rules()
    key = _key(rules, cache_dir)
    with _registry_lock:
        advisor = _advisors.get(key)
        if advisor is not None:
            return advisor
        lock = _key_locks.setdefault(key, threading.Lock())
    with lock:  # one build per table, however many threads ask
        advisor = _advisors.get(key)
        if advisor is not None:
            return advisor
        path = key[1]
        table = load_table(rules, path)
        if table is None:
            if not build:
                raise LookupError(f"No strategy table for {rules} in {path.parent}.")
            started = time.perf_counter()
            table = solve(rules, workers=workers)
            logger.info(
                "Solved %s in %.1f s: %.4f from an empty card",
                profile_name(rules),
                time.perf_counter() - started,
                table.empty_card_value,
            )
            try:
                save_table(table, path)
            except OSError as error:  # still usable from memory
                logger.warning("Could not store the strategy table in %s: %s", path, error)
        advisor = Advisor(table)
        with _registry_lock:
            _advisors[key] = advisor
        return advisor


def advisor_if_ready(
    rules: Rules | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Advisor | None:
    """The advisor if its table is in memory or stored; otherwise None, after starting (once)
    a background thread that builds it. Never waits for a build."""
    rules = rules or Rules()
    key = _key(rules, cache_dir)
    with _registry_lock:
        advisor = _advisors.get(key)
        if advisor is not None:
            return advisor
        if key in _builders or key in _failures:
            return None
        lock = _key_locks.setdefault(key, threading.Lock())
    if lock.acquire(blocking=False):  # nobody is building it: a stored table loads quickly
        try:
            table = load_table(rules, key[1])
            if table is not None:
                advisor = Advisor(table)
                with _registry_lock:
                    _advisors[key] = advisor
                return advisor
        finally:
            lock.release()
    _start_build(rules, cache_dir, key)
    return None


def loaded_advisor(
    rules: Rules | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Advisor | None:
    """The advisor if its table is in memory or stored; otherwise None. Starts nothing:
    a page that asks while the table is being built just shows the coach warming up."""
    rules = rules or Rules()
    key = _key(rules, cache_dir)
    with _registry_lock:
        advisor = _advisors.get(key)
        if advisor is not None or key in _builders or key in _failures:
            return advisor
        lock = _key_locks.setdefault(key, threading.Lock())
    if not lock.acquire(blocking=False):  # being loaded or built right now
        return None
    try:
        table = load_table(rules, key[1])
        if table is None:
            return None
        with _registry_lock:
            return _advisors.setdefault(key, Advisor(table))
    finally:
        lock.release()


def _start_build(rules: Rules, cache_dir: str | os.PathLike[str] | None, key: _Key) -> None:
    def build() -> None:
        try:
            advisor_for(rules, cache_dir, workers=1)  # leave a core to the site
        except BaseException as error:  # kept, so the site says so instead of retrying forever
            logger.exception("Building the strategy table for %s failed", rules)
            with _registry_lock:
                _failures[key] = error
        finally:
            with _registry_lock:
                _builders.pop(key, None)

    with _registry_lock:
        if key in _builders or key in _advisors:
            return
        thread = threading.Thread(target=build, name=f"strategy-{profile_name(rules)}", daemon=True)
        _builders[key] = thread
    thread.start()


def strategy_status(
    rules: Rules | None = None, cache_dir: str | os.PathLike[str] | None = None
) -> str:
    """``"ready"`` (in memory), ``"building"``, ``"failed"``, ``"stored"`` or ``"missing"``."""
    rules = rules or Rules()
    key = _key(rules, cache_dir)
    with _registry_lock:
        if key in _advisors:
            return "ready"
        if key in _builders:
            return "building"
        if key in _failures:
            return "failed"
    return "stored" if key[1].exists() else "missing"


def wait_until_ready(
    rules: Rules | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
) -> Advisor | None:
    """Wait for a background build started by :func:`advisor_if_ready` (for tests and scripts)."""
    rules = rules or Rules()
    key = _key(rules, cache_dir)
    with _registry_lock:
        thread = _builders.get(key)
    if thread is not None:
        thread.join(timeout)
    with _registry_lock:
        return _advisors.get(key)


def forget_advisors() -> None:
    """Drop every advisor and failure kept in memory (tests: a fresh process)."""
    with _registry_lock:
        _advisors.clear()
        _failures.clear()
