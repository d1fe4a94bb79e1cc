"""Shared fixtures and small factories for the web game's tests.

Dice: ``dice`` puts a seeded ``random.Random`` in ``games.services.dice_supply.source``;
``loaded_dice`` puts a :class:`ScriptedDice` there so a test can say exactly what is rolled.
"""

from __future__ import annotations

import random
import re
import secrets
import time
import types
import warnings
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone, translation

from games import caches, engine, services
from games.live.presence_pushes import pushes
from games.models import Game, Move, Seat
from games.rules import Category, Rules, Scorecard
from games.services import Player
from games.services.dice_supply import dice_supply

PASSWORD = "a-long-table-of-dice-42"
DICE_SEED = 20250607
HTMX = {"HX-Request": "true"}


class ScriptedDice:
    """A dice source that shows the faces it is given, in order: ``ScriptedDice("66612")``."""

    def __init__(self, *faces: str) -> None:
        self.faces: list[int] = []
        self.load(*faces)

    def load(self, *faces: str) -> ScriptedDice:
        self.faces.extend(int(face) for face in "".join(faces))
        return self

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        assert self.faces, "the server rolled more dice than the test scripted"
        return self.faces.pop(0)


def rolloff_won_by(starter: int, seats: int) -> ScriptedDice:
    """Roll-off dice for ``seats`` players in which ``starter`` rolls highest at once."""
    return ScriptedDice(*("66666" if seat == starter else "11111" for seat in range(seats)))


def player_of(user: Any) -> Player:
    return Player(name=user.get_username(), user_id=user.pk)


def guest_player(name: str = "Gus", token: str | None = None) -> Player:
    return Player(name=name, guest=token or secrets.token_urlsafe(12))


def version_of(source: Game | HttpResponse) -> int:
    """The table's current version: read from the database, or from a rendered page."""
    if isinstance(source, Game):
        return Game.objects.values_list("version", flat=True).get(pk=source.pk)
    match = re.search(r'data-version="(\d+)"', source.content.decode())
    assert match, "the page shows no board with a version"
    return int(match.group(1))


def dice_of(game: Game) -> str:
    """The dice on the table, as the tests write them ("31456"; "" before a roll)."""
    return "".join(map(str, game.dice or ()))


def held_of(game: Game) -> str:
    """Which dice are kept, as the tests write them ("01100")."""
    return "".join("1" if h else "0" for h in game.held)


