"""Writes before and around a game: opening a table, sitting down, computer players,
leaving, starting, and the rematch."""

from __future__ import annotations

import itertools
import secrets
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from games import dice as fair
from games import engine
from games.clock import clock
from games.engine import DiceSource
from games.models import BotLevel, ChatLevel, DiceDraw, Game, Invitation, Move, Pace, Player, Seat
from games.rules import Rules
from games.services.absence import game_leave_playing
from games.services.chat import chat_level_choose, chat_level_of, chat_seats_follow
from games.services.dice_supply import dice_supply
from games.services.errors import GameError, NotAllowed, StaleAction
from games.services.invitations import invitations_end
from games.services.leaving import check_may_sit_rated, check_seats_may_play_rated
from games.services.player_names import bot_names, check_name_free, clean_name, names_of, same_name
from games.services.turn_clock import plan
from games.services.writes import announce, as_it_stands, bump, check_version, locked_game
from games.snapshots import Snapshot

MAX_SERIES = 6  # the score pad has six game columns
# Marked for the catalogs, English here: translated where they are raised.
ONLY_HOST_SEATS_BOTS = gettext_noop("Only the host can seat or remove computer players.")
ONLY_HOST_STARTS = gettext_noop("Only the host can start this game.")
NO_COACH_IN_RATED = gettext_noop(
    "A rated game has no coach while it runs, so it cannot have hints or feedback: "
    "turn them off, or make the game casual."
)


def clean_client_seed(client_seed: str) -> str:
    """A seat's dice seed as given, or one chosen by the server when none was given."""
    if not client_seed:
        return fair.new_client_seed()
    if not fair.is_client_seed(client_seed):
        raise GameError(
            gettext(
                "A dice seed is 1 to 64 plain characters: letters, digits, spaces "
                "and punctuation from a standard keyboard."
            )
        )
    return client_seed


def _take_seat(game: Game, player: Player, position: int, client_seed: str = "") -> Seat:
    return Seat.objects.create(
        game=game,
        position=position,
        user_id=player.user_id,
        guest="" if player.user_id else player.guest,
        name=clean_name(player.name),
        client_seed=clean_client_seed(client_seed),
    )


@transaction.atomic
def game_create(
    *,
    player: Player,
    seat_count: int,
    rules: Rules | None = None,
    is_public: bool = False,
    coach_hints: bool | None = None,
    client_seed: str = "",
    series: int = 1,
    pace: Pace | str | None = None,
    feedback: bool = False,
    rated: bool = True,
    chat: str | None = None,
    dice_draw: DiceDraw | str = DiceDraw.FAIR,
    dice_seed: bytes | None = None,
    seed_secret_until: datetime | None = None,
) -> Game:
    """A new game in its lobby, with the creator in the first seat.

    ``chat``: "off", "phrases" or "text"; None gives the table's kind's default
    (``models.chat_level_default``: free text by link, quick phrases when public).

    ``dice_draw="same"`` with ``dice_seed`` (32 bytes): the same-dice draw, so every game
    made with that seed rolls the same dice on each turn and roll (games/dice.py,
    ``SameDice``); its commitment shows from now on, and the seed stays secret until the
    game has ended and, if given, ``seed_secret_until`` has come (while others still play).

    ``rated``: the game moves ratings and shows no coach while it runs, so asking for
    hints or feedback with it is refused; a table of one seat is casual whatever is asked,
    and the start makes any table with one person casual.

    ``coach_hints=None`` decides at the start: on when at most one person plays.
    ``pace=None`` (automatic) decides at the start too: untimed when one person plays,
    live otherwise; until then the lobby shows the pace its seats suggest.
    """
    if not player.is_known:
        raise NotAllowed(gettext("Log in or choose a guest name to create a game."))
    if not 1 <= seat_count <= engine.MAX_SEATS:
        raise GameError(gettext("A game has 1 to %(seats)d seats.") % {"seats": engine.MAX_SEATS})
    rules = rules or Rules()
    same = _same_dice_seed(dice_draw, dice_seed)
    if not 1 <= series <= MAX_SERIES:
        raise GameError(gettext("A series has 1 to 6 games."))
    client_seed = clean_client_seed(client_seed)
    rated = rated and seat_count > 1
    if rated and (coach_hints or feedback):
        raise GameError(gettext(NO_COACH_IN_RATED))
    if rated:
        check_may_sit_rated(player)
    if chat and chat not in ChatLevel.values:
        raise GameError(gettext("Choose no chat, quick phrases or free text."))
    automatic = not pace
    try:
        pace = Pace(pace) if pace else Pace.default_for(seat_count)
    except ValueError:
        raise GameError(gettext("Choose blitz, live, relaxed, daily or untimed.")) from None
    game = Game.objects.create(
        pace=pace,
        pace_automatic=automatic,
        seat_count=seat_count,
        ruleset=rules.ruleset,
        upper_first=rules.upper_first,
        is_public=is_public,
        coach_hints=coach_hints,
        feedback=feedback,
        rated=rated,
        host_user_id=player.user_id,
        host_guest="" if player.user_id else player.guest,
        series_length=series,
        dice_draw=DiceDraw.SAME if same else DiceDraw.FAIR,
        server_seed=same.hex() if same else "",
        seed_secret_until=seed_secret_until if same else None,
    )
    _take_seat(game, player, 0, client_seed)
    chat_level_choose(game=game, chat=chat)
    return game


