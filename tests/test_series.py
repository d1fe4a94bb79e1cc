"""Series on one score pad: a table opened as a series of 1-6 games (``series`` on the
create form); the rematch continues it with the same people; the series page shows each
game's totals per person and the running grand total; the series goes to the best grand
total; the history lists series."""

from __future__ import annotations

import re

import pytest

from games import selectors, services
from games.models import Game
from games.rules import Rules
from tests.conftest import version_of

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def series_of(host, *others, games: int) -> Game:
    game = services.game_create(
        player=host, seat_count=1 + len(others), rules=Rules(), series=games
    )
    for other in others:
        services.game_join(code=game.code, player=other, version=version_of(game))
    return game


def play(game: Game, players, faces_for, play_out) -> Game:
    services.game_start(code=game.code, player=players[0], version=version_of(game))
    return play_out(game, players, faces_for)


def sixes_for_seat(winner: int):
    return lambda seat, turn: "66666" if seat == winner else "12345"


def test_a_table_opens_as_a_series_from_the_create_form(alice_client):
    response = alice_client.post("/games/new/", {"seats": 2, "series": 3})
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.series_length, game.series_game) == (3, 1)
    assert "Game 1 of a series of 3." in text(alice_client.get(f"/g/{game.code}/"))


@pytest.mark.parametrize("series", ["0", "7", "two"])
def test_a_series_of_other_than_1_to_6_games_is_refused(alice_client, series):
    response = alice_client.post("/games/new/", {"seats": 2, "series": series})
    assert response.status_code == 400
    assert "A series has 1 to 6 games." in text(response)
    assert not Game.objects.exists()


def test_the_service_refuses_a_series_too_long(ann):
    with pytest.raises(services.GameError, match="1 to 6"):
        services.game_create(player=ann, seat_count=2, series=7)


def test_the_rematch_continues_the_series_with_the_same_people_and_then_ends_it(ann, ben, play_out):
    first = series_of(ann, ben, games=2)
    play(first, [ann, ben], sixes_for_seat(0), play_out)
    second = services.game_rematch(code=first.code, player=ann)

    assert (second.series_game, second.series_length, second.series_first_id) == (2, 2, first.pk)
    assert [s.name for s in second.seats.order_by("position")] == ["alice", "bob"]
    play(second, [ann, ben], sixes_for_seat(1), play_out)
    after = services.game_rematch(code=second.code, player=ann)
    assert (after.series_game, after.series_first_id) == (1, None)  # a new series begins


def test_the_series_page_shows_each_games_totals_the_grand_total_and_the_winner(
    ann, ben, client, play_out
):
    first = play(series_of(ann, ben, games=3), [ann, ben], sixes_for_seat(0), play_out)
    second = services.game_rematch(code=first.code, player=ann)
    second = play(second, [ann, ben], sixes_for_seat(1), play_out)

    view = selectors.series_view(second)
    totals = {line.name: line.totals for line in view.lines}
    a1, b1 = totals["alice"][0], totals["bob"][0]
    a2, b2 = totals["alice"][1], totals["bob"][1]
    assert totals["alice"][2] is None and not view.is_over and view.played == 2
    assert [line.grand_total for line in view.lines] == [a1 + a2, b1 + b2]
    assert view.lines[0].running == (a1, a1 + a2, None)
    page = text(client.get(f"/g/{first.code}/series/"))
    assert "2 of 3 games played" in page
    assert f'{a1} <small class="running">({a1})</small>' in page

    third = services.game_rematch(code=second.code, player=ann)
    play(third, [ann, ben], sixes_for_seat(0), play_out)
    view = selectors.series_view(third)
    assert view.is_over
    assert view.winners == ["alice"]
    assert "alice won the series on the grand total." in text(
        client.get(f"/g/{third.code}/series/")
    )


def test_a_series_with_equal_grand_totals_is_shared(ann, ben, client, play_out):
    first = play(series_of(ann, ben, games=2), [ann, ben], sixes_for_seat(0), play_out)
    second = services.game_rematch(code=first.code, player=ann)
    play(second, [ann, ben], sixes_for_seat(1), play_out)

    view = selectors.series_view(first)
    assert view.winners == ["alice", "bob"]
    assert "alice, bob share the series on the grand total." in text(
        client.get(f"/g/{first.code}/series/")
    )


def test_a_single_game_has_no_series_page(make_game, ann, client):
    game = make_game(ann)
    assert client.get(f"/g/{game.code}/series/").status_code == 404
    assert client.get("/g/nosuchgame/series/").status_code == 404


def test_the_history_lists_series_as_well_as_games(ann, ben, alice, client, play_out):
    first = play(series_of(ann, ben, games=2), [ann, ben], sixes_for_seat(0), play_out)

    page = text(client.get(f"/u/{alice.username}/"))

    assert f'href="/g/{first.code}/series/"' in page
    assert "1 / 2" in page and "In progress" in page


def test_the_series_winner_is_marked_with_the_drawn_trophy_and_words_for_screen_readers(
    ann, ben, client, play_out
):
    first = play(series_of(ann, ben, games=2), [ann, ben], sixes_for_seat(0), play_out)
    second = services.game_rematch(code=first.code, player=ann)
    play(second, [ann, ben], sixes_for_seat(0), play_out)

    page = text(client.get(f"/g/{first.code}/series/"))

    winner = re.search(r'<tr class="won"><th scope="row">(.*?)</th>', page)
    assert winner and winner.group(1).startswith("alice")
    assert '<svg class="icon trophy"' in winner.group(1)
    assert '<span class="visually-hidden">(won)</span>' in winner.group(1)
    assert "\U0001f3c6" not in page
