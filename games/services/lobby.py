"""Writes before and around a game: opening a table, sitting down, computer players,
leaving, starting, and the rematch."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import engine
from ..engine import DiceSource
from ..models import BotLevel, Game, Move, Player, Seat
from ..rules import Rules
from .errors import GameError, NotAllowed, StaleAction
from .writes import announce, bump, check_version, dice, locked_game

MAX_NAME = 40


def clean_name(name: str) -> str:
    name = " ".join(name.split())[:MAX_NAME]
    if not name:
        raise GameError("Choose a display name to sit down.")
    return name


def _take_seat(game: Game, player: Player, position: int) -> Seat:
    return Seat.objects.create(
        game=game,
        position=position,
        user_id=player.user_id,
        guest="" if player.user_id else player.guest,
        name=clean_name(player.name),
    )


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
    game = locked_game(code)
    if not player.hosts(game):
        raise NotAllowed(refusal)
    check_version(game, version)
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
        name=f"{level.seat_name} bot" + (f" {same + 1}" if same else ""),
    )
    bump(game)
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
    bump(game)
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
    game = locked_game(code)
    seats = list(game.seats.all())
    for seat in seats:
        if player.owns(seat):
            return seat  # already seated: joining twice changes nothing
    if not player.is_known:
        raise NotAllowed("Log in or choose a guest name to take a seat.")
    check_version(game, version)
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
    bump(game)
    return seat


@transaction.atomic
def game_leave(*, code: str, player: Player, version: int | None) -> Game:
    """Give up a seat while the game is in its lobby (the host closes the table instead)."""
    game = locked_game(code)
    check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError("The game has started; seats can no longer be left.")
    seat = next((s for s in game.seats.all() if player.owns(s)), None)
    if seat is None:
        raise NotAllowed("You have no seat at this table.")
    if player.hosts(game):
        raise GameError("The host keeps their seat; start the game or let it be.")
    seat.delete()
    _close_gaps(game)
    bump(game)
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
    state = engine.start(len(seats), game.rules, rng or dice.source)
    game.seat_count = len(seats)
    if game.coach_hints is None:
        game.coach_hints = sum(1 for seat in seats if not seat.bot) <= 1
    game.status = Game.Status.PLAYING
    game.started_at = timezone.now()
    game.store_turn(state)
    game.version += 1
    game.save()
    Move.objects.create(game=game, version=game.version, kind=Move.Kind.START, seat=state.starter)
    announce(game)
    return game


@transaction.atomic
def game_rematch(*, code: str, player: Player) -> Game:
    """A new game with the same players seated in the same order (one per finished game)."""
    game = locked_game(code)
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
    bump(game)  # the finished game's page now links the rematch
    return new
