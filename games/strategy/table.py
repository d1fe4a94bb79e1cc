"""The solved strategy table of one rules profile: what the solver builds and the coach reads."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.rules import Rules
from games.strategy.ruletables import RuleTables


@dataclass
class StrategyTable:
    """Expected points still to come from the start of a turn, for every state of one rules profile.

    ``values[mask, upper, yahtzee50]``: ``upper`` is the upper subtotal capped at 63 and
    ``yahtzee50`` whether the Yahtzee box holds 50. Entries where ``known_states()`` is
    False (subtotals the filled upper boxes cannot add up to) are not solved.
    """

    rules: Rules
    values: np.ndarray
    tables: RuleTables
    seconds: float = 0.0
    states: int = 0
    solved: np.ndarray = field(default_factory=lambda: np.ones(0, dtype=bool))

    def __post_init__(self) -> None:
        if not len(self.solved):  # every mask of its rule set
            self.solved = np.ones(self.tables.layout.masks, dtype=bool)

    @property
    def empty_card_value(self) -> float:
        return float(self.values[0, 0, 0])
