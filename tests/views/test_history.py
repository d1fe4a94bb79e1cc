"""The history page in pages (issue 33): 50 games a page, the newest first, plain links to
newer and older pages, figures and charts summed by the database over every game, and a
number of queries that does not grow with the number of games."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services
from games.models import Game, Rating, Seat
from games.selectors.history import CHART_POINTS, PAGE_SIZE
from tests.conftest import full_card

START = timezone.now() - timedelta(days=365)


def game_codes(page: str) -> list[str]:
    """The tables listed on a history page, in the order shown."""
    return re.findall(r"Table ([A-Za-z0-9]+)</a>", page)


@pytest.fixture
def games_of_alice(alice: Any, finished_game: Callable[..., Game]) -> Callable[[int], list[Game]]:
    """``n`` finished solo games of alice, one a day, the n-th scoring n points (in the
    chance box), rated and reviewed; returned oldest first."""

    def make(n: int) -> list[Game]:
        games = []
        for i in range(1, n + 1):
            game = finished_game(
                (alice, full_card(chance=i)), finished_at=START + timedelta(days=i)
            )
            Seat.objects.filter(game=game).update(
                rating_after=float(i), mean_loss=i / 100, review_decisions=10
            )
            games.append(game)
        Rating.objects.update_or_create(
            user=alice, defaults={"mu": 25.0, "sigma": 1.0, "ordinal": float(n), "games": n}
        )
        return games

    return make


def test_the_first_page_lists_the_newest_fifty_games_and_links_to_older_ones(
    client, games_of_alice
):
    games = games_of_alice(PAGE_SIZE + 5)

    page = client.get("/u/alice/").content.decode()

    newest_first = [g.code for g in reversed(games)]
    assert game_codes(page) == newest_first[:PAGE_SIZE]
    assert '<a rel="next" href="/u/alice/?page=2#games">' in page
    assert 'rel="prev"' not in page
    assert "Page 1 of 2, the newest games first." in page


def test_the_last_page_lists_the_oldest_games_and_links_back_to_newer_ones(client, games_of_alice):
    games = games_of_alice(PAGE_SIZE + 5)

    page = client.get("/u/alice/?page=2").content.decode()

    assert game_codes(page) == [g.code for g in reversed(games[:5])]
    assert '<a rel="prev" href="/u/alice/#games">' in page
    assert 'rel="next"' not in page
    assert "Page 2 of 2, the newest games first." in page


def test_a_history_of_one_page_shows_no_page_links(client, games_of_alice):
    games_of_alice(3)

    page = client.get("/u/alice/").content.decode()

    assert len(game_codes(page)) == 3
    assert "Pages of games" not in page and "Page 1 of" not in page


def test_the_figures_count_every_game_not_only_the_page_shown(client, games_of_alice):
    games_of_alice(PAGE_SIZE + 5)

    history = selectors.user_history("alice", page=2)

    assert history is not None
    assert (history.games_played, history.best) == (PAGE_SIZE + 5, PAGE_SIZE + 5)
    assert history.average == pytest.approx((PAGE_SIZE + 6) / 2)
    page = client.get("/u/alice/?page=2").content.decode()
    assert re.search(r"<dt>Games played</dt><dd>55</dd>", page)


@pytest.mark.parametrize("value", ["abc", "0", "-1", "1.5", "", "²", "9" * 40])
def test_a_page_that_is_not_a_page_number_is_a_bad_request_that_says_so(
    client, games_of_alice, value
):
    games_of_alice(2)

    response = client.get("/u/alice/", {"page": value})

    assert response.status_code == 400
    page = response.content.decode()
    assert "That is not a page of games: pages are numbered 1, 2, 3 and on." in page
    assert '<a href="/u/alice/">See the first page</a>' in page


def test_a_page_past_the_last_one_is_not_found_and_says_how_many_there_are(client, games_of_alice):
    games_of_alice(PAGE_SIZE + 1)

    response = client.get("/u/alice/?page=3")

    assert response.status_code == 404
    assert "There is no page 3: alice’s games fill 2 pages." in response.content.decode()


def test_the_first_page_of_a_player_without_games_is_there(client, alice):
    response = client.get("/u/alice/?page=1")

    assert response.status_code == 200
    assert "No finished games yet." in response.content.decode()
    assert client.get("/u/alice/?page=2").status_code == 404


def test_the_page_makes_as_many_queries_for_a_long_history_as_for_a_short_one(
    alice_client, games_of_alice, bob, finished_game
):
    games_of_alice(3)
    with CaptureQueriesContext(connection) as short:
        assert alice_client.get("/u/alice/").status_code == 200
    # Past a page and past a chart's points: every chart drawn from runs of games.
    games_of_alice(2 * CHART_POINTS + 10)
    with CaptureQueriesContext(connection) as long:
        assert alice_client.get("/u/alice/").status_code == 200

    assert len(long.captured_queries) == len(short.captured_queries)


def test_a_long_history_charts_the_mean_of_each_run_of_games(client, games_of_alice):
    games_of_alice(2 * CHART_POINTS + 1)  # three games a point, the last point two

    history = selectors.user_history("alice")

    assert history is not None and history.chart is not None
    scores = [value for _, _, value in history.chart["points"]]
    assert len(scores) == -(-(2 * CHART_POINTS + 1) // 3) <= CHART_POINTS
    assert scores[:2] == [2.0, 5.0]  # (1 + 2 + 3) / 3, (4 + 5 + 6) / 3
    assert scores[-1] == 2 * CHART_POINTS + 0.5  # the two newest games
    # The rating after the last game of each run, so the chart ends at the rating now.
    assert history.rating_chart is not None
    ratings = [value for _, _, value in history.rating_chart["points"]]
    assert ratings[:2] == [3.0, 6.0] and ratings[-1] == 2 * CHART_POINTS + 1
    assert history.loss_chart is not None
    losses = [value for _, _, value in history.loss_chart["points"]]
    assert losses[:2] == pytest.approx([0.02, 0.05])
    page = client.get("/u/alice/").content.decode()
    assert "Mean score of each 3 finished games in a row, oldest to newest." in page
    assert "The conservative rating after every 3 rated games, and after the last one." in page


def test_a_short_history_charts_each_game(client, games_of_alice):
    games_of_alice(3)

    history = selectors.user_history("alice")

    assert history is not None and history.chart is not None
    assert [value for _, _, value in history.chart["points"]] == [1, 2, 3]
    assert (
        "Score of each finished game, oldest to newest." in client.get("/u/alice/").content.decode()
    )


def test_a_finished_game_keeps_each_seats_upper_bonus_for_the_bonus_rate(
    make_game, ann, ben, play_out
):
    # Alice fills ones to sixes with five of a kind each (105 points); Bob with 1-2-3-4-5.
    def faces(seat: int, turn: int) -> str:
        return str(min(turn // 2 + 1, 6)) * 5 if seat == 0 else "12345"

    game = play_out(make_game(ann, ben, start=True), [ann, ben], faces)

    bonuses = dict(Seat.objects.filter(game=game).values_list("name", "upper_bonus"))
    assert bonuses == {"alice": 35, "bob": 0}
    assert selectors.user_history("alice").bonus_rate == 1.0
    assert selectors.user_history("bob").bonus_rate == 0.0


def review_of(losses: list[float], play_worth: float, luck: float) -> dict[str, object]:
    """One seat's stored review, in the shape the coach writes it (the parts read here)."""
    return {
        "decisions": [{"loss": loss} for loss in losses],
        "total_loss": sum(losses),
        "mean_loss": sum(losses) / len(losses) if losses else 0.0,
        "skill": {
            "expected_start": play_worth + sum(losses),
            "play_worth": play_worth,
            "final_total": round(play_worth + luck),
            "luck": luck,
        },
    }


