"""``manage.py solve [--upper-first]``: build the optimal-play table and store it."""

from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.rules import Rules
from games.strategy import save_table, solve, table_path


def strategy_cache_dir() -> Path:
    return Path(settings.STRATEGY_CACHE_DIR)


class Command(BaseCommand):
    help = "Solve optimal play for a rules profile and store the table in STRATEGY_CACHE_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--upper-first",
            action="store_true",
            help="the variant where the six upper boxes must be filled first",
        )
        parser.add_argument("--cache-dir", type=Path, default=None, help="where to store the table")
        parser.add_argument("--workers", type=int, default=None, help="threads (default: 2)")

    def handle(self, *args: object, **options: object) -> None:
        rules = Rules(upper_first=bool(options["upper_first"]))
        cache_dir = options["cache_dir"] or strategy_cache_dir()
        started = time.perf_counter()
        table = solve(rules, workers=options["workers"])  # type: ignore[arg-type]
        seconds = time.perf_counter() - started
        path = save_table(table, table_path(rules, cache_dir))  # type: ignore[arg-type]
        profile = "upper first" if rules.upper_first else "official rules"
        self.stdout.write(
            f"{profile}: expected score {table.empty_card_value:.7f} from an empty card "
            f"({table.states:,} states solved in {seconds:.2f} s)"
        )
        self.stdout.write(f"stored in {path}")
