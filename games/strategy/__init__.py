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
"""

from .advisor import Advisor, Option
from .solver import StrategyTable, solve
from .store import (
    advisor_for,
    advisor_if_ready,
    default_cache_dir,
    load_table,
    loaded_advisor,
    save_table,
    strategy_status,
    table_path,
    wait_until_ready,
)

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