def test_a_stored_review_keeps_its_figures_on_each_seat_for_the_history(alice, bob, finished_game):
    game = finished_game((alice, full_card(chance=20)), (bob, full_card(chance=10)))

    services.review_store(
        code=game.code,
        review={"seats": {"0": review_of([1.0, 0.5], 240.0, -5.0), "1": review_of([], 0, 0)}},
        mean_losses={0: 0.75},
    )

    figures = Seat.objects.filter(game=game).order_by("position")
    fields = ("review_decisions", "review_loss", "play_worth", "luck", "mean_loss")
    assert list(figures.values_list(*fields)) == [(2, 1.5, 240.0, -5.0, 0.75), (0, 0, 0, 0, None)]
    history = selectors.user_history("alice")
    assert (history.mean_loss, history.play_worth, history.luck) == (0.75, 240.0, -5.0)
    assert history.entries[0].skill is not None
    assert (history.entries[0].skill.play_worth, history.entries[0].skill.luck) == (240.0, -5.0)


def test_the_data_migration_fills_the_figures_of_games_ended_before_they_were_kept(
    alice, finished_game
):
    bonus_card = full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    game = finished_game((alice, bonus_card))
    Game.objects.filter(pk=game.pk).update(
        review={"seats": {"0": review_of([2.0, 0.0, 1.0], 230.5, 12.5)}}
    )
    Seat.objects.filter(game=game).update(upper_bonus=0)  # as every seat was before
    migration = importlib.import_module("games.migrations.0017_fill_seat_history_figures")

    migration.fill(apps, None)

    seat = Seat.objects.get(game=game)
    assert (seat.upper_bonus, seat.review_decisions, seat.review_loss) == (35, 3, 3.0)
    assert (seat.play_worth, seat.luck) == (230.5, 12.5)
