"""Ratings (openskill, Plackett-Luce): every finished game with two or more rated players
moves each account's rating exactly once; guests are not rated; a seat that left ranks
below everyone who stayed; computer players keep fixed public ratings; the leaderboard
lists accounts with at least five rated games by conservative rating."""

from __future__ import annotations

import re

import pytest
from openskill.models import PlackettLuce

from games import selectors, services
from games.models import BotLevel, Game, Rating, Seat
from games.rules import Category
from games.services import GameError
from games.services.ratings import rating_ranks
from tests.conftest import full_card, version_of

pytestmark = pytest.mark.django_db


def faces(seat: int, turn: int) -> str:
    """Seat 0 always rolls sixes, seat 1 ones, seat 2 a straight: three different totals."""
    return ["66666", "11111", "12345"][seat]


def rating_of(user) -> Rating:
    return Rating.objects.get(user=user)


def test_a_three_person_game_moves_each_rating_by_the_finishing_order(
    make_game, ann, ben, cat, alice, bob, carol, play_out
):
    game = play_out(make_game(ann, ben, cat, start=True), [ann, ben, cat], faces)
    places = {s.user_id: s.place for s in game.seats.all()}
    assert places == {alice.pk: 1, bob.pk: 2, carol.pk: 3}

    first, second, third = rating_of(alice), rating_of(bob), rating_of(carol)

    # The same update computed by openskill directly, from three new players.
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    assert first.mu == pytest.approx(expected[0][0].mu)
    assert third.sigma == pytest.approx(expected[2][0].sigma)
    assert first.ordinal > second.ordinal > third.ordinal
    assert (first.games, second.games, third.games) == (1, 1, 1)
    seats = {s.user_id: s for s in Seat.objects.filter(game=game)}
    assert seats[alice.pk].rating_after == pytest.approx(first.ordinal)


def test_a_repeated_finishing_move_does_not_rate_the_game_twice(
    make_game, ann, ben, alice, play_out
):
    game = play_out(make_game(ann, ben, start=True), [ann, ben], faces)
    before = rating_of(alice).mu

    with pytest.raises(GameError):
        services.turn_score(
            code=game.code, player=ben, version=version_of(game), category=Category.CHANCE
        )

    assert rating_of(alice).mu == before and rating_of(alice).games == 1


def test_guests_are_not_rated_and_a_game_of_one_account_and_guests_counts_for_nobody(
    make_game, ann, alice, play_out
):
    from tests.conftest import guest_player

    gus = guest_player()
    play_out(make_game(ann, gus, start=True), [ann, gus], faces)

    assert not Rating.objects.exists()
    assert not Seat.objects.filter(rating_after__isnull=False).exists()


def test_a_solo_game_is_not_rated(make_game, ann, play_out):
    play_out(make_game(ann, start=True), [ann], faces)
    assert not Rating.objects.exists()


def test_computer_players_keep_their_fixed_public_rating(
    alice, bob, ann, ben, loaded_dice, play_out
):
    # Two people and a computer player: one person alone against computers is never rated.
    game = services.game_create(player=ann, seat_count=3, coach_hints=False)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    services.game_add_bot(
        code=game.code, player=ann, version=version_of(game), level=BotLevel.BEGINNER
    )
    bot = game.seats.get(position=2)
    # Every turn is played here: the bot's seat is driven as a player would be.
    from games.models import Player

    as_bot = Player(bot.name, guest=bot.guest)
    loaded_dice.load("66666", "11111", "12345")
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game = play_out(game, [ann, ben, as_bot], faces)

    model = PlackettLuce()
    mu, sigma = BotLevel.BEGINNER.rating
    places = [seat.place for seat in game.seats.order_by("position")]
    expected = model.rate(
        [[model.rating()], [model.rating()], [model.rating(mu=mu, sigma=sigma)]], ranks=places
    )
    assert rating_of(alice).mu == pytest.approx(expected[0][0].mu)
    assert rating_of(bob).mu == pytest.approx(expected[1][0].mu)
    assert BotLevel.BEGINNER.rating == (mu, sigma)  # unchanged, and no rating row for it
    assert Rating.objects.count() == 2


