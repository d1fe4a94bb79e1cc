"""Reads for pages: a game as one viewer sees it, the public lobby list, a player's history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from types import MappingProxyType

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, F, Max, Q
from django.urls import reverse
from django.utils import timezone

from . import rules
from .engine import ROUNDS, GameState
from .models import Connection, Game, LiveServer, Move, Player, Seat, Snapshot
from .rules import CATEGORIES, LOWER, UPPER, UPPER_BONUS_THRESHOLD, Category, Scorecard
from .strategy import advisor_if_ready
from .strategy.bots import held_flags


class TemplateView:
    """A page's view model. Django's templates try ``obj[name]`` before ``obj.name`` and
    pay for a caught exception on every attribute of a plain object; answering the first
    try makes a 4-seat board render about twice as fast."""

    __iter__ = None  # a view model is not a sequence, whatever __getitem__ suggests

    def __getitem__(self, name: str) -> object:
        if not isinstance(name, str):
            raise KeyError(name)
        return getattr(self, name)


@dataclass(frozen=True)
class RowView(TemplateView):
    """One scorecard row: the box, and each seat's cell in it."""

    value: str
    label: str
    boxes: tuple[BoxView, ...]


# Pip positions on a 100x100 die face, by face value.
_PIPS = {
    1: [(50, 50)],
    2: [(28, 28), (72, 72)],
    3: [(28, 28), (50, 50), (72, 72)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(28, 28), (72, 28), (50, 50), (28, 72), (72, 72)],
    6: [(28, 25), (72, 25), (28, 50), (72, 50), (28, 75), (72, 75)],
}
FACE_NAMES = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class DieView(TemplateView):
    index: int
    value: int
    held: bool
    toggle_mask: str  # the held mask after pressing this die
    suggested: bool = False  # the coach would keep this die

    @property
    def number(self) -> int:
        """The die's place in the row, counted from 1 as players count."""
        return self.index + 1

    @property
    def pips(self) -> list[tuple[int, int]]:
        return _PIPS[self.value]

    @property
    def name(self) -> str:
        return FACE_NAMES[self.value]


@dataclass(frozen=True)
class BoxView(TemplateView):
    category: Category
    value: int | None  # filled value
    option: int | None  # points if scored now (active seat only)
    forbidden: str | None = None  # why not, when the box is open but unavailable
    hint: BoxHint | None = None  # the coach's view of filling it now


@dataclass
class SeatView(TemplateView):
    position: int
    name: str
    is_guest: bool
    is_you: bool
    is_host: bool
    is_current: bool
    bot: str
    card: Scorecard
    total: int
    place: int | None = None
    boxes: Mapping[Category, BoxView] = field(default_factory=dict)
    connected: bool = False

    @property
    def upper_subtotal(self) -> int:
        return self.card.upper_subtotal

    @property
    def upper_bonus(self) -> int:
        return self.card.upper_bonus

    @property
    def yahtzee_bonus_count(self) -> int:
        return self.card.yahtzee_bonus_count

    @property
    def upper_remaining(self) -> int:
        return max(0, UPPER_BONUS_THRESHOLD - self.card.upper_subtotal)

    @property
    def upper_boxes(self) -> list[BoxView]:
        return [self.boxes[c] for c in UPPER]

    @property
    def lower_boxes(self) -> list[BoxView]:
        return [self.boxes[c] for c in LOWER]


@dataclass(frozen=True)
class RollOffView(TemplateView):
    # Each round's entries: (name, dice, total, leads).
    rounds: tuple[tuple[tuple[str, tuple[int, ...], int, bool], ...], ...]
    starter_name: str


@dataclass(frozen=True)
class ColumnView(TemplateView):
    """One seat's column head and sums in the scorecard."""

    position: int
    name: str
    is_current: bool
    upper_subtotal: int
    upper_bonus: int
    upper_remaining: int
    yahtzee_bonus_count: int
    total: int


