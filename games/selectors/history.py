"""A player's history: statistics, charts and a page of their ended games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Avg, Count, F, Max, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber

from games.models import Game, PracticeRecord, Rating, Ruleset, Seat
from games.selectors.ratings import RatingView, user_rating
from games.viewmodels.base import ViewModel
from games.viewmodels.review import BandView, SkillView, band_of, band_views

TREND_WINDOW = 5  # points averaged in the loss chart's trend line
PAGE_SIZE = 50  # ended games listed a page
CHART_POINTS = 50  # points a chart draws at most: past that, each stands for a run of games
NEWEST_FIRST = ("-game__finished_at", "-game_id")
# What a listed game shows: its seat's figures and its game's code, status and end.
ENTRY_FIELDS = (
    "total",
    "place",
    "mean_loss",
    "left_round",
    "play_worth",
    "luck",
    "review_loss",
    "game__code",
    "game__status",
    "game__finished_at",
    "game__rated",
)


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


@dataclass(frozen=True)
class RulesetFigures(ViewModel):
    """A player's figures at one rule set: its finished games, wins, scores and rating."""

    ruleset: str  # a Ruleset value
    games_played: int
    wins: int
    average: float | None
    best: int | None
    rating: float | None  # None: no rated game of this rule set
    rated_games: int

    @property
    def name(self) -> str:
        return str(Ruleset(self.ruleset).label)


