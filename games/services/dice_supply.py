"""Where the server's dice come from: each game's own provably fair stream, the same-dice
draw of a game that shares its seed with others, or the seeded source a test puts in its
place."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from games import caches, engine
from games import dice as fair
from games.engine import DiceSource
from games.models import DiceDraw, Game, Seat

# The secret server seed of each game this process has rolled for from a copy without it (a
# snapshot from another process: the wire leaves the seed out), so that such a roll reads
# the seed once per game and process instead of once per roll. Invariant: a game's seed
# never changes once set (at the start), so a seed read once stays right; only set seeds
# are kept. By id and code: an id a rolled-back game had may be given again (SQLite).
server_seeds: caches.Cache[tuple[int, str], str] = caches.lru(
    "server seeds of games rolled from copies, by id and code", maxsize=4096
)


class DiceSupply:
    """Where the server's dice come from: each game's own provably fair stream
    (games/dice.py), drawn from its server seed and its seats' client seeds.

    Tests may script the dice by setting ``source`` (a seeded ``random.Random`` or scripted
    faces), which then replaces every game's stream and leaves its position alone; or fix
    the seeds with ``new_server_seed``, so the game is fair and its dice known in advance.
    ``choices`` is the randomness of computer players' decisions (never the dice)."""

    def __init__(self) -> None:
        self.source: DiceSource | None = None
        self.new_server_seed: Callable[[], bytes] = fair.new_server_seed
        self.choices: DiceSource = secrets.SystemRandom()

    def stream(self, game: Game, seats: Sequence[Seat]) -> fair.FairDice | None:
        """The game's stream at its current position (its seed read if not at hand);
        None for a game started before the fair dice, which has no seed."""
        seed = game.server_seed or self._seed_of(game)
        if not seed:
            return None
        client_seeds = [seat.client_seed for seat in sorted(seats, key=lambda s: s.position)]
        return fair.FairDice.for_game(bytes.fromhex(seed), client_seeds, game.dice_cursor)

    @staticmethod
    def _seed_of(game: Game) -> str:
        """The seed of a copy of ``game`` that came without it: remembered, else read."""
        key = (game.pk, game.code)
        seed = server_seeds.get(key)
        if seed is None:
            seed = Game.objects.filter(pk=game.pk).values_list("server_seed", flat=True).get()
            if seed:
                server_seeds.set(key, seed)
        return seed

    def for_game(self, game: Game, seats: Sequence[Seat]) -> DiceSource:
        """The source of the game's next dice: for the roll-off while it is in its lobby,
        else for the roll the game's row stands before."""
        if self.source is not None:
            return self.source
        if game.dice_draw == DiceDraw.SAME:
            return self.same_dice(game, seats)
        return self.stream(game, seats) or secrets.SystemRandom()

    def same_dice(self, game: Game, seats: Sequence[Seat]) -> fair.Drawn:
        """The same-dice draw's dice for the game's next roll (or its roll-off): turn t is
        the round (the player's own turn number), roll r the roll of that turn."""
        seed = bytes.fromhex(game.server_seed or self._seed_of(game))
        draw = fair.SameDice(seed)
        if game.status == Game.Status.LOBBY:
            return draw.for_rolloff(len(seats))
        turn = game.turn_number // game.seat_count + 1
        roll = engine.ROLLS_PER_TURN - game.rolls_left + 1
        return draw.for_roll(turn, roll, game.held)

    def advance(self, game: Game, source: DiceSource | None) -> None:
        """Keep the stream's new position on the game row (the caller saves); ``source`` is
        None for an action that rolls nothing."""
        if isinstance(source, fair.FairDice):
            game.dice_cursor = source.cursor


dice_supply = DiceSupply()
