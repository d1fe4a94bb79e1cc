"""What the machine does when a game is due: a computer player's move, the coach's move
for an away or left seat, the end of a turn's clock, a daily game's e-mails, the review.

:func:`act` is called by :mod:`games.jobs` for one game at the version it was found due
at. It does at most one thing, through the same versioned services people use, so a
duplicate (another process, a restart, a late look) is refused as stale and harmless.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings

from games import engine, services
from games.clock import clock
from games.jobs import mails
from games.models import BotLevel, Game, Move, Pace, Seat
from games.services import Player
from games.services.dice_supply import dice_supply
from games.services.turn_clock import REMINDER_BEFORE
from games.snapshots import RECENT_MOVE_FIELDS, Snapshot
from games.strategy import advisor_if_ready
from games.strategy.bots import choose_action, keeping_held_action
from games.strategy.review import LoggedMove, review_game

logger = logging.getLogger(__name__)

WARMUP_RETRY_SECONDS = 2.0


def warm_up(snapshot: Snapshot) -> None:
    """Listener for services: a table that will need the coach has it built in time."""
    game = snapshot.game
    if game.status == Game.Status.PLAYING and (
        game.coach_hints or Pace(game.pace).turn_time or any(s.bot for s in snapshot.seats)
    ):
        advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)


def _warming_up() -> timedelta:
    return timedelta(seconds=max(WARMUP_RETRY_SECONDS, settings.BOT_DELAY_SECONDS))


def act(code: str, version: int) -> timedelta | None:
    """Do what is due in game ``code`` at ``version``. Returns when to look again if the
    work has to wait (the coach is warming up), else None: the next due moment is then
    planned from the game as it stands."""
    snapshot = Snapshot.load(code)
    if snapshot is None or snapshot.game.version != version:
        return None  # moved on: whoever moved planned what comes next
    game = snapshot.game
    if game.status == Game.Status.FINISHED:
        return _write_review(snapshot)
    if game.status != Game.Status.PLAYING:
        return None
    state = snapshot.state
    assert state is not None and state.current_seat is not None
    seat = snapshot.seats[state.current_seat]
    if seat.bot:
        return _computer_acts(snapshot, seat, BotLevel(seat.bot).policy)
    if seat.coach_plays:
        if state.dice is None:  # a new turn: is anybody still at this table?
            _game, play_on = services.coach_stands_in(code=code, version=version)
            if not play_on:
                return None
        return _computer_acts(snapshot, seat, "optimal", keep_held=_players_roll(snapshot))
    now = clock.now()
    deadline = game.turn_deadline
    if deadline is not None and deadline <= now:  # first: a failing mail server stalls nobody
        services.turn_expire(code=code, version=version)
        return None
    if game.pace != Pace.DAILY:
        return None
    # A daily game's e-mails go first and are noted after: a mail server that fails leaves
    # the game due, so the next look (at the end of the lease) sends again; only a process
    # killed between the two could send one twice, never none.
    turn = state.turn_number
    if game.mailed_turn != turn:
        mails.your_turn(snapshot, seat)
        services.mail_marked(code=code, version=version, field="mailed_turn", turn=turn)
    elif deadline is not None and game.reminded_turn != turn and deadline - REMINDER_BEFORE <= now:
        mails.last_hour(snapshot, seat)
        services.mail_marked(code=code, version=version, field="reminded_turn", turn=turn)
    return None


def _players_roll(snapshot: Snapshot) -> bool:
    """The dice on the table come from the person's own roll: the coach takes the turn
    over from there (its first decision keeps at least the dice they held)."""
    state = snapshot.state
    assert state is not None  # the game is in play
    rolls = [
        move
        for move in (
            dict(zip(RECENT_MOVE_FIELDS, row, strict=True)) for row in snapshot.recent_moves
        )
        if move["kind"] == Move.Kind.ROLL and move["turn_number"] == state.turn_number
    ]
    return bool(rolls) and not rolls[-1]["by_coach"]


def _computer_acts(
    snapshot: Snapshot, seat: Seat, policy: str, *, keep_held: bool = False
) -> timedelta | None:
    """One action of a computer player, or of the coach standing in for a person
    (``keep_held``: keeping at least the dice the person held)."""
    game = snapshot.game
    advisor = advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:  # the coach is warming up: look again shortly
        return _warming_up()
    state = snapshot.state
    assert state is not None  # the game is in play
    choices = dice_supply.source or dice_supply.choices  # the bots' own draws, not dice
    if keep_held:
        action = keeping_held_action(advisor, state, seat.position)
    else:
        action = choose_action(advisor, state, seat.position, choices, policy)
    code, version = game.code, game.version
    if not seat.bot:
        services.turn_coach(code=code, version=version, action=action)
        return None
    bot = Player(seat.name, guest=seat.guest)
    if isinstance(action, engine.Roll):
        services.turn_roll(code=code, player=bot, version=version)
    elif isinstance(action, engine.Keep):
        services.turn_keep(code=code, player=bot, version=version, held=action.held)
    else:
        assert isinstance(action, engine.Score)
        services.turn_score(code=code, player=bot, version=version, category=action.category)
    return None


def _write_review(snapshot: Snapshot) -> timedelta | None:
    game = snapshot.game
    if game.review is not None:
        return None
    advisor = advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:
        return _warming_up()
    seats = snapshot.seats
    people = [seat.position for seat in seats if not seat.bot]
    moves = [
        LoggedMove(m.kind, m.seat, m.dice, m.held, m.category, m.by_coach)
        for m in Move.objects.filter(game_id=game.pk).order_by("version")
        if m.seat is not None
    ]
    reviews = review_game(advisor, game.rules, len(seats), moves, people)
    services.review_store(
        code=game.code,
        review={"seats": {str(p): r.to_dict() for p, r in reviews.items()}},
        # A seat the coach played throughout has no figures of its own.
        mean_losses={p: r.mean_loss for p, r in reviews.items() if r.decisions},
    )
    return None
