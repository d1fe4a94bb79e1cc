"""Build one rules profile's table and store it, in a process that loads only the solver.

``python -m games.strategy.build --cache-dir DIR [--ruleset ID] [--upper-first] [--workers N]
[--json]``

``manage.py solve`` runs this in a child process: Django and the site take ~95 MB before
anything is solved, the solver alone ~31 MB, and the build's peak is then the child's own
(its ``ru_maxrss``; docs/benchmarks.md, #18). With ``--json`` the last line printed is
the figures as JSON (the benchmark reads them).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import resource
import sys
import time
from pathlib import Path

from games.rules import RULESET_IDS, Rules
from games.strategy.ruletables import rule_tables
from games.strategy.solver import solve
from games.strategy.tablefile import profile_name, save_table, table_path


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB.

    Linux's ``VmHWM``: the peak of this program alone. ``ru_maxrss`` would also count the
    process it was started from (it keeps the maximum across ``exec``: under
    ``manage.py solve`` that is Django's 95 MB); it is the answer where there is no /proc.
    """
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def give_back_freed_memory() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim``; elsewhere nothing).

    The solve's scratch arrays are freed when it ends, but glibc keeps most of that memory
    in the process; writing the table next would add to it (measured: 60 MB resident after
    the solve instead of 53 MB, then the save's own memory on top)."""
    with contextlib.suppress(AttributeError, OSError):  # not glibc: nothing to do
        ctypes.CDLL(None).malloc_trim(0)


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def build(rules: Rules, cache_dir: str | os.PathLike[str], workers: int | None = None) -> dict:
    """Solve ``rules``, store the table in ``cache_dir``; what it took."""
    wall, cpu = time.perf_counter(), _cpu_seconds()
    tables = rule_tables(rules)
    tables_seconds = time.perf_counter() - wall
    table = solve(rules, workers=workers, tables=tables)
    seconds = time.perf_counter() - wall
    cpu_seconds = _cpu_seconds() - cpu
    give_back_freed_memory()
    path = save_table(table, table_path(rules, cache_dir))
    return {
        "profile": profile_name(rules),
        "value": table.empty_card_value,
        "states": table.states,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "rule_tables_seconds": tables_seconds,
        "peak_rss_mb": peak_rss_mb(),
        "path": str(path),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--ruleset", choices=RULESET_IDS, default="yahtzee")
    parser.add_argument("--upper-first", action="store_true")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="end with the figures as JSON")
    args = parser.parse_args(argv)
    rules = Rules(upper_first=args.upper_first, ruleset=args.ruleset)
    done = build(rules, args.cache_dir, args.workers)
    profile = rules.definition.name + (", upper first" if args.upper_first else "")
    print(
        f"{profile}: expected score {done['value']:.7f} from an empty card "
        f"({done['states']:,} states solved in {done['seconds']:.2f} s, "
        f"peak memory {done['peak_rss_mb']:.0f} MB)"
    )
    print(f"stored in {done['path']}")
    if args.json:
        print(json.dumps(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
