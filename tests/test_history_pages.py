"""The figures a history sums, kept on each seat as its game ends and as the coach's review
is stored (issue 33), so the history page need not read every scorecard and review."""

from __future__ import annotations

import importlib

from django.apps import apps

from games import selectors, services
from games.models import Game, Seat
from tests.conftest import full_card


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
