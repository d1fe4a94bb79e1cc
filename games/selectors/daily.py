"""Reads of the daily game: a day's leaderboard, someone's game of the day beside the
coach's, the day as ``/daily.json`` publishes it, and an account's daily record (games
played, streaks of days in a row, best score)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import DurationField, ExpressionWrapper, F
from django.utils.translation import gettext

from games.models import DailyDay, DailyEntry, DailyReminder, Game, Player
from games.rules import Rules, Scorecard
from games.words import RULESET_NAMES, box_name


@dataclass(frozen=True)
class LeaderLine:
    place: int
    username: str
    score: int
    seconds: int
    code: str  # the game's code: linked only once the day is over

    def as_json(self) -> dict[str, object]:
        return {"username": self.username, "score": self.score, "seconds": self.seconds}


def ruleset_name(ruleset: str) -> str:
    return str(RULESET_NAMES.get(ruleset, ruleset))


def _ranked(day: DailyDay) -> Any:  # a queryset of DailyEntry with score and taken
    """The day's accounts' games finished before the day ended, best first: score, then
    time taken, then who finished first."""
    taken = ExpressionWrapper(F("game__finished_at") - F("game__started_at"), DurationField())
    return (
        DailyEntry.objects.filter(
            day=day,
            user__isnull=False,
            game__status=Game.Status.FINISHED,
            game__finished_at__lt=day.ends,
        )
        .annotate(score=F("game__seats__total"), taken=taken)
        .order_by("-score", "taken", "game__finished_at", "pk")
    )


def leaderboard(day: DailyDay, limit: int | None = 100) -> list[LeaderLine]:
    """The day's ranked games; equal score and time share a place."""
    rows = _ranked(day).values_list("user__username", "score", "taken", "game__code")
    lines: list[LeaderLine] = []
    for position, (username, score, taken, code) in enumerate(rows[:limit], start=1):
        seconds = int(taken.total_seconds()) if taken is not None else 0
        same = lines and (lines[-1].score, lines[-1].seconds) == (score, seconds)
        place = lines[-1].place if same else position
        lines.append(LeaderLine(place, username, score, seconds, code))
    return lines


def place_of(entry: DailyEntry) -> tuple[int, int] | None:
    """(place so far, ranked games so far) of an account's finished game; None if unranked."""
    ranked = _ranked(entry.day)
    mine = ranked.filter(pk=entry.pk).values_list("score", "taken").first()
    if mine is None:
        return None
    score, taken = mine
    better = (
        ranked.filter(score__gt=score).count() + ranked.filter(score=score, taken__lt=taken).count()
    )
    return better + 1, ranked.count()


def day_of(day: date) -> DailyDay | None:
    return DailyDay.objects.filter(date=day).first()


def entry_of(day: DailyDay, player: Player) -> DailyEntry | None:
    """``player``'s game of the day (an account's, or a guest's by their token)."""
    if not player.is_known:
        return None
    entries = DailyEntry.objects.select_related("game", "day").filter(day=day)
    if player.user_id is not None:
        return entries.filter(user_id=player.user_id).first()
    return entries.filter(guest=player.guest, user__isnull=True).first()


@dataclass(frozen=True)
class CardRow:
    label: str
    mine: int | None
    coach: int | None


@dataclass(frozen=True)
class Result:
    """A finished daily game beside the coach's own game on the same dice."""

    code: str
    score: int
    coach: int | None
    rows: list[CardRow]
    place: tuple[int, int] | None  # (place so far, ranked games); None for a guest
    mean_loss: float | None  # the review's points given away per decision, once reviewed
    share: str


def card_rows(rules: Rules, mine: Scorecard, coach: Scorecard | None) -> list[CardRow]:
    rows = [CardRow(box_name(b), mine[b], coach[b] if coach else None) for b in rules.boxes]
    definition = rules.definition
    if definition.upper_bonus:
        rows.append(
            CardRow(gettext("Upper bonus"), mine.upper_bonus, coach.upper_bonus if coach else None)
        )
    if definition.extra_bonus:
        rows.append(
            CardRow(gettext("Bonus"), mine.yahtzee_bonus, coach.yahtzee_bonus if coach else None)
        )
    rows.append(CardRow(gettext("Total"), mine.total, coach.total if coach else None))
    return rows


def share_line(day: DailyDay, score: int, coach: int | None) -> str:
    """The plain line to share: day, rule set, score and the coach's (no pictures)."""
    values = {
        "ruleset": ruleset_name(day.ruleset),
        "date": day.date.isoformat(),
        "score": score,
        "coach": coach,
    }
    if coach is None:
        return gettext("Daily %(ruleset)s %(date)s: %(score)d") % values
    return gettext("Daily %(ruleset)s %(date)s: %(score)d, the coach %(coach)d") % values


def result_of(entry: DailyEntry) -> Result | None:
    """The result of a finished game of the day (None while it runs)."""
    game = entry.game
    if game.status != Game.Status.FINISHED:
        return None
    day = entry.day
    rules = game.rules
    seat = game.seats.get()
    mine = Scorecard.from_dict(seat.scorecard, rules)
    coach = Scorecard.from_dict(day.coach_card, rules) if day.coach_card else None
    ranked = entry.user_id is not None and game.finished_at is not None
    return Result(
        code=game.code,
        score=mine.total,
        coach=day.coach_total,
        rows=card_rows(rules, mine, coach),
        place=place_of(entry) if ranked else None,
        mean_loss=seat.mean_loss,
        share=share_line(day, mine.total, day.coach_total),
    )


def day_json(day: DailyDay, tomorrow: DailyDay | None, now: datetime) -> dict[str, object]:
    """``/daily.json``: the day, its commitment, its seed once over, tomorrow's commitment,
    the leaderboard, and the coach's score once the day is over."""
    over = day.is_over(now)
    return {
        "date": day.date.isoformat(),
        "ruleset": day.ruleset,
        "commitment": day.commitment,
        "seed": day.revealed_seed(now),
        "tomorrow_commitment": tomorrow.commitment if tomorrow else None,
        "leaderboard": [line.as_json() for line in leaderboard(day)],
        "coach_score": day.coach_total if over else None,
    }


@dataclass(frozen=True)
class DailyRecord:
    played: int
    current_streak: int
    best_streak: int
    best_score: int | None


def daily_record(user_id: int, today: date) -> DailyRecord:
    """An account's finished daily games, its current streak (days in a row up to today,
    or up to yesterday while today's is not played), its best streak and best score."""
    rows = list(
        DailyEntry.objects.filter(user_id=user_id, game__status=Game.Status.FINISHED)
        .order_by("day__date")
        .values_list("day__date", "game__seats__total")
    )
    days = [d for d, _ in rows]
    best = run = 0
    previous: date | None = None
    for d in days:
        run = run + 1 if previous is not None and d - previous == timedelta(days=1) else 1
        best, previous = max(best, run), d
    current = run if previous is not None and (today - previous).days <= 1 else 0
    scores = [total for _, total in rows if total is not None]
    return DailyRecord(len(days), current, best, max(scores) if scores else None)


def reminder_on(user_id: int) -> bool:
    return DailyReminder.objects.filter(user_id=user_id, remind=True).exists()
