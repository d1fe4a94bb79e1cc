"""Practice: positions from real finished games where players gave away the most, without
names or tables, to answer "what would you keep?" and see the coach's ranking.

A position is offered only when the coach's best choice in it was a keep (the answer is
dice to keep), and it is shown with the card it was played on (the right keep depends on
which boxes are open), rebuilt from the game's move log."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.core import signing
from django.utils.translation import gettext

from games.models import Game, Move, PracticeRecord, Ruleset
from games.rules import IllegalMove, Rules, Scorecard
from games.viewmodels.base import DieView, ViewModel, plain_dice
from games.viewmodels.choices import ChoiceView, wire_views
from games.viewmodels.scorecard import Card, card_of

SALT = "games.practice"
GAMES_READ = 200  # the latest reviewed games the positions are taken from
POSITIONS = 50  # the costliest keeps among them
MIN_LOSS = 1.0  # a keep that gave away less is no lesson


@dataclass(frozen=True)
class PositionView(ViewModel):
    """A position to practise: the dice, the rolls left, and a token naming it."""

    token: str
    dice: tuple[DieView, ...]
    rolls_left: int
    round: int
    top: tuple[dict[str, object], ...]
    game_id: int = 0  # where it was played (never shown: the page is anonymous)
    seat: int = 0
    decision: int = 0  # its place in the seat's review
    card: Card | None = None  # the card it was played on (None: not rebuilt)
    ruleset: str = Ruleset.YAHTZEE  # the rule set of the game it comes from

    @property
    def rules(self) -> Rules:
        return Rules(ruleset=self.ruleset)

    @property
    def ruleset_name(self) -> str:
        return str(Ruleset(self.ruleset).label)


@dataclass(frozen=True)
class AnswerView(ViewModel):
    position: PositionView
    kept: tuple[int, ...]
    choices: tuple[ChoiceView, ...]  # the coach's five best, the answer marked if among them
    place: int | None  # the answer's place among the five best (None: not among them)

    @property
    def best(self) -> bool:
        return self.place is not None and self.choices[self.place - 1].is_best


def is_practice_position(d: dict[str, object]) -> bool:
    """A keep worth practising: the best choice was a keep too (so the answer is dice to
    keep, not a box), it gave away enough, and the review kept the alternatives."""
    return (
        d.get("kind") == "keep"
        and isinstance(d.get("best"), list)
        and bool(d.get("top"))
        and float(d["loss"]) >= MIN_LOSS  # type: ignore[arg-type]
    )


def practice_positions(ruleset: str | None = None) -> list[PositionView]:
    """The costliest keeps of the latest reviewed games (of ``ruleset`` only, when given),
    costliest first, anonymised (and without their cards: :func:`practice_position` adds
    the card of the one shown)."""
    found: list[tuple[float, PositionView]] = []
    games = Game.objects.filter(status=Game.Status.FINISHED, review__isnull=False)
    if ruleset is not None:
        games = games.filter(ruleset=ruleset)
    games = games.order_by("-finished_at")[:GAMES_READ]
    for game in games:
        for seat, data in (game.review or {}).get("seats", {}).items():
            for index, d in enumerate(data.get("decisions", [])):
                if is_practice_position(d):
                    position = _position(game.pk, int(seat), index, d, game.ruleset)
                    found.append((d["loss"], position))
    found.sort(key=lambda item: -item[0])
    return [position for _, position in found[:POSITIONS]]


def practice_record(user_id: int | None) -> PracticeRecord | None:
    """How an account has done on practice so far (none for a guest, or before its first
    answer)."""
    if user_id is None:
        return None
    return PracticeRecord.objects.filter(user_id=user_id).first()


def practice_position(n: int, ruleset: str | None = None) -> PositionView | None:
    """The ``n``-th position to practise (counting round), with its card."""
    positions = practice_positions(ruleset)
    if not positions:
        return None
    return with_card(positions[n % len(positions)])


def _position(
    game_id: int, seat: int, index: int, d: dict[str, object], ruleset: str
) -> PositionView:
    return PositionView(
        token=signing.dumps([game_id, seat, index], salt=SALT),
        dice=plain_dice(list(d["dice"])),  # type: ignore[call-overload]
        rolls_left=int(d["rolls_left"]),  # type: ignore[call-overload]
        round=int(d["round"]),  # type: ignore[call-overload]
        top=tuple(d["top"]),  # type: ignore[arg-type]
        game_id=game_id,
        seat=seat,
        decision=index,
        ruleset=ruleset,
    )


def position_for(token: str) -> PositionView | None:
    """The position a token names, with its card, or None for a token that is forged or
    names none."""
    try:
        game_id, seat, index = signing.loads(token, salt=SALT)
        game = Game.objects.get(pk=game_id)
        if game.review is None:
            return None
        d = game.review["seats"][str(seat)]["decisions"][index]
    except (signing.BadSignature, Game.DoesNotExist, KeyError, IndexError, TypeError, ValueError):
        return None
    if not is_practice_position(d):
        return None
    return with_card(_position(game.pk, int(seat), int(index), d, game.ruleset), game)


def with_card(position: PositionView, game: Game | None = None) -> PositionView:
    """The position with the card its player had then: their boxes of the rounds before,
    scored again from the game's move log."""
    if game is None:
        game = Game.objects.get(pk=position.game_id)
    scored = Move.objects.filter(
        game_id=game.pk, seat=position.seat, kind=Move.Kind.SCORE
    ).order_by("version")[: position.round - 1]
    card = Scorecard(rules=game.rules)
    try:
        for move in scored:
            card = card.score(move.category, move.dice)
    except (IllegalMove, ValueError):
        return position  # a log that does not add up: no card rather than a wrong one
    if card.filled_count != position.round - 1:
        return position
    # Headed "Player", not by their name: the page is anonymous.
    return replace(position, card=card_of([card], [gettext("Player")]))


def practice_answer_view(position: PositionView, kept_indices: set[int]) -> AnswerView:
    """The coach's five best keeps and boxes, the answer (dice kept by index) marked."""
    kept = tuple(sorted(position.dice[i].value for i in kept_indices))
    top = list(position.top)
    place = next(
        (
            i
            for i, entry in enumerate(top, start=1)
            if isinstance(entry["choice"], list) and tuple(entry["choice"]) == kept
        ),
        None,
    )
    if place is not None:
        loss = float(top[place - 1]["loss"])  # type: ignore[arg-type]
        choices = wire_views(top, list(kept), place, loss, position.rules)
    else:
        # no row for it
        choices = wire_views(top, list(kept), None, 0.0, position.rules)[: len(top)]
    return AnswerView(position, kept, choices, place)