class _Without(HTMLParser):
    """The spans of ``html`` taken by elements of class ``hidden``, start tag to end tag."""

    def __init__(self, html: str, hidden: str) -> None:
        super().__init__(convert_charrefs=False)
        self.hidden, self.spans = hidden, []
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.html = html
        self.open: tuple[str, int, int] | None = None  # tag, depth, start offset

    def here(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.open is not None:
            name, depth, start = self.open
            self.open = (name, depth + (tag == name), start)
        elif self.hidden in (dict(attrs).get("class") or "").split():
            self.open = (tag, 1, self.here())

    def handle_endtag(self, tag: str) -> None:
        if self.open is None or tag != self.open[0]:
            return
        name, depth, start = self.open
        if depth > 1:
            self.open = (name, depth - 1, start)
            return
        self.spans.append((start, self.html.index(">", self.here()) + 1))
        self.open = None


def seen_from(html: str, seat: int | None) -> str:
    """A page or board as the person at ``seat`` (None: a spectator) is shown it.

    In play one board serves the whole table: it carries the controls of the player on turn
    (class ``for-turn``) and everyone else's view of the turn (``for-others``), and site.css
    shows the page whose seat marker (#me) is the board's ``data-turn`` the first, every
    other page the second (the browser tests check that in a real browser)."""
    turn = re.search(r'id="board"[^>]*data-turn="(\d*)"', html)
    on_turn = turn is not None and seat is not None and turn.group(1) == str(seat)
    finder = _Without(html, "for-others" if on_turn else "for-turn")
    finder.feed(html)
    for start, end in reversed(finder.spans):
        html = html[:start] + html[end:]
    return html


@dataclass(frozen=True)
class CardRow:
    """One row of a scorecard as a person reads it (a box's long name, no text that only
    a phone or the reader's own column shows)."""

    kind: str  # the row's class: "sum", "total", or "" (a box, the column heads)
    label: str  # the row's head: a box's name, a sum's, "Box"
    cells: tuple[str, ...]  # each column's text
    looks: tuple[str, ...]  # each column's cell class: "filled", "open", "current", …


class _CardReader(HTMLParser):
    _SKIPPED = {"label-short", "you-tag"}

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[CardRow] = []
        self.row: list[tuple[str, str]] | None = None  # (class, text) of each cell so far
        self.row_kind = ""
        self.skipping = 0  # depth inside a skipped element
        self.tables = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if self.skipping or self._SKIPPED & set(classes):
            self.skipping += 1
        elif tag == "tr":
            self.row, self.row_kind = [], " ".join(classes)
        elif tag in ("th", "td") and self.row is not None:
            self.row.append((" ".join(classes), ""))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
        elif tag == "tr" and self.row:
            (_, label), *cells = self.row
            self.rows.append(
                CardRow(
                    self.row_kind,
                    label.strip(),
                    tuple(re.sub(r"\s+", " ", text).strip() for _, text in cells),
                    tuple(look for look, _ in cells),
                )
            )
            self.row = None

    def handle_data(self, data: str) -> None:
        if not self.skipping and self.row:
            look, text = self.row[-1]
            self.row[-1] = (look, f"{text} {data}")


def scorecard_of(html: str, look: str = "") -> list[CardRow]:
    """The rows of the first scorecard in ``html`` (with ``look``: the one of that class),
    the column heads first."""
    start = re.search(r'<table class="scorecard%s[ "]' % (" " + look if look else ""), html)
    assert start is not None, f"no scorecard {look!r} on the page"
    reader = _CardReader()
    reader.feed(html[start.start() : html.index("</table>", start.start())])
    return reader.rows


def board_view(game: Game, viewer: Player) -> Any:
    """The board's view model of ``game`` as it stands now, for ``viewer``."""
    from games import selectors
    from games.snapshots import Snapshot

    return selectors.snapshot_view(Snapshot.of(game), viewer)


def snapshot(game: Game) -> dict[str, object]:
    """Everything an action could change about a game: its row, its seats, its move log."""
    row = Game.objects.filter(pk=game.pk).values().get()
    return {
        "game": row,
        "seats": list(Seat.objects.filter(game_id=game.pk).order_by("position").values()),
        "moves": list(Move.objects.filter(game_id=game.pk).order_by("version").values()),
        "games": Game.objects.count(),
    }


def full_card(
    rules: Rules | None = None, yahtzee_bonus_count: int = 0, **boxes: int
) -> dict[str, object]:
    """A scorecard dict with every box filled (0 unless given), as stored on a Seat."""
    values = {c.value: boxes.get(c.value, 0) for c in Category}
    return {"boxes": values, "yahtzee_bonus_count": yahtzee_bonus_count}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Accounts are made by the dozen here; the real hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def instant_computer_players(settings: Any) -> None:
    """Computer players act at once in tests instead of at a human pace."""
    settings.BOT_DELAY_SECONDS = 0


@pytest.fixture(autouse=True)
def no_presence_heartbeat(settings: Any) -> None:
    """No background heartbeat task per test event loop; presence tests turn it on."""
    settings.PRESENCE_HEARTBEAT_SECONDS = 0


class FrozenClock:
    """A clock that stands still until the test moves it: ``frozen_clock.advance(seconds=31)``."""

    def __init__(self, start: datetime) -> None:
        self.moment = start

    def now(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> datetime:
        self.moment += timedelta(**delta)
        return self.moment


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> FrozenClock:
    """Every time-based piece of the site reads this clock (games/clock.py) for the test."""
    from games.clock import clock

    frozen = FrozenClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    monkeypatch.setattr(clock, "now", frozen.now)
    return frozen


@pytest.fixture
def one_limit_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits count in fixed windows (django-ratelimit's clock): a test's requests all
    fall in one, or a window ending between two of them would start the count again."""
    import django_ratelimit.core

    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: now))


@pytest.fixture(autouse=True)
def test_client_is_exempt_from_limits(settings: Any) -> None:
    """The test client's address is never limited: the limits' counts would carry over from
    test to test. tests/test_limits.py sends from other addresses."""
    settings.LIMITS_EXEMPT_IPS = ["127.0.0.1"]


@pytest.fixture(autouse=True)
def presence_pushed_at_once(settings: Any) -> None:
    """Presence pushes without their interval; the coalescing tests inject their own clock."""
    settings.PRESENCE_PUSH_SECONDS = 0


@pytest.fixture
async def presence_pushes_finished() -> AsyncIterator[None]:
    """A test of live pages ends once the presence pushes its pages asked for (last of all
    on closing) are out: none may still read the database while the next test starts."""
    yield
    await pushes.finished()


@pytest.fixture(autouse=True)
def database_quiet_before_emptying(request: pytest.FixtureRequest) -> Iterator[None]:
    """A transactional test's PostgreSQL database is emptied (one TRUNCATE of every table)
    only once no other session is still running a statement on it. A socket's worker thread
    still reading several tables when its test ends would otherwise deadlock with the
    TRUNCATE, which PostgreSQL then aborts, leaving this test's rows to the next test."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        yield
        return
    request.getfixturevalue("_django_db_helper")  # set up first, so emptied after this
    yield
    connection = connections["default"]
    if connection.vendor == "postgresql":
        _wait_for_other_sessions(connection, request.node.nodeid)


def _wait_for_other_sessions(connection: Any, test: str, seconds: float = 10.0) -> None:
    """Wait until every other session on the test database is idle; warn (with what each
    ran) when one was not, so that a run's log names the work that outlived its test."""
    deadline = time.monotonic() + seconds
    seen: set[str] = set()
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT state, query FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'"
            )
            busy = cursor.fetchall()
            if not busy or time.monotonic() > deadline:
                break
            seen.update(f"{state}: {query[:160]}" for state, query in busy)
            time.sleep(0.02)
    if seen:
        warnings.warn(f"{test} ended with other sessions still busy: {sorted(seen)}", stacklevel=1)


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """The test client runs requests in the test's own thread, where Django's locale
    middleware leaves the request's language active; the next test starts in English."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Each test starts with every in-process cache empty (no game remembered as
    committed, no board or fragment rendered)."""
    caches.clear_all()
    yield
    caches.clear_all()


@pytest.fixture(scope="session")
def coach_advisor() -> Any:
    """The optimal-play table for the official rules, loaded from (or built into) the
    strategy cache folder once per test session."""
    from django.conf import settings

    from games.strategy import advisor_for

    return advisor_for(Rules(), settings.STRATEGY_CACHE_DIR)


@pytest.fixture(scope="session")
def ruleset_advisor() -> Any:
    """``ruleset_advisor("yatzy")``: the optimal-play table of that rule set, loaded from (or
    built into) the strategy cache folder at most once per test session."""
    from django.conf import settings

    from games.strategy import advisor_for

    def advisor(ruleset: str) -> Any:
        return advisor_for(Rules(ruleset=ruleset), settings.STRATEGY_CACHE_DIR)

    return advisor


# -- dice ---------------------------------------------------------------------------------


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> random.Random:
    """The server's dice come from a seeded generator for this test."""
    rng = random.Random(DICE_SEED)
    monkeypatch.setattr(dice_supply, "source", rng)
    return rng


@pytest.fixture
def loaded_dice(monkeypatch: pytest.MonkeyPatch) -> ScriptedDice:
    """The server's dice show exactly the faces the test loads: ``loaded_dice.load("66612")``."""
    source = ScriptedDice()
    monkeypatch.setattr(dice_supply, "source", source)
    return source


# -- people -------------------------------------------------------------------------------


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def alice(make_user: Callable[..., Any]) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(make_user: Callable[..., Any]) -> Any:
    return make_user("carol")


@pytest.fixture
def ann(alice: Any) -> Player:
    """Alice, as the services see her."""
    return player_of(alice)


@pytest.fixture
def ben(bob: Any) -> Player:
    return player_of(bob)


@pytest.fixture
def cat(carol: Any) -> Player:
    return player_of(carol)


def new_client(user: Any = None, guest: str | None = None) -> Client:
    """A browser: logged in as ``user``, or a guest whose session remembers ``guest``."""
    browser = Client()
    if user is not None:
        browser.force_login(user)
    elif guest is not None:
        session = browser.session
        session["guest_name"] = guest
        session["guest_token"] = secrets.token_urlsafe(12)
        session.save()
    return browser


@pytest.fixture
def make_client(db: None) -> Callable[..., Client]:
    """A browser: logged in as ``user``, or a guest whose session remembers ``guest``."""
    return new_client


@pytest.fixture
def alice_client(make_client: Callable[..., Client], alice: Any) -> Client:
    return make_client(alice)


@pytest.fixture
def bob_client(make_client: Callable[..., Client], bob: Any) -> Client:
    return make_client(bob)


@pytest.fixture
def guest_client(make_client: Callable[..., Client]) -> Client:
    return make_client(guest="Gus")


def client_player(browser: Client) -> Player:
    """The Player a browser acts as (its account, or its guest session)."""
    user_id = browser.session.get("_auth_user_id")
    if user_id is not None:
        user = get_user_model().objects.get(pk=user_id)
        return player_of(user)
    return Player(name=browser.session["guest_name"], guest=browser.session["guest_token"])


# -- games --------------------------------------------------------------------------------


@pytest.fixture
def make_game(db: None) -> Callable[..., Game]:
    """A table hosted by the first player with the others seated; ``start=True`` plays the
    roll-off so that ``starter`` begins (or any Player from a Client)."""

    def make(
        *players: Player | Client,
        seats: int | None = None,
        upper_first: bool = False,
        public: bool = False,
        start: bool = False,
        starter: int = 0,
        pace: str | None = None,
    ) -> Game:
        people = [p if isinstance(p, Player) else client_player(p) for p in players]
        host, *others = people
        game = services.game_create(
            player=host,
            seat_count=seats or len(people),
            rules=Rules(upper_first=upper_first),
            is_public=public,
            pace=pace,
        )
        for other in others:
            services.game_join(code=game.code, player=other, version=version_of(game))
        if start:
            services.game_start(
                code=game.code,
                player=host,
                version=version_of(game),
                rng=rolloff_won_by(starter, len(people)),
            )
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def duel(make_game: Callable[..., Game], ann: Player, ben: Player) -> Game:
    """Alice and Bob at a started table; Alice won the roll-off."""
    return make_game(ann, ben, start=True, starter=0)


@pytest.fixture
def blitz(make_game, ann, ben, frozen_clock, coach_advisor):
    """Alice and Bob at a blitz table (30 s a turn); Alice won the roll-off."""
    return make_game(ann, ben, start=True, starter=0, pace="blitz")


@pytest.fixture
def untimed(make_game, ann, ben, frozen_clock, coach_advisor):
    """Alice and Bob at an untimed table."""
    return make_game(ann, ben, start=True, pace="untimed")


@pytest.fixture
def take_turn() -> Callable[..., Game]:
    """One whole turn through the services: roll ``faces`` once, score ``category``."""

    def take(game: Game, player: Player, faces: str, category: Category | str) -> Game:
        services.turn_roll(
            code=game.code, player=player, version=version_of(game), rng=ScriptedDice(faces)
        )
        services.turn_score(
            code=game.code, player=player, version=version_of(game), category=Category(category)
        )
        game.refresh_from_db()
        return game

    return take


def jump_to_last_round(game: Game, faces_for: Callable[[int, int], str]) -> None:
    """Play every turn before the last round in the engine alone and store the result, as
    if those turns had been played (without their Move log): a whole game through the
    services costs a test dozens of transactions."""
    seats = list(game.seats.order_by("position"))
    state = game.engine_state(seats)
    last_round_starts = (engine.ROUNDS - 1) * state.seat_count
    while state.turn_number < last_round_starts:
        seat = state.current_seat
        state = engine.apply(
            state, engine.Roll(seat), ScriptedDice(faces_for(seat, state.turn_number))
        )
        seats[seat].yahtzees += int(len(set(state.dice)) == 1)
        state = engine.apply(state, engine.Score(seat, state.cards[seat].open_boxes[0]))
    for seat, card in zip(seats, state.cards, strict=True):
        seat.scorecard, seat.total = card.to_dict(), card.total
        seat.save(update_fields=["scorecard", "total", "yahtzees"])
    game.store_turn(state)
    game.save()


@pytest.fixture
def play_out() -> Callable[..., Game]:
    """Finish a started game: each player rolls ``faces_for(seat, turn)`` once a turn and
    scores the first open box in printed order. The last round (or, with ``whole=True``,
    every turn) goes through the services; earlier turns are played in the engine."""

    def play(
        game: Game,
        players: Iterable[Player],
        faces_for: Callable[[int, int], str] = lambda seat, turn: "12345",
        whole: bool = False,
    ) -> Game:
        by_position = list(players)
        if not whole:
            game.refresh_from_db()
            jump_to_last_round(game, faces_for)
        while True:
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                return game
            seats = list(game.seats.order_by("position"))
            state = game.engine_state(seats)
            seat = state.current_seat
            player = by_position[seat]
            services.turn_roll(
                code=game.code,
                player=player,
                version=game.version,
                rng=ScriptedDice(faces_for(seat, state.turn_number)),
            )
            category = state.cards[seat].open_boxes[0]
            services.turn_score(
                code=game.code, player=player, version=version_of(game), category=category
            )

    return play


@pytest.fixture
def finished_game(db: None) -> Callable[..., Game]:
    """A finished game stored directly: ``finished_game((user_or_guest_name, card), ...)``.

    Places follow the engine's ranking (equal totals share a place)."""

    def make(
        *entries: tuple[Any, dict[str, object]], yahtzees: int = 0, finished_at: Any = None
    ) -> Game:
        finished_at = finished_at or timezone.now()
        first = entries[0][0]
        game = Game.objects.create(
            seat_count=len(entries),
            status=Game.Status.FINISHED,
            host_user=first if not isinstance(first, str) else None,
            host_guest=first if isinstance(first, str) else "",
            rolloff=[[[i, [3, 3, 3, 3, 3]] for i in range(len(entries))]],
            starter=0,
            turn_number=13 * len(entries),
            started_at=finished_at,
            finished_at=finished_at,
        )
        cards = [Scorecard.from_dict(card) for _, card in entries]
        totals = [card.total for card in cards]
        for position, (who, card) in enumerate(entries):
            guest = isinstance(who, str)
            Seat.objects.create(
                game=game,
                position=position,
                user=None if guest else who,
                guest=who if guest else "",
                name=who if guest else who.get_username(),
                scorecard=card,
                total=totals[position],
                yahtzees=yahtzees,
                place=1 + sum(t > totals[position] for t in totals),
                upper_bonus=cards[position].upper_bonus,  # kept as a game finishes
            )
        return game

    return make


@pytest.fixture
def pause_begins(
    finished_game: Callable[..., Game], frozen_clock: FrozenClock, settings: Any
) -> Callable[[Any], None]:
    """``pause_begins(user)``: with RATED_LEAVES at 1, the account leaves a rated game that
    ends now, and its pause from rated tables (RATED_LEAVE_PAUSE) begins."""
    from games.services.leaving import rated_pause

    settings.RATED_LEAVES = 1

    def begin(user: Any) -> None:
        foe = get_user_model().objects.create_user(f"{user.get_username()}-foe", password=PASSWORD)
        left = finished_game(
            (user, full_card(chance=20)),
            (foe, full_card(chance=10)),
            finished_at=frozen_clock.now(),
        )
        Game.objects.filter(pk=left.pk).update(rated=True)
        Seat.objects.filter(game=left, user=user).update(status=Seat.Status.LEFT)
        assert rated_pause(user.pk) is not None

    return begin


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Any:
    """The test database, and at the end its pooled PostgreSQL connections closed first, so
    that the database can be dropped (a pool keeps its connections open otherwise)."""
    yield
    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            # A connection a finished thread still held (and so never gave back to the
            # pool) would keep the test database from being dropped: end them all.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connection.close_pool()
