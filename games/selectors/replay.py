"""A game replayed move by move from its log: the dice, the kept dice, the box chosen,
everyone's card as it was at that moment, and the coach's verdict on each decision from
the stored review."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from games import engine
from games.engine import GameState, RollOffRound
from games.models import Game, Move
from games.rules import IllegalMove, Scorecard
from games.strategy.choices import is_negligible
from games.viewmodels.base import DieView, ViewModel
from games.viewmodels.coach import choice_words
from games.viewmodels.scorecard import Card, card_of
from games.words import box_name


@dataclass(frozen=True)
class Verdict(ViewModel):
    """The coach's view of one decision: what was chosen, what was best, what it cost."""

    choice: str
    best: str
    loss: float

    @property
    def was_best(self) -> bool:
        return is_negligible(self.loss)


@dataclass(frozen=True)
class Step(ViewModel):
    """One moment of the replay: a move and the table just after it."""

    version: int
    kind: str
    seat: int | None
    sentence: str
    dice: tuple[DieView, ...]
    verdict: Verdict | None
    cards: tuple[Scorecard, ...]  # everyone's, just after the move
    names: tuple[str, ...]  # by seat
    coach_for: str = ""  # the coach played this move for the person of that name

    @property
    def card(self) -> Card:
        """Everyone's card just after the move, the mover's column marked (drawn only for
        the moment shown)."""
        return card_of(self.cards, self.names, current=self.seat)


@dataclass(frozen=True)
class ReplayView(ViewModel):
    game: Game
    steps: tuple[Step, ...]
    index: int

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def first(self) -> int | None:
        return self.steps[0].version if self.index > 0 else None

    @property
    def previous(self) -> int | None:
        return self.steps[self.index - 1].version if self.index > 0 else None

    @property
    def next(self) -> int | None:
        last = len(self.steps) - 1
        return self.steps[self.index + 1].version if self.index < last else None

    @property
    def last(self) -> int | None:
        return self.steps[-1].version if self.index < len(self.steps) - 1 else None


class _Logged:
    """A dice source showing the faces a roll logged for the dice not kept."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def _verdicts(game: Game) -> dict[tuple[int, int], dict]:
    """The review's decisions by (seat, index), as ``review_game`` made them."""
    review = (game.review or {}).get("seats", {})
    return {
        (int(seat), i): decision
        for seat, data in review.items()
        for i, decision in enumerate(data["decisions"])
    }


def _kept_words(dice: tuple[int, ...], held: tuple[bool, ...]) -> str:
    return " ".join(str(d) for d, h in zip(dice, held, strict=True) if h)


def replay_steps(game: Game) -> tuple[list[Step], dict[tuple[int, int], int]]:
    """Every move of ``game`` as a replay step, and the version of each reviewed decision
    by (seat, decision index)."""
    seats = list(game.seats.order_by("position"))
    names = {seat.position: seat.display_name for seat in seats}
    heads = tuple(names.get(position, "") for position in range(len(seats)))
    rules = game.rules
    verdicts = _verdicts(game)
    state: GameState | None = None
    steps: list[Step] = []
    decision_versions: dict[tuple[int, int], int] = {}
    decisions = {seat.position: 0 for seat in seats}
    rolls = 0
    for move in Move.objects.filter(game=game).order_by("version"):
        seat = move.seat
        decision: tuple[int, int] | None = None
        try:
            if move.kind == Move.Kind.START or state is None:
                rolloff = tuple(
                    RollOffRound(tuple((int(s), tuple(d)) for s, d in r)) for r in game.rolloff
                )
                state = GameState(
                    rules=rules,
                    cards=tuple(Scorecard(rules=rules) for _ in seats),
                    rolloff=rolloff,
                    starter=game.starter or 0,
                )
                sentence = gettext("%(name)s won the roll-off and starts.") % {
                    "name": names.get(state.starter, "")
                }
            elif seat is None:  # only the start has no seat; the engine refuses any other
                raise IllegalMove("A move without a seat.")
            elif move.kind == Move.Kind.ROLL:
                logged = [int(d) for d in move.dice]
                fresh = [d for d, h in zip(logged, state.held, strict=True) if not h]
                if rolls and seat in decisions and not move.by_coach:
                    decision = (seat, decisions[seat])
                state = engine.apply(state, engine.Roll(seat), _Logged(fresh))
                rolls += 1
                assert state.dice is not None  # just rolled
                kept = _kept_words(state.dice, state.held)
                sentence = (
                    gettext("%(name)s rolled again, keeping %(kept)s.")
                    if kept
                    else gettext("%(name)s rolled.")
                ) % {"name": names.get(seat, ""), "kept": kept}
            elif move.kind == Move.Kind.KEEP:
                held = tuple(h == "1" for h in move.held)
                state = engine.apply(state, engine.Keep(seat, held))
                assert state.dice is not None  # the engine keeps only rolled dice
                kept = _kept_words(state.dice, state.held)
                sentence = (
                    gettext("%(name)s kept %(kept)s.")
                    if kept
                    else gettext("%(name)s kept no dice.")
                ) % {"name": names.get(seat, ""), "kept": kept}
            else:
                category = rules.box(move.category)
                reviewed = seat in decisions and not move.by_coach
                decision = (seat, decisions[seat]) if reviewed else None
                dice = state.dice
                state = engine.apply(state, engine.Score(seat, category))
                rolls = 0
                sentence = gettext("%(name)s scored %(points)s in %(box)s.") % {
                    "name": names.get(seat, ""),
                    "points": state.cards[seat][category],
                    "box": box_name(category),
                }
        except (IllegalMove, ValueError, IndexError, KeyError):
            break  # a log that does not replay ends the replay where it stops making sense
        shown = dice if move.kind == Move.Kind.SCORE else state.dice
        held = (False,) * 5 if move.kind == Move.Kind.SCORE else state.held
        verdict = None
        if decision is not None and decision in verdicts:
            data = verdicts[decision]
            verdict = Verdict(
                choice_words(data["choice"], rules), choice_words(data["best"], rules), data["loss"]
            )
            decision_versions[decision] = move.version
        if decision is not None:
            decisions[decision[0]] += 1
        steps.append(
            Step(
                version=move.version,
                kind=move.kind,
                seat=seat,
                sentence=sentence,
                dice=tuple(
                    DieView(i, v, h) for i, (v, h) in enumerate(zip(shown, held, strict=True))
                )
                if shown
                else (),
                verdict=verdict,
                cards=state.cards,
                names=heads,
                coach_for=names.get(seat, "") if move.by_coach and seat is not None else "",
            )
        )
    return steps, decision_versions


def replay_view(
    game: Game,
    version: int | None = None,
    decision: tuple[int, int] | None = None,
) -> ReplayView | None:
    """The replay at the move that made ``version`` (the latest move at or before it), or
    at a reviewed ``decision`` (seat, index); the first move by default. None if the game
    has no moves yet."""
    steps, decision_versions = replay_steps(game)
    if not steps:
        return None
    if decision is not None and decision in decision_versions:
        version = decision_versions[decision]
    index = 0
    if version is not None:
        for i, step in enumerate(steps):
            if step.version <= version:
                index = i
    return ReplayView(game=game, steps=tuple(steps), index=index)