@dataclass
class History(ViewModel):
    username: str
    games_played: int
    wins: int
    average: float | None
    best: int | None
    yahtzees: int
    bonus_rate: float | None
    entries: list[HistoryEntry]  # one page of them, the newest first
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
    page: int = 1  # of the ended games, 1 the newest
    pages: int = 1
    # The rule set whose rating (and its chart) is shown, and the figures of every rule
    # set the player has played or is rated at, in the order of the rule sets.
    ruleset: str = Ruleset.YAHTZEE
    rulesets: tuple[RulesetFigures, ...] = ()
    # The rule set the scores chart is of, when the player played several (else None).
    chart_ruleset: str | None = None

    @property
    def chart_ruleset_name(self) -> str:
        return str(Ruleset(self.chart_ruleset).label) if self.chart_ruleset else ""

    @property
    def newer_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def older_page(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None

    @property
    def luck_size(self) -> float:
        return abs(self.luck or 0.0)

    @property
    def lucky(self) -> bool:
        return (self.luck or 0.0) >= 0


class NoSuchPage(LookupError):
    """A page of a history past its last one."""

    def __init__(self, pages: int) -> None:
        super().__init__(pages)
        self.pages = pages  # how many there are


def ruleset_figures(user_id: int, finished: QuerySet[Seat]) -> tuple[RulesetFigures, ...]:
    """The figures of each rule set ``user_id`` has finished a game of or is rated at: one
    grouped query for the games, one for the ratings."""
    wins = Q(place=1, game__seat_count__gt=1, left_round__isnull=True)
    rows = {
        row["game__ruleset"]: row
        for row in finished.values("game__ruleset").annotate(
            played=Count("id"),
            wins=Count("id", filter=wins),
            average=Avg("total"),
            best=Max("total"),
        )
    }
    ratings = {r.ruleset: r for r in Rating.objects.filter(user_id=user_id)}
    return tuple(
        RulesetFigures(
            ruleset=ruleset,
            games_played=rows.get(ruleset, {}).get("played", 0),
            wins=rows.get(ruleset, {}).get("wins", 0),
            average=rows.get(ruleset, {}).get("average"),
            best=rows.get(ruleset, {}).get("best"),
            rating=ratings[ruleset].ordinal if ruleset in ratings else None,
            rated_games=ratings[ruleset].games if ruleset in ratings else 0,
        )
        for ruleset in Ruleset.values
        if ruleset in rows or ruleset in ratings
    )


def user_history(username: str, page: int = 1, ruleset: str = Ruleset.YAHTZEE) -> History | None:
    """``username``'s figures and charts, and one page of their ended games, the newest first
    (None: no such account); the rating shown, and its chart, are those of ``ruleset``, and
    each rule set played has its own line of figures. The number of queries does not depend
    on the number of games: figures are sums in the database and charts have at most
    :data:`CHART_POINTS` points.
    Raises :class:`NoSuchPage` for a page past the last one (page 1 always exists)."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        return None
    finished = Q(game__status=Game.Status.FINISHED)
    # Abandoned tables are kept for the history too, listed but not counted in the figures.
    ended = Seat.objects.filter(
        user=user, game__status__in=(Game.Status.FINISHED, Game.Status.ABANDONED)
    )
    stats = ended.aggregate(
        listed=Count("id"),
        played=Count("id", filter=finished),
        # A solo game is no win, nor a game the player left.
        wins=Count(
            "id", filter=finished & Q(place=1, game__seat_count__gt=1, left_round__isnull=True)
        ),
        average=Avg("total", filter=finished),
        best=Max("total", filter=finished),
        yahtzees=Sum("yahtzees", filter=finished),
        bonuses=Count("id", filter=finished & Q(upper_bonus__gt=0)),
        losses=Count("mean_loss", filter=finished),
        rated=Count("rating_after", filter=Q(game__ruleset=ruleset)),
        # Every reviewed decision, and the points they gave away.
        decisions=Sum("review_decisions", filter=finished),
        given_away=Sum("review_loss", filter=finished),
        play_worth=Avg("play_worth", filter=finished),
        luck=Avg("luck", filter=finished),
    )
    pages = max(1, -(-stats["listed"] // PAGE_SIZE))
    if not 1 <= page <= pages:
        raise NoSuchPage(pages)
    shown = list(
        ended.select_related("game")
        .only(*ENTRY_FIELDS)
        .order_by(*NEWEST_FIRST)[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    )
    # Counted for the page's games only (an annotation would count them for every game).
    players = dict(
        Seat.objects.filter(game_id__in=[seat.game_id for seat in shown])
        .values("game_id")
        .annotate(players=Count("id"))
        .values_list("game_id", "players")
    )
    entries = [
        HistoryEntry(
            seat.game,
            seat.total,
            seat.place,
            players[seat.game_id],
            seat.place == 1 and players[seat.game_id] > 1 and seat.left_round is None,
            seat.mean_loss,
            seat.left_round,
            seat_skill(seat),
        )
        for seat in shown
    ]
    played = stats["played"]
    decisions = stats["decisions"] or 0
    # A mean per decision: a game of many decisions weighs more than a game of few.
    mean_loss = (stats["given_away"] or 0.0) / decisions if decisions else None
    rated = Seat.objects.filter(user=user, rating_after__isnull=False, game__ruleset=ruleset)
    figures = ruleset_figures(user.pk, ended.filter(finished))
    # Scores of different rule sets are on different scales (a good Yacht game is a poor
    # Yahtzee game): once several were played, the chart shows ``ruleset``'s alone.
    played_in = {f.ruleset: f.games_played for f in figures if f.games_played}
    mixed = len(played_in) > 1
    scores = ended.filter(finished, game__ruleset=ruleset) if mixed else ended.filter(finished)
    return History(
        mean_loss=mean_loss,
        band=band_of(mean_loss) if mean_loss is not None else None,
        play_worth=stats["play_worth"],
        luck=stats["luck"],
        bands=band_views(),
        practice=PracticeRecord.objects.filter(user=user, answered__gt=0).first(),
        username=user.username,
        games_played=played,
        wins=stats["wins"],
        average=stats["average"],
        best=stats["best"],
        yahtzees=stats["yahtzees"] or 0,
        bonus_rate=stats["bonuses"] / played if played else None,
        entries=entries,
        page=page,
        pages=pages,
        chart=score_chart_of(scores, played_in.get(ruleset, 0) if mixed else played),
        chart_ruleset=ruleset if mixed else None,
        loss_chart=loss_chart_of(ended.filter(finished, mean_loss__isnull=False), stats["losses"]),
        user_id=user.pk,
        rating=(rating := user_rating(user.pk, ruleset)),
        rating_chart=rating_chart_of(rated, stats["rated"]) if rating else None,
        ruleset=ruleset,
        rulesets=figures,
    )


def seat_skill(seat: Seat) -> SkillView | None:
    """What the play and the dice were worth in one seat's game, as kept on the seat from
    the coach's review (None: not reviewed, or reviewed before the coach worked them out)."""
    if seat.play_worth is None or seat.luck is None:
        return None
    return SkillView(
        expected_start=seat.play_worth + (seat.review_loss or 0.0),
        play_worth=seat.play_worth,
        final_total=round(seat.play_worth + seat.luck),
        luck=seat.luck,
    )


def chart_points(
    seats: QuerySet[Seat], count: int, field: str, *, last_of_run: bool = False
) -> tuple[list[float], int]:
    """Up to :data:`CHART_POINTS` values of ``field`` over ``count`` ``seats``, in the order
    their games ended, the oldest first, in one query; and how many games each point stands
    for. One point a game while they fit; past that, one point for each run of that many
    games in a row: the run's mean, or (``last_of_run``) its last game's value.

    The ORM numbers the games (a window); grouping by run is a query around that one, as
    Django cannot group by a window's value (and building one filtered aggregate per point
    costs more Python time than the page saves)."""
    if not count:
        return [], 1
    block = -(-count // CHART_POINTS)
    numbered = seats.annotate(
        number=Window(RowNumber(), order_by=[F("game__finished_at").asc(), F("game_id").asc()]),
        value=F(field),
    ).values_list("number", "value")
    inner, params = numbered.query.sql_with_params()
    if last_of_run:
        sql = (
            f"SELECT value FROM ({inner}) numbered "
            "WHERE number %% %s = 0 OR number = %s ORDER BY number"
        )
        params = (*params, block, count)
    else:
        sql = (
            f"SELECT (number - 1) / %s AS point, AVG(value) FROM ({inner}) numbered "
            "GROUP BY point ORDER BY point"
        )
        params = (block, *params)
    with connections[seats.db].cursor() as cursor:
        cursor.execute(sql, params)
        # float: PostgreSQL's AVG of integers is a Decimal.
        return [float(row[-1]) for row in cursor.fetchall()], block


def score_chart_of(seats: QuerySet[Seat], count: int) -> dict[str, object] | None:
    """The scores chart: each game's score, or the mean score of each run of games."""
    values, block = chart_points(seats, count, "total")
    chart = score_chart([round(v) if block == 1 else round(v, 1) for v in values])
    return chart and chart | {"block": block}


def loss_chart_of(seats: QuerySet[Seat], count: int) -> dict[str, object] | None:
    """The coach's chart: each reviewed game's mean loss, or the mean of each run's."""
    values, block = chart_points(seats, count, "mean_loss")
    chart = loss_chart(values)
    return chart and chart | {"block": block}


def rating_chart_of(seats: QuerySet[Seat], count: int) -> dict[str, object] | None:
    """The rating after each rated game, or after the last game of each run of them; the
    chart starts at 0, where every new account starts."""
    values, block = chart_points(seats, count, "rating_after", last_of_run=True)
    chart = line_chart([max(round(v, 1), 0) for v in values], grid=10)
    return chart and chart | {"block": block}


def score_chart(totals: Sequence[float]) -> dict[str, object] | None:
    """A line chart of scores (or means of scores) over time, gridlines every 100 points."""
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
