"""``manage.py simulate --games N [--bot optimal|greedy|casual] [--seed S]``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from games.rules import Rules
from games.strategy import advisor_for, strategy_status
from games.strategy.bots import POLICIES
from games.strategy.simulation import simulate

from .solve import strategy_cache_dir


class Command(BaseCommand):
    help = "Play solitaire games with a bot through the game engine and print the statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--bot", choices=sorted(POLICIES), default="optimal")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--upper-first", action="store_true")
        parser.add_argument("--cache-dir", type=Path, default=None)

    def handle(self, *args: object, **options: object) -> None:
        rules = Rules(upper_first=bool(options["upper_first"]))
        cache_dir = options["cache_dir"] or strategy_cache_dir()
        games = int(options["games"])  # type: ignore[call-overload]
        if games < 1:
            self.stderr.write("--games must be at least 1")
            return
        if strategy_status(rules, cache_dir) == "missing":  # type: ignore[arg-type]
            self.stdout.write("No stored strategy table yet: solving first (a few seconds)...")
        advisor = advisor_for(rules, cache_dir)  # type: ignore[arg-type]
        result = simulate(advisor, games, str(options["bot"]), options["seed"])  # type: ignore[arg-type]
        out = self.stdout.write
        out(f"bot {result.policy}, {result.games} games in {result.seconds:.1f} s")
        out(f"mean              {result.mean:8.2f}  (standard error {result.standard_error:.2f})")
        out(f"standard dev.     {result.stdev:8.2f}")
        out(f"median            {result.median:8.1f}")
        out(f"upper bonus rate  {result.upper_bonus_rate:8.1%}")
        out(f"Yahtzee rate      {result.yahtzee_rate:8.1%}")
