"""The load benchmark's verdict (bench/bench_load.py): a run that misses a target says so
in its exit status, after printing its table and writing its JSON. No servers are started:
the figures of a run are given."""

from __future__ import annotations

import json

import pytest

from bench import bench_load


def figures(**changes: object) -> dict:
    """A run's figures that meet every target of both modes, with ``changes``."""
    run = {
        "actions": 6000,
        "actions_per_s": 100.0,
        "latency_ms": {"p50": 20.0, "p95": 60.0, "p99": 90.0, "max": 120.0},
        "latency_timeline_ms": [{"p99": 90.0}],
        "http_ms": {"p50": 8.0},
        "server_cpu_ms_per_action": 9.0,
        "server_cpu_percent": 90.0,
        "generator_cpu_ms_per_action": 2.0,
        "postgres_redis_cpu_ms_per_action": 1.0,
        "machine_busy_percent": 60.0,
        "memory": {"kb_per_socket": 80.0, "idle_cpu_ms_per_s": 1.0},
        "errors": 0,
        "timeouts": 0,
        "updates": {"lost": 0, "duplicated": 0, "out_of_order": 0},
        "missed_slots": 0,
        "schedule_lag_ms": {"p99": 1.0},
        "server_log": {"database_is_locked": 0, "over_capacity": 0, "tracebacks": 0},
        "error_samples": [],
        "mean_board_bytes": 4000,
    }
    run.update(changes)
    return run


def run_benchmark(monkeypatch, tmp_path, mode: str, rate: float, site: dict) -> int:
    async def measured_site(options):
        return site

    async def measured_floor(options, payload_bytes):
        return figures(server_cpu_ms_per_action=4.0)

    monkeypatch.setattr(bench_load, "run_site", measured_site)
    monkeypatch.setattr(bench_load, "run_floor", measured_floor)
    output = tmp_path / "run.json"
    status = bench_load.main(["--mode", mode, "--rate", str(rate), "--output", str(output)])
    assert json.loads(output.read_text())["site"] == site  # written whatever the verdict
    return status


@pytest.mark.parametrize("mode", ["embedded", "scale"])
def test_a_run_that_meets_every_target_exits_with_success(monkeypatch, tmp_path, capsys, mode):
    rate = 50.0 if mode == "embedded" else 100.0
    assert run_benchmark(monkeypatch, tmp_path, mode, rate, figures(actions_per_s=rate)) == 0
    assert "all targets met" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("mode", "site", "missed"),
    [
        (
            "embedded",
            figures(actions_per_s=50.0, latency_ms={"p50": 20, "p95": 90, "p99": 160, "max": 200}),
            "p99_ms",
        ),
        ("embedded", figures(actions_per_s=50.0, server_cpu_ms_per_action=13.0), "cpu_floor_ratio"),
        ("scale", figures(updates={"lost": 1, "duplicated": 0, "out_of_order": 0}), "no_lost"),
        ("scale", figures(actions_per_s=97.0), "sustained_rate"),
        ("scale", figures(actions_per_s=100.0, missed_slots=3), "sustained_rate"),
    ],
)
def test_a_run_that_misses_a_target_prints_its_table_and_exits_with_failure(
    monkeypatch, tmp_path, capsys, mode, site, missed
):
    rate = 50.0 if mode == "embedded" else 100.0
    assert run_benchmark(monkeypatch, tmp_path, mode, rate, site) == 1
    out = capsys.readouterr().out
    assert "latency p99 ms" in out  # the table
    assert "targets missed:" in out and missed in out
