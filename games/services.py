"""Every write to a game. One transaction each: lock the game row, check the version the
action was made against, let the engine decide, save, log the move, and announce the
new version to the room once the transaction has committed."""

from __future__ import annotations

import copy
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from . import engine
from .engine import DiceSource
from .models import BotLevel, Connection, Game, LiveServer, Move, Player, Seat, Snapshot
from .rules import Category, IllegalMove, Rules

# The dice of every real game come from the operating system's generator.
# Tests replace this with a seeded random.Random.
dice_source: DiceSource = secrets.SystemRandom()

# Called with a Snapshot of the new version after each committed change; the live layer
# (games/broadcast.py) hooks in here so this module knows nothing of websockets.
_listeners: list[Callable[[Snapshot], None]] = []


def on_game_changed(listener: Callable[[Snapshot], None]) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


class GameError(Exception):
    """A refused action; ``str(error)`` is a sentence for the player; nothing changed."""

    status = 400


class NotAllowed(GameError):
    status = 403


class StaleAction(GameError):
    status = 409


class GameNotFound(GameError):
    status = 404


MAX_NAME = 40


def _clean_name(name: str) -> str:
    name = " ".join(name.split())[:MAX_NAME]
    if not name:
        raise GameError("Choose a display name to sit down.")
    return name


# The last committed version of each game this process knows of, by code: its own commits,
# and those other processes announced to this one's sockets (see ``committed_elsewhere``).
# A move made against that very version starts from this copy instead of reading the game
# and its seats again; its write then names the version (UPDATE ... WHERE version = v), so
# a game changed meanwhile refuses it as stale, and it changes nothing.
_committed: OrderedDict[str, Snapshot] = OrderedDict()
_committed_lock = threading.Lock()
COMMITTED_SIZE = 4096


def _keep_committed(snapshot: Snapshot) -> None:
    code = snapshot.game.code
    with _committed_lock:
        known = _committed.get(code)
        if known is None or known.game.version < snapshot.game.version:
            _committed[code] = snapshot
            _committed.move_to_end(code)
            if len(_committed) > COMMITTED_SIZE:
                _committed.popitem(last=False)


def committed_elsewhere(snapshot: Snapshot) -> None:
    """Another process committed and announced this version of a game (it carries every
    field a move writes), so a move made against it here need not read it back either."""
    _keep_committed(snapshot)


def committed_snapshot(code: str, version: int | None) -> Snapshot | None:
    """The snapshot of ``code`` at ``version`` if this process has it at hand (it made or
    heard of that version), so a response or a push of it needs no query of its own."""
    with _committed_lock:
        known = _committed.get(code)
    return known if known is not None and known.game.version == version else None


def _announce(game: Game, seats: list[Seat] | None = None) -> None:
    """Once this transaction commits, tell every listener about the new version."""
    if not _listeners:
        return
    snapshot = Snapshot.of(game, seats)

    def send() -> None:
        _keep_committed(snapshot)
        for listener in list(_listeners):
            listener(snapshot)

    transaction.on_commit(send)


def _locked_game(code: str) -> Game:
    try:
        return Game.objects.select_for_update().get(code=code)
    except Game.DoesNotExist:
        raise GameNotFound("There is no game with that link.") from None


STALE = (
    "That action was made on an older view of the table (a repeated click or "
    "another tab); nothing changed. Here is the table as it stands."
)


def _check_version(game: Game, version: int | None) -> None:
    if version != game.version:
        raise StaleAction(STALE)


def _take_seat(game: Game, player: Player, position: int) -> Seat:
    return Seat.objects.create(
        game=game,
        position=position,
        user_id=player.user_id,
        guest="" if player.user_id else player.guest,
        name=_clean_name(player.name),
    )


def _bump(game: Game, *fields: str) -> None:
    game.version += 1
    game.save(update_fields=["version", *fields])
    _announce(game)


