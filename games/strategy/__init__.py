"""Optimal play for Yahtzee: the solver, advice on any position, and the bots' brains.

Pure Python and numpy; no Django here (the site passes its cache folder in).

    from games.strategy import advisor_for
    adv = advisor_for(rules)              # load or build the table for these rules
    adv.expected_total(card)              # expected final total from the next turn on
    adv.rank(card, dice, rolls_left)      # every choice, best first
    adv.regret(card, dice, rolls_left, choice)

``advisor_if_ready(rules)`` never waits: it returns None while a background thread builds
the table (the site shows "coach warming up"). ``loaded_advisor(rules)`` never starts a
build: pages read with it.

The names below are imported on first use (PEP 562), so a process that only builds a
table (``python -m games.strategy.build``, what ``manage.py solve`` runs) loads the solver
and nothing else: 7 MB less at its peak (docs/benchmarks.md, #18).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.strategy.advisor import Advisor, Option
    from games.strategy.solver import StrategyTable, solve
    from games.strategy.store import (
        advisor_for,
        advisor_if_ready,
        loaded_advisor,
        strategy_status,
        wait_until_ready,
    )
    from games.strategy.tablefile import default_cache_dir, load_table, save_table, table_path

_HOMES = {
    "Advisor": "advisor",
    "Option": "advisor",
    "StrategyTable": "solver",
    "solve": "solver",
    "advisor_for": "store",
    "advisor_if_ready": "store",
    "loaded_advisor": "store",
    "strategy_status": "store",
    "wait_until_ready": "store",
    "default_cache_dir": "tablefile",
    "load_table": "tablefile",
    "save_table": "tablefile",
    "table_path": "tablefile",
}

__all__ = [
    "Advisor",
    "Option",
    "StrategyTable",
    "advisor_for",
    "advisor_if_ready",
    "default_cache_dir",
    "load_table",
    "loaded_advisor",
    "save_table",
    "solve",
    "strategy_status",
    "table_path",
    "wait_until_ready",
]
assert sorted(_HOMES) == __all__


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