@pytest.mark.parametrize(
    ("results", "ranks"),
    [
        ([(1, False), (2, False), (3, False)], [1, 2, 3]),
        ([(1, True), (2, False), (3, False)], [4, 2, 3]),  # the leader left: ranked last
        ([(1, False), (1, False), (3, True)], [1, 1, 4]),
        ([(2, True), (1, True)], [2, 1]),  # everyone left: by place
    ],
)
def test_a_seat_that_left_ranks_below_everyone_who_stayed(results, ranks):
    assert rating_ranks(results) == ranks


def test_a_leaver_is_rated_below_the_stayers(make_game, ann, ben, alice, bob, play_out):
    """Where seats record that one left, the model sees it ranked last."""
    from games.services import ratings

    game = play_out(make_game(ann, ben, start=True), [ann, ben], faces)
    Rating.objects.all().delete()
    seats = list(game.seats.order_by("position"))
    seats[0].status = "left"  # alice had the best total but left
    ratings.game_rate(game, seats)

    assert rating_of(bob).ordinal > rating_of(alice).ordinal


def make_rated(user, ordinal: float, games: int) -> Rating:
    return Rating.objects.create(user=user, mu=ordinal + 3, sigma=1, ordinal=ordinal, games=games)


def test_the_leaderboard_ranks_accounts_with_five_rated_games_by_rating(
    make_user, client, finished_game
):
    strong, middle, newcomer, weak = (make_user(n) for n in ("strong", "middle", "new", "weak"))
    make_rated(middle, 20.0, 7)
    make_rated(strong, 31.5, 5)
    make_rated(newcomer, 40.0, 4)  # too few rated games to be listed
    make_rated(weak, 2.0, 12)
    finished_game(
        (strong, full_card(chance=30)), (weak, full_card(chance=10)), (middle, full_card(chance=20))
    )
    finished_game((strong, full_card(chance=20)), (middle, full_card(chance=25)))

    rows = selectors.leaderboard()
    page = re.sub(r"\s+", " ", client.get("/leaderboard/").content.decode())

    assert [r.username for r in rows] == ["strong", "middle", "weak"]
    assert (rows[0].games, rows[0].wins, rows[0].mean_score) == (5, 1, 25.0)
    assert (rows[1].wins, rows[2].wins) == (1, 0)
    # The table, not the page: every page's language menu carries "csrfmiddlewaretoken".
    table = page[page.index('class="leaderboard"') :]
    assert table.index(">strong<") < table.index(">middle<") < table.index(">weak<")
    assert ">new<" not in page
    assert "31.5" in page
    assert "Coach (plays perfectly): 29.0" in page  # the computer players' fixed ratings


def test_the_history_page_shows_the_rating_and_its_trend(
    make_game, ann, ben, alice, alice_client, play_out
):
    for _ in range(2):
        play_out(make_game(ann, ben, start=True), [ann, ben], faces)
    rating = rating_of(alice)
    trail = list(
        Seat.objects.filter(user=alice).order_by("game_id").values_list("rating_after", flat=True)
    )

    page = re.sub(r"\s+", " ", alice_client.get("/u/alice/").content.decode())

    assert f"Conservative rating {rating.ordinal:.1f} after 2 rated games." in page
    assert f"Up {trail[1] - trail[0]:.1f} in the last game." in page
    assert "3 more rated games to appear on the leaderboard." in page
    assert 'aria-labelledby="rating-title"' in page
    assert not selectors.user_rating(alice.pk).on_leaderboard
    chart = selectors.user_history("alice").rating_chart
    assert [value for _, _, value in chart["points"]] == [max(round(v, 1), 0) for v in trail]


def test_after_one_rated_game_the_history_says_game_not_games(
    make_game, ann, ben, alice, alice_client, play_out
):
    play_out(make_game(ann, ben, start=True), [ann, ben], faces)
    rating = rating_of(alice)

    page = re.sub(r"\s+", " ", alice_client.get("/u/alice/").content.decode())

    assert f"Conservative rating {rating.ordinal:.1f} after 1 rated game." in page


def test_a_history_without_rated_games_shows_no_rating(alice, alice_client):
    assert "Conservative rating" not in alice_client.get("/u/alice/").content.decode()
    assert Game.objects.count() == 0
