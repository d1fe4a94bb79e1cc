"""Fair-play review (issue 27, docs/fair-play.md): each rated game's review keeps per person
the real choices and how many matched the coach's best; an account whose last 10 rated
games agree with the coach at 98 % or more is flagged and leaves the leaderboard until a
moderator clears it (back on, not flagged again for those games) or confirms it (off for
good, and its history says so). No rating changes by a flag.

The two script-played runs: one account always plays the coach's choice and ends flagged;
playing like the Casual computer player, it does not."""

from __future__ import annotations

import random

import pytest

from games import engine, jobs, selectors, services
from games.models import FairPlayReview, Game, Rating, Seat
from games.rules import Category
from games.services.fair_play import fair_play_check, fair_play_decide
from games.strategy.bots import choose_action
from games.strategy.fairness import FLAG_AGREEMENT, WINDOW, Agreement, is_suspicious
from games.strategy.fairness_runs import game_figures, slipping
from games.strategy.review import LoggedMove, review_game
from tests.conftest import rolloff_won_by, version_of
from tests.views.helpers import text

pytestmark = pytest.mark.django_db


# -- the figures and the rule ------------------------------------------------------------------


def test_the_review_counts_real_choices_and_agreements(coach_advisor):
    moves = [
        LoggedMove("roll", 0, dice="55552", held="00000"),
        LoggedMove("roll", 0, dice="55555", held="11110"),  # kept the fives: the best
        LoggedMove("score", 0, dice="55555", category="chance"),  # a Yahtzee thrown away
    ]
    review = review_game(coach_advisor, coach_advisor.rules, 1, moves)[0]

    assert [d.real for d in review.decisions] == [True, True]
    assert (review.real_choices, review.agreed) == (2, 1)
    assert review.to_dict()["real_choices"] == 2 and review.to_dict()["agreed"] == 1


def test_a_decision_with_one_option_left_is_no_real_choice(coach_advisor):
    moves = []
    for box in Category:  # thirteen turns of three rolls: the last box is forced
        moves += [LoggedMove("roll", 0, dice="12346", held="00000") for _ in range(3)]
        moves.append(LoggedMove("score", 0, dice="12346", category=box.value))
    review = review_game(coach_advisor, coach_advisor.rules, 1, moves)[0]

    assert review.decisions[-1].real is False
    assert review.real_choices == sum(1 for d in review.decisions if d.real)
    assert review.real_choices < len(review.decisions)


def test_the_rule_wants_a_full_window_of_enough_choices_at_the_threshold():
    assert is_suspicious(Agreement(WINDOW, 360, 360))
    assert is_suspicious(Agreement(WINDOW, 300, round(300 * FLAG_AGREEMENT)))
    assert not is_suspicious(Agreement(WINDOW, 300, 290))  # 96.7 %
    assert not is_suspicious(Agreement(WINDOW - 1, 330, 330))  # too few games yet
    assert not is_suspicious(Agreement(WINDOW, 100, 100))  # too few real choices


def test_measured_runs_the_coach_always_flagged_casual_never(coach_advisor):
    """The measurement of docs/fair-play.md, small: 12 games a policy, runs of 10."""
    for policy, flagged in (("optimal", True), ("casual", False), ("slip10", False)):
        rng = random.Random(27)
        figures = [game_figures(coach_advisor, rng, policy) for _ in range(12)]
        for start in range(len(figures) - WINDOW + 1):
            window = figures[start : start + WINDOW]
            agreement = Agreement(WINDOW, sum(c for c, _ in window), sum(a for _, a in window))
            assert is_suspicious(agreement) is flagged, (policy, agreement.share)
    assert callable(slipping(10))


# -- script-played rated games -----------------------------------------------------------------


def play_rated_game(advisor, ann, ben, policies: tuple[str, str], rng: random.Random) -> Game:
    """A rated game of Ann and Ben played through the services, each seat by a policy;
    then the review, as the processes' sweep writes it."""
    game = services.game_create(player=ann, seat_count=2)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    services.game_start(
        code=game.code, player=ann, version=version_of(game), rng=rolloff_won_by(0, 2)
    )
    people = (ann, ben)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            jobs.sweep()
            game.refresh_from_db()
            return game
        state = game.engine_state(list(game.seats.order_by("position")))
        seat = state.current_seat
        action = choose_action(advisor, state, seat, rng, policies[seat])
        who, version = people[seat], game.version
        if isinstance(action, engine.Roll):
            services.turn_roll(code=game.code, player=who, version=version, rng=rng)
        elif isinstance(action, engine.Keep):
            services.turn_keep(code=game.code, player=who, version=version, held=action.held)
        else:
            services.turn_score(
                code=game.code, player=who, version=version, category=action.category
            )


@pytest.fixture
def rated_run(coach_advisor, ann, ben):
    """``rated_run(policy_of_ann)``: 10 rated games, Ben always playing like Casual."""

    def run(policy: str) -> list[Game]:
        rng = random.Random(2027)
        return [
            play_rated_game(coach_advisor, ann, ben, (policy, "casual"), rng) for _ in range(WINDOW)
        ]

    return run


def on_leaderboard() -> list[str]:
    return [row.username for row in selectors.leaderboard()]


