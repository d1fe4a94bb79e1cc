"""Reads for pages: a game as one viewer sees it, the public lobby list, a player's history."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, F, Max, Q

from . import rules
from .engine import ROUNDS, GameState
from .models import Connection, Game, Move, Seat, Snapshot
from .rules import LOWER, UPPER, UPPER_BONUS_THRESHOLD, Category, Scorecard
from .services import Player

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
class DieView:
    index: int
    value: int
    held: bool
    toggle_mask: str  # the held mask after pressing this die

    @property
    def pips(self) -> list[tuple[int, int]]:
        return _PIPS[self.value]

    @property
    def name(self) -> str:
        return FACE_NAMES[self.value]


@dataclass(frozen=True)
class BoxView:
    category: Category
    value: int | None  # filled value
    option: int | None  # points if scored now (active seat only)
    forbidden: str | None = None  # why not, when the box is open but unavailable


@dataclass
class SeatView:
    position: int
    name: str
    is_guest: bool
    is_you: bool
    is_host: bool
    is_current: bool
    card: Scorecard
    total: int
    place: int | None = None
    boxes: dict[Category, BoxView] = field(default_factory=dict)
    connected: bool = False

    @property
    def upper_remaining(self) -> int:
        return max(0, UPPER_BONUS_THRESHOLD - self.card.upper_subtotal)

    @property
    def upper_boxes(self) -> list[BoxView]:
        return [self.boxes[c] for c in UPPER]

    @property
    def lower_boxes(self) -> list[BoxView]:
        return [self.boxes[c] for c in LOWER]


@dataclass
class RollOffView:
    rounds: list[list[tuple[str, tuple[int, ...], int, bool]]]  # (name, dice, total, leads)
    starter_name: str


@dataclass
class GameView:
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
    dice: list[DieView]
    rolls_left: int
    has_rolled: bool
    your_turn: bool
    joker_note: str | None
    rolloff: RollOffView | None
    ranking: list[SeatView]
    rematch_code: str | None
    announcement: str

    @property
    def code(self) -> str:
        return self.game.code

    @property
    def rows(self) -> list[tuple[Category, list[BoxView]]]:
        return [(c, [s.boxes[c] for s in self.seats]) for c in Category]

    @property
    def upper_rows(self) -> list[tuple[Category, list[BoxView]]]:
        return self.rows[:6]

    @property
    def lower_rows(self) -> list[tuple[Category, list[BoxView]]]:
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


def get_game(code: str) -> Game | None:
    return Game.objects.filter(code=code).first()


def _mask(held: tuple[bool, ...]) -> str:
    return "".join("1" if h else "0" for h in held)


def snapshot(game: Game) -> Snapshot:
    """The game with its seats as they stand now, for rendering."""
    return Snapshot.of(game)


def game_view(game: Game, viewer: Player) -> GameView:
    """Everything the game page shows, from ``viewer``'s seat (or as a spectator)."""
    return snapshot_view(Snapshot.of(game), viewer)


def snapshot_view(snapshot: Snapshot, viewer: Player) -> GameView:
    """The same, from a snapshot: no database query, so the live layer can call it anywhere."""
    game, seats = snapshot.game, snapshot.seats
    rules_ = game.rules
    state: GameState | None = game.engine_state(seats) if game.status != Game.Status.LOBBY else None
    current_pos = state.current_seat if state else None
    views: list[SeatView] = []
    for seat in seats:
        card = Scorecard.from_dict(seat.scorecard, rules_)
        views.append(
            SeatView(
                position=seat.position,
                name=seat.name,
                is_guest=seat.user_id is None,
                is_you=viewer.owns(seat),
                is_host=Player(seat.name, seat.user_id, seat.guest).hosts(game),
                is_current=seat.position == current_pos,
                card=card,
                total=card.total,
                place=seat.place,
            )
        )
    dice_views: list[DieView] = []
    joker_note = None
    active_options: dict[Category, int] = {}
    if state and state.dice:
        for i, value in enumerate(state.dice):
            toggled = list(state.held)
            toggled[i] = not toggled[i]
            dice_views.append(DieView(i, value, state.held[i], _mask(tuple(toggled))))
        active = state.cards[current_pos]
        active_options = rules.options(active, state.dice)
        joker_note = rules.joker_note(active, state.dice)
    for view in views:
        for category in Category:
            value = view.card[category]
            option = forbidden = None
            if view.is_current and value is None and state and state.dice:
                option = active_options.get(category)
                if option is None:
                    forbidden = rules.refusal(view.card, state.dice, category)
            view.boxes[category] = BoxView(category, value, option, forbidden)
    you = next((v for v in views if v.is_you), None)
    current = views[current_pos] if current_pos is not None else None
    rolloff = None
    if state:
        names = {s.position: s.name for s in seats}
        rolloff = RollOffView(
            rounds=[
                [(names[s], d, sum(d), s in r.leaders) for s, d in r.rolls] for r in state.rolloff
            ],
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
        dice=dice_views,
        rolls_left=state.rolls_left if state else 0,
        has_rolled=bool(state and state.dice),
        your_turn=bool(current and current.is_you),
        joker_note=joker_note,
        rolloff=rolloff,
        ranking=ranking,
        rematch_code=snapshot.rematch_code,
        announcement=_announcement(game, state, views, current),
    )


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
        return f"{who} roll: {dice}. {state.rolls_left} rolls left."
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
class HistoryEntry:
    game: Game
    total: int
    place: int | None
    players: int
    won: bool


@dataclass
class History:
    username: str
    games_played: int
    wins: int
    average: float | None
    best: int | None
    yahtzees: int
    bonus_rate: float | None
    entries: list[HistoryEntry]
    chart: dict[str, object] | None


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
    )


def _score_chart(
    totals: list[int], width: int = 600, height: int = 200
) -> dict[str, object] | None:
    """Points of a line chart of scores over time, for a server-rendered SVG."""
    if not totals:
        return None
    pad = 30
    top = max(max(totals), 100)
    step = (width - 2 * pad) / max(len(totals) - 1, 1)

    def y(total: int) -> float:
        return round(height - pad - (total / top) * (height - 2 * pad), 1)

    points = [(round(pad + i * step, 1), y(t), t) for i, t in enumerate(totals)]
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{x},{yy}" for x, yy, _ in points),
        "gridlines": [(y(v), v) for v in range(0, top + 1, 100)],
        "pad": pad,
    }


def game_moves(game: Game) -> list[Move]:
    return list(game.moves.order_by("version"))


@dataclass(frozen=True)
class PresenceView:
    """Who has the game page open: each seat's player, connected or not, and the watchers."""

    seats: tuple[tuple[str, bool], ...]  # (name, connected), in seat order
    watching: int

    def to_wire(self) -> dict[str, object]:
        return {"seats": [list(s) for s in self.seats], "watching": self.watching}

    @classmethod
    def from_wire(cls, data: dict) -> PresenceView:
        return cls(tuple((name, bool(on)) for name, on in data["seats"]), int(data["watching"]))


def presence_view(code: str) -> PresenceView:
    open_pages = list(Connection.objects.filter(game__code=code).values_list("seat", flat=True))
    names = (
        Seat.objects.filter(game__code=code).order_by("position").values_list("position", "name")
    )
    return PresenceView(
        seats=tuple((name, position in open_pages) for position, name in names),
        watching=sum(1 for seat in open_pages if seat is None),
    )
