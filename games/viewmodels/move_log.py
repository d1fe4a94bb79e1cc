"""What just happened at a table: the last box scored and the rolls of the turn so far.

Built from a snapshot's ``recent_moves`` alone (no query), with names only: the board that
shows it is shared by everyone with the same viewpoint, so it never says "you".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from django.utils.translation import gettext_lazy as _

from games.rules import Rules
from games.viewmodels.base import ViewModel
from games.words import box_name

# Box names short enough for a 320 px wide scorecard, by the box's English label (every
# rule set's); the full name stays for screen readers.
SHORT_LABELS = {
    "Aces": _("Aces"),
    "Ones": _("Ones"),
    "Twos": _("Twos"),
    "Threes": _("Threes"),
    "Fours": _("Fours"),
    "Fives": _("Fives"),
    "Sixes": _("Sixes"),
    "3 of a kind": _("3 kind"),
    "4 of a kind": _("4 kind"),
    "Full House": _("Full H."),
    "Small Straight": _("Sm. str."),
    "Large Straight": _("Lg. str."),
    "Yahtzee": _("Yahtzee"),
    "Chance": _("Chance"),
    "One Pair": _("1 pair"),
    "Two Pairs": _("2 pairs"),
    "Three of a Kind": _("3 kind"),
    "Four of a Kind": _("4 kind"),
    "Yatzy": _("Yatzy"),
    "Little Straight": _("Lt. str."),
    "Big Straight": _("Bg. str."),
    "Choice": _("Choice"),
    "Yacht": _("Yacht"),
}


@dataclass(frozen=True)
class MoveView(ViewModel):
    """One roll or one scored box, as the board's log line tells it."""

    kind: str  # "roll" or "score"
    name: str  # who did it
    dice: tuple[int, ...]
    kept: tuple[int, ...] = ()  # a roll: the dice kept from the roll before
    box: str = ""  # a score: the box's name
    points: int = 0
    by_coach: bool = False  # the coach played it for ``name`` (away, or left the game)

    @property
    def dice_text(self) -> str:
        return " ".join(map(str, self.dice))

    @property
    def kept_text(self) -> str:
        return " ".join(map(str, self.kept))


@dataclass(frozen=True)
class MoveLog(ViewModel):
    last_score: MoveView | None  # the last box anyone scored
    this_turn: tuple[MoveView, ...]  # the rolls of the turn in play, oldest first
    just_rolled: bool = False  # this version's change was a roll: the dice tumble


NO_MOVES = MoveLog(None, ())


def move_log(
    recent: Sequence[Sequence[object]],
    names: Mapping[int, str],
    turn_number: int | None,
    version: int,
    rules: Rules | None = None,
) -> MoveLog:
    """The log line from ``recent`` moves (snapshots.RECENT_MOVE_FIELDS, oldest first) at
    ``version`` of a game played by ``rules``; ``turn_number`` is the turn in play (None
    once the game is over)."""
    last_score = None
    this_turn: list[MoveView] = []
    just_rolled = False
    for made_at, kind, seat, turn, dice, held, category, points, by_coach in recent:
        just_rolled = kind == "roll" and made_at == version
        name = names.get(seat, "") if isinstance(seat, int) else ""
        values = tuple(int(d) for d in str(dice))
        if kind == "score":
            box = box_name(str(category), rules) if category else ""
            last_score = MoveView(
                "score",
                name,
                values,
                box=box,
                points=int(cast("int | None", points) or 0),
                by_coach=bool(by_coach),
            )
            this_turn = []
        elif kind == "roll" and turn == turn_number:
            kept = tuple(v for v, h in zip(values, str(held), strict=False) if h == "1")
            this_turn.append(MoveView("roll", name, values, kept=kept, by_coach=bool(by_coach)))
    return MoveLog(last_score, tuple(this_turn), just_rolled)
