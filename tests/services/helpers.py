"""Moves made through the services, as the service tests write them."""

from __future__ import annotations

from games import services
from games.models import Game, Seat
from games.rules import Category, Scorecard
from games.services import Player
from games.snapshots import Snapshot
from tests.conftest import ScriptedDice, version_of

C = Category


def roll(game: Game, player: Player, faces: str, version: int | None = None) -> Snapshot:
    return services.turn_roll(
        code=game.code,
        player=player,
        version=version_of(game) if version is None else version,
        rng=ScriptedDice(faces),
    )


def keep(game: Game, player: Player, held: str, version: int | None = None) -> Snapshot:
    return services.turn_keep(
        code=game.code,
        player=player,
        version=version_of(game) if version is None else version,
        held=tuple(ch == "1" for ch in held),
    )


def score(game: Game, player: Player, category: str, version: int | None = None) -> Snapshot:
    return services.turn_score(
        code=game.code,
        player=player,
        version=version_of(game) if version is None else version,
        category=Category(category),
    )


def attempt(act: str, game: Game, player: Player) -> Snapshot:
    """Try one kind of turn action with ordinary arguments."""
    if act == "roll":
        return roll(game, player, "12345")
    if act == "keep":
        return keep(game, player, "10000")
    return score(game, player, "chance")


def card_of(game: Game, position: int) -> Scorecard:
    seat = Seat.objects.get(game=game, position=position)
    return Scorecard.from_dict(seat.scorecard, game.rules)
