"""The history page, /u/<name>/, against the number of games an account has finished.

    python -m bench.bench_history [--sizes 10 100 1000] [--requests 15]

A fresh SQLite database in a temporary directory, migrated; for each size an account with
that many finished two-seat games (against a computer player), every one of them rated and
reviewed by the coach (a review of 39 decisions, as a whole game has), made by bulk inserts.
The page is then requested through Django's test client: one warm-up request, then
``--requests`` timed ones; the table gives the median and the fastest, the response's size
and the number of database queries of one request. Writes JSON to ``bench/results/``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
DECISIONS = 39  # 13 rounds: two keeps and a box each


def _setup(directory: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _review(rng: random.Random, total: int) -> tuple[dict[str, Any], float, float, float]:
    """A stored review of seat 0 in the shape the coach writes, and its loss, play and luck."""
    decisions = []
    for i in range(DECISIONS):
        loss = round(rng.random() * 3 if rng.random() < 0.3 else 0.0, 3)
        decisions.append(
            {
                "round": i // 3 + 1,
                "kind": "box" if i % 3 == 2 else "keep",
                "dice": [rng.randint(1, 6) for _ in range(5)],
                "rolls_left": 2 - i % 3,
                "choice": [rng.randint(1, 6)],
                "best": [rng.randint(1, 6)],
                "loss": loss,
                "top": [{"choice": [d], "value": 200.0 - d} for d in range(1, 6)],
                "place": 1,
            }
        )
    given_away = sum(d["loss"] for d in decisions)
    expected_start, play_worth = 254.59, 254.59 - given_away
    luck = total - play_worth
    skill = {
        "expected_start": expected_start,
        "given_away": round(given_away, 3),
        "play_worth": round(play_worth, 3),
        "final_total": total,
        "luck": round(luck, 3),
        "decisions": DECISIONS,
        "mean_loss": round(given_away / DECISIONS, 3),
        "band": "good",
    }
    seat = {
        "seat": 0,
        "decisions": decisions,
        "total_loss": round(given_away, 3),
        "mean_loss": round(given_away / DECISIONS, 3),
        "costliest": [0, 1, 2],
        "skill": skill,
        "bands": [],
    }
    return {"seats": {"0": seat}}, given_away, play_worth, luck


def make_account(name: str, games: int, seed: int = 1) -> None:
    """An account with ``games`` finished, rated and reviewed games, by bulk inserts."""
    from django.contrib.auth import get_user_model

    from games.models import Game, Rating, Seat
    from games.rules import Scorecard

    rng = random.Random(seed)
    user = get_user_model().objects.create_user(username=name, password="bench-password")
    start = datetime(2024, 1, 1, tzinfo=UTC)
    seat_fields = {f.name for f in Seat._meta.get_fields()}
    rows, cards = [], []
    for i in range(games):
        boxes = tuple(rng.choice([0, 3, 6, 9, 12, 15, 18, 25, 30, 40, 50]) for _ in range(13))
        mine, theirs = Scorecard(boxes=boxes), Scorecard(boxes=tuple(reversed(boxes)))
        review, given_away, play_worth, luck = _review(rng, mine.total)
        finished = start + timedelta(hours=i)
        rows.append(
            Game(
                status=Game.Status.FINISHED,
                seat_count=2,
                review=review,
                started_at=finished - timedelta(minutes=20),
                finished_at=finished,
            )
        )
        cards.append((mine, theirs, given_away, play_worth, luck))
    created = Game.objects.bulk_create(rows, batch_size=500)
    seats = []
    rating = 0.0
    for game, (mine, theirs, given_away, play_worth, luck) in zip(created, cards, strict=True):
        rating += rng.uniform(-1, 1.5)
        won = mine.total >= theirs.total
        figures: dict[str, Any] = {}
        # Figures stored on the seat for the page's aggregates, where the model has them.
        for field, value in (
            ("upper_bonus", mine.upper_bonus),
            ("review_decisions", DECISIONS),
            ("review_loss", given_away),
            ("play_worth", play_worth),
            ("luck", luck),
        ):
            if field in seat_fields:
                figures[field] = value
        seats.append(
            Seat(
                game=game,
                position=0,
                user=user,
                name=name,
                scorecard=mine.to_dict(),
                total=mine.total,
                yahtzees=int(mine.boxes[-2] == 50),
                place=1 if won else 2,
                mean_loss=given_away / DECISIONS,
                rating_after=rating,
                **figures,
            )
        )
        seats.append(
            Seat(
                game=game,
                position=1,
                bot="optimal",
                bot_number=1,
                guest=f"bot-{game.code}",
                name="Coach bot",
                scorecard=theirs.to_dict(),
                total=theirs.total,
                place=2 if won else 1,
            )
        )
    Seat.objects.bulk_create(seats, batch_size=500)
    Rating.objects.create(user=user, mu=25 + rating, sigma=1.0, ordinal=rating, games=games)


def measure(name: str, requests: int) -> dict[str, Any]:
    from django.db import connection
    from django.test import Client

    client = Client()
    url = f"/u/{name}/"
    queries: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)  # the warm-up, and the query count of one request
    assert response.status_code == 200, response.status_code
    times = []
    for _ in range(requests):
        began = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, response.status_code
    return {
        "median_ms": round(statistics.median(times), 2),
        "min_ms": round(min(times), 2),
        "bytes": len(response.content),
        "queries": len(queries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--requests", type=int, default=15)
    parser.add_argument("--output", type=Path, default=None)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        _setup(directory)
        rows = []
        for size in options.sizes:
            name = f"bench{size}"
            began = time.perf_counter()
            make_account(name, size)
            setup_s = time.perf_counter() - began
            row = {"games": size, "setup_s": round(setup_s, 2)}
            rows.append(row | measure(name, options.requests))
    load = os.getloadavg()
    print(f"history page, {options.requests} requests each, load {load[0]:.2f} {load[1]:.2f}")
    print(f"{'games':>6} {'median ms':>10} {'min ms':>8} {'KB':>8} {'queries':>8}")
    for row in rows:
        print(
            f"{row['games']:>6} {row['median_ms']:>10.1f} {row['min_ms']:>8.1f} "
            f"{row['bytes'] / 1024:>8.1f} {row['queries']:>8}"
        )
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    output = options.output or RESULTS / f"history-{stamp}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    result = {
        "when": stamp,
        "machine": platform.platform(),
        "python": sys.version.split()[0],
        "load": load,
        "requests": options.requests,
        "rows": rows,
    }
    output.write_text(json.dumps(result, indent=2) + "\n")
    print(f"written to {output}")


if __name__ == "__main__":
    main()