@transaction.atomic
def game_create(
    *,
    player: Player,
    seat_count: int,
    rules: Rules | None = None,
    is_public: bool = False,
    coach_hints: bool | None = None,
) -> Game:
    """A new game in its lobby, with the creator in the first seat.

    ``coach_hints=None`` decides at the start: on when at most one person plays.
    """
    if not player.is_known:
        raise NotAllowed("Log in or choose a guest name to create a game.")
    if not 1 <= seat_count <= engine.MAX_SEATS:
        raise GameError(f"A game has 1 to {engine.MAX_SEATS} seats.")
    rules = rules or Rules()
    game = Game.objects.create(
        seat_count=seat_count,
        upper_first=rules.upper_first,
        is_public=is_public,
        coach_hints=coach_hints,
        host_user_id=player.user_id,
        host_guest="" if player.user_id else player.guest,
    )
    _take_seat(game, player, 0)
    return game


def _lobby_for_host(
    code: str,
    player: Player,
    version: int | None,
    refusal: str = "Only the host can seat or remove computer players.",
) -> Game:
    """The game, locked, if ``player`` hosts it and it is still in its lobby at ``version``."""
    game = _locked_game(code)
    if not player.hosts(game):
        raise NotAllowed(refusal)
    _check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError("The game has already started.")
    return game


@transaction.atomic
def game_add_bot(*, code: str, player: Player, version: int | None, level: BotLevel) -> Seat:
    """The host seats a computer player in the first free seat."""
    game = _lobby_for_host(code, player, version)
    seats = list(game.seats.all())
    taken = {seat.position for seat in seats}
    free = [p for p in range(game.seat_count) if p not in taken]
    if not free:
        raise GameError("Every seat at this table is taken.")
    level = BotLevel(level)
    same = sum(1 for seat in seats if seat.bot == level)
    seat = Seat.objects.create(
        game=game,
        position=free[0],
        guest=f"bot-{secrets.token_urlsafe(12)}",
        bot=level,
        name=f"{level.label} bot" + (f" {same + 1}" if same else ""),
    )
    _bump(game)
    return seat


@transaction.atomic
def game_remove_bot(*, code: str, player: Player, version: int | None, position: int) -> Game:
    """The host takes a computer player away from the table before the start."""
    game = _lobby_for_host(code, player, version)
    seat = game.seats.filter(position=position).exclude(bot="").first()
    if seat is None:
        raise GameError("There is no computer player in that seat.")
    seat.delete()
    _close_gaps(game)
    _bump(game)
    return game


def _close_gaps(game: Game) -> None:
    """Renumber the seated players 0..n-1 after someone left."""
    for position, other in enumerate(game.seats.order_by("position")):
        if other.position != position:
            other.position = position
            other.save(update_fields=["position"])


@transaction.atomic
def game_join(*, code: str, player: Player, version: int | None) -> Seat:
    """Sit ``player`` in the first free seat of a game still in its lobby."""
    game = _locked_game(code)
    seats = list(game.seats.all())
    for seat in seats:
        if player.owns(seat):
            return seat  # already seated: joining twice changes nothing
    if not player.is_known:
        raise NotAllowed("Log in or choose a guest name to take a seat.")
    _check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError("This game has already started; you can watch it.")
    taken = {seat.position for seat in seats}
    free = [p for p in range(game.seat_count) if p not in taken]
    if not free:
        raise GameError("Every seat at this table is taken; you can watch.")
    try:
        with transaction.atomic():
            seat = _take_seat(game, player, free[0])
    except IntegrityError:
        raise StaleAction("Someone took that seat a moment ago; try again.") from None
    _bump(game)
    return seat


@transaction.atomic
def game_leave(*, code: str, player: Player, version: int | None) -> Game:
    """Give up a seat while the game is in its lobby (the host closes the table instead)."""
    game = _locked_game(code)
    _check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError("The game has started; seats can no longer be left.")
    seat = next((s for s in game.seats.all() if player.owns(s)), None)
    if seat is None:
        raise NotAllowed("You have no seat at this table.")
    if player.hosts(game):
        raise GameError("The host keeps their seat; start the game or let it be.")
    seat.delete()
    _close_gaps(game)
    _bump(game)
    return game


