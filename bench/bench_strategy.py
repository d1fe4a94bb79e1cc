"""Benchmark the optimal-play solver (games/strategy).

Measures, each in a fresh process so peak memory is its own:

* the full build of every rules profile: Yahtzee's official rules and ``upper_first``,
  Scandinavian Yatzy and Yacht (wall and CPU time, peak resident memory, the expected
  score from an empty card);
* per rule set, loading a stored table, and ``Advisor.rank()`` on positions from real games
  (cold: the turn is solved first; warm: it was already);
* the published Rust solver ``yatzy-solver`` (PyPI) on the rule sets it knows, Yahtzee
  (variant ``american+forced-joker``) and Yatzy (``yatzy-scandinavian``): building the same
  table, its ``option_values`` on the same positions as our ``rank()``, and whether its
  values equal ours (empty card, and every reachable turn-start state).

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
YATZY_PUBLISHED = 248.4399894  # yatzy-solver's docs/rules.md, yatzy-scandinavian
RESULTS = ROOT / "bench" / "results" / "strategy.json"
#: Every rules profile: its rule set and whether the upper section comes first.
PROFILES = {
    "official": ("yahtzee", False),
    "upper_first": ("yahtzee", True),
    "yatzy": ("yatzy", False),
    "yacht": ("yacht", False),
}
RULESETS = ("yahtzee", "yatzy", "yacht")
#: The rule sets yatzy-solver knows, and its variant for each (Yacht it does not have).
REFERENCE_VARIANTS = {"yahtzee": "american+forced-joker", "yatzy": "yatzy-scandinavian"}
#: The profile of each rule set the peer is compared with.
OFFICIAL = {"yahtzee": "official", "yatzy": "yatzy", "yacht": "yacht"}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


# -- children --------------------------------------------------------------------------------


def child_build(profile: str, cache_dir: str) -> dict:
    """What ``manage.py solve`` runs: ``python -m games.strategy.build`` in a process of its
    own (its peak memory is that process's VmHWM)."""
    ruleset, upper_first = PROFILES[profile]
    command = [sys.executable, "-m", "games.strategy.build", "--cache-dir", cache_dir, "--json"]
    command += ["--ruleset", ruleset]
    if upper_first:
        command.append("--upper-first")
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def child_reference(ruleset: str, cache_dir: str, games: int, sim_games: int) -> dict:
    try:
        import yatzy_solver
    except ImportError as error:
        return {"error": f"yatzy-solver is not installed: {error}"}
    import numpy as np

    from games.rules import Rules
    from games.strategy import load_table, table_path
    from games.strategy.ruletables import layout
    from games.strategy.solver import upper_reach

    rules = Rules(ruleset=ruleset)
    shape = layout(rules)
    variant = REFERENCE_VARIANTS[ruleset]
    wall, cpu = time.perf_counter(), _cpu()
    solver = yatzy_solver.Solver.build(yatzy_solver.Variant(variant))
    seconds = time.perf_counter() - wall
    cpu_seconds = _cpu() - cpu
    peak = _peak_mb()
    value = float(solver.state_value("upper 0 | filled -"))
    # every reachable turn-start state, against our stored table (the peer's categories are
    # ours, in our order: a filled mask means the same to both)
    ours = load_table(rules, table_path(rules, cache_dir))
    worst = None
    compared = 0
    if ours is not None:
        masks, uppers = np.nonzero(upper_reach(shape)[:-1])  # the full card has no turn left
        worst = 0.0
        for armed in (False, True) if shape.tracks_five else (False,):
            five = shape.five_box
            pick = np.ones(len(masks), bool) if not armed else (masks >> five & 1).astype(bool)
            m, u = masks[pick], uppers[pick]
            theirs = solver.state_values(
                m.astype(np.uint32), u.astype(np.uint16), np.full(len(m), armed)
            )
            worst = max(worst, float(np.abs(theirs - ours.values[m, u, int(armed)]).max()))
            compared += len(m)
    # the same positions as ours, first sight each (its own values, its own notation)
    situations = [
        _notation(card, dice, rolls) for card, dice, rolls in _positions(rules, cache_dir, games)
    ]
    times = []
    for situation in situations:
        started = time.perf_counter()
        solver.option_values(situation)
        times.append(time.perf_counter() - started)
    times.sort()
    started = time.perf_counter()
    simulated = solver.simulate(sim_games, seed=1)
    sim_seconds = time.perf_counter() - started
    return {
        "rank_ms_median": 1000 * statistics.median(times),
        "rank_ms_p99": 1000 * times[int(0.99 * (len(times) - 1))],
        "rank_ms_max": 1000 * times[-1],
        "simulate_seconds": sim_seconds,
        "simulate_mean": float(simulated["mean"]),
        "version": yatzy_solver.__version__,
        "variant": variant,
        "precision": solver.precision,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "peak_rss_mb": peak,
        "value": value,
        "states_compared": compared,
        "max_abs_difference": worst,
    }


def _positions(rules, cache_dir: str, games: int) -> list:
    """Positions of ``games`` seeded solitaire games of optimal play (the table just built)."""
    from games import engine
    from games.strategy import advisor_for
    from games.strategy.bots import choose_action

    player = advisor_for(rules, cache_dir, build=False)
    rng = random.Random(1)
    positions = []
    for _ in range(games):
        state = engine.start(1, rules, rng)
        while not state.is_finished:
            if state.dice is not None:
                positions.append((state.cards[0], state.dice, state.rolls_left))
            state = engine.apply(state, choose_action(player, state, 0, rng), rng)
    return positions


def _peer_name(box) -> str:
    """A box in yatzy-solver's notation: our ids, but for Yahtzee's five of a kind."""
    return "five_of_a_kind" if box.value == "yahtzee" else box.value


def _notation(card, dice, rolls_left) -> str:
    """A position in yatzy-solver's notation."""
    definition = card.rules.definition
    filled = ",".join(_peer_name(b) for b in definition.boxes if card[b] is not None) or "-"
    upper = min(card.upper_subtotal, 63)
    held = " ".join(str(d) for d in sorted(dice))
    situation = f"dice {held} | rolls {rolls_left} | upper {upper} | filled {filled}"
    five = definition.five_of_a_kind
    if definition.extra_bonus and card[five] is not None:  # the peer asks what it holds
        situation += f" | five_of_a_kind {card[five]}"
    return situation


def child_use(ruleset: str, cache_dir: str, games: int, sim_games: int = 5000) -> dict:
    from games import engine
    from games.rules import Rules
    from games.strategy import Advisor, advisor_for, load_table, store, table_path
    from games.strategy.bots import choose_action

    rules = Rules(ruleset=ruleset)
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
    cold, warm, cpu, cold_cpu = [], [], [], []
    load_at_rank = os.getloadavg()[0]
    for card, dice, rolls_left in positions:
        key = (card.boxes, card.yahtzee_bonus_count)
        started, on_cpu = time.perf_counter(), time.thread_time()
        fresh.rank(card, dice, rolls_left)
        elapsed = time.perf_counter() - started
        cpu.append(time.thread_time() - on_cpu)
        (warm if key in seen else cold).append(elapsed)
        if key not in seen:
            cold_cpu.append(cpu[-1])
        seen.add(key)
    every = sorted(cold + warm)
    cpu.sort()
    cold.sort()
    cold_cpu.sort()
    from games.strategy.simulation import simulate

    started = time.perf_counter()
    simulated = simulate(player, sim_games, "optimal", seed=1)
    sim_seconds = time.perf_counter() - started
    return {
        "simulate_seconds": sim_seconds,
        "simulate_mean": simulated.mean,
        "load_seconds_median": statistics.median(loads),
        "load_seconds_max": max(loads),
        "rank_calls": len(every),
        "rank_ms_median": 1000 * statistics.median(every),
        "rank_ms_p99": 1000 * every[int(0.99 * (len(every) - 1))],
        "rank_ms_max": 1000 * every[-1],
        "rank_cpu_ms_p99": 1000 * cpu[int(0.99 * (len(cpu) - 1))],
        "rank_load": load_at_rank,
        "rank_cold_ms_median": 1000 * statistics.median(cold),
        "rank_cold_ms_p99": 1000 * cold[int(0.99 * (len(cold) - 1))],
        "rank_cold_cpu_ms_p99": 1000 * cold_cpu[int(0.99 * (len(cold_cpu) - 1))],
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


def _timed_child(*args: str) -> dict:
    load = os.getloadavg()[0]
    result = run_child(*args)
    result.setdefault("load", load)
    return result


def summarize(runs: list[dict], key: str) -> dict:
    values = [run[key] for run in runs]
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="games to take rank() positions from")
    parser.add_argument("--sim-games", type=int, default=5000, help="games simulated per run")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "build":
            result = child_build(rest[0], rest[1])
        elif kind == "reference":
            result = child_reference(rest[0], rest[1], int(rest[2]), int(rest[3]))
        else:
            result = child_use(rest[0], rest[1], int(rest[2]), int(rest[3]))
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
    # Ours and the peer's alternate, run by run, so a change in the machine's load falls on
    # both; each measure runs in a fresh process and notes the load average when it starts.
    builds: dict[str, list[dict]] = {profile: [] for profile in PROFILES}
    reference_runs: dict[str, list[dict]] = {ruleset: [] for ruleset in REFERENCE_VARIANTS}
    uses: dict[str, list[dict]] = {ruleset: [] for ruleset in RULESETS}
    sizes = (str(args.games), str(args.sim_games))
    for _ in range(args.runs):
        for profile in PROFILES:
            builds[profile].append(_timed_child("build", profile, cache_dir))
        for ruleset in RULESETS:
            if ruleset in REFERENCE_VARIANTS:
                reference_runs[ruleset].append(
                    _timed_child("reference", ruleset, cache_dir, *sizes)
                )
            uses[ruleset].append(_timed_child("use", ruleset, cache_dir, *sizes))
    for profile, runs in builds.items():
        failed = [run for run in runs if "error" in run]
        if failed:
            sys.exit(f"{profile} build failed: {failed[0]['error']}")
        report["ours"][profile] = {
            "seconds": summarize(runs, "seconds"),
            "cpu_seconds": summarize(runs, "cpu_seconds"),
            "rule_tables_seconds": summarize(runs, "rule_tables_seconds"),
            "peak_rss_mb": summarize(runs, "peak_rss_mb"),
            "load": summarize(runs, "load"),
            "value": runs[0]["value"],
            "states": runs[0]["states"],
        }
    report["reference"] = {}
    for ruleset, runs in reference_runs.items():
        reference_ok = [run for run in runs if "error" not in run]
        if not reference_ok:
            report["reference"][ruleset] = {"error": runs[0]["error"]}
            continue
        official = report["ours"][OFFICIAL[ruleset]]
        ref = {
            key: reference_ok[0][key]
            for key in ("version", "variant", "precision", "value", "states_compared")
        }
        for key in (
            "seconds",
            "cpu_seconds",
            "peak_rss_mb",
            "load",
            "simulate_seconds",
            "rank_ms_median",
            "rank_ms_p99",
        ):
            ref[key] = summarize(reference_ok, key)
        ref["max_abs_difference"] = max(run["max_abs_difference"] for run in reference_ok)
        ref["value_difference"] = abs(ref["value"] - official["value"])
        ref["values_agree"] = ref["value_difference"] < 1e-6 and ref["max_abs_difference"] < 1e-6
        ref["our_time_ratio"] = official["seconds"]["median"] / ref["seconds"]["median"]
        ref["our_cpu_ratio"] = official["cpu_seconds"]["median"] / ref["cpu_seconds"]["median"]
        report["reference"][ruleset] = ref
    report["use"] = {}
    for ruleset, runs in uses.items():
        failed = [run for run in runs if "error" in run]
        if failed:
            report["use"][ruleset] = failed[0]
            continue
        use = {
            key: summarize(runs, key)
            for key in (
                "load_seconds_median",
                "rank_ms_median",
                "rank_ms_p99",
                "rank_ms_max",
                "rank_cpu_ms_p99",
                "rank_load",
                "rank_cold_ms_median",
                "rank_cold_ms_p99",
                "rank_cold_cpu_ms_p99",
                "rank_cold_ms_max",
                "rank_warm_ms_median",
                "simulate_seconds",
                "load",
            )
        }
        use["rank_calls"] = runs[0]["rank_calls"]
        use["simulate_mean"] = runs[0]["simulate_mean"]
        report["use"][ruleset] = use
    shutil.rmtree(cache_dir, ignore_errors=True)
    report["machine"]["load_average_after"] = os.getloadavg()
    report["published_value"] = PUBLISHED
    report["matches_published"] = abs(report["ours"]["official"]["value"] - PUBLISHED) < 1e-6
    report["yatzy_published_value"] = YATZY_PUBLISHED
    report["yatzy_matches_published"] = (
        abs(report["ours"]["yatzy"]["value"] - YATZY_PUBLISHED) < 1e-6
    )

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    report["sim_games"] = args.sim_games
    rows = table_rows(report)
    width = max(len(row[0]) for row in rows)
    print(f"Strategy benchmark ({args.runs} runs each, alternating; min / median / max)")
    for name, ours, theirs, machine in rows:
        print(f"  {name:<{width}}  ours {ours:<28} yatzy-solver {theirs:<28} {machine}")
    print(f"\nJSON: {RESULTS.relative_to(ROOT)}\n")
    print(markdown(report, rows))


def _three(stats: dict, unit: str = "s", digits: int = 2) -> str:
    """min / median / max."""
    return " / ".join(f"{stats[k]:.{digits}f}" for k in ("min", "median", "max")) + f" {unit}"


def _load(stats: dict) -> str:
    return f"load {stats['min']:.1f}-{stats['max']:.1f}"


def table_rows(report: dict) -> list[tuple[str, str, str, str]]:
    """(measure, ours, yatzy-solver, load during the runs), each min / median / max; a
    section per rule set."""
    rows = []
    for ruleset in RULESETS:
        ref = report["reference"].get(ruleset, {"error": "yatzy-solver has no such variant"})
        peer = "error" not in ref
        rows.append((f"**{ruleset}**", "", ref.get("variant", ref.get("error", "")), ""))
        for profile, ours in report["ours"].items():
            if PROFILES[profile][0] != ruleset:
                continue
            official = profile == OFFICIAL[ruleset] and peer
            rows += [
                (
                    f"build {profile} (wall)",
                    _three(ours["seconds"]),
                    _three(ref["seconds"]) if official else "",
                    _load(ours["load"]),
                ),
                (
                    f"build {profile} (CPU)",
                    _three(ours["cpu_seconds"]),
                    _three(ref["cpu_seconds"]) if official else "",
                    "",
                ),
                (
                    f"peak memory, build {profile}",
                    _three(ours["peak_rss_mb"], "MB", 0),
                    _three(ref["peak_rss_mb"], "MB", 0) if official else "",
                    "",
                ),
                (
                    f"expected score {profile}",
                    f"{ours['value']:.7f}",
                    f"{ref['value']:.7f}" if official else "",
                    "",
                ),
            ]
        if peer:
            rows.append(
                (
                    "values agree (all reachable states)",
                    f"{ref['values_agree']}",
                    f"max diff {ref['max_abs_difference']:.1e} over {ref['states_compared']:,}",
                    "",
                )
            )
        use = report["use"][ruleset]
        if "error" in use:
            rows.append(("use", f"error: {use['error']}", "", ""))
            continue
        rows += [
            (
                f"simulate {report['sim_games']} optimal games (wall)",
                _three(use["simulate_seconds"]),
                _three(ref["simulate_seconds"]) if peer else "",
                _load(use["load"]),
            ),
            (
                f"rank() first sight, median over {use['rank_calls']} positions",
                _three(use["rank_cold_ms_median"], "ms", 3),
                _three(ref["rank_ms_median"], "ms", 3) if peer else "",
                "",
            ),
            (
                "rank() first sight, p99",
                _three(use["rank_cold_ms_p99"], "ms", 3),
                "",
                _load(use["rank_load"]),
            ),
            (
                "rank() first sight, p99 of CPU time (preemption aside)",
                _three(use["rank_cold_cpu_ms_p99"], "ms", 3),
                "",
                "",
            ),
            (
                "rank() all calls, p99",
                _three(use["rank_ms_p99"], "ms", 3),
                _three(ref["rank_ms_p99"], "ms", 3) if peer else "",
                _load(use["rank_load"]),
            ),
            (
                "rank() all calls, p99 of CPU time (preemption aside)",
                _three(use["rank_cpu_ms_p99"], "ms", 3),
                "",
                "",
            ),
            ("rank() warm, median", _three(use["rank_warm_ms_median"], "ms", 3), "", ""),
            ("load a stored table, median", _three(use["load_seconds_median"], "s", 3), "", ""),
        ]
    load = report["machine"]
    rows.append(
        (
            "load average before / after",
            f"{load['load_average_before'][0]:.1f} / {load['load_average_after'][0]:.1f}",
            f"{load['cpus']} CPUs",
            "",
        )
    )
    return rows


def markdown(report: dict, rows: list[tuple[str, str]]) -> str:
    lines = [
        "### Strategy solver (`bench/bench_strategy.py`)",
        "",
        f"{report['machine']['cpus']} CPUs, Python {report['machine']['python']}; "
        f"min / median / max of {report['runs']} runs, ours and yatzy-solver's alternating, "
        "each in a fresh process.",
        "",
        "| measure | ours | yatzy-solver | machine |",
        "|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
