"""A game of Yahtzee (or of any rule set of :mod:`games.rules`) as a pure state machine.

``start(seats, rules, rng)`` seats the players and runs the opening roll-off;
``apply(state, action, rng)`` returns the next state or raises
:class:`~games.rules.IllegalMove` and leaves the state as it was. States are
immutable; randomness is always passed in (any object with ``randint``), never global.

Seats are numbered 0..n-1 in the order players sat down. The roll-off decides who
starts; play then goes round the table from the starter. A game has one round per box
of its rule set's card; a move names a box by the box or by its id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from games.rules import (
    DICE_COUNT,
    Box,
    Breach,
    Category,
    IllegalMove,
    Rules,
    Scorecard,
    parse_dice,
)

ROLLS_PER_TURN = 3
ROUNDS = len(Category)  # Yahtzee's; a game's own is ``GameState.rounds``
MAX_SEATS = 8
NO_HOLDS = (False,) * DICE_COUNT
# What a game stores of the table beside its players' cards (see ``GameState.to_dict``).
TABLE_KEYS = ("rolloff", "starter", "turn_number", "dice", "held", "rolls_left")
NO_ROLLS_LEFT = "No rolls left this turn: choose a box to score."
FIVE_HOLDS = "Choose which of the five dice to keep."


class DiceSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


def roll_dice(rng: DiceSource, count: int = DICE_COUNT) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(count))


@dataclass(frozen=True)
class Roll:
    seat: int


@dataclass(frozen=True)
class Keep:
    """Set which dice are kept for the next roll (one flag per die)."""

    seat: int
    held: tuple[bool, ...]


@dataclass(frozen=True)
class Score:
    seat: int
    category: Box  # a box of the game's rule set (the engine also takes its id, a str)


Action = Roll | Keep | Score


@dataclass(frozen=True)
class RollOffRound:
    """One round of the opening roll-off: the dice each contender rolled."""

    rolls: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, dice)

    @property
    def best_total(self) -> int:
        return max(sum(dice) for _, dice in self.rolls)

    @property
    def leaders(self) -> tuple[int, ...]:
        best = self.best_total
        return tuple(seat for seat, dice in self.rolls if sum(dice) == best)


@dataclass(frozen=True)
class Standing:
    place: int
    seat: int
    total: int


@dataclass(frozen=True)
class GameState:
    rules: Rules
    cards: tuple[Scorecard, ...]
    rolloff: tuple[RollOffRound, ...]
    starter: int
    turn_number: int = 0  # turns completed so far, across all seats
    dice: tuple[int, ...] | None = None  # None until the turn's first roll
    held: tuple[bool, ...] = NO_HOLDS
    rolls_left: int = ROLLS_PER_TURN

    # -- where the game stands -------------------------------------------------
    @property
    def seat_count(self) -> int:
        return len(self.cards)

    @property
    def order(self) -> tuple[int, ...]:
        """Seats in playing order, from the starter round the table."""
        n = self.seat_count
        return tuple((self.starter + i) % n for i in range(n))

    @property
    def rounds(self) -> int:
        """How many rounds this game has: one per box of its card."""
        return len(self.rules.definition.definitions)

    @property
    def is_finished(self) -> bool:
        return self.turn_number >= self.rounds * self.seat_count

    @property
    def current_seat(self) -> int | None:
        if self.is_finished:
            return None
        return self.order[self.turn_number % self.seat_count]

    @property
    def round(self) -> int:
        """The round being played, 1..rounds (the last once the game is over)."""
        return min(self.turn_number // self.seat_count + 1, self.rounds)

    @property
    def has_rolled(self) -> bool:
        return self.dice is not None

    def kept_dice(self) -> tuple[int, ...]:
        if self.dice is None:
            return ()
        return tuple(sorted(d for d, keep in zip(self.dice, self.held, strict=True) if keep))

    def ranking(self, behind: frozenset[int] = frozenset()) -> tuple[Standing, ...]:
        """Seats by total, best first; equal totals share a place (1, 1, 3). The seats in
        ``behind`` (players who left) come after everyone else, whatever their totals."""
        by_total = sorted(
            range(self.seat_count), key=lambda s: (s in behind, -self.cards[s].total, s)
        )
        standings: list[Standing] = []
        for position, seat in enumerate(by_total, start=1):
            total = self.cards[seat].total
            same = (
                standings
                and standings[-1].total == total
                and (standings[-1].seat in behind) == (seat in behind)
            )
            place = standings[-1].place if same else position
            standings.append(Standing(place=place, seat=seat, total=total))
        return tuple(standings)

    def winners(self) -> tuple[int, ...]:
        if not self.is_finished:
            return ()
        return tuple(s.seat for s in self.ranking() if s.place == 1)

    # -- persistence -----------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """The one serialisation of a game state: JSON types only; ``from_dict`` reads it.

        A stored game keeps ``cards`` on its seats and the ``TABLE_KEYS`` on its row."""
        return {
            "rules": self.rules.to_dict(),
            "cards": [card.to_dict() for card in self.cards],
            **self.table_dict(),
        }

    def table_dict(self) -> dict[str, object]:
        """The ``TABLE_KEYS`` of :meth:`to_dict`, without serialising every card: what a
        move stores on the game's row."""
        return {
            "rolloff": [[[seat, list(dice)] for seat, dice in r.rolls] for r in self.rolloff],
            "starter": self.starter,
            "turn_number": self.turn_number,
            "dice": list(self.dice) if self.dice is not None else None,
            "held": list(self.held),
            "rolls_left": self.rolls_left,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Reads :meth:`to_dict`; a state stored before there were rule sets is Yahtzee."""
        rules = Rules.from_dict(data["rules"])
        dice = data.get("dice")
        return cls(
            rules=rules,
            cards=tuple(Scorecard.from_dict(c, rules) for c in data["cards"]),
            rolloff=tuple(
                RollOffRound(tuple((int(seat), tuple(d)) for seat, d in r)) for r in data["rolloff"]
            ),
            starter=int(data["starter"]),
            turn_number=int(data["turn_number"]),
            dice=tuple(dice) if dice is not None else None,
            held=tuple(bool(h) for h in data["held"]),
            rolls_left=int(data["rolls_left"]),
        )


def run_rolloff(seats: Sequence[int], rng: DiceSource) -> tuple[RollOffRound, ...]:
    """Everyone rolls five dice; the highest total starts; tied leaders roll again."""
    rounds: list[RollOffRound] = []
    contenders = tuple(seats)
    while True:
        current = RollOffRound(tuple((seat, roll_dice(rng)) for seat in contenders))
        rounds.append(current)
        contenders = current.leaders
        if len(contenders) == 1:
            return tuple(rounds)


def start(seat_count: int, rules: Rules, rng: DiceSource) -> GameState:
    """A new game for ``seat_count`` players, after the roll-off for the first player."""
    if not 1 <= seat_count <= MAX_SEATS:
        raise IllegalMove(f"A game has 1 to {MAX_SEATS} players, not {seat_count}.")
    rolloff = run_rolloff(range(seat_count), rng)
    return GameState(
        rules=rules,
        cards=tuple(Scorecard(rules=rules) for _ in range(seat_count)),
        rolloff=rolloff,
        starter=rolloff[-1].leaders[0],
    )


def _check_turn(state: GameState, seat: int) -> None:
    if state.is_finished:
        raise IllegalMove("The game is over.", Breach.GAME_OVER)
    if seat != state.current_seat:
        raise IllegalMove("It is not your turn.", Breach.NOT_YOUR_TURN)


def apply(state: GameState, action: Action, rng: DiceSource | None = None) -> GameState:
    """The state after ``action``; raises IllegalMove (state unchanged) if it is not allowed."""
    _check_turn(state, action.seat)
    if isinstance(action, Roll):
        if state.rolls_left == 0:
            raise IllegalMove(NO_ROLLS_LEFT, Breach.NO_ROLLS_LEFT)
        if rng is None:
            raise ValueError("Rolling needs a source of randomness.")
        old = state.dice or (0,) * DICE_COUNT
        dice = tuple(old[i] if state.held[i] else rng.randint(1, 6) for i in range(DICE_COUNT))
        return replace(state, dice=dice, rolls_left=state.rolls_left - 1)
    if isinstance(action, Keep):
        if state.dice is None:
            raise IllegalMove("Roll the dice before keeping any.", Breach.KEEP_BEFORE_ROLL)
        if state.rolls_left == 0:
            raise IllegalMove(NO_ROLLS_LEFT, Breach.NO_ROLLS_LEFT)
        try:
            held = tuple(action.held)
        except TypeError:
            raise IllegalMove(FIVE_HOLDS, Breach.NOT_FIVE_HOLDS) from None
        if len(held) != DICE_COUNT or not all(isinstance(h, bool) for h in held):
            raise IllegalMove(FIVE_HOLDS, Breach.NOT_FIVE_HOLDS)
        return replace(state, held=held)
    if isinstance(action, Score):
        if state.dice is None:
            raise IllegalMove("Roll the dice before choosing a box.", Breach.SCORE_BEFORE_ROLL)
        seat = action.seat
        card = state.cards[seat].score(action.category, parse_dice(state.dice))
        cards = (*state.cards[:seat], card, *state.cards[seat + 1 :])
        return replace(
            state,
            cards=cards,
            turn_number=state.turn_number + 1,
            dice=None,
            held=NO_HOLDS,
            rolls_left=ROLLS_PER_TURN,
        )
    raise TypeError(f"Unknown action {action!r}")
