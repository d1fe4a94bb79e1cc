"""Writes of the daily game (issue 32): the day rows (made on demand a day ahead, exactly
once across processes), someone's one game of the day, the coach's own game on the day's
dice, and the inbox reminders of the accounts that asked for them.

A daily game is an ordinary solo table (untimed, casual, no hints, no feedback) drawing
the same dice as every other game of its day (``dice_draw="same"``, the day's seed), whose
seed stays secret until the day is over (``seed_secret_until``)."""

from __future__ import annotations

import random
import secrets
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games import dice as fair
from games import engine
from games.clock import clock
from games.models import (
    DailyDay,
    DailyEntry,
    DailyReminder,
    Game,
    InboxItem,
    Pace,
    Player,
    ruleset_of,
)
from games.rules import Rules
from games.services import lobby
from games.services.errors import NotAllowed
from games.services.inbox import inbox_add
from games.strategy import Advisor, advisor_if_ready
from games.strategy.bots import choose_action


def daily_day_ensure(*, day: date) -> DailyDay:
    """The row of ``day``, made now if missing: its rule set by the rotation and a new
    seed. Two processes making it at once: the unique date lets one insert, and the other
    reads that one's row."""
    found = DailyDay.objects.filter(date=day).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return DailyDay.objects.create(
                date=day, ruleset=ruleset_of(day), seed=secrets.token_bytes(fair.SEED_BYTES).hex()
            )
    except IntegrityError:
        return DailyDay.objects.get(date=day)


def daily_days_ensure(*, now: datetime) -> tuple[DailyDay, DailyDay]:
    """Today's and tomorrow's rows (UTC), so tomorrow's commitment is public a day ahead."""
    today = now.date()
    return daily_day_ensure(day=today), daily_day_ensure(day=today + timedelta(days=1))


def _entry_of(day: DailyDay, player: Player) -> DailyEntry | None:
    entries = DailyEntry.objects.select_related("game").filter(day=day)
    if player.user_id is not None:
        return entries.filter(user_id=player.user_id).first()
    return entries.filter(guest=player.guest, user__isnull=True).first()


def daily_guest_claim(*, guest: str, user_id: int) -> None:
    """A guest who signs up or logs in has played the days they played as a guest: each of
    those games becomes the account's game of its day (counted on that day's leaderboard,
    and the day cannot be started again), unless the account already had one that day,
    which stays its game (the guest's stays an unranked guest's game). Run in the claim's
    transaction (``accounts.guest_seats_claim``)."""
    played = DailyEntry.objects.filter(user_id=user_id).values("day_id")
    DailyEntry.objects.filter(guest=guest, user__isnull=True).exclude(day_id__in=played).update(
        user_id=user_id, guest=""
    )


def daily_play(*, player: Player) -> Game:
    """``player``'s game of today: the one they started, or a new one started now. An
    account's counts on the day's leaderboard; a guest's is unranked."""
    if not player.is_known:
        raise NotAllowed(gettext("Log in or choose a guest name to play the daily game."))
    day, _tomorrow = daily_days_ensure(now=clock.now())
    existing = _entry_of(day, player)
    if existing is not None:
        return existing.game
    try:
        with transaction.atomic():
            return _start(day, player)
    except IntegrityError:  # the same person's second post, a moment apart: theirs is made
        entry = _entry_of(day, player)
        if entry is None:
            raise
        return entry.game


def _start(day: DailyDay, player: Player) -> Game:
    game = lobby.game_create(
        player=player,
        seat_count=1,
        rules=Rules(ruleset=day.ruleset),
        rated=False,
        coach_hints=False,
        feedback=False,
        pace=Pace.UNTIMED,
        dice_draw="same",
        dice_seed=bytes.fromhex(day.seed),
        seed_secret_until=day.ends,
    )
    DailyEntry.objects.create(
        day=day, game=game, user_id=player.user_id, guest="" if player.user_id else player.guest
    )
    lobby.game_start(code=game.code, player=player, version=game.version)
    return Game.objects.get(pk=game.pk)


def coach_game(advisor: Advisor, ruleset: str, seed: bytes) -> engine.GameState:
    """The coach's own solo game on the same dice: best play (games/strategy/bots.py,
    ``optimal``) with ``advisor``, the rule set's, every roll from the same-dice draw."""
    rules = Rules(ruleset=ruleset)
    draw = fair.SameDice(seed)
    state = engine.start(1, rules, draw.for_rolloff(1))
    while not state.is_finished:
        action = choose_action(advisor, state, 0, random.Random(0))  # best play draws nothing
        source = None
        if isinstance(action, engine.Roll):
            roll = engine.ROLLS_PER_TURN - state.rolls_left + 1
            source = draw.for_roll(state.round, roll, state.held)
        state = engine.apply(state, action, source)
    return state


def daily_coach_play(*, day_id: int) -> DailyDay:
    """The coach's game of a day, played once and kept (a second call, or another process
    at the same moment, keeps the first one's: the same dice give the same game). While the
    rule set's table is not ready (being loaded or built, or a rule set the solver cannot
    play yet) nothing is played: the day shows no coach's game until a later call."""
    day = DailyDay.objects.get(pk=day_id)
    if day.coach_total is not None:
        return day
    advisor = advisor_if_ready(Rules(ruleset=day.ruleset), settings.STRATEGY_CACHE_DIR)
    if advisor is None:
        return day
    card = coach_game(advisor, day.ruleset, bytes.fromhex(day.seed)).cards[0]
    DailyDay.objects.filter(pk=day.pk, coach_total__isnull=True).update(
        coach_card=card.to_dict(), coach_total=card.total
    )
    day.refresh_from_db()
    return day


@transaction.atomic
def daily_reminder_set(*, user_id: int, remind: bool) -> DailyReminder:
    """An account's choice: an inbox entry on days it has not played the daily game."""
    reminder, _ = DailyReminder.objects.select_for_update().get_or_create(user_id=user_id)
    reminder.remind = remind
    reminder.save(update_fields=["remind"])
    return reminder


# Reminders go from this hour (UTC) on, so a day's entry comes while there is time left.
REMIND_FROM_HOUR = 12


def daily_reminders_send(*, now: datetime | None = None) -> int:
    """One inbox entry today for each account that asked and has not played today, from
    ``REMIND_FROM_HOUR``; exactly once a day across processes (the conditional update of
    ``last_reminded`` lets one sweep through). How many were sent."""
    now = now or clock.now()
    if now.hour < REMIND_FROM_HOUR:
        return 0
    today = now.date()
    due = (
        DailyReminder.objects.filter(remind=True)
        .exclude(last_reminded=today)
        .exclude(user__daily_entries__day__date=today)
        .values_list("pk", "user_id")
    )
    sent = 0
    for pk, user_id in list(due[:500]):
        with transaction.atomic():
            won = (
                DailyReminder.objects.filter(pk=pk, remind=True)
                .exclude(last_reminded=today)
                .update(last_reminded=today)
            )
            if won:
                details: dict[str, object] = {"date": today.isoformat()}
                inbox_add(user_id=user_id, kind=InboxItem.Kind.DAILY, details=details)
                sent += 1
    return sent
