"""Benchmark the optimal-play solver (games/strategy).

Measures, each in a fresh process so peak memory is its own:

* the full build for the official rules and for ``upper_first`` (wall and CPU time,
  peak resident memory, the expected score from an empty card);
* loading a stored table, and ``Advisor.rank()`` on positions from real games (cold: the
  turn is solved first; warm: it was already);
* the published Rust solver ``yatzy-solver`` (PyPI, variant ``american+forced-joker``)
  building the same table: its time, our time as a ratio of it, and whether its values
  equal ours (empty card, and every reachable turn-start state).

Run: ``.venv/bin/python bench/bench_strategy.py [--runs 3]``. Prints a table, writes
``bench/results/strategy.json`` and prints a Markdown snippet for docs/benchmarks.md.
The machine may be shared: each build runs ``--runs`` times; min and median are shown,
with the load average, and CPU time besides wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PUBLISHED = 254.5877287
REFERENCE_VARIANT = "american+forced-joker"
RESULTS = ROOT / "bench" / "results" / "strategy.json"
PROFILES = {"official": False, "upper_first": True}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


# -- children --------------------------------------------------------------------------------


def child_build(profile: str, cache_dir: str) -> dict:
    from games.rules import Rules
    from games.strategy import save_table, solve, table_path
    from games.strategy.ruletables import rule_tables

    rules = Rules(upper_first=PROFILES[profile])
    wall, cpu = time.perf_counter(), _cpu()
    tables = rule_tables(rules)
    tables_seconds = time.perf_counter() - wall
    table = solve(rules, tables=tables)
    seconds = time.perf_counter() - wall
    cpu_seconds = _cpu() - cpu
    peak = _peak_mb()
    save_table(table, table_path(rules, cache_dir))
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "rule_tables_seconds": tables_seconds,
        "peak_rss_mb": peak,
        "value": table.empty_card_value,
        "states": table.states,
    }


def child_reference(cache_dir: str) -> dict:
    try:
        import yatzy_solver
    except ImportError as error:
        return {"error": f"yatzy-solver is not installed: {error}"}
    import numpy as np

    wall, cpu = time.perf_counter(), _cpu()
    solver = yatzy_solver.Solver.build(yatzy_solver.Variant(REFERENCE_VARIANT))
    seconds = time.perf_counter() - wall
    cpu_seconds = _cpu() - cpu
    peak = _peak_mb()
    value = float(solver.state_value("upper 0 | filled -"))
    # every reachable turn-start state, against our stored table
    from games.rules import Rules
    from games.strategy import load_table, table_path
    from games.strategy.solver import upper_reach

    ours = load_table(Rules(), table_path(Rules(), cache_dir))
    worst = None
    compared = 0
    if ours is not None:
        masks, uppers = np.nonzero(upper_reach()[:-1])  # the full card has no turn left
        worst = 0.0
        for armed in (False, True):
            pick = np.ones(len(masks), bool) if not armed else (masks >> 11 & 1).astype(bool)
            m, u = masks[pick], uppers[pick]
            theirs = solver.state_values(
                m.astype(np.uint32), u.astype(np.uint16), np.full(len(m), armed)
            )
            worst = max(worst, float(np.abs(theirs - ours.values[m, u, int(armed)]).max()))
            compared += len(m)
    return {
        "version": yatzy_solver.__version__,
        "variant": REFERENCE_VARIANT,
        "precision": solver.precision,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "peak_rss_mb": peak,
        "value": value,
        "states_compared": compared,
        "max_abs_difference": worst,
    }


def child_use(cache_dir: str, games: int) -> dict:
    from games import engine
    from games.rules import Rules
    from games.strategy import Advisor, advisor_for, load_table, store, table_path
    from games.strategy.bots import choose_action

    rules = Rules()
    loads = []
    for _ in range(5):
        store.forget_advisors()
        started = time.perf_counter()
        advisor_for(rules, cache_dir, build=False)
        loads.append(time.perf_counter() - started)
    # positions from real games, replayed against a fresh advisor
    player = advisor_for(rules, cache_dir, build=False)
    rng = random.Random(1)
    positions = []
    for _ in range(games):
        state = engine.start(1, rules, rng)
        while not state.is_finished:
            if state.dice is not None:
                positions.append((state.cards[0], state.dice, state.rolls_left))
            state = engine.apply(state, choose_action(player, state, 0, rng), rng)
    fresh = Advisor(load_table(rules, table_path(rules, cache_dir)))
    seen = set()
    cold, warm = [], []
    for card, dice, rolls_left in positions:
        key = (card.boxes, card.yahtzee_bonus_count)
        started = time.perf_counter()
        fresh.rank(card, dice, rolls_left)
        elapsed = time.perf_counter() - started
        (warm if key in seen else cold).append(elapsed)
        seen.add(key)
    every = sorted(cold + warm)
    return {
        "load_seconds_median": statistics.median(loads),
        "load_seconds_max": max(loads),
        "rank_calls": len(every),
        "rank_ms_median": 1000 * statistics.median(every),
        "rank_ms_p99": 1000 * every[int(0.99 * (len(every) - 1))],
        "rank_ms_max": 1000 * every[-1],
        "rank_cold_ms_median": 1000 * statistics.median(cold),
        "rank_cold_ms_max": 1000 * max(cold),
        "rank_warm_ms_median": 1000 * statistics.median(warm),
    }


def run_child(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if done.returncode:
        return {"error": (done.stderr or done.stdout).strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- main ----------------------------------------------------------------------------------------


def summarize(runs: list[dict], key: str) -> dict:
    values = [run[key] for run in runs]
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="games to take rank() positions from")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "build":
            result = child_build(rest[0], rest[1])
        elif kind == "reference":
            result = child_reference(rest[0])
        else:
            result = child_use(rest[0], int(rest[1]))
        print(json.dumps(result))
        return

    load_before = os.getloadavg()
    cache_dir = tempfile.mkdtemp(prefix="strategy-bench-")
    report: dict = {
        "machine": {
            "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(),
            "load_average_before": load_before,
        },
        "runs": args.runs,
        "ours": {},
    }
    for profile in PROFILES:
        runs = [run_child("build", profile, cache_dir) for _ in range(args.runs)]
        failed = [run for run in runs if "error" in run]
        if failed:
            sys.exit(f"{profile} build failed: {failed[0]['error']}")
        report["ours"][profile] = {
            "seconds": summarize(runs, "seconds"),
            "cpu_seconds": summarize(runs, "cpu_seconds"),
            "rule_tables_seconds": summarize(runs, "rule_tables_seconds"),
            "peak_rss_mb": max(run["peak_rss_mb"] for run in runs),
            "value": runs[0]["value"],
            "states": runs[0]["states"],
        }
    reference_runs = [run_child("reference", cache_dir) for _ in range(args.runs)]
    reference_ok = [run for run in reference_runs if "error" not in run]
    if reference_ok:
        official = report["ours"]["official"]
        ref = {
            key: reference_ok[0][key]
            for key in ("version", "variant", "precision", "value", "states_compared")
        }
        ref["seconds"] = summarize(reference_ok, "seconds")
        ref["cpu_seconds"] = summarize(reference_ok, "cpu_seconds")
        ref["peak_rss_mb"] = max(run["peak_rss_mb"] for run in reference_ok)
        ref["max_abs_difference"] = max(run["max_abs_difference"] for run in reference_ok)
        ref["value_difference"] = abs(ref["value"] - official["value"])
        ref["values_agree"] = ref["value_difference"] < 1e-6 and ref["max_abs_difference"] < 1e-6
        ref["our_time_ratio"] = official["seconds"]["median"] / ref["seconds"]["median"]
        ref["our_cpu_ratio"] = official["cpu_seconds"]["median"] / ref["cpu_seconds"]["median"]
        report["reference"] = ref
    else:
        report["reference"] = {"error": reference_runs[0]["error"]}
    report["use"] = run_child("use", cache_dir, str(args.games))
    shutil.rmtree(cache_dir, ignore_errors=True)
    report["machine"]["load_average_after"] = os.getloadavg()
    report["published_value"] = PUBLISHED
    report["matches_published"] = abs(report["ours"]["official"]["value"] - PUBLISHED) < 1e-6

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    rows = table_rows(report)
    width = max(len(name) for name, _ in rows)
    print(f"Strategy solver benchmark ({args.runs} runs each; min / median)")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print(f"\nJSON: {RESULTS.relative_to(ROOT)}\n")
    print(markdown(report, rows))


def _seconds(stats: dict) -> str:
    return f"{stats['min']:.2f} s / {stats['median']:.2f} s"


def table_rows(report: dict) -> list[tuple[str, str]]:
    rows = []
    for profile, ours in report["ours"].items():
        rows += [
            (f"build {profile} (wall)", _seconds(ours["seconds"])),
            (f"build {profile} (CPU)", _seconds(ours["cpu_seconds"])),
            ("  of which rule tables (wall)", _seconds(ours["rule_tables_seconds"])),
            (f"peak memory {profile}", f"{ours['peak_rss_mb']:.0f} MB"),
            (f"expected score {profile}", f"{ours['value']:.7f}"),
        ]
    rows.append(("states solved (each)", f"{report['ours']['official']['states']:,}"))
    ref = report["reference"]
    if "error" in ref:
        rows.append(("yatzy-solver", f"unavailable: {ref['error']}"))
    else:
        rows += [
            (f"yatzy-solver {ref['version']} build (wall)", _seconds(ref["seconds"])),
            (f"yatzy-solver {ref['version']} build (CPU)", _seconds(ref["cpu_seconds"])),
            ("yatzy-solver peak memory", f"{ref['peak_rss_mb']:.0f} MB"),
            ("yatzy-solver expected score", f"{ref['value']:.7f}"),
            (
                "our time / yatzy-solver (wall, CPU)",
                f"{ref['our_time_ratio']:.2f}x, {ref['our_cpu_ratio']:.2f}x",
            ),
            (
                "values agree (all states)",
                f"{ref['values_agree']} (max diff {ref['max_abs_difference']:.1e} over "
                f"{ref['states_compared']:,} states)",
            ),
        ]
    use = report["use"]
    if "error" not in use:
        rows += [
            (
                "load stored table",
                f"{1000 * use['load_seconds_median']:.0f} ms median, "
                f"{1000 * use['load_seconds_max']:.0f} ms max",
            ),
            (
                "rank() cold (solves the turn)",
                f"{use['rank_cold_ms_median']:.2f} ms median, {use['rank_cold_ms_max']:.2f} ms max",
            ),
            ("rank() warm", f"{use['rank_warm_ms_median']:.3f} ms median"),
            ("rank() all calls", f"p99 {use['rank_ms_p99']:.2f} ms over {use['rank_calls']} calls"),
        ]
    load = report["machine"]
    rows.append(
        (
            "load average before/after",
            f"{load['load_average_before'][0]:.1f} / "
            f"{load['load_average_after'][0]:.1f} on {load['cpus']} CPUs",
        )
    )
    return rows


def markdown(report: dict, rows: list[tuple[str, str]]) -> str:
    lines = [
        "### Strategy solver (`bench/bench_strategy.py`)",
        "",
        f"{report['machine']['cpus']} CPUs, Python {report['machine']['python']}; "
        f"min / median of {report['runs']} runs, each build in a fresh process.",
        "",
        "| measure | result |",
        "|---|---|",
    ]
    lines += [f"| {name.strip()} | {value} |" for name, value in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
