"""A player's history: statistics, charts and every finished game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, Max, Q

from games.models import Game, PracticeRecord, Seat
from games.rules import Scorecard
from games.selectors.ratings import RatingView, user_rating
from games.viewmodels.base import ViewModel
from games.viewmodels.review import BandView, SkillView, band_of, band_views, skill_view

TREND_WINDOW = 5  # games averaged in the loss chart's trend line


@dataclass
class HistoryEntry(ViewModel):
    game: Game
    total: int
    place: int | None
    players: int
    won: bool
    mean_loss: float | None = None  # the coach's expected points lost per decision
    left_round: int | None = None  # the round this player left the game in, if they did
    skill: SkillView | None = None  # what the play and the dice were worth, once reviewed


@dataclass
class History(ViewModel):
    username: str
    games_played: int
    wins: int
    average: float | None
    best: int | None
    yahtzees: int
    bonus_rate: float | None
    entries: list[HistoryEntry]
    chart: dict[str, object] | None
    loss_chart: dict[str, object] | None = None
    rating: RatingView | None = None
    user_id: int | None = None
    rating_chart: dict[str, object] | None = None
    mean_loss: float | None = None  # over every decision of every reviewed game
    band: BandView | None = None  # the rating band of that mean
    play_worth: float | None = None  # per reviewed game, on average
    luck: float | None = None  # what the dice added per reviewed game, on average
    bands: tuple[BandView, ...] = ()
    practice: PracticeRecord | None = None  # answers on /practice/, if any

    @property
    def luck_size(self) -> float:
        return abs(self.luck or 0.0)

    @property
    def lucky(self) -> bool:
        return (self.luck or 0.0) >= 0


def user_history(username: str) -> History | None:
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        return None
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).select_related("game")
    stats = seats.aggregate(
        played=Count("id"),
        # A solo game is no win, nor a game the player left.
        wins=Count("id", filter=Q(place=1, game__seat_count__gt=1, left_round__isnull=True)),
        average=Avg("total"),
        best=Max("total"),
    )
    entries: list[HistoryEntry] = []
    bonuses = yahtzees = 0
    decisions = 0  # of every reviewed game, and the points they gave away
    given_away = 0.0
    skills: list[SkillView] = []
    # Abandoned tables are kept for the history too, listed but not counted in the figures.
    ended = Seat.objects.filter(
        user=user, game__status__in=(Game.Status.FINISHED, Game.Status.ABANDONED)
    ).select_related("game")
    for seat in ended.annotate(players=Count("game__seats")).order_by("-game__finished_at"):
        card = Scorecard.from_dict(seat.scorecard, seat.game.rules)
        if seat.game.status == Game.Status.FINISHED:
            bonuses += card.upper_bonus > 0
            yahtzees += seat.yahtzees
        reviewed = seat_review(seat)
        skill = None
        if reviewed is not None:
            decisions += len(reviewed["decisions"])
            given_away += reviewed["total_loss"]
            skill = skill_view(reviewed)
            if skill is not None:
                skills.append(skill)
        entries.append(
            HistoryEntry(
                seat.game,
                seat.total,
                seat.place,
                seat.players,
                seat.place == 1 and seat.players > 1 and seat.left_round is None,
                seat.mean_loss,
                seat.left_round,
                skill,
            )
        )
    played = stats["played"]
    losses = [e.mean_loss for e in reversed(entries) if e.mean_loss is not None]
    # A mean per decision: a game of many decisions weighs more than a game of few.
    mean_loss = given_away / decisions if decisions else None
    return History(
        mean_loss=mean_loss,
        band=band_of(mean_loss) if mean_loss is not None else None,
        play_worth=sum(s.play_worth for s in skills) / len(skills) if skills else None,
        luck=sum(s.luck for s in skills) / len(skills) if skills else None,
        bands=band_views(),
        practice=PracticeRecord.objects.filter(user=user, answered__gt=0).first(),
        username=user.username,
        games_played=played,
        wins=stats["wins"],
        average=stats["average"],
        best=stats["best"],
        yahtzees=yahtzees,
        bonus_rate=bonuses / played if played else None,
        entries=entries,
        chart=score_chart(
            [e.total for e in reversed(entries) if e.game.status == Game.Status.FINISHED]
        ),
        loss_chart=loss_chart(losses),
        user_id=user.pk,
        rating=(rating := user_rating(user.pk)),
        # The chart starts at 0, where every new account starts.
        rating_chart=line_chart([max(round(v, 1), 0) for v in rating.history], grid=10)
        if rating
        else None,
    )


def seat_review(seat: Seat) -> dict[str, Any] | None:
    """The coach's review of one seat's game, as stored with the game (None: not reviewed)."""
    review = seat.game.review
    if not review:
        return None
    data: dict[str, Any] | None = review["seats"].get(str(seat.position))
    return data


def score_chart(totals: list[int]) -> dict[str, object] | None:
    """A line chart of scores over time, gridlines every 100 points."""
    return line_chart(totals, grid=100)


def loss_chart(losses: list[float]) -> dict[str, object] | None:
    """A line chart of the mean expected points lost per decision, game by game, with its
    trend: at each game, the mean of the last :data:`TREND_WINDOW` games."""
    values = [round(v, 2) for v in losses]
    trend = []
    for i in range(len(values)):
        window = values[max(0, i - TREND_WINDOW + 1) : i + 1]
        trend.append(sum(window) / len(window))
    return line_chart(values, grid=1, trend=trend)


def line_chart(
    values: Sequence[float],
    grid: int,
    width: int = 600,
    height: int = 200,
    trend: Sequence[float] = (),
) -> dict[str, object] | None:
    """Points of a line chart over time, for a server-rendered SVG; ``trend`` (as many
    values) is drawn as a second line on the same scale."""
    if not values:
        return None
    pad = 30
    top = max(max(values), grid)
    top = grid * -(-top // grid)  # round the scale up to a whole gridline
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(height - pad - (value / top) * (height - 2 * pad), 1)

    points = [(round(pad + i * step, 1), y(v), v) for i, v in enumerate(values)]
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{x},{yy}" for x, yy, _ in points),
        "trend": " ".join(f"{round(pad + i * step, 1)},{y(v)}" for i, v in enumerate(trend)),
        "gridlines": [(y(v), v) for v in range(0, int(top) + 1, grid)],
        "pad": pad,
    }