@transaction.atomic
def game_start(
    *, code: str, player: Player, version: int | None, rng: DiceSource | None = None
) -> Game:
    """The host starts with whoever is seated: roll-off for the first player, then play."""
    game = _lobby_for_host(code, player, version, "Only the host can start this game.")
    seats = list(game.seats.order_by("position"))
    if not seats:
        raise GameError("Nobody is seated yet.")
    state = engine.start(len(seats), game.rules, rng or dice_source)
    game.seat_count = len(seats)
    if game.coach_hints is None:
        game.coach_hints = sum(1 for seat in seats if not seat.bot) <= 1
    game.status = Game.Status.PLAYING
    game.started_at = timezone.now()
    game.store_turn(state)
    game.version += 1
    game.save()
    Move.objects.create(game=game, version=game.version, kind=Move.Kind.START, seat=state.starter)
    _announce(game)
    return game


def _acting_seat(game: Game, seats: list[Seat], player: Player, version: int | None) -> Seat:
    seat = next((s for s in seats if player.owns(s)), None)
    if seat is None:
        raise NotAllowed("You are watching this game; only seated players can play.")
    # A repeated or stale click is answered as stale even when it was the game's last move.
    _check_version(game, version)
    if game.status == Game.Status.LOBBY:
        raise GameError("The game has not started yet.")
    if game.status == Game.Status.FINISHED:
        raise GameError("This game is over.")
    return seat


def _play(
    code: str,
    player: Player,
    version: int | None,
    make_action: Callable[[int], engine.Action],
    rng: DiceSource | None = None,
) -> Game:
    known = committed_snapshot(code, version)
    if known is not None:  # this process made or heard of that version: no need to read it
        game = copy.copy(known.game)
        seats = [copy.copy(seat) for seat in known.seats]
    else:
        game = _locked_game(code)
        seats = list(game.seats.order_by("position"))
    seat = _acting_seat(game, seats, player, version)
    state = game.engine_state(seats)
    if state.current_seat != seat.position:
        raise NotAllowed(f"It is {seats[state.current_seat].name}'s turn, not yours.")
    action = make_action(seat.position)
    try:
        new = engine.apply(state, action, rng or dice_source)
    except IllegalMove as error:
        raise GameError(str(error)) from None
    game.store_turn(new)
    game.version += 1
    move = Move(
        game=game,
        version=game.version,
        seat=seat.position,
        user_id=player.user_id,
        turn_number=state.turn_number,
    )
    changed_seats: list[Seat] = []
    if isinstance(action, engine.Roll):
        move.kind, move.dice, move.held = Move.Kind.ROLL, game.dice, game.held
    elif isinstance(action, engine.Keep):
        move.kind, move.dice, move.held = Move.Kind.KEEP, game.dice, game.held
    else:
        card = new.cards[seat.position]
        move.kind, move.category = Move.Kind.SCORE, action.category.value
        move.dice = "".join(map(str, state.dice))
        move.points = card[action.category]
        seat.scorecard = card.to_dict()
        seat.total = card.total
        seat.yahtzees += int(len(set(state.dice)) == 1)
        changed_seats = [seat]
        if new.is_finished:
            changed_seats = _finish(game, new, seats)
    # The game first (its row is the lock), and only what a move changes.
    fields = [*TURN_FIELDS, "status", "finished_at"]
    if known is None:
        game.save(update_fields=[*fields, "version"])
    elif not Game.objects.filter(pk=game.pk, version=version).update(
        version=game.version, **{name: getattr(game, name) for name in fields}
    ):
        raise StaleAction(STALE)  # changed by another process since: nothing is written
    for changed in changed_seats:
        changed.save(update_fields=["scorecard", "total", "yahtzees", "place"])
    move.save()
    _announce(game, seats)
    return game


TURN_FIELDS = ("turn_number", "dice", "held", "rolls_left")


def _finish(game: Game, state: engine.GameState, seats: list[Seat]) -> list[Seat]:
    """The game is over: every seat gets its place (saved by the caller)."""
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    for standing in state.ranking():
        seat = seats[standing.seat]
        seat.place = standing.place
        seat.total = standing.total
    return seats


@transaction.atomic
def turn_roll(
    *, code: str, player: Player, version: int | None, rng: DiceSource | None = None
) -> Game:
    """Roll every die not kept; at most three rolls a turn."""
    return _play(code, player, version, engine.Roll, rng)