def test_a_run_played_as_the_coach_plays_ends_flagged_and_off_the_leaderboard(
    rated_run, alice, bob, client
):
    games = rated_run("optimal")

    assert all(g.review is not None for g in Game.objects.filter(pk__in=[g.pk for g in games]))
    flag = FairPlayReview.objects.get()
    assert flag.user == alice and flag.status == FairPlayReview.Status.FLAGGED
    assert flag.agreed == flag.choices > 300
    assert set(flag.games.all()) == set(games)
    assert on_leaderboard() == ["bob"]
    page = text(client.get(f"/u/{alice.username}/"))
    assert "Off the leaderboard while a moderator looks" in page


def test_a_run_played_like_the_casual_computer_player_is_not_flagged(rated_run, alice, bob):
    rated_run("casual")

    assert not FairPlayReview.objects.exists()
    seats = Seat.objects.filter(user=alice, real_choices__isnull=False)
    assert seats.count() == WINDOW
    agreed = sum(s.coach_agreed for s in seats) / sum(s.real_choices for s in seats)
    assert 0.7 < agreed < FLAG_AGREEMENT
    assert sorted(on_leaderboard()) == ["alice", "bob"]


def test_casual_games_keep_no_fair_play_figures(coach_advisor, ann, ben):
    game = services.game_create(player=ann, seat_count=2, rated=False)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    Game.objects.filter(pk=game.pk).update(rated=False)
    rng = random.Random(5)
    services.game_start(
        code=game.code, player=ann, version=version_of(game), rng=rolloff_won_by(0, 2)
    )
    while (game := Game.objects.get(pk=game.pk)).status == Game.Status.PLAYING:
        state = game.engine_state(list(game.seats.order_by("position")))
        who = (ann, ben)[state.current_seat]
        action = choose_action(coach_advisor, state, state.current_seat, rng, "optimal")
        if isinstance(action, engine.Roll):
            services.turn_roll(code=game.code, player=who, version=game.version, rng=rng)
        elif isinstance(action, engine.Keep):
            services.turn_keep(code=game.code, player=who, version=game.version, held=action.held)
        else:
            services.turn_score(
                code=game.code, player=who, version=game.version, category=action.category
            )

    jobs.sweep()
    game.refresh_from_db()
    assert game.review is not None
    assert not Seat.objects.filter(real_choices__isnull=False).exists()


# -- a moderator's decision --------------------------------------------------------------------


@pytest.fixture
def flagged(rated_run, alice):
    rated_run("optimal")
    return FairPlayReview.objects.get(user=alice)


def test_clearing_puts_the_account_back_and_those_games_never_flag_it_again(flagged, alice, bob):
    rating = Rating.objects.get(user=alice).ordinal
    services_decide(flagged, confirm=False)

    assert sorted(on_leaderboard()) == ["alice", "bob"]
    assert fair_play_check(user_id=alice.pk) is None  # the same games: no new flag
    assert FairPlayReview.objects.count() == 1
    assert Rating.objects.get(user=alice).ordinal == rating  # no rating moved by a flag


def test_confirming_keeps_the_account_off_for_good_and_its_history_says_so(flagged, alice, client):
    rating = Rating.objects.get(user=alice).ordinal
    services_decide(flagged, confirm=True)

    assert on_leaderboard() == ["bob"]
    page = text(client.get(f"/u/{alice.username}/"))
    assert "off the leaderboard for good" in page
    assert Rating.objects.get(user=alice).ordinal == rating


def services_decide(review: FairPlayReview, confirm: bool) -> None:
    fair_play_decide(review_id=review.pk, moderator_id=None, confirm=confirm)


def test_the_admin_lists_flags_with_figures_and_game_links_and_decides(flagged, make_user, client):
    moderator = make_user("moderator")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)

    listing = text(client.get("/admin/games/fairplayreview/"))
    assert "alice" in listing and "100.0%" in listing
    code = flagged.games.first().code
    assert f'href="/g/{code}/"' in listing

    response = client.post(
        "/admin/games/fairplayreview/",
        {"action": "confirm", "_selected_action": [flagged.pk]},
    )
    assert response.status_code == 302
    flagged.refresh_from_db()
    assert flagged.status == FairPlayReview.Status.CONFIRMED
    assert flagged.decided_by == moderator


def test_the_account_finds_its_flag_and_the_decision_in_its_data_but_not_the_moderator(
    flagged, alice, make_user, make_client
):
    moderator = make_user("moderator")
    fair_play_decide(review_id=flagged.pk, moderator_id=moderator.pk, confirm=False)
    flagged.refresh_from_db()

    response = make_client(alice).get("/accounts/data.json")

    [review] = response.json()["fair_play"]
    assert review == {
        "status": "cleared",
        "flagged_at": flagged.flagged_at.isoformat(),
        "games": [g.code for g in flagged.games.order_by("finished_at", "pk")],
        "real_choices": flagged.choices,
        "agreed_with_the_coach": flagged.agreed,
        "decided_at": flagged.decided_at.isoformat(),
    }
    assert len(review["games"]) == WINDOW
    assert "moderator" not in response.content.decode()