def _same_dice_seed(dice_draw: DiceDraw | str, dice_seed: bytes | None) -> bytes | None:
    """The shared seed of a same-dice game (None for the fair stream); refused if unsound."""
    if dice_draw not in DiceDraw.values:
        raise GameError(gettext("The dice are drawn fair or the same for everyone."))
    if dice_draw == DiceDraw.FAIR:
        return None
    if not isinstance(dice_seed, bytes) or len(dice_seed) != fair.SEED_BYTES:
        raise GameError(gettext("The same dice need a seed of 32 bytes."))
    return dice_seed


def _lobby_for_host(
    code: str,
    player: Player,
    version: int | None,
    refusal: str = ONLY_HOST_SEATS_BOTS,
) -> Game:
    """The game, locked, if ``player`` hosts it and it is still in its lobby at ``version``
    (else refused with ``refusal``, an English sentence of the catalogs)."""
    game = locked_game(code)
    if not player.hosts(game):
        raise NotAllowed(gettext(refusal))
    check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError(gettext("The game has already started."))
    return game


@transaction.atomic
def game_add_bot(*, code: str, player: Player, version: int | None, level: BotLevel) -> Snapshot:
    """The host seats a computer player in the first free seat."""
    game = _lobby_for_host(code, player, version)
    seats = list(game.seats.select_related("user"))
    taken = {seat.position for seat in seats}
    free = [p for p in range(game.seat_count) if p not in taken]
    if not free:
        raise GameError(gettext("Every seat at this table is taken."))
    level = BotLevel(level)
    same = sum(1 for seat in seats if seat.bot == level)
    carried = [name for seat in seats for name in names_of(seat)]
    number = next(
        n
        for n in itertools.count(same + 1)
        if not any(same_name(name, other) for name in bot_names(level, n) for other in carried)
    )
    Seat.objects.create(
        game=game,
        position=free[0],
        guest=f"bot-{secrets.token_urlsafe(12)}",
        bot=level,
        bot_number=number,
        name=level.stored_name(number),
        client_seed=fair.new_client_seed(),
    )
    return bump(game)


@transaction.atomic
def game_remove_bot(*, code: str, player: Player, version: int | None, position: int) -> Snapshot:
    """The host takes a computer player away from the table before the start."""
    game = _lobby_for_host(code, player, version)
    seat = game.seats.filter(position=position).exclude(bot="").first()
    if seat is None:
        raise GameError(gettext("There is no computer player in that seat."))
    seat.delete()
    close_gaps(game)
    return bump(game)


def close_gaps(game: Game) -> None:
    """Renumber the seated players 0..n-1 after someone left; the table's talk follows its
    people to their new seats (a mute keeps silencing the one it was made for)."""
    for position, other in enumerate(game.seats.order_by("position")):
        if other.position != position:
            other.position = position
            other.save(update_fields=["position"])
    chat_seats_follow(game)


@transaction.atomic
def game_join(*, code: str, player: Player, version: int | None, client_seed: str = "") -> Snapshot:
    """Sit ``player`` in the first free seat of a game still in its lobby."""
    game = locked_game(code)
    seats = list(game.seats.select_related("user"))
    for seat in seats:
        if player.owns(seat):
            return as_it_stands(game, seats)  # already seated: joining twice changes nothing
    if not player.is_known:
        raise NotAllowed(gettext("Log in or choose a guest name to take a seat."))
    check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError(gettext("This game has already started; you can watch it."))
    taken = {seat.position for seat in seats}
    free = [p for p in range(game.seat_count) if p not in taken]
    if not free:
        raise GameError(gettext("Every seat at this table is taken; you can watch."))
    check_name_free(seats, clean_name(player.name))
    client_seed = clean_client_seed(client_seed)
    if game.rated:
        check_may_sit_rated(player)
    try:
        with transaction.atomic():
            _take_seat(game, player, free[0], client_seed)
    except IntegrityError:
        raise StaleAction(gettext("Someone took that seat a moment ago; try again.")) from None
    chat_seats_follow(game)  # someone who left and sat down again: their lines, their seat
    return bump(game)


@transaction.atomic
def game_leave(*, code: str, player: Player, version: int | None) -> Snapshot:
    """Give up a seat: in the lobby it is free again (the host closes the table instead);
    in play the coach plays it to the end (``clocks.game_leave_playing``)."""
    game = locked_game(code)
    check_version(game, version)
    if game.status == Game.Status.PLAYING:
        return game_leave_playing(game=game, player=player)
    if game.status != Game.Status.LOBBY:
        raise GameError(gettext("This game is over."))
    seat = next((s for s in game.seats.all() if player.owns(s)), None)
    if seat is None:
        raise NotAllowed(gettext("You have no seat at this table."))
    if player.hosts(game):
        raise GameError(gettext("The host keeps their seat; start the game or let it be."))
    seat.delete()
    close_gaps(game)
    return bump(game)