@dataclass
class GameView(TemplateView):
    game: Game
    version: int
    status: str
    seats: list[SeatView]
    you: SeatView | None
    is_host: bool
    can_join: bool
    free_seats: int
    current: SeatView | None
    round: int
    dice: tuple[DieView, ...]
    rolls_left: int
    has_rolled: bool
    your_turn: bool
    joker_note: str | None
    rolloff: RollOffView | None
    ranking: list[SeatView]
    rematch_code: str | None
    announcement: str
    hints: Hints | None = None
    review: list[SeatReviewView] | None = None
    review_pending: bool = False

    @property
    def code(self) -> str:
        return self.game.code

    @property
    def urls(self) -> Mapping[str, str]:
        return action_urls(self.game.code)

    @cached_property
    def rows(self) -> list[RowView]:
        return [
            RowView(c.value, c.label, tuple(s.boxes[c] for s in self.seats)) for c in CATEGORIES
        ]

    @cached_property
    def columns(self) -> tuple[ColumnView, ...]:
        return tuple(
            ColumnView(
                s.position,
                s.name,
                s.is_current,
                s.upper_subtotal,
                s.upper_bonus,
                s.upper_remaining,
                s.yahtzee_bonus_count,
                s.total,
            )
            for s in self.seats
        )

    @property
    def rolloff_open(self) -> bool:
        """The roll-off stays unfolded until the first player's first roll."""
        return self.round == 1 and self.status == Game.Status.PLAYING and not self.has_rolled

    @property
    def upper_rows(self) -> list[RowView]:
        return self.rows[:6]

    @property
    def lower_rows(self) -> list[RowView]:
        return self.rows[6:]

    @property
    def free_seat_slots(self) -> range:
        return range(self.free_seats)

    @property
    def can_roll(self) -> bool:
        return self.your_turn and self.rolls_left > 0

    @property
    def can_keep(self) -> bool:
        return self.your_turn and self.has_rolled and self.rolls_left > 0


ACTIONS = (
    "game_join",
    "game_leave",
    "game_add_bot",
    "game_remove_bot",
    "game_start",
    "turn_roll",
    "turn_keep",
    "turn_score",
    "game_rematch",
)


@lru_cache(maxsize=4096)
def action_urls(code: str) -> Mapping[str, str]:
    """Where a game's forms post, by URL name (reversed once per game, not per render)."""
    return MappingProxyType({name: reverse(name, args=[code]) for name in ACTIONS})


def get_game(code: str) -> Game | None:
    return Game.objects.filter(code=code).first()


def _mask(held: tuple[bool, ...]) -> str:
    return "".join("1" if h else "0" for h in held)


def snapshot(game: Game) -> Snapshot:
    """The game with its seats as they stand now, for rendering."""
    return Snapshot.of(game)


def load_snapshot(code: str) -> Snapshot | None:
    return Snapshot.load(code)


def game_view(game: Game, viewer: Player) -> GameView:
    """Everything the game page shows, from ``viewer``'s seat (or as a spectator)."""
    return snapshot_view(Snapshot.of(game), viewer)


@lru_cache(maxsize=1024)
def _boxes(card: Scorecard, dice: tuple[int, ...] | None) -> Mapping[Category, BoxView]:
    """One seat's boxes; ``dice`` are those on the table when the seat is on turn.

    The same for every viewer, so worked out once per card and roll, not once per board.
    A roll's boxes are wanted again only for the other boards of that version: a thousand
    entries keep the hit rate of eight thousand, at an eighth of the objects for the
    garbage collector to walk (18 per entry).
    """
    options = rules.options(card, dice) if dice else {}
    boxes: dict[Category, BoxView] = {}
    for category in CATEGORIES:
        value = card[category]
        option = forbidden = None
        if dice and value is None:
            option = options.get(category)
            if option is None:
                forbidden = rules.refusal(card, dice, category)
        boxes[category] = BoxView(category, value, option, forbidden)
    return MappingProxyType(boxes)


