"""Writes during play: rolling, keeping dice and filling a box.

A move made against the version this process already holds (``committed.at``) starts from
that copy and writes ``UPDATE ... WHERE version = v`` instead of locking and reading the
game back; any other move locks the game row first. Either way the engine decides, the
move is logged, and the new version is announced once the transaction commits.

A person's move is judged against the turn's clock when it arrives, not when the sweep
next looks: at the deadline or after it, the move is refused (:class:`OutOfTime`) and the
turn expires in the same transaction, as the sweep's expiry would have done it, so the
table ends up the same whichever came first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games import engine
from games.clock import clock
from games.committed import committed
from games.engine import DiceSource
from games.models import Game, Move, Player, Ruleset, Seat
from games.row_copies import copy_row, row_from_values
from games.rules import Box, IllegalMove, is_yahtzee
from games.services import move_writes, tournament_scoring
from games.services.dice_supply import dice_supply
from games.services.errors import (
    OUT_OF_TIME,
    STALE,
    GameError,
    NotAllowed,
    OutOfTime,
    StaleAction,
)
from games.services.inbox import game_over_noted
from games.services.ratings import game_rate
from games.services.turn_clock import PLAN_FIELDS, plan, turn_expire
from games.services.writes import announce, check_version, locked_game
from games.snapshots import Snapshot, recent_moves_after
from games.words import refused_move_words

TURN_FIELDS = ("turn_number", "dice", "held", "rolls_left")
# What a move changes (the upper bonus only as the game finishes, for the history's sums).
SEAT_FIELDS = ("scorecard", "total", "yahtzees", "place", "status", "upper_bonus")


class _TimeRanOut(Exception):
    """The person's move came when their turn's clock had run out (raised before the move
    writes anything; :func:`_on_the_clock` turns it into the expiry and the refusal)."""


def _acting_seat(game: Game, seats: list[Seat], player: Player, version: int | None) -> Seat:
    seat = next((s for s in seats if player.owns(s)), None)
    if seat is None:
        raise NotAllowed(gettext("You are watching this game; only seated players can play."))
    # A repeated or stale click is answered as stale even when it was the game's last move.
    check_version(game, version)
    if game.status == Game.Status.LOBBY:
        raise GameError(gettext("The game has not started yet."))
    if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED):
        raise GameError(gettext("This game is over."))
    if seat.status == Seat.Status.LEFT:
        raise NotAllowed(_("You left this game; the coach plays your seat to the end."))
    return seat


def _state(game: Game, seats: list[Seat], known: Snapshot | None) -> engine.GameState:
    """The engine's state of ``game`` as the move finds it: the committed version's, which
    is immutable and already worked out, or read from the rows."""
    if known is not None and known.state is not None:
        return known.state
    return game.engine_state(seats)


def _play(
    code: str,
    player: Player | None,
    version: int | None,
    make_action: Callable[[int], engine.Action],
    rng: DiceSource | None = None,
) -> Snapshot:
    """One action of ``player``'s seat, or (``player=None``) of the coach standing in for
    the away or left seat on turn."""
    known = committed.at(code, version)
    if known is not None:  # this process made or heard of that version: no need to read it
        game = copy_row(known.game)
        seats = [copy_row(seat) for seat in known.seats]
    else:
        game = locked_game(code)
        seats = list(game.seats.order_by("position"))
    changed_seats: list[Seat] = []
    if player is None:
        check_version(game, version)
        if game.status != Game.Status.PLAYING:
            raise GameError(_("This game is not in play."))
        state = _state(game, seats, known)
        assert state.current_seat is not None  # a game in play has a seat on turn
        seat = seats[state.current_seat]
        if not seat.coach_plays:
            raise GameError(_("A person plays this turn."))
    else:
        seat = _acting_seat(game, seats, player, version)
        state = _state(game, seats, known)
        on_turn = state.current_seat
        if on_turn is not None and on_turn != seat.position:
            raise NotAllowed(
                gettext("It is %(name)s's turn, not yours.") % {"name": seats[on_turn].display_name}
            )
        # Judged as it arrives: at the deadline the turn is over (as for the sweep's expiry).
        if game.turn_deadline is not None and game.turn_deadline <= clock.now():
            raise _TimeRanOut
        if seat.status == Seat.Status.AWAY:  # any action of the person: back from away
            seat.status = Seat.Status.PLAYING
            changed_seats = [seat]
    action = make_action(seat.position)
    if isinstance(action, engine.Score):  # the box named by its id, on this game's card
        box = state.rules.definition.find(action.category)
        if box is None:  # a box of another rule set (a form from another table)
            raise GameError(
                gettext("A %(ruleset)s scorecard has no such box.")
                % {"ruleset": Ruleset(game.ruleset).label}
            )
        action = engine.Score(action.seat, box)
    source = rng or (dice_supply.for_game(game, seats) if isinstance(action, engine.Roll) else None)
    try:
        new = engine.apply(state, action, source)
    except IllegalMove as error:  # worded for the player, not the engine's English
        raise GameError(refused_move_words(error, state, action)) from None
    dice_supply.advance(game, source)
    game.store_turn(new)
    game.version += 1
    move = row_from_values(
        Move,
        {
            "game_id": game.pk,
            "version": game.version,
            "seat": seat.position,
            "user_id": player.user_id if player else None,
            "turn_number": state.turn_number,
            "by_coach": player is None,
        },
    )
    if isinstance(action, (engine.Roll, engine.Keep)):
        assert new.dice is not None
        move.kind = Move.Kind.ROLL if isinstance(action, engine.Roll) else Move.Kind.KEEP
        move.dice = "".join(map(str, new.dice))
        move.held = "".join("1" if h else "0" for h in new.held)
    else:
        assert isinstance(action, engine.Score) and state.dice is not None
        card = new.cards[seat.position]
        move.kind, move.category = Move.Kind.SCORE, action.category.value
        move.dice = "".join(map(str, state.dice))
        move.points = card[action.category]
        seat.scorecard = card.to_dict()
        seat.total = card.total
        seat.yahtzees += int(is_yahtzee(state.dice))
        changed_seats = [seat]
        if new.is_finished:
            changed_seats = _finish(game, new, seats)
    # ``new`` is what game.engine_state(seats) would read back now: no need to work it out again.
    plan(game, seats, new_turn=new.turn_number != state.turn_number, state=new)
    # The game first (its row is the lock), and only what a move changes.
    fields = [*TURN_FIELDS, "dice_cursor", "status", "finished_at", *PLAN_FIELDS]
    version_was = None if known is None else known.game.version
    if not move_writes.update(game, [*fields, "version"], version_was=version_was):
        raise StaleAction(gettext(STALE))  # changed by another process since: nothing is written
    for changed in changed_seats:
        move_writes.update(changed, SEAT_FIELDS)
    move_writes.insert(move)
    if new.is_finished:
        game_rate(game, seats)
        game_over_noted(game, seats)  # each seated account's inbox: place and score
        tournament_scoring.game_ended(game, seats)  # an arena's points, exactly once
    # The board's log of recent moves follows on from the version this move was made on.
    recent = recent_moves_after(known.recent_moves, move) if known is not None else None
    return announce(game, seats, recent, new)


def _finish(game: Game, state: engine.GameState, seats: list[Seat]) -> list[Seat]:
    """The game is over: every seat gets its place (saved by the caller); those who left
    come after everyone who stayed."""
    game.status = Game.Status.FINISHED
    game.finished_at = clock.now()
    left = frozenset(s.position for s in seats if s.status == Seat.Status.LEFT)
    for standing in state.ranking(behind=left):
        seat = seats[standing.seat]
        seat.place = standing.place
        seat.total = standing.total
        seat.upper_bonus = state.cards[standing.seat].upper_bonus
    return seats


def _on_the_clock(code: str, version: int | None, play: Callable[[], Snapshot]) -> Snapshot:
    """A person's move in its transaction. If it came too late, the turn expires in that
    same transaction instead (the row locked and its version checked, so the sweep's
    expiry, before or after, cannot happen as well), and once that has committed and been
    announced, the move is refused."""
    with transaction.atomic():
        try:
            return play()
        except _TimeRanOut:  # nothing written yet
            turn_expire(code=code, version=version)
    raise OutOfTime(gettext(OUT_OF_TIME))


def turn_roll(
    *, code: str, player: Player, version: int | None, rng: DiceSource | None = None
) -> Snapshot:
    """Roll every die not kept; at most three rolls a turn."""
    return _on_the_clock(code, version, lambda: _play(code, player, version, engine.Roll, rng))


def turn_keep(
    *, code: str, player: Player, version: int | None, held: tuple[bool, ...]
) -> Snapshot:
    """Choose which dice stay on the table for the next roll."""
    return _on_the_clock(
        code,
        version,
        lambda: _play(code, player, version, lambda seat: engine.Keep(seat, tuple(held))),
    )


@transaction.atomic
def turn_coach(
    *, code: str, version: int | None, action: engine.Action, rng: DiceSource | None = None
) -> Snapshot:
    """The coach plays one action for the away or left seat on turn (logged as such)."""
    return _play(code, None, version, lambda seat: action, rng)


def turn_score(*, code: str, player: Player, version: int | None, category: Box | str) -> Snapshot:
    """Fill one box (a box of the game's rule set, or its id) with the dice on the table;
    the turn passes on."""
    return _on_the_clock(
        code,
        version,
        # An id is looked up on the game's own card in _play (the engine takes ids too).
        lambda: _play(code, player, version, lambda seat: engine.Score(seat, cast(Box, category))),
    )
