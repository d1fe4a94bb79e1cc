"""A game as one viewer sees it: the board's view model, built from a snapshot alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from types import MappingProxyType
from typing import TypeVar

from games import caches, render_language, rules
from games.engine import GameState
from games.models import BotLevel, Game, Pace, Player, Seat
from games.rules import Box, Scorecard
from games.snapshots import Snapshot
from games.viewmodels.action_urls import action_urls
from games.viewmodels.announcements import announcement
from games.viewmodels.base import DieView, ViewModel
from games.viewmodels.coach import Hints, hints_for
from games.viewmodels.move_log import NO_MOVES, MoveLog, move_log
from games.viewmodels.review import SeatReviewView, review_views
from games.viewmodels.scorecard import (
    BoxView,
    Card,
    Columns,
    RollOffView,
    RowView,
    bonuses_of,
    column_of,
    rows_of,
)
from games.words import joker_words, refusal_words

K = TypeVar("K")
V = TypeVar("V")


@dataclass
class SeatView(ViewModel):
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
    boxes: Mapping[Box, BoxView] = field(default_factory=dict)
    connected: bool = False
    client_seed: str = ""  # public: this seat's part of the dice stream's key
    status: str = Seat.Status.PLAYING
    left_round: int | None = None

    @property
    def has_left(self) -> bool:
        return self.status == Seat.Status.LEFT

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
        threshold = self.card.rules.definition.upper_bonus_threshold
        return max(0, threshold - self.card.upper_subtotal) if threshold else 0


@dataclass
class GameView(ViewModel):
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
    viewer_has_account: bool = False
    guest_name: str = ""  # a guest viewer's display name, to sit down with
    moves: MoveLog = NO_MOVES
    pace: str = Pace.UNTIMED
    turn_deadline: datetime | None = None  # when the clock of the turn in progress runs out
    # What the board carries of the turn: the player on turn's controls, everyone else's view,
    # or both (one board for the whole table; #me against data-turn picks one: site.css).
    for_turn: bool = True
    for_others: bool = True

    bot_levels = tuple(BotLevel)
    default_bot_level = BotLevel.CASUAL

    @property
    def code(self) -> str:
        return self.game.code

    @property
    def rounds(self) -> int:
        """One round per box of the game's card."""
        return len(self.game.rules.boxes)

    @property
    def urls(self) -> Mapping[str, str]:
        return action_urls(self.game.code)

    @cached_property
    def rows(self) -> list[RowView]:
        if self.hints is not None:  # the player on turn's own boxes carry the coach's word
            return self._rows()
        return _per_version(
            scorecard_rows, (render_language.current(), self.code, self.version), self._rows
        )

    def _rows(self) -> list[RowView]:
        return rows_of([s.boxes for s in self.seats], self.game.rules)

    @cached_property
    def columns(self) -> Columns:
        # By language too: a computer player's name is translated.
        key = (render_language.current(), self.code, self.version)
        return _per_version(scorecard_columns, key, self._columns)

    def _columns(self) -> Columns:
        in_play = self.status == Game.Status.PLAYING
        return Columns(
            column_of(s.position, s.name, s.card, is_current=s.is_current, in_play=in_play)
            for s in self.seats
        )

    @cached_property
    def card(self) -> Card:
        """The scorecard as ``room.html#scorecard`` draws it, for this board's viewpoint."""
        rows, bonuses = (self.upper_rows, self.lower_rows), bonuses_of(self.game.rules)
        return Card(self.columns, *rows, bonuses, self.for_turn, self.for_others)

    @property
    def rolloff_open(self) -> bool:
        """The roll-off stays unfolded until the first player's first roll."""
        return self.round == 1 and self.status == Game.Status.PLAYING and not self.has_rolled

    @property
    def upper_rows(self) -> list[RowView]:
        return self.rows[: len(self.game.rules.upper_boxes)]

    @property
    def lower_rows(self) -> list[RowView]:
        return self.rows[len(self.game.rules.upper_boxes) :]

    @property
    def free_seat_slots(self) -> range:
        return range(self.free_seats)

    @property
    def can_roll(self) -> bool:
        """Whether the player on turn may roll (again)."""
        return self.in_play and self.rolls_left > 0

    @property
    def can_keep(self) -> bool:
        """Whether the player on turn may keep or release dice now."""
        return self.in_play and self.has_rolled and self.rolls_left > 0

    @property
    def turn_seat(self) -> int | str:
        """The position of the seat on turn, for the board's ``data-turn`` ("" if none)."""
        return self.current.position if self.current is not None and self.in_play else ""

    @property
    def dice_sets(self) -> tuple[tuple[bool, str], ...]:
        """The dice as the board shows them: (pressable, for whom). Pressable for the player
        on turn only, so while dice may be kept, a board for the whole table has both."""
        if not self.can_keep:
            return ((False, ""),)
        sets = ((True, "for-turn"),) if self.for_turn else ()
        return sets + (((False, "for-others"),) if self.for_others else ())

    @property
    def any_held(self) -> bool:
        return any(die.held for die in self.dice)

    @property
    def pace_label(self) -> str:
        return str(Pace(self.pace).label)

    @property
    def deadline_iso(self) -> str:
        """When the turn's clock runs out, for the page's countdown (ISO 8601)."""
        return self.turn_deadline.isoformat() if self.turn_deadline else ""

    @property
    def deadline_utc(self) -> str:
        """The same moment as a reader without JavaScript sees it: ``22:59:10`` (UTC)."""
        return self.turn_deadline.astimezone(UTC).strftime("%H:%M:%S") if self.turn_deadline else ""

    @property
    def in_play(self) -> bool:
        return self.status == Game.Status.PLAYING

    @property
    def takeover_offered(self) -> bool:
        """Whether the seated players not on turn may hand the turn in play to the coach (an
        untimed table, its player on turn present and a person): the same for all of them,
        so their shared board carries it and CSS shows it to seated players not on turn."""
        on_turn = self.current
        if on_turn is None or not self.in_play or not self.for_others:
            return False
        present = on_turn.status == Seat.Status.PLAYING
        return self.pace == Pace.UNTIMED and present and not on_turn.bot

    @property
    def absent_seats(self) -> list[SeatView]:
        """The people the coach plays for: away, or left."""
        return [s for s in self.seats if s.status != Seat.Status.PLAYING]