def snapshot_view(snapshot: Snapshot, viewer: Player) -> GameView:
    """The same, from a snapshot: no database query, so the live layer can call it anywhere."""
    game, seats = snapshot.game, snapshot.seats
    rules_ = game.rules
    state: GameState | None = snapshot.state
    current_pos = state.current_seat if state else None
    views: list[SeatView] = []
    for seat in seats:
        card = state.cards[seat.position] if state else Scorecard.from_dict(seat.scorecard, rules_)
        views.append(
            SeatView(
                position=seat.position,
                name=seat.name,
                is_guest=seat.user_id is None,
                is_you=viewer.owns(seat),
                is_host=Player(seat.name, seat.user_id, seat.guest).hosts(game),
                bot=seat.get_bot_display() if seat.bot else "",
                is_current=seat.position == current_pos,
                card=card,
                total=card.total,
                place=seat.place,
            )
        )
    dice_views: list[DieView] = []
    joker_note = None
    viewer_on_turn = current_pos is not None and views[current_pos].is_you
    hints = _hints(game, state) if viewer_on_turn and game.coach_hints else None
    suggested = hints.suggested if hints else ()
    if state and state.dice:
        for i, value in enumerate(state.dice):
            toggled = list(state.held)
            toggled[i] = not toggled[i]
            dice_views.append(
                DieView(
                    i,
                    value,
                    state.held[i],
                    _mask(tuple(toggled)),
                    suggested=bool(suggested and suggested[i]),
                )
            )
        joker_note = rules.joker_note(state.cards[current_pos], state.dice)
    for view in views:
        on_table = tuple(state.dice) if view.is_current and state and state.dice else None
        view.boxes = _boxes(view.card, on_table)
        if hints and view.is_current:
            view.boxes = {
                category: replace(box, hint=hints.boxes.get(category))
                for category, box in view.boxes.items()
            }
    you = next((v for v in views if v.is_you), None)
    current = views[current_pos] if current_pos is not None else None
    rolloff = None
    if state:
        names = {s.position: s.name for s in seats}
        rolloff = RollOffView(
            rounds=tuple(
                tuple((names[s], d, sum(d), s in r.leaders) for s, d in r.rolls)
                for r in state.rolloff
            ),
            starter_name=names[state.starter],
        )
    ranking: list[SeatView] = []
    if game.status == Game.Status.FINISHED:
        ranking = sorted(views, key=lambda v: (v.place or 99, v.position))
    return GameView(
        game=game,
        version=game.version,
        status=game.status,
        seats=views,
        you=you,
        is_host=viewer.hosts(game),
        can_join=game.status == Game.Status.LOBBY and you is None and len(seats) < game.seat_count,
        free_seats=game.seat_count - len(seats) if game.status == Game.Status.LOBBY else 0,
        current=current,
        round=state.round if state else 0,
        dice=tuple(dice_views),
        rolls_left=state.rolls_left if state else 0,
        has_rolled=bool(state and state.dice),
        your_turn=bool(current and current.is_you),
        joker_note=joker_note,
        rolloff=rolloff,
        ranking=ranking,
        rematch_code=snapshot.rematch_code,
        announcement=_announcement(game, state, views, current),
        hints=hints,
        review=_review(game, views),
        review_pending=game.status == Game.Status.FINISHED
        and game.review is None
        and any(not seat.bot for seat in seats),
    )


# -- the coach ----------------------------------------------------------------------------


def _keep_words(keep: tuple[int, ...]) -> str:
    return "keep " + " ".join(map(str, keep)) if keep else "reroll all five"


def choice_words(choice: object) -> str:
    """A coach's choice in a player's words: "keep 5 5", or the box's name."""
    if isinstance(choice, Category):
        return choice.label
    if isinstance(choice, str):
        return Category(choice).label
    return _keep_words(tuple(choice))  # type: ignore[arg-type]


@dataclass(frozen=True)
class BoxHint(TemplateView):
    expected: float  # expected final total if this box is filled now
    loss: float  # expected points lost against the best choice


@dataclass(frozen=True)
class Hints(TemplateView):
    """What the coach tells the player on turn (only when the game has hints on)."""

    ready: bool
    best: str = ""
    best_expected: float = 0.0
    suggested: tuple[bool, ...] = ()  # dice the best keep holds
    boxes: dict[Category, BoxHint] = field(default_factory=dict)
    keep_cost: float | None = None  # rolling with the dice held now, against the best


