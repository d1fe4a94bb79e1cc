"""Solved tables on disk: where they live, how they are written and read back.

A table is stored as one ``.npz`` file per rules profile in a cache folder: the
``cache_dir`` argument, else the environment variable ``STRATEGY_CACHE_DIR``, else
``./var/strategy``. (The Django side passes ``settings.STRATEGY_CACHE_DIR``; this
package does not import Django.) A file records a fingerprint of the rules package and
of the solver: when either changes, the stored table is ignored and built again.

Only the solver's own modules are imported here, so a process that builds a table
(:mod:`.build`) loads nothing of the advisor or the site.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import zipfile
from pathlib import Path
from typing import BinaryIO

import numpy as np

from games import rules as rules_module
from games.rules import Rules
from games.strategy.ruletables import RuleTables
from games.strategy.solver import StrategyTable

logger = logging.getLogger(__name__)

FORMAT = 1
ENV_CACHE_DIR = "STRATEGY_CACHE_DIR"
_SOURCES = (
    "rolls_and_keeps.py",
    "ruletables.py",
    "transitions.py",
    "upper.py",
    "solver.py",
    "tablefile.py",
)


def default_cache_dir() -> Path:
    return Path(os.environ.get(ENV_CACHE_DIR) or Path.cwd() / "var" / "strategy")


def profile_name(rules: Rules) -> str:
    """Yahtzee's ``official`` and ``upper-first``; another rule set's id."""
    if rules.ruleset != "yahtzee":
        return rules.ruleset
    return "upper-first" if rules.upper_first else "official"


def table_path(rules: Rules, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """``yahtzee-official.npz``, ``yahtzee-upper-first.npz``, ``yatzy-official.npz``,
    ``yacht-official.npz``: one file per rules profile."""
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    options = "upper-first" if rules.upper_first else "official"
    return folder / f"{rules.ruleset}-{options}.npz"


def fingerprint(rules: Rules | None = None) -> str:
    """Changes whenever a file of the rules package (any of ``games/rules/*.py``), ``rules``'
    definition or the solver changes."""
    import hashlib  # here, not at the top: it maps OpenSSL (~3 MB) into a build's peak

    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for source in sorted(Path(rules_module.__file__).parent.glob("*.py")):  # the package
        digest.update(source.read_bytes())
    digest.update(repr((rules or Rules()).definition).encode())
    here = Path(__file__).parent
    for name in _SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def save_table(table: StrategyTable, path: str | os.PathLike[str]) -> Path:
    """Write ``table`` to ``path`` atomically (a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT,
        "fingerprint": fingerprint(table.rules),
        "rules": table.rules.to_dict(),
        "seconds": table.seconds,
        "states": table.states,
        "empty_card_value": table.empty_card_value,
    }
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            _write_npz(
                out,
                meta=np.array(json.dumps(meta)),
                values=table.values,
                points=table.tables.points.astype(np.int16),
                legal=table.tables.legal,
                joker_legal=table.tables.joker_legal,
                joker_points=table.tables.joker_points.astype(np.int16),
                solved=table.solved,
            )
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def _write_npz(out: BinaryIO, **arrays: np.ndarray) -> None:
    """What ``np.savez(out, **arrays)`` writes, without its copy of each array: into a zip
    member numpy writes an array through ``tobytes()``, a second 8 MB table at the end of
    a build (its peak memory). A large array's bytes are written from a memoryview."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                if array.nbytes < _COPY_IS_FINE or not array.flags.c_contiguous:
                    np.lib.format.write_array(member, array, allow_pickle=False)
                else:
                    header = np.lib.format.header_data_from_array_1_0(array)
                    np.lib.format.write_array_header_1_0(member, header)
                    member.write(array.data.cast("B"))


_COPY_IS_FINE = 1 << 20


def load_table(rules: Rules, path: str | os.PathLike[str]) -> StrategyTable | None:
    """The table stored at ``path`` for ``rules``, or None if missing, stale or unreadable."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            stale = meta.get("fingerprint") != fingerprint(rules)
            if stale or Rules.from_dict(meta["rules"]) != rules:
                logger.info("Ignoring stale strategy table %s", path)
                return None
            tables = RuleTables(
                rules=rules,
                points=data["points"].astype(np.int64),
                legal=data["legal"],
                joker_legal=data["joker_legal"],
                joker_points=data["joker_points"].astype(np.int16),
            )
            return StrategyTable(
                rules=rules,
                values=data["values"],
                tables=tables,
                seconds=float(meta.get("seconds", 0.0)),
                states=int(meta.get("states", 0)),
                solved=data["solved"],
            )
    except (OSError, ValueError, KeyError) as error:
        logger.warning("Ignoring unreadable strategy table %s: %s", path, error)
        return None
