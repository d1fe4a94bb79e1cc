"""Recompute every die of an ended game from its seeds and compare with its move log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import dice, selectors


class Command(BaseCommand):
    help = (
        "Check that every die of a game came from its seeds: the server seed revealed at the "
        "end and the players' seeds, or the shared seed of the same-dice draw, by the "
        "published recipe (games/dice.py)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", help="the game's code, as in its link /g/<code>/")

    def handle(self, *args: Any, **options: Any) -> None:
        game = selectors.get_game(options["code"])
        if game is None:
            raise CommandError("There is no game with that code.")
        if not game.revealed_seed:
            if game.has_ended:
                raise CommandError(
                    "This game has ended, but other games still roll its same dice: its seed "
                    "stays secret until they are over."
                )
            raise CommandError(
                "This game has not ended yet: its server seed stays secret until it has."
            )
        seeds = [seat.client_seed for seat in game.seats.order_by("position")]
        moves = selectors.moves_json(game)["moves"]
        self.stdout.write(f"Dice commitment: {game.dice_commitment}")
        self.stdout.write(f"Server seed:     {game.revealed_seed}")
        seed = bytes.fromhex(game.revealed_seed)
        if game.same_dice:
            self.stdout.write("Dice drawn:      the same dice for everyone (by turn and roll)")
            checks = dice.verify_same(seed, moves)  # type: ignore[arg-type]
        else:
            checks = dice.verify(seed, seeds, moves)  # type: ignore[arg-type]
        for check in checks:
            what = "roll-off" if check.what == "rolloff" else "roll"
            logged = " ".join(map(str, check.logged))
            if check.ok:
                self.stdout.write(f"v{check.version} {what} of seat {check.seat}: {logged} matches")
            else:
                expected = " ".join(map(str, check.expected))
                self.stdout.write(
                    f"v{check.version} {what} of seat {check.seat}: {logged} does NOT match "
                    f"the seeds, which give {expected}"
                )
        wrong = sum(1 for check in checks if not check.ok)
        if wrong:
            raise CommandError(f"{wrong} of {len(checks)} rolls do not match the seeds.")
        self.stdout.write(self.style.SUCCESS(f"All {len(checks)} rolls match the seeds."))
