"""``manage.py solve [--ruleset yahtzee|yatzy|yacht] [--upper-first] [--all]``: build the
optimal-play tables and store them: of every rules profile with no option (or ``--all``),
else of the one named (``--upper-first`` alone: Yahtzee's).

The solving runs in a child process, ``python -m games.strategy.build``, that loads the
solver and nothing of Django or the site: Django alone holds ~95 MB before anything is
solved, the child peaks near 61 MB (docs/benchmarks.md, #18).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules import RULESET_IDS, Rules


def every_profile() -> list[Rules]:
    """Every rules profile the site plays: each rule set, and its upper-first option."""
    profiles = []
    for ruleset in RULESET_IDS:
        profiles.append(Rules(ruleset=ruleset))
        if Rules(ruleset=ruleset).definition.has_upper_first:
            profiles.append(Rules(ruleset=ruleset, upper_first=True))
    return profiles


def strategy_cache_dir() -> Path:
    return Path(settings.STRATEGY_CACHE_DIR)


class Command(BaseCommand):
    help = "Solve optimal play for the rules profiles and store the tables in STRATEGY_CACHE_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--upper-first",
            action="store_true",
            help="the variant where the six upper boxes must be filled first",
        )
        parser.add_argument("--ruleset", choices=RULESET_IDS, default=None)
        parser.add_argument(
            "--all", action="store_true", help="every rules profile, one after the other"
        )
        parser.add_argument("--cache-dir", type=Path, default=None, help="where to store the table")
        parser.add_argument("--workers", type=int, default=None, help="threads (default: 2)")

    def handle(self, *args: object, **options: object) -> None:
        one = options["ruleset"] is not None or options["upper_first"]
        if options["all"] or not one:
            profiles = [(r.ruleset, r.upper_first) for r in every_profile()]
        else:
            profiles = [(str(options["ruleset"] or "yahtzee"), bool(options["upper_first"]))]
            try:
                Rules(upper_first=profiles[0][1], ruleset=profiles[0][0])
            except ValueError as error:
                raise CommandError(str(error)) from None
        for ruleset, upper_first in profiles:
            self.build(ruleset, upper_first, options)

    def build(self, ruleset: str, upper_first: bool, options: dict[str, object]) -> None:
        cache_dir = options["cache_dir"] or strategy_cache_dir()
        command = [sys.executable, "-m", "games.strategy.build", "--cache-dir", str(cache_dir)]
        command += ["--ruleset", ruleset]
        if upper_first:
            command.append("--upper-first")
        if options["workers"]:
            command += ["--workers", str(options["workers"])]
        root = str(settings.BASE_DIR)
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            cwd=root,
            env={**os.environ, "PYTHONPATH": path},
            check=False,
        )
        if done.returncode:
            raise CommandError(f"Solving failed: {done.stderr.strip() or done.stdout.strip()}")
        self.stdout.write(done.stdout.rstrip("\n"))
