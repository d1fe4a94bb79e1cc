"""How long one play-to-win decision takes, by how many rounds are left (its horizon).

Positions come from heads-up games of optimal play (seeded): at the first roll of each of
the mover's last turns, ``rank_to_win`` is timed with every cache emptied first (the
opponents' distributions included), as a hint on a fresh position would be. Beyond
``winning.ALWAYS_SOLVED`` rounds a decision is solved to win only if its plan fits
``winning.WORK_BOUND``; the others are counted apart (they return at once).

Run: ``.venv/bin/python bench/win_horizon.py [--games 20] [--max-open 5]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-open", type=int, default=5)
    args = parser.parse_args()

    from games import caches, engine
    from games.rules import Rules
    from games.strategy import advisor_for
    from games.strategy.bots import choose_action
    from games.strategy.winning import rank_to_win

    advisor = advisor_for(Rules(), ROOT / "var" / "strategy", build=False)
    timings: dict[int, list[float]] = {k: [] for k in range(1, args.max_open + 1)}
    to_win = dict.fromkeys(timings, 0)  # decisions solved to win (within the work bound)
    for number in range(args.games):
        rng = random.Random(number)
        state = engine.start(2, Rules(), rng)
        while not state.is_finished:
            seat = state.current_seat
            me = state.cards[seat]
            if state.rolls_left == 2 and len(me.open_boxes) <= args.max_open:
                caches.clear_all()
                started = time.perf_counter()
                solved = rank_to_win(advisor, me, state.dice, 2, [state.cards[1 - seat]])
                timings[len(me.open_boxes)].append(time.perf_counter() - started)
                to_win[len(me.open_boxes)] += bool(solved)
            state = engine.apply(state, choose_action(advisor, state, seat, rng), rng)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games} games, 2 positions per game")
    print("open boxes | decisions | solved to win | median ms | p90 ms | max ms")
    for k, times in timings.items():
        if not times:
            continue
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        print(
            f"{k:>10} | {len(times):>9} | {to_win[k]:>13} | "
            f"{1000 * statistics.median(times):9.1f} | {1000 * p90:6.1f} | {1000 * times[-1]:6.1f}"
        )


if __name__ == "__main__":
    main()
