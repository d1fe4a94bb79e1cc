"""The measurements behind the fair-play rule (:mod:`.fairness`, docs/fair-play.md):
solitaire games played by the computer players' brains and by careful players who slip
less often than the Casual computer player, reviewed as the site reviews a game, and the
agreement of every run of :data:`~.fairness.WINDOW` games in a row.

``python -m games.strategy.fairness_runs --games 1000`` prints a table of them.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence

from games import engine
from games.engine import Action, DiceSource, GameState
from games.rules import RULESET_IDS, Rules
from games.strategy.advisor import Advisor
from games.strategy.bots import POLICIES, policy_from, slip
from games.strategy.choices import Option
from games.strategy.fairness import WINDOW, is_suspicious, total
from games.strategy.review import LoggedMove, review_game

Policy = Callable[[Advisor, GameState, int, DiceSource], Action]


def slipping(percent: int) -> Policy:
    """A player like the Casual computer player who slips on ``percent`` in 100 decisions
    (Casual: 20): a yardstick for strong people, who slip less often."""

    def pick(ranking: list[Option], state: GameState) -> Option:
        position = f"{percent} {state.turn_number} {state.dice} {state.rolls_left} {state.cards}"
        return slip(ranking, random.Random(position), percent)

    return policy_from(pick)


def _action(advisor: Advisor, state: GameState, rng: DiceSource, policy: str) -> Action:
    if policy.startswith("slip"):
        return slipping(int(policy[4:]))(advisor, state, 0, rng)
    return POLICIES[policy](advisor, state, 0, rng)


def played_moves(advisor: Advisor, rng: random.Random, policy: str) -> list[LoggedMove]:
    """One solitaire game played by ``policy``, as the move log the review reads."""
    state = engine.start(1, advisor.rules, rng)
    moves: list[LoggedMove] = []
    while not state.is_finished:
        action = _action(advisor, state, rng, policy)
        before = state
        state = engine.apply(state, action, rng)
        if isinstance(action, engine.Roll):
            held = "".join("1" if h else "0" for h in before.held) if before.dice else "00000"
            assert state.dice is not None
            moves.append(LoggedMove("roll", 0, "".join(map(str, state.dice)), held))
        elif isinstance(action, engine.Score):
            assert before.dice is not None
            dice = "".join(map(str, before.dice))
            moves.append(LoggedMove("score", 0, dice, category=action.category.value))
    return moves


def game_figures(advisor: Advisor, rng: random.Random, policy: str) -> tuple[int, int]:
    """(real choices, agreed) of one game played by ``policy``."""
    review = review_game(advisor, advisor.rules, 1, played_moves(advisor, rng, policy))[0]
    return review.real_choices, review.agreed


def window_shares(figures: Sequence[tuple[int, int]], window: int = WINDOW) -> list[float]:
    """The agreement of each run of ``window`` consecutive games."""
    return [total(figures[i : i + window]).share for i in range(len(figures) - window + 1)]


def main(argv: Sequence[str] | None = None) -> None:
    from games.strategy.store import advisor_for
    from games.strategy.tablefile import default_cache_dir

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument(
        "--policies", nargs="+", default=["casual", "slip10", "slip5", "slip2", "optimal"]
    )
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--ruleset", choices=RULESET_IDS, default="yahtzee")
    args = parser.parse_args(argv)
    advisor = advisor_for(Rules(ruleset=args.ruleset), args.cache_dir or default_cache_dir())
    print(f"policy   games  choices/game  agreement/game (mean, min)  runs of {WINDOW}: min  max")
    for policy in args.policies:
        rng = random.Random(args.seed)
        figures = [game_figures(advisor, rng, policy) for _ in range(args.games)]
        per_game = [a / c for c, a in figures if c]
        runs = window_shares(figures)
        flagged = sum(1 for i in range(len(runs)) if is_suspicious(total(figures[i : i + WINDOW])))
        print(
            f"{policy:8} {args.games:5}  {statistics.fmean(c for c, _ in figures):12.1f}"
            f"  {statistics.fmean(per_game):.3f} {min(per_game):.3f}"
            f"  {min(runs):.3f} {max(runs):.3f}  flagged runs {flagged}/{len(runs)}"
        )


if __name__ == "__main__":
    main()