def _hints(game: Game, state: GameState | None) -> Hints | None:
    if state is None or state.dice is None or state.current_seat is None:
        return None
    advisor = advisor_if_ready(game.rules, settings.STRATEGY_CACHE_DIR)
    if advisor is None:
        return Hints(ready=False)
    card = state.cards[state.current_seat]
    ranking = advisor.rank(card, state.dice, state.rolls_left)
    best = ranking[0]
    top = best.expected_total
    boxes = {
        o.choice: BoxHint(o.expected_total, top - o.expected_total)
        for o in ranking
        if isinstance(o.choice, Category)
    }
    suggested: tuple[bool, ...] = ()
    keep_cost = None
    if isinstance(best.choice, Category):
        words = f"score {best.choice.label} now"
    else:
        words = f"{_keep_words(best.choice)} and roll"
        suggested = held_flags(state.dice, best.choice, state.held)
    if state.rolls_left:
        kept = state.kept_dice()
        keep_cost = next((top - o.expected_total for o in ranking if o.choice == kept), None)
    return Hints(
        ready=True,
        best=words,
        best_expected=top,
        suggested=suggested,
        boxes=boxes,
        keep_cost=keep_cost,
    )


@dataclass(frozen=True)
class MomentView(TemplateView):
    round: int
    dice: tuple[DieView, ...]
    choice: str
    best: str
    loss: float
    rolls_left: int


@dataclass(frozen=True)
class SeatReviewView(TemplateView):
    name: str
    decisions: int
    total_loss: float
    mean_loss: float
    costliest: list[MomentView]
    moments: list[MomentView]


def _review(game: Game, views: list[SeatView]) -> list[SeatReviewView] | None:
    if not game.review:
        return None
    result = []
    for view in views:
        data = game.review["seats"].get(str(view.position))
        if data is None:
            continue
        moments = [
            MomentView(
                round=d["round"],
                dice=[DieView(i, v, False, "") for i, v in enumerate(d["dice"])],
                choice=choice_words(d["choice"]),
                best=choice_words(d["best"]),
                loss=d["loss"],
                rolls_left=d["rolls_left"],
            )
            for d in data["decisions"]
        ]
        result.append(
            SeatReviewView(
                name=view.name,
                decisions=len(moments),
                total_loss=data["total_loss"],
                mean_loss=data["mean_loss"],
                costliest=[moments[i] for i in data["costliest"]],
                moments=moments,
            )
        )
    return result


def _announcement(
    game: Game, state: GameState | None, views: list[SeatView], current: SeatView | None
) -> str:
    """The sentence a screen reader hears after each change."""
    if game.status == Game.Status.LOBBY:
        return f"Waiting for players: {len(views)} of {game.seat_count} seated."
    if game.status == Game.Status.FINISHED:
        winners = [v.name for v in views if v.place == 1]
        return f"Game over. Winner: {' and '.join(winners)}."
    assert state is not None and current is not None
    who = "Your" if current.is_you else f"{current.name}'s"
    if state.dice:
        dice = ", ".join(map(str, state.dice))
        left = state.rolls_left
        return f"{who} roll: {dice}. {left} roll{'' if left == 1 else 's'} left."
    return f"Round {state.round} of {ROUNDS}. {who} turn."


def public_lobbies(limit: int = 20) -> list[Game]:
    return list(
        Game.objects.filter(status=Game.Status.LOBBY, is_public=True)
        .annotate(seated=Count("seats"))
        .filter(seated__lt=F("seat_count"))
        .order_by("-created_at")[:limit]
    )


def player_games(player: Player, limit: int = 10) -> list[Game]:
    """Games this player sits in that are not over yet, newest first."""
    if player.user_id is not None:
        seat_filter = Q(seats__user_id=player.user_id)
    elif player.guest:
        seat_filter = Q(seats__guest=player.guest, seats__user__isnull=True)
    else:
        return []
    return list(
        Game.objects.filter(seat_filter)
        .exclude(status=Game.Status.FINISHED)
        .order_by("-created_at")
        .distinct()[:limit]
    )


