"""Rule sets above the core (issue 31): a rating is kept per rule set, and a game moves only
the ratings of its own rule set; the leaderboard and the history read one rule set's."""

from __future__ import annotations

import pytest

from games import selectors
from games.models import Game, Rating, Ruleset, Seat
from games.services.ratings import game_rate

pytestmark = pytest.mark.django_db


def finished(ruleset: str, *placed: tuple[object, int], total: int = 100) -> Game:
    """A finished rated game of ``ruleset`` with accounts at their places."""
    game = Game.objects.create(
        ruleset=ruleset, seat_count=len(placed), status=Game.Status.FINISHED, rated=True
    )
    for position, (user, place) in enumerate(placed):
        Seat.objects.create(
            game=game,
            position=position,
            user=user,
            name=user.get_username(),
            place=place,
            total=total - 10 * place,
        )
    game_rate(game, list(game.seats.order_by("position")))
    return game


def test_a_yatzy_game_moves_the_yatzy_ratings_and_leaves_yahtzee_alone(alice, bob):
    finished("yatzy", (alice, 1), (bob, 2))

    assert set(Rating.objects.values_list("user__username", "ruleset")) == {
        ("alice", "yatzy"),
        ("bob", "yatzy"),
    }
    assert selectors.user_rating(alice.pk) is None  # no Yahtzee rating yet
    assert selectors.user_rating(alice.pk, "yatzy").games == 1


def test_each_rule_set_keeps_its_own_rating_for_the_same_account(alice, bob):
    finished("yacht", (alice, 1), (bob, 2))
    yacht_before = Rating.objects.get(user=alice, ruleset="yacht").ordinal
    finished("yahtzee", (alice, 2), (bob, 1))

    yacht = Rating.objects.get(user=alice, ruleset="yacht")
    yahtzee = Rating.objects.get(user=alice, ruleset="yahtzee")
    assert yacht.ordinal == yacht_before and yacht.games == 1
    assert yahtzee.games == 1 and yahtzee.ordinal < yacht.ordinal  # lost that one
    assert selectors.user_rating(alice.pk, "yacht").change == pytest.approx(yacht.ordinal)


def test_a_game_is_yahtzee_unless_told_otherwise(alice):
    game = Game.objects.create(seat_count=1)
    assert game.ruleset == Ruleset.YAHTZEE == "yahtzee"


def test_the_leaderboard_of_a_rule_set_lists_only_its_ratings(make_user):
    yatzy_player, yahtzee_player = make_user("viking"), make_user("classic")
    Rating.objects.create(user=yatzy_player, ruleset="yatzy", mu=30, sigma=1, ordinal=27, games=6)
    Rating.objects.create(user=yahtzee_player, mu=28, sigma=1, ordinal=25, games=6)

    assert [r.username for r in selectors.leaderboard(ruleset="yatzy")] == ["viking"]
    assert [r.username for r in selectors.leaderboard()] == ["classic"]
    assert selectors.leaderboard(ruleset="yacht") == []


def test_the_history_has_figures_for_each_rule_set_played(alice, bob):
    finished("yatzy", (alice, 1), (bob, 2), total=200)
    finished("yatzy", (alice, 2), (bob, 1), total=200)
    finished("yacht", (alice, 1), (bob, 2), total=150)

    history = selectors.user_history("alice")
    figures = {f.ruleset: f for f in history.rulesets}

    assert list(figures) == ["yatzy", "yacht"]  # in the order of the rule sets
    assert (figures["yatzy"].games_played, figures["yatzy"].wins) == (2, 1)
    assert figures["yatzy"].average == pytest.approx(185.0)
    assert (figures["yacht"].best, figures["yacht"].rated_games) == (140, 1)
    assert figures["yatzy"].rating == Rating.objects.get(user=alice, ruleset="yatzy").ordinal
    assert history.rating is None  # the page shows Yahtzee's unless asked
    chosen = selectors.user_history("alice", ruleset="yatzy")
    assert chosen.rating.games == 2 and len(chosen.rating_chart["points"]) == 2


def test_a_query_names_a_rule_set_or_none():
    assert Ruleset.from_query(None) == Ruleset.from_query("") == Ruleset.YAHTZEE
    assert Ruleset.from_query("yacht") == Ruleset.YACHT
    assert Ruleset.from_query("poker") is None
