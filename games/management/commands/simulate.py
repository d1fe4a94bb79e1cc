"""``manage.py simulate --games N [--bot optimal|greedy|casual|win] [--versus POLICY] [--seed S]
[--ruleset yahtzee|yatzy|yacht] [--upper-first]``.

Alone, the bot plays solitaire games and the statistics of its scores are printed. With
``--versus``, it plays heads-up games against that policy (each side starting half the
games) and the win rate is printed with its 99 % confidence interval.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.commands.solve import strategy_cache_dir
from games.rules import RULESET_IDS, Rules
from games.strategy import advisor_for, strategy_status
from games.strategy.bots import POLICIES
from games.strategy.simulation import simulate, simulate_match, simulate_match_parallel


class Command(BaseCommand):
    help = "Play games with a bot through the game engine and print the statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--bot", choices=sorted(POLICIES), default="optimal")
        parser.add_argument(
            "--versus", choices=sorted(POLICIES), default=None, help="play heads-up against it"
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--ruleset", choices=RULESET_IDS, default="yahtzee")
        parser.add_argument("--upper-first", action="store_true")
        parser.add_argument("--cache-dir", type=Path, default=None)
        parser.add_argument(
            "--workers", type=int, default=1, help="processes for heads-up games (default 1)"
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            rules = Rules(upper_first=bool(options["upper_first"]), ruleset=str(options["ruleset"]))
        except ValueError as error:
            raise CommandError(str(error)) from None
        cache_dir = options["cache_dir"] or strategy_cache_dir()
        games = int(options["games"])  # type: ignore[call-overload]
        if games < 1:
            self.stderr.write("--games must be at least 1")
            return
        if strategy_status(rules, cache_dir) == "missing":  # type: ignore[arg-type]
            self.stdout.write("No stored strategy table yet: solving first (a few seconds)...")
        advisor = advisor_for(rules, cache_dir)  # type: ignore[arg-type]
        if options["versus"]:
            self.heads_up(advisor, rules, cache_dir, games, options)  # type: ignore[arg-type]
            return
        result = simulate(advisor, games, str(options["bot"]), options["seed"])  # type: ignore[arg-type]
        out = self.stdout.write
        out(f"bot {result.policy}, {result.games} games in {result.seconds:.1f} s")
        out(f"mean              {result.mean:8.2f}  (standard error {result.standard_error:.2f})")
        out(f"standard dev.     {result.stdev:8.2f}")
        out(f"median            {result.median:8.1f}")
        out(f"upper bonus rate  {result.upper_bonus_rate:8.1%}")
        five = f"{rules.definition.five_of_a_kind.label} rate"
        out(f"{five:<18}{result.yahtzee_rate:8.1%}")

    def heads_up(
        self, advisor: object, rules: Rules, cache_dir: Path, games: int, options: dict
    ) -> None:
        bot, versus, seed = str(options["bot"]), str(options["versus"]), options["seed"]
        workers = max(1, int(options["workers"]))
        if workers == 1:
            result = simulate_match(advisor, games, bot, versus, seed)  # type: ignore[arg-type]
        else:
            result = simulate_match_parallel(
                rules.upper_first, str(cache_dir), games, bot, versus, seed, workers, rules.ruleset
            )
        low, high = result.confidence_interval()
        out = self.stdout.write
        out(f"bot {bot} against {versus}, {result.games} heads-up games in {result.seconds:.1f} s")
        out(f"wins / ties / losses  {result.wins} / {result.ties} / {result.losses}")
        out(f"win rate              {result.win_rate:.2%}  (ties count half)")
        out(f"99% confidence        {low:.2%} .. {high:.2%}")
        verdict = "above" if low > 0.5 else "below" if high < 0.5 else "not clearly apart from"
        out(f"{bot} is {verdict} 50% against {versus} at 99% confidence")
