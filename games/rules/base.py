"""What every part of the rules shares: the dice, Yahtzee's printed figures, and the
refusal of a move the rules do not allow (:class:`IllegalMove`, naming its :class:`Breach`).
"""

from __future__ import annotations

from enum import Enum

DICE_COUNT = 5
FACES = range(1, 7)
UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = 35
YAHTZEE_BONUS = 100
FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
YAHTZEE_POINTS = 50

Dice = tuple[int, int, int, int, int]


class Breach(Enum):
    """Which rule a refused move breaks: for a caller that words the refusal in its own
    language (the sentences here are English)."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NO_ROLLS_LEFT = "no_rolls_left"
    KEEP_BEFORE_ROLL = "keep_before_roll"
    SCORE_BEFORE_ROLL = "score_before_roll"
    NOT_FIVE_HOLDS = "not_five_holds"
    BOX_REFUSES = "box_refuses"  # the box is filled, or the Joker or upper-first rule says no


class IllegalMove(ValueError):
    """A move the rules do not allow; ``str(error)`` is a sentence a player can read (in
    English), ``breach`` the rule it breaks, when it is one a player can meet."""

    def __init__(self, message: str, breach: Breach | None = None) -> None:
        super().__init__(message)
        self.breach = breach