# A game's version fixes its scorecard: both boards of a version (the player on turn's and
# everyone else's) show the same rows and columns, worked out once.
scorecard_rows: caches.Cache[tuple[str, str, int], list[RowView]] = caches.lru(
    "scorecard rows by game version and language", maxsize=256
)
scorecard_columns: caches.Cache[tuple[str, str, int], Columns] = caches.lru(
    "scorecard columns by game version and language", maxsize=256
)


def _per_version(cache: caches.Cache[K, V], key: K, make: Callable[[], V]) -> V:
    found = cache.get(key)
    return found if found is not None else cache.setdefault(key, make())


def _mask(held: tuple[bool, ...]) -> str:
    return "".join("1" if h else "0" for h in held)


@caches.memoize("a seat's boxes by card and dice", maxsize=1024, key_extra=render_language.current)
def _boxes(card: Scorecard, dice: tuple[int, ...] | None) -> Mapping[Box, BoxView]:
    """One seat's boxes; ``dice`` are those on the table when the seat is on turn.

    The same for every viewer, so worked out once per card and roll, not once per board.
    A roll's boxes are wanted again only for the other boards of that version: a thousand
    entries keep the hit rate of eight thousand, at an eighth of the objects for the
    garbage collector to walk (18 per entry).
    """
    options = rules.options(card, dice) if dice else {}
    boxes: dict[Box, BoxView] = {}
    for category in card.rules.boxes:
        value = card[category]
        option = forbidden = None
        if dice and value is None:
            option = options.get(category)
            if option is None:
                forbidden = refusal_words(card, dice, category)
        boxes[category] = BoxView(category, value, option, forbidden)
    return MappingProxyType(boxes)


def snapshot_view(snapshot: Snapshot, viewer: Player) -> GameView:
    """Everything the board shows at this version, from ``viewer``'s seat (or as a
    spectator): no database query, so the live layer can call it anywhere. All it shows
    comes from ``snapshot`` and ``viewer``, so boards shared by many viewers show each the
    same."""
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
                name=seat.display_name,
                is_guest=seat.user_id is None,
                is_you=viewer.owns(seat),
                is_host=Player(seat.name, seat.user_id, seat.guest).hosts(game),
                bot=seat.get_bot_display() if seat.bot else "",
                is_current=seat.position == current_pos,
                card=card,
                total=card.total,
                place=seat.place,
                client_seed=seat.client_seed,
                status=seat.status,
                left_round=seat.left_round,
            )
        )
    dice_views: list[DieView] = []
    joker_note = None
    viewer_on_turn = current_pos is not None and views[current_pos].is_you
    hints = hints_for(game, state) if viewer_on_turn and game.coach_hints else None
    # The coach's advice is the player on turn's alone: at a table with hints, so is the board.
    for_turn = not game.coach_hints or viewer_on_turn
    for_others = not game.coach_hints or not viewer_on_turn
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
        assert current_pos is not None  # dice are on the table only during a turn
        joker_note = joker_words(state.cards[current_pos], state.dice)
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
        names = {s.position: s.display_name for s in seats}
        rolloff = RollOffView(
            rounds=tuple(
                tuple((names[s], d, sum(d), s in r.leaders) for s, d in r.rolls)
                for r in state.rolloff
            ),
            starter_name=names[state.starter],
        )
    ranking: list[SeatView] = []
    if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED):
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
        announcement=announcement(game, state, seats, on_turn=viewer_on_turn),
        viewer_has_account=viewer.user_id is not None,
        guest_name=viewer.name if viewer.user_id is None else "",
        pace=game.pace,
        turn_deadline=game.turn_deadline,
        hints=hints,
        for_turn=for_turn,
        for_others=for_others,
        moves=move_log(
            snapshot.recent_moves,
            {v.position: v.name for v in views},
            state.turn_number if state and game.status == Game.Status.PLAYING else None,
            game.version,
            rules_,
        ),
        review=review_views(game, {v.position: v.name for v in views}),
        review_pending=game.status == Game.Status.FINISHED
        and game.review is None
        and any(not seat.bot for seat in seats),
    )