@transaction.atomic
def turn_keep(*, code: str, player: Player, version: int | None, held: tuple[bool, ...]) -> Game:
    """Choose which dice stay on the table for the next roll."""
    return _play(code, player, version, lambda seat: engine.Keep(seat, tuple(held)))


@transaction.atomic
def turn_score(*, code: str, player: Player, version: int | None, category: Category) -> Game:
    """Fill one box with the dice on the table; the turn passes on."""
    return _play(code, player, version, lambda seat: engine.Score(seat, category))


@transaction.atomic
def game_rematch(*, code: str, player: Player) -> Game:
    """A new game with the same players seated in the same order (one per finished game)."""
    game = _locked_game(code)
    if game.status != Game.Status.FINISHED:
        raise GameError("A rematch can be opened once the game is over.")
    seats = list(game.seats.order_by("position"))
    if not any(player.owns(s) for s in seats):
        raise NotAllowed("Only the players of this game can open its rematch.")
    existing = Game.objects.filter(rematch_of=game).first()
    if existing is not None:
        return existing
    new = Game.objects.create(
        seat_count=len(seats),
        upper_first=game.upper_first,
        coach_hints=game.coach_hints,
        is_public=False,
        host_user_id=player.user_id,
        host_guest="" if player.user_id else player.guest,
        rematch_of=game,
    )
    Seat.objects.bulk_create(
        Seat(
            game=new,
            position=s.position,
            user_id=s.user_id,
            guest=s.guest,
            bot=s.bot,
            name=s.name,
        )
        for s in seats
    )
    game.version += 1
    game.save(update_fields=["version"])
    _announce(game)
    return new


# -- presence: who has the game page open (bookkeeping, not game state; no version bump) --


def server_heartbeat(server_id: str) -> None:
    """Mark this server process alive and forget the connections of processes that died."""
    now = timezone.now()
    LiveServer.objects.update_or_create(id=server_id, defaults={"last_seen": now})
    LiveServer.objects.filter(last_seen__lt=now - LiveServer.stale_after()).delete()


def presence_open(*, server_id: str, code: str, channel_name: str, seat: int | None) -> bool:
    """Record an open page of a game; False if there is no such game."""
    game_id = Game.objects.filter(code=code).values_list("id", flat=True).first()
    if game_id is None:
        return False
    if not LiveServer.objects.filter(id=server_id).exists():
        server_heartbeat(server_id)
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"game_id": game_id, "server_id": server_id, "seat": seat},
    )
    return True


def presence_close(*, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()


@transaction.atomic
def guest_seats_claim(*, guest: str, user_id: int) -> int:
    """A guest who signs up or logs in keeps the seats (and tables) they had as a guest."""
    if not guest:
        return 0
    claimed = 0
    seated = Seat.objects.filter(guest=guest, user__isnull=True).values_list("game_id")
    games = Game.objects.select_for_update().filter(Q(id__in=seated) | Q(host_guest=guest))
    for game in games.order_by("id"):
        for seat in game.seats.filter(guest=guest, user__isnull=True):
            if game.seats.filter(user_id=user_id).exists():
                continue  # already seated here with the account: keep the account's seat
            seat.user_id, seat.guest = user_id, ""
            seat.save(update_fields=["user", "guest"])
            claimed += 1
        if game.host_guest == guest and game.host_user_id is None:
            game.host_user_id, game.host_guest = user_id, ""
        _bump(game, "host_user", "host_guest")
    return claimed


@transaction.atomic
def review_store(*, code: str, review: dict[str, object], mean_losses: dict[int, float]) -> Game:
    """Keep the coach's review of a finished game (once) and show it to the room."""
    game = _locked_game(code)
    if game.status != Game.Status.FINISHED:
        raise GameError("A game is reviewed once it is over.")
    if game.review is not None:
        return game  # reviewed already (by another process): nothing to do twice
    game.review = review
    for seat in game.seats.filter(position__in=list(mean_losses)):
        seat.mean_loss = mean_losses[seat.position]
        seat.save(update_fields=["mean_loss"])
    _bump(game, "review")
    return game
