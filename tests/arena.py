"""An arena run in tests: tournaments made, and their tables played to the end quickly
through the services (every round but the last in the engine alone, as ``play_out`` does)."""

from __future__ import annotations

from datetime import datetime, timedelta

from games import engine, services
from games.clock import clock
from games.models import Game, Player, Seat, Tournament
from games.services.tournaments import Plan, tournament_create
from tests.conftest import ScriptedDice, jump_to_last_round

WINNING, LOSING = "66666", "11112"


def arena(
    creator: Player,
    starts_at: datetime,
    *,
    minutes: int = 20,
    size: int = 2,
    ruleset: str = "yahtzee",
    rated: bool = False,
    public: bool = True,
) -> Tournament:
    plan = Plan(
        name="Sunday arena",
        starts_at=starts_at,
        minutes=minutes,
        pace="blitz",
        table_size=size,
        ruleset=ruleset,
        rated=rated,
        public=public,
    )
    return tournament_create(player=creator, plan=plan)


def soon(now: datetime) -> datetime:
    return now + timedelta(minutes=1)


def seated_names(game: Game) -> list[str]:
    return list(game.seats.order_by("position").values_list("name", flat=True))


def finish(game: Game, *, winners: tuple[str, ...] = (), away: str = "", leaves: str = "") -> Game:
    """Play ``game`` to its end: ``winners`` roll 66666 every turn, the others 11112; the seat
    of ``away`` is away the whole game (the coach plays it); ``leaves`` leaves in the last
    round."""
    names = seated_names(game)

    def faces(seat: int, turn: int) -> str:
        return WINNING if names[seat] in winners else LOSING

    jump_to_last_round(game, faces)
    # The turn on the clock now is a fresh one (the test's clock may have moved on since).
    Game.objects.filter(pk=game.pk).update(turn_deadline=clock.now() + timedelta(seconds=30))
    if away:
        Seat.objects.filter(game=game, name=away).update(status=Seat.Status.AWAY)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        seats = list(game.seats.order_by("position"))
        state = game.engine_state(seats)
        position = state.current_seat
        assert position is not None
        seat = seats[position]
        dice = ScriptedDice(faces(position, state.turn_number))
        if seat.coach_plays:
            services.turn_coach(
                code=game.code, version=game.version, action=engine.Roll(position), rng=dice
            )
            game.refresh_from_db()
            state = game.engine_state(list(game.seats.order_by("position")))
            box = state.cards[position].open_boxes[0]
            services.turn_coach(
                code=game.code, version=game.version, action=engine.Score(position, box)
            )
            continue
        player = Player(name=seat.name, user_id=seat.user_id)
        services.turn_roll(code=game.code, player=player, version=game.version, rng=dice)
        game.refresh_from_db()
        if seat.name == leaves:  # after a roll of their own: they played, then left
            services.game_leave(code=game.code, player=player, version=game.version)
            continue
        box = state.cards[position].open_boxes[0]
        services.turn_score(code=game.code, player=player, version=game.version, category=box)