@transaction.atomic
def game_start(
    *, code: str, player: Player, version: int | None, rng: DiceSource | None = None
) -> Snapshot:
    """The host starts with whoever is seated: roll-off for the first player, then play."""
    game = _lobby_for_host(code, player, version, ONLY_HOST_STARTS)
    seats = list(game.seats.order_by("position"))
    if not seats:
        raise GameError(gettext("Nobody is seated yet."))
    for seat in seats:  # every seat's part of the dice stream's key, frozen from now on
        if not seat.client_seed:
            seat.client_seed = fair.new_client_seed()
            seat.save(update_fields=["client_seed"])
    if game.dice_draw != DiceDraw.SAME:  # a same-dice game has had its shared seed from the start
        game.server_seed = dice_supply.new_server_seed().hex()
    game.dice_cursor = 0
    source = rng or dice_supply.for_game(game, seats)
    state = engine.start(len(seats), game.rules, source)
    dice_supply.advance(game, source)
    game.seat_count = len(seats)
    people = sum(1 for seat in seats if not seat.bot)
    game.rated = game.rated and people > 1  # one person is never rated, bots or not
    if game.rated:
        check_seats_may_play_rated(seats)
        game.coach_hints = game.feedback = False  # no coach in a rated game while it runs
    if game.coach_hints is None:
        game.coach_hints = people <= 1
    if game.pace_automatic:
        game.pace = Pace.default_for(people)
    if people > 1:
        game.feedback = False  # feedback is for one person learning, not a match
    game.status = Game.Status.PLAYING
    game.started_at = clock.now()
    game.store_turn(state)
    plan(game, seats, new_turn=True)
    game.version += 1
    game.save()
    Move.objects.create(game=game, version=game.version, kind=Move.Kind.START, seat=state.starter)
    invitations_end(game, Invitation.Ending.STARTED)
    return announce(game)


@transaction.atomic
def game_rematch(*, code: str, player: Player) -> Game:
    """A new game with the same players seated in the same order (one per finished game)."""
    game = locked_game(code)
    if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED):
        raise GameError(gettext("A rematch can be opened once the game is over."))
    seats = list(game.seats.order_by("position"))
    if not any(player.owns(s) for s in seats):
        raise NotAllowed(gettext("Only the players of this game can open its rematch."))
    existing = Game.objects.filter(rematch_of=game).first()
    if existing is not None:
        return existing
    if game.rated:
        check_may_sit_rated(player)
    continues = game.in_series and game.series_game < game.series_length
    # A deleted account's seat (no account, token or level) has nobody to seat again.
    seats = [s for s in seats if s.bot or s.user_id or s.guest]
    new = Game.objects.create(
        # The next game of the series, with the same people; after its last, a new series.
        series_length=game.series_length,
        series_game=game.series_game + 1 if continues else 1,
        series_first_id=(game.series_first_id or game.pk) if continues else None,
        seat_count=len(seats),
        ruleset=game.ruleset,
        upper_first=game.upper_first,
        coach_hints=game.coach_hints,
        pace=game.pace,
        pace_automatic=game.pace_automatic,
        feedback=game.feedback,
        rated=game.rated,  # the rematch keeps the kind
        is_public=False,
        host_user_id=player.user_id,
        host_guest="" if player.user_id else player.guest,
        rematch_of=game,
    )
    Seat.objects.bulk_create(
        Seat(
            game=new,
            position=position,
            user_id=s.user_id,
            guest=s.guest,
            bot=s.bot,
            bot_number=s.bot_number,
            name=s.name,
            # A new game, new seeds: a computer player's from the server; a person's page
            # proposes theirs from the browser (and the start makes any still missing).
            client_seed=fair.new_client_seed() if s.bot else "",
        )
        for position, s in enumerate(seats)
    )
    chat_level_choose(game=new, chat=chat_level_of(game))  # the same table talk
    bump(game)  # the finished game's page now links the rematch
    return new


@transaction.atomic
def seat_set_client_seed(
    *, code: str, player: Player, version: int | None, client_seed: str
) -> Snapshot:
    """A seated player chooses their own dice seed, while the game is in its lobby."""
    game = locked_game(code)
    seat = next((s for s in game.seats.all() if player.owns(s)), None)
    if seat is None:
        raise NotAllowed(gettext("Only a seated player can choose a dice seed."))
    check_version(game, version)
    if game.status != Game.Status.LOBBY:
        raise GameError(gettext("The game has started; the dice seeds can no longer change."))
    if not client_seed:
        raise GameError(gettext("Type a dice seed, or keep the one you have."))
    seat.client_seed = clean_client_seed(client_seed)
    seat.save(update_fields=["client_seed"])
    return bump(game)