def state_json(game: Game) -> dict[str, object]:
    """The public state of a game, for bots, benchmarks and API users."""
    seats = list(game.seats.order_by("position"))
    state = game.engine_state(seats) if game.status != Game.Status.LOBBY else None
    rules_ = game.rules
    return {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "rules": rules_.to_dict(),
        "seat_count": game.seat_count,
        "round": state.round if state else None,
        "current_seat": state.current_seat if state else None,
        "dice": list(state.dice) if state and state.dice else None,
        "kept": list(state.held) if state and state.dice else None,
        "rolls_left": state.rolls_left if state else None,
        "seats": [
            {
                "position": seat.position,
                "name": seat.name,
                "guest": seat.user_id is None,
                "card": {c.value: card[c] for c in Category}
                | {
                    "upper_subtotal": card.upper_subtotal,
                    "upper_bonus": card.upper_bonus,
                    "yahtzee_bonus": card.yahtzee_bonus,
                    "total": card.total,
                },
                "total": card.total,
                "place": seat.place,
            }
            for seat in seats
            for card in [Scorecard.from_dict(seat.scorecard, rules_)]
        ],
    }


@dataclass
class HistoryEntry(TemplateView):
    game: Game
    total: int
    place: int | None
    players: int
    won: bool
    mean_loss: float | None = None  # the coach's expected points lost per decision


@dataclass
class History(TemplateView):
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


def user_history(username: str) -> History | None:
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        return None
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).select_related("game")
    stats = seats.aggregate(
        played=Count("id"),
        wins=Count("id", filter=Q(place=1, game__seat_count__gt=1)),  # a solo game is no win
        average=Avg("total"),
        best=Max("total"),
    )
    entries: list[HistoryEntry] = []
    bonuses = yahtzees = 0
    for seat in seats.annotate(players=Count("game__seats")).order_by("-game__finished_at"):
        card = Scorecard.from_dict(seat.scorecard, seat.game.rules)
        bonuses += card.upper_bonus > 0
        yahtzees += seat.yahtzees
        entries.append(
            HistoryEntry(
                seat.game,
                seat.total,
                seat.place,
                seat.players,
                seat.place == 1 and seat.players > 1,
                seat.mean_loss,
            )
        )
    played = stats["played"]
    return History(
        username=user.username,
        games_played=played,
        wins=stats["wins"],
        average=stats["average"],
        best=stats["best"],
        yahtzees=yahtzees,
        bonus_rate=bonuses / played if played else None,
        entries=entries,
        chart=_score_chart([e.total for e in reversed(entries)]),
        loss_chart=_loss_chart([e.mean_loss for e in reversed(entries) if e.mean_loss is not None]),
    )


def _score_chart(totals: list[int]) -> dict[str, object] | None:
    """A line chart of scores over time, gridlines every 100 points."""
    return _line_chart(totals, grid=100)


def _loss_chart(losses: list[float]) -> dict[str, object] | None:
    """A line chart of the mean expected points lost per decision, game by game."""
    return _line_chart([round(v, 2) for v in losses], grid=1)


def _line_chart(
    values: list[float], grid: int, width: int = 600, height: int = 200
) -> dict[str, object] | None:
    """Points of a line chart over time, for a server-rendered SVG."""
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
        "gridlines": [(y(v), v) for v in range(0, int(top) + 1, grid)],
        "pad": pad,
    }


def game_moves(game: Game) -> list[Move]:
    return list(game.moves.order_by("version"))


@dataclass(frozen=True)
class PresenceView(TemplateView):
    """Who has the game page open: each seat's player, connected or not, and the watchers."""

    seats: tuple[tuple[str, bool], ...]  # (name, connected), in seat order
    watching: int

    def to_wire(self) -> dict[str, object]:
        return {"seats": [list(s) for s in self.seats], "watching": self.watching}

    @classmethod
    def from_wire(cls, data: dict) -> PresenceView:
        return cls(tuple((name, bool(on)) for name, on in data["seats"]), int(data["watching"]))


def presence_view(code: str) -> PresenceView:
    pages = Connection.objects.filter(game__code=code)
    if settings.PRESENCE_HEARTBEAT_SECONDS:  # pages of a server that stopped beating are gone
        alive_since = timezone.now() - LiveServer.stale_after()
        pages = pages.filter(server__last_seen__gte=alive_since)
    open_pages = list(pages.values_list("seat", flat=True))
    names = (
        Seat.objects.filter(game__code=code).order_by("position").values_list("position", "name")
    )
    return PresenceView(
        seats=tuple((name, position in open_pages) for position, name in names),
        watching=sum(1 for seat in open_pages if seat is None),
    )
